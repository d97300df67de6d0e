// The grouped (mixture-of-experts) part of tessera_bench's "many GEMMs" suite: bf16
// cublasGemmGroupedBatchedEx over one GEMM per expert, beside one dense GEMM of the same
// total M (the comparison point: what the tensor cores do when the work is one matrix).
// Tessera's grouped GEMM goes in grouped_impls() below, one line, once it exists.
//
// Layout (the contiguous MoE layout): A holds every token's row sorted by expert
// (total_M x K, row-major), expert e owning rows [offset_e, offset_e + M_e); B is
// [experts][N][K] (each expert's W[N][K], K-major); D is total_M x N, row-major. cuBLAS
// computes the transposed problem per expert: m = N, n = M_e, k = K, its A = W_e (T), its
// B = the expert's rows of A (N). cuBLAS needs the sizes on the host; experts with no
// rows are left out of its call (a zero-row group has no work).
//
// Problems (N, K from DeepSeek-V3: hidden size K = 7168, expert intermediate size 2048,
// so N = 4096 is the fused gate+up projection and N = 2048 one of them):
//   8e_fixed   M = {128, 512, 64, 1024, 256, 384, 768, 960}, N = 4096 (the list)
//   8e_skew    8 experts, 4096 rows drawn from the skewed distribution below
//   64e_skew   64 experts, 8192 rows, N = 4096   \  a prefill micro-batch of 4096 tokens
//   128e_skew  128 experts, 16384 rows, N = 4096  > routed top-8 over 256 experts, as seen
//   256e_skew  256 experts, 32768 rows, N = 2048 /  by a GPU holding 64, 128 or 256 of them
// (mean 128 rows per expert; the 256-expert set uses N = 2048 to keep its weights at
// 7.5 GB rather than 15). Skewed sizes: weights exp(z), z standard normal (log-normal,
// sigma 1: a few hot experts with ~5-10x the mean, some with a handful of rows), drawn
// from std::mt19937_64 with a fixed seed per problem and rounded to whole rows by largest
// remainder; the sizes are recorded in the JSON context (grouped_sizes_<name>). CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "vendor_blas.hpp"

namespace {

using tessera::bfloat16_t;

// `experts` sizes adding up to `total`, log-normal (sigma 1), fixed seed (see above).
std::vector<std::int64_t> skewed_sizes(int experts, std::int64_t total, std::uint64_t seed) {
  constexpr double kTwoPi = 6.283185307179586;
  std::mt19937_64 gen(seed);
  auto uniform = [&] { return (double(gen() >> 11) + 0.5) * 0x1p-53; };  // (0, 1)
  std::vector<double> weight(static_cast<std::size_t>(experts));
  for (auto& w : weight) {  // Box-Muller, the two draws in a fixed order
    const double u1 = uniform(), u2 = uniform();
    w = std::exp(std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2));
  }
  const double sum = std::accumulate(weight.begin(), weight.end(), 0.0);
  std::vector<std::int64_t> sizes(weight.size());
  std::vector<std::pair<double, std::size_t>> remainder;
  std::int64_t assigned = 0;
  for (std::size_t e = 0; e < weight.size(); ++e) {
    const double exact = weight[e] / sum * double(total);
    sizes[e] = std::int64_t(std::floor(exact));
    assigned += sizes[e];
    remainder.push_back({exact - double(sizes[e]), e});
  }
  std::sort(remainder.begin(), remainder.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (std::size_t r = 0; assigned < total; ++r, ++assigned) ++sizes[remainder[r].second];
  return sizes;
}

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

struct GroupedSpec {
  std::string name;  // "8e_fixed", "64e_skew", ...
  std::vector<std::int64_t> sizes;
  std::int64_t N = 0, K = 0;
  std::int64_t total() const { return std::accumulate(sizes.begin(), sizes.end(), std::int64_t(0)); }
  std::string label() const {
    return name + "_" + std::to_string(total()) + "x" + std::to_string(N) + "x" + std::to_string(K);
  }
  double flops() const { return 2.0 * double(total()) * double(N) * double(K); }
  std::string key() const { return "grouped/" + label() + "/" + join(sizes); }
};

struct GroupedProblem : ProblemBase {
  using Spec = GroupedSpec;
  GroupedSpec spec;
  std::vector<std::int64_t> offsets;  // first row of each expert in A and D
  DeviceBuffer<std::int32_t> group_ends;  // one past each expert's last row (Tessera's grouped GEMM)
  DeviceBuffer<bfloat16_t> A, B, D;
  std::vector<bfloat16_t> ref_host;
  SampledRows sampled;
  // cublasGemmGroupedBatchedEx's arguments: one group of one GEMM per expert with rows;
  // the sizes and scalars on the host, the matrix pointers in device memory.
  std::vector<cublasOperation_t> op_x, op_y;
  std::vector<int> m, n, k, ldx, ldy, ldd, group_size;
  std::vector<float> alpha, beta;
  DeviceBuffer<const void*> x_ptrs, y_ptrs;
  DeviceBuffer<void*> d_ptrs;

  explicit GroupedProblem(const GroupedSpec& s) : spec(s) {}

  const bfloat16_t* expert_rows(std::int64_t e) const { return A.ptr + offsets[std::size_t(e)] * spec.K; }
  const bfloat16_t* expert_weights(std::int64_t e) const { return B.ptr + e * spec.N * spec.K; }

  // Expert e's GEMM as Arguments (A row-major, B = W_e K-major, D row-major) into `d`.
  tessera::gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> expert_args(std::int64_t e, bfloat16_t* d) const {
    return weights_layout_args(spec.sizes[std::size_t(e)], spec.N, spec.K, expert_rows(e), expert_weights(e),
                               d + offsets[std::size_t(e)] * spec.N);
  }

  Error build();

  Error check(const Impl<GroupedProblem>& impl, ImplSlot& slot) {
    BENCH_TRY(fill_poison(D));
    std::vector<bfloat16_t> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    return judge_output<tessera::RowMajor>(spec.total(), spec.N, out, spec.N, ref_host, "cublasGemmEx per expert",
                                           sampled, tessera::test::tolerance<bfloat16_t, bfloat16_t>(spec.K));
  }
  double flops(const Impl<GroupedProblem>&) const { return spec.flops(); }
  // The weights of every expert with rows, the rows of A and D once.
  double bytes(const Impl<GroupedProblem>&) const {
    const double experts_with_rows = double(group_size.size());
    return (double(A.count + D.count) + experts_with_rows * double(spec.N) * double(spec.K)) * sizeof(bfloat16_t);
  }
  void add_counters(benchmark::State&, const Impl<GroupedProblem>&, double) const {}
  std::string label(const Impl<GroupedProblem>&) const {
    return std::to_string(spec.sizes.size()) + " experts, rows " + join(spec.sizes);
  }
};

Error GroupedProblem::build() {
  const std::int64_t E = std::int64_t(spec.sizes.size()), N = spec.N, K = spec.K, total = spec.total();
  for (std::int64_t e = 0, off = 0; e < E; ++e) {
    if (spec.sizes[std::size_t(e)] < 0) return "a negative expert size";
    offsets.push_back(off);
    off += spec.sizes[std::size_t(e)];
  }
  {
    std::vector<std::int32_t> ends;
    for (std::int64_t e = 0; e < E; ++e) ends.push_back(std::int32_t(offsets[std::size_t(e)] + spec.sizes[std::size_t(e)]));
    BENCH_TRY(group_ends.allocate(ends.size()));
    BENCH_TRY(group_ends.from_host(ends));
  }
  BENCH_TRY(A.allocate(std::size_t(total * K)));
  BENCH_TRY(B.allocate(std::size_t(E * N * K)));
  BENCH_TRY(D.allocate(std::size_t(total * N)));
  BENCH_TRY(fill_random(A, next_seed()));
  BENCH_TRY(fill_random(B, next_seed()));

  // The full-matrix reference: one cublasGemmEx per expert (another cuBLAS entry point).
  {
    DeviceBuffer<bfloat16_t> d_ref;
    BENCH_TRY(d_ref.allocate(D.count));
    BENCH_TRY(fill_poison(d_ref));
    for (std::int64_t e = 0; e < E; ++e) {
      if (spec.sizes[std::size_t(e)] == 0) continue;
      BENCH_TRY((run_blas<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(expert_args(e, d_ref.ptr))));
    }
    BENCH_TRY(d_ref.to_host(ref_host));
  }

  // float64: the first and last row of the first and last experts with rows, the
  // largest and a random one, each with its own expert's weights.
  std::vector<std::int64_t> with_rows;
  for (std::int64_t e = 0; e < E; ++e)
    if (spec.sizes[std::size_t(e)] > 0) with_rows.push_back(e);
  if (with_rows.empty()) return "no expert has rows";
  std::mt19937_64 gen(next_seed());
  const std::int64_t largest = std::int64_t(std::max_element(spec.sizes.begin(), spec.sizes.end()) - spec.sizes.begin());
  std::vector<std::int64_t> experts = {with_rows.front(), with_rows.back(), largest,
                                       with_rows[std::size_t(gen() % with_rows.size())]};
  std::sort(experts.begin(), experts.end());
  experts.erase(std::unique(experts.begin(), experts.end()), experts.end());
  std::vector<std::int64_t> row_expert;
  for (std::int64_t e : experts) {
    for (std::int64_t r : {offsets[std::size_t(e)], offsets[std::size_t(e)] + spec.sizes[std::size_t(e)] - 1}) {
      if (sampled.rows.empty() || sampled.rows.back() != r) {
        sampled.rows.push_back(r);
        row_expert.push_back(e);
      }
    }
  }
  std::vector<std::vector<bfloat16_t>> a_rows(sampled.rows.size()), w(experts.size());
  for (std::size_t r = 0; r < sampled.rows.size(); ++r)
    BENCH_TRY(A.to_host(a_rows[r], std::size_t(sampled.rows[r] * K), std::size_t(K)));
  for (std::size_t x = 0; x < experts.size(); ++x)
    BENCH_TRY(B.to_host(w[x], std::size_t(experts[x] * N * K), std::size_t(N * K)));
  sampled.values.assign(sampled.rows.size() * std::size_t(N), 0.0);
  parallel_for(sampled.rows.size(), [&](std::size_t r) {
    const auto& weights = w[std::size_t(std::find(experts.begin(), experts.end(), row_expert[r]) - experts.begin())];
    tessera::test::reference_gemm<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(
        1, N, K, a_rows[r].data(), K, weights.data(), K, static_cast<const bfloat16_t*>(nullptr), N,
        sampled.values.data() + r * std::size_t(N), N, 1.0, 0.0);
  });

  // cuBLAS's grouped call, experts with rows only.
  std::vector<const void*> xs, ys;
  std::vector<void*> ds;
  for (std::int64_t e : with_rows) {
    const auto a = expert_args(e, D.ptr);
    op_x.push_back(CUBLAS_OP_T);
    op_y.push_back(CUBLAS_OP_N);
    m.push_back(int(N));
    n.push_back(int(a.M));
    k.push_back(int(K));
    ldx.push_back(int(K));
    ldy.push_back(int(K));
    ldd.push_back(int(N));
    group_size.push_back(1);
    alpha.push_back(1.0f);
    beta.push_back(0.0f);
    xs.push_back(a.B);
    ys.push_back(a.A);
    ds.push_back(a.D);
  }
  BENCH_TRY(x_ptrs.allocate(xs.size()));
  BENCH_TRY(y_ptrs.allocate(ys.size()));
  BENCH_TRY(d_ptrs.allocate(ds.size()));
  BENCH_TRY(x_ptrs.from_host(xs));
  BENCH_TRY(y_ptrs.from_host(ys));
  BENCH_TRY(d_ptrs.from_host(ds));
  return {};
}

Error launch_cublas_grouped(GroupedProblem& p, ImplSlot&) {
  BENCH_BLAS(cublasGemmGroupedBatchedEx(g_blas.tensor, p.op_x.data(), p.op_y.data(), p.m.data(), p.n.data(),
                                        p.k.data(), p.alpha.data(), p.x_ptrs.ptr, CUDA_R_16BF, p.ldx.data(),
                                        p.y_ptrs.ptr, CUDA_R_16BF, p.ldy.data(), p.beta.data(), p.d_ptrs.ptr,
                                        CUDA_R_16BF, p.ldd.data(), int(p.group_size.size()), p.group_size.data(),
                                        CUBLAS_COMPUTE_32F));
  return {};
}

// The implementations of the grouped problems. Tessera's grouped GEMMs (tessera_variants.hpp)
// run on p.A, p.B, p.D with the experts' end offsets in device memory (p.group_ends).
std::vector<Impl<GroupedProblem>> grouped_impls() {
  std::vector<Impl<GroupedProblem>> impls = {Impl<GroupedProblem>{"cublas_grouped", 350.0, &launch_cublas_grouped}};
  tessera_grouped_variants(impls);
  return impls;
}

std::vector<GroupedSpec> grouped_specs() {
  constexpr std::int64_t kHidden = 7168;
  return {
      {"8e_fixed", {128, 512, 64, 1024, 256, 384, 768, 960}, 4096, kHidden},
      {"8e_skew", skewed_sizes(8, 4096, 8), 4096, kHidden},
      {"64e_skew", skewed_sizes(64, 8192, 64), 4096, kHidden},
      {"128e_skew", skewed_sizes(128, 16384, 128), 4096, kHidden},
      {"256e_skew", skewed_sizes(256, 32768, 256), 2048, kHidden},
  };
}

// Each grouped problem, then the dense GEMM of its total M (grouped/dense_cublas/<same
// label>, dense_cublaslt): A row-major, one expert's W, D row-major.
void register_grouped_suite() {
  using Dense = GemmProblem<bfloat16_t, bfloat16_t, bfloat16_t, tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>;
  for (const GroupedSpec& g : grouped_specs()) {
    for (const auto& impl : grouped_impls()) {
      register_benchmark<GroupedProblem>("grouped", g.label(), impl, g, g.flops() / (impl.tflops_guess * 1e12));
    }
    GemmSpec dense{"grouped", g.label(), g.total(), g.N, g.K};
    for (const auto& impl : {blas_impl<Dense>("dense_cublas"), blas_lt_impl<Dense>("dense_cublaslt")}) {
      register_benchmark<Dense>("grouped", g.label(), impl, dense, dense.flops() / (impl.tflops_guess * 1e12));
    }
    if (g.name.find("skew") != std::string::npos) {
      benchmark::AddCustomContext("grouped_sizes_" + g.name, join(g.sizes));
    }
  }
  benchmark::AddCustomContext("grouped_suite", "bf16, A rows sorted by expert (row-major), B [experts][N][K], D "
                                               "row-major; skewed sizes: log-normal sigma 1, mt19937_64 seeded with "
                                               "the expert count, largest-remainder rounding");
}

}  // namespace

#endif  // TESSERA_CUDA
