// The strided-batched part of tessera_bench's "many GEMMs" suite: bf16
// cublasGemmStridedBatchedEx on attention-like shapes. Tessera's batched GEMM goes in
// batched_impls() below, one line, once it exists.
//
// Layout as in the LLM suite, per batch entry: A row-major M x K, B = [N][K] (K-major),
// D row-major M x N, entries packed back to back (stride = one matrix). Shapes (batch x
// M x N x K): 1024 x 1024 x 128 (QK^T of a 1024-token sequence, head dimension 128) at
// batch 32 and 128, 4096 x 4096 x 128 at batch 32 (its D is 1 GiB of bf16 already),
// 128 x 4096 x 4096 at batch 32 and 128 (B 4 GiB at 128). The check compares the whole
// output with one cublasGemmEx per entry (on the host: a few seconds at most), and rows
// of the first, last and a random entry with float64. CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <cublas_v2.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "vendor_blas.hpp"

namespace {

struct BatchedSpec {
  std::int64_t batch = 0, M = 0, N = 0, K = 0;
  std::string label() const {
    return std::to_string(batch) + "x" + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  }
  double flops() const { return 2.0 * double(batch) * double(M) * double(N) * double(K); }
  std::string key() const { return "batched/" + label(); }
};

struct BatchedProblem : ProblemBase {
  using Spec = BatchedSpec;
  using T = tessera::bfloat16_t;
  BatchedSpec spec;
  DeviceBuffer<T> A, B, D;
  std::vector<T> ref_host;
  SampledRows sampled;  // rows of the batch seen as one (batch * M) x N matrix

  explicit BatchedProblem(const BatchedSpec& s) : spec(s) {}

  std::int64_t stride_a() const { return spec.M * spec.K; }
  std::int64_t stride_b() const { return spec.N * spec.K; }
  std::int64_t stride_d() const { return spec.M * spec.N; }

  Error build();

  Error check(const Impl<BatchedProblem>& impl, ImplSlot& slot) {
    BENCH_TRY(fill_poison(D));
    std::vector<T> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    return judge_output<tessera::RowMajor>(spec.batch * spec.M, spec.N, out, spec.N, ref_host,
                                           "cublasGemmEx per batch entry", sampled,
                                           tessera::test::tolerance<T, T>(spec.K));
  }
  double flops(const Impl<BatchedProblem>&) const { return spec.flops(); }
  double bytes(const Impl<BatchedProblem>&) const { return double(A.count + B.count + D.count) * sizeof(T); }
  void add_counters(benchmark::State&, const Impl<BatchedProblem>&, double) const {}
  std::string label(const Impl<BatchedProblem>&) const {
    return "batch " + std::to_string(spec.batch) + " of " + std::to_string(spec.M) + "x" + std::to_string(spec.N) +
           "x" + std::to_string(spec.K) + ", bf16";
  }
};

Error BatchedProblem::build() {
  const std::int64_t b = spec.batch, M = spec.M, N = spec.N, K = spec.K;
  BENCH_TRY(A.allocate(std::size_t(b * stride_a())));
  BENCH_TRY(B.allocate(std::size_t(b * stride_b())));
  BENCH_TRY(D.allocate(std::size_t(b * stride_d())));
  BENCH_TRY(fill_random(A, next_seed()));
  BENCH_TRY(fill_random(B, next_seed()));
  {
    DeviceBuffer<T> d_ref;
    BENCH_TRY(d_ref.allocate(D.count));
    BENCH_TRY(fill_poison(d_ref));
    for (std::int64_t e = 0; e < b; ++e) {
      const auto a = weights_layout_args(M, N, K, A.ptr + e * stride_a(), B.ptr + e * stride_b(),
                                         d_ref.ptr + e * stride_d());
      BENCH_TRY((run_blas<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(a)));
    }
    BENCH_TRY(d_ref.to_host(ref_host));
  }
  // float64: the first and last row of the first, the last and a random entry.
  std::mt19937_64 gen(next_seed());
  std::vector<std::int64_t> entries = {0, std::int64_t(gen() % std::uint64_t(b)), b - 1};
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  for (std::int64_t e : entries) {
    sampled.rows.push_back(e * M);
    if (M > 1) sampled.rows.push_back(e * M + M - 1);
  }
  sampled.values.assign(sampled.rows.size() * std::size_t(N), 0.0);
  std::vector<std::vector<T>> a_rows(sampled.rows.size()), b_entries(sampled.rows.size());
  for (std::size_t r = 0; r < sampled.rows.size(); ++r) {
    const std::int64_t entry = sampled.rows[r] / M;
    BENCH_TRY(A.to_host(a_rows[r], std::size_t(sampled.rows[r] * K), std::size_t(K)));
    BENCH_TRY(B.to_host(b_entries[r], std::size_t(entry * stride_b()), std::size_t(stride_b())));
  }
  parallel_for(sampled.rows.size(), [&](std::size_t r) {
    tessera::test::reference_gemm<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(
        1, N, K, a_rows[r].data(), K, b_entries[r].data(), K, static_cast<const T*>(nullptr), N,
        sampled.values.data() + r * std::size_t(N), N, 1.0, 0.0);
  });
  return {};
}

Error launch_cublas_strided(BatchedProblem& p, ImplSlot&) {
  const float alpha = 1.0f, beta = 0.0f;
  const BatchedSpec& s = p.spec;
  // The transposed problem: m = N, n = M; cuBLAS's A = B (T), its B = A (N).
  BENCH_BLAS(cublasGemmStridedBatchedEx(g_blas.tensor, CUBLAS_OP_T, CUBLAS_OP_N, int(s.N), int(s.M), int(s.K), &alpha,
                                        p.B.ptr, CUDA_R_16BF, int(s.K), p.stride_b(), p.A.ptr, CUDA_R_16BF, int(s.K),
                                        p.stride_a(), &beta, p.D.ptr, CUDA_R_16BF, int(s.N), p.stride_d(),
                                        int(s.batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  return {};
}

// The implementations of the batched problems. Tessera's batched GEMM: one line here.
std::vector<Impl<BatchedProblem>> batched_impls() {
  std::vector<Impl<BatchedProblem>> impls = {Impl<BatchedProblem>{"cublas_strided", 400.0, &launch_cublas_strided}};
  tessera_batched_variants(impls);  // tessera_variants.hpp
  return impls;
}

void register_batched_suite() {
  const std::vector<BatchedSpec> shapes = {
      {32, 1024, 1024, 128}, {128, 1024, 1024, 128}, {32, 4096, 4096, 128}, {32, 128, 4096, 4096}, {128, 128, 4096, 4096},
  };
  for (const BatchedSpec& s : shapes) {
    for (const auto& impl : batched_impls()) {
      register_benchmark<BatchedProblem>("batched", s.label(), impl, s, s.flops() / (impl.tflops_guess * 1e12));
    }
  }
}

}  // namespace

#endif  // TESSERA_CUDA
