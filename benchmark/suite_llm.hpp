// The "LLM shapes" suite of tessera_bench: the GEMMs a transformer runs, Tessera's
// variants (tessera_variants.hpp) beside cublasGemmEx and cuBLASLt in the same run.
//
// Layout: A row-major M x K (activations), B = W[N][K] (the weights, K-major: a
// column-major K x N B), D row-major; ld = the contiguous extent (4097 x 4095 x 4103 is
// deliberately unaligned). Groups (the benchmark name's first component):
//   llm_bf16, llm_fp16                 16-bit inputs, D in the same type
//   llm_bf16_f32out, llm_fp16_f32out   D in fp32
//   ..._beta1                          D = A B + D (beta 1, C == D: the residual read
//                                      from C, in place as BLAS computes it)
// Decode shapes (M <= 128) also time the floor: a plain streaming read of B's bytes
// (stream_floor.hpp), reported as <group>/floor/<shape>, and every decode benchmark
// carries weights_GB/s and floor_fraction (its weights' bandwidth / the floor's, the
// floor measured while the problem was set up). CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "llm_benchmark_shapes.hpp"
#include "tessera_variants.hpp"

namespace {

using LlmShape = tessera::test::GemmExtents;

// --shapes=MxNxK,... (g_opt.shapes): a user's list instead of the suite's; a malformed entry
// ends the program with a message (a benchmark run on the wrong shapes is worse than none).
std::vector<LlmShape> parse_llm_shapes(const std::string& list) {
  std::vector<LlmShape> s;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    long long m = 0, n = 0, k = 0;
    char tail = 0;
    if (std::sscanf(item.c_str(), "%lldx%lldx%lld%c", &m, &n, &k, &tail) != 3 || m <= 0 || n <= 0 || k <= 0) {
      std::fprintf(stderr, "tessera_bench: --shapes: '%s' is not MxNxK with positive extents\n", item.c_str());
      std::exit(2);
    }
    s.push_back({std::int64_t(m), std::int64_t(n), std::int64_t(k)});
    at = end + 1;
  }
  return s;
}

std::vector<LlmShape> llm_shapes() {
  if (!g_opt.shapes.empty()) return parse_llm_shapes(g_opt.shapes);
  return tessera::test::llm_benchmark_shapes();
}

constexpr std::int64_t kDecodeMaxM = 128;
constexpr double kFloorGuessBytesPerSecond = 3e12;

template <class EA, class EC>
void register_llm_group(const std::string& group, float beta) {
  using P = GemmProblem<EA, EA, EC, tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>;
  std::vector<Impl<P>> impls;
  tessera_gemm_variants(impls);
  impls.push_back(blas_impl<P>());
  impls.push_back(blas_lt_impl<P>());
  for (const LlmShape& x : llm_shapes()) {
    GemmSpec spec{group, "", x.M, x.N, x.K, 1.0f, beta, x.M <= kDecodeMaxM};
    spec.label = spec.shape();
    if (spec.floor) {
      const double weight_bytes = double(x.N) * double(x.K) * sizeof(EA);
      register_benchmark<P>(group, spec.label, floor_impl<P>(), spec, weight_bytes / kFloorGuessBytesPerSecond);
    }
    for (const Impl<P>& impl : impls) {
      register_benchmark<P>(group, spec.label, impl, spec, spec.flops() / (impl.tflops_guess * 1e12));
    }
  }
}

void register_llm_suite() {
  using tessera::bfloat16_t;
  using tessera::half_t;
  for (float beta : {0.0f, 1.0f}) {
    const std::string suffix = beta != 0.0f ? "_beta1" : "";
    register_llm_group<bfloat16_t, bfloat16_t>("llm_bf16" + suffix, beta);
    register_llm_group<half_t, half_t>("llm_fp16" + suffix, beta);
    register_llm_group<bfloat16_t, float>("llm_bf16_f32out" + suffix, beta);
    register_llm_group<half_t, float>("llm_fp16_f32out" + suffix, beta);
  }
  benchmark::AddCustomContext("llm_suite", "A row-major MxK, B = W[N][K] (K-major), D row-major, ld = contiguous "
                                           "extent; beta 1: D = A B + D in place; decode (M <= 128): floor = "
                                           "streaming read of B, 16-byte loads, every SM, L2 flushed");
}

}  // namespace

#endif  // TESSERA_CUDA
