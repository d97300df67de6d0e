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
#include <cstdint>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "tessera_variants.hpp"

namespace {

struct LlmShape {
  std::int64_t M, N, K;
};

std::vector<LlmShape> llm_shapes() {
  std::vector<LlmShape> s = {
      {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 8192, 1024},
  };
  for (std::int64_t nk : {4096, 8192})
    for (std::int64_t m : {1, 8, 16, 32, 64, 128}) s.push_back({m, nk, nk});
  for (const LlmShape& x : std::vector<LlmShape>{
           {4096, 14336, 4096}, {4096, 4096, 14336}, {2048, 6144, 4096},      // MLP up, down; QKV
           {256, 256, 65536},   {512, 512, 16384},   {1024, 1024, 32768},     // deep K
           {4097, 4095, 4103},  {1000, 1000, 1000},                            // odd
       }) {
    s.push_back(x);
  }
  return s;
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
