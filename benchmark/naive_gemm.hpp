// The naive baseline of tessera_bench: the textbook GEMM, one output per thread. It is
// also the full-matrix reference where there is no vendor BLAS (HIP without rocBLAS).
#pragma once

#include "bench_harness.hpp"

#include <cstdint>

#include "tessera/core/numeric.hpp"
#include "tessera/gemm/arguments.hpp"

namespace {

// Textbook kernel: one output per thread, 16x16 threads per block, the k loop in fp32.
template <class LA, class LB, class LC, class EA, class EB, class EC>
__global__ void naive_gemm_kernel(tessera::gemm::Arguments<EA, EB, EC> a) {
  const std::int64_t j = std::int64_t(gpu::block_x()) * 16 + gpu::thread_x();
  const std::int64_t i = std::int64_t(gpu::block_y()) * 16 + gpu::thread_y();
  if (i >= a.M || j >= a.N) return;
  float sum = 0.0f;
  for (std::int64_t k = 0; k < a.K; ++k) {
    sum += tessera::to_float(a.A[LA::offset(i, k, a.lda)]) * tessera::to_float(a.B[LB::offset(k, j, a.ldb)]);
  }
  float d = a.alpha * sum;
  if (a.beta != 0.0f) d += a.beta * tessera::to_float(a.C[LC::offset(i, j, a.ldc)]);
  a.D[LC::offset(i, j, a.ldd)] = tessera::from_float<EC>(d);
}

template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_naive(const tessera::gemm::Arguments<EA, EB, EC>& a) {
  const dim3 block(16, 16);
  const dim3 grid(unsigned((a.N + 15) / 16), unsigned((a.M + 15) / 16));
  naive_gemm_kernel<LA, LB, LC><<<grid, block, 0, g_dev.stream>>>(a);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

}  // namespace
