// The fused-epilogue part of tessera_bench's "many GEMMs" suite: cuBLASLt's bias + GELU
// epilogue (CUBLASLT_EPILOGUE_GELU_BIAS) beside the plain GEMM it replaces, bf16, at
// 4096^3 and the MLP's up projection 4096 x 14336 x 4096. Tessera's fused epilogue goes
// in epilogue_impls() below, one line, once it exists.
//
//   epilogue_gelu_bias/cublaslt/...        D = GELU(alpha A B + bias), bias one per column
//                                          of D (a Linear layer's output feature)
//   epilogue_gelu_bias/plain_cublaslt/...  D = alpha A B (same call, no epilogue)
//   epilogue_gelu_bias/plain_cublas/...    D = alpha A B (cublasGemmEx)
// Layout as in the LLM suite. alpha = 3 / sqrt(K) makes the pre-activations about unit
// normal (A and B uniform in [-1, 1)), where GELU is far from both the identity and ReLU,
// and bias is uniform in [-1, 1): a missing bias or activation fails the check. GELU is
// taken in its tanh form; the erf form differs from it by less than 5e-4, which the bf16
// tolerance does not resolve: the check does not say which form cuBLASLt uses. CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <cublasLt.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "vendor_blas.hpp"
#include "vendor_blas_lt.hpp"

namespace {

double gelu_tanh(double x) {
  constexpr double kSqrt2OverPi = 0.7978845608028654;
  return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x)));
}

struct EpilogueSpec {
  std::int64_t M = 0, N = 0, K = 0;
  std::string shape() const { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
  std::string key() const { return "epilogue_gelu_bias/" + shape(); }
};

struct EpilogueProblem : ProblemBase {
  using Spec = EpilogueSpec;
  using T = tessera::bfloat16_t;
  using EA = T;
  using EB = T;
  using EC = T;
  using LA = tessera::RowMajor;
  using LB = tessera::ColumnMajor;
  using LC = tessera::RowMajor;
  EpilogueSpec spec;
  float alpha = 1.0f;
  DeviceBuffer<T> A, B, D, bias;
  std::vector<float> plain_ref, fused_ref;  // alpha A B in fp32 (cuBLAS), GELU(that + bias)
  SampledRows plain_rows, fused_rows;       // float64

  explicit EpilogueProblem(const EpilogueSpec& s) : spec(s), alpha(float(3.0 / std::sqrt(double(s.K)))) {}

  tessera::gemm::Arguments<T, T, T> args() const {
    return weights_layout_args(spec.M, spec.N, spec.K, A.ptr, B.ptr, D.ptr, alpha);
  }
  // The plain implementations compute alpha A B; the others the fused epilogue.
  static bool is_plain(const Impl<EpilogueProblem>& impl) { return impl.name.rfind("plain_", 0) == 0; }

  Error build();

  Error check(const Impl<EpilogueProblem>& impl, ImplSlot& slot) {
    BENCH_TRY(fill_poison(D));
    std::vector<T> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    const bool plain = is_plain(impl);
    return judge_output<tessera::RowMajor>(
        spec.M, spec.N, out, spec.N, plain ? plain_ref : fused_ref,
        plain ? "cublasGemmEx with an fp32 D" : "GELU(cublasGemmEx with an fp32 D + bias) on the host",
        plain ? plain_rows : fused_rows, tessera::test::tolerance<T, T>(spec.K));
  }
  double flops(const Impl<EpilogueProblem>&) const { return spec.flops(); }
  double bytes(const Impl<EpilogueProblem>& impl) const {
    return double(A.count + B.count + D.count + (is_plain(impl) ? 0 : bias.count)) * sizeof(T);
  }
  void add_counters(benchmark::State&, const Impl<EpilogueProblem>&, double) const {}
  std::string label(const Impl<EpilogueProblem>& impl) const {
    return is_plain(impl) ? "bf16, D = alpha A B" : "bf16, D = GELU(alpha A B + bias)";
  }
};

Error EpilogueProblem::build() {
  const std::int64_t M = spec.M, N = spec.N, K = spec.K;
  BENCH_TRY(A.allocate(std::size_t(M * K)));
  BENCH_TRY(B.allocate(std::size_t(N * K)));
  BENCH_TRY(D.allocate(std::size_t(M * N)));
  BENCH_TRY(bias.allocate(std::size_t(N)));
  BENCH_TRY(fill_random(A, next_seed()));
  BENCH_TRY(fill_random(B, next_seed()));
  BENCH_TRY(fill_random(bias, next_seed()));
  std::vector<T> bias_host;
  BENCH_TRY(bias.to_host(bias_host));

  // The references: alpha A B from cuBLAS with an fp32 D, and GELU of it plus the bias.
  {
    DeviceBuffer<float> pre;
    BENCH_TRY(pre.allocate(D.count));
    BENCH_TRY(fill_poison(pre));
    BENCH_TRY((run_blas<LA, LB, LC>(weights_layout_args(M, N, K, A.ptr, B.ptr, pre.ptr, alpha))));
    BENCH_TRY(pre.to_host(plain_ref));
  }
  fused_ref.resize(plain_ref.size());
  for (std::size_t i = 0; i < plain_ref.size(); ++i) {
    fused_ref[i] = float(gelu_tanh(double(plain_ref[i]) + double(float(bias_host[i % std::size_t(N)]))));
  }

  std::vector<T> a_host, b_host;
  BENCH_TRY(A.to_host(a_host));
  BENCH_TRY(B.to_host(b_host));
  plain_rows.rows = sample_rows(M, next_seed());
  plain_rows.values.assign(plain_rows.rows.size() * std::size_t(N), 0.0);
  parallel_for(plain_rows.rows.size(), [&](std::size_t r) {
    tessera::test::reference_gemm<LA, LB, tessera::RowMajor>(
        1, N, K, a_host.data() + plain_rows.rows[r] * K, K, b_host.data(), K, static_cast<const T*>(nullptr), N,
        plain_rows.values.data() + r * std::size_t(N), N, double(alpha), 0.0);
  });
  fused_rows = plain_rows;
  for (std::size_t i = 0; i < fused_rows.values.size(); ++i) {
    fused_rows.values[i] = gelu_tanh(fused_rows.values[i] + double(float(bias_host[i % std::size_t(N)])));
  }
  return {};
}

Error launch_gelu_bias_cublaslt(EpilogueProblem& p, ImplSlot& slot) {
  const EpilogueSpec& s = p.spec;
  LtMatmulSpec lt;  // the transposed problem, as for every row-major D
  lt.op_x = CUBLAS_OP_T;
  lt.op_y = CUBLAS_OP_N;
  lt.x = {CUDA_R_16BF, std::uint64_t(s.K), std::uint64_t(s.N), s.K};
  lt.y = {CUDA_R_16BF, std::uint64_t(s.K), std::uint64_t(s.M), s.K};
  lt.d = {CUDA_R_16BF, std::uint64_t(s.N), std::uint64_t(s.M), s.N};
  lt.epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
  lt.bias = p.bias.ptr;  // one per row of cuBLASLt's D = per column of ours
  return lt_run(slot, lt, p.B.ptr, p.A.ptr, p.D.ptr, p.alpha, 0.0f);
}

Error launch_plain_cublaslt(EpilogueProblem& p, ImplSlot& slot) {
  return run_blas_lt<EpilogueProblem::LA, EpilogueProblem::LB, EpilogueProblem::LC>(p.args(), slot);
}

Error launch_plain_cublas(EpilogueProblem& p, ImplSlot&) {
  return run_blas<EpilogueProblem::LA, EpilogueProblem::LB, EpilogueProblem::LC>(p.args());
}

// The implementations of the epilogue problems (plain_* compute alpha A B, the rest the
// fused epilogue). Tessera's fused bias + GELU: one line here.
std::vector<Impl<EpilogueProblem>> epilogue_impls() {
  std::vector<Impl<EpilogueProblem>> impls = {
      Impl<EpilogueProblem>{"cublaslt", 500.0, &launch_gelu_bias_cublaslt},
      Impl<EpilogueProblem>{"plain_cublaslt", 500.0, &launch_plain_cublaslt},
      Impl<EpilogueProblem>{"plain_cublas", 500.0, &launch_plain_cublas},
  };
  tessera_epilogue_variants(impls);  // tessera_variants.hpp
  return impls;
}

void register_epilogue_suite() {
  for (const EpilogueSpec& s : {EpilogueSpec{4096, 4096, 4096}, EpilogueSpec{4096, 14336, 4096}}) {
    for (const auto& impl : epilogue_impls()) {
      register_benchmark<EpilogueProblem>("epilogue_gelu_bias", s.shape(), impl, s,
                                          s.flops() / (impl.tflops_guess * 1e12));
    }
  }
}

}  // namespace

#endif  // TESSERA_CUDA
