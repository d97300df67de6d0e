// The reduction of GEMM + reduce-scatter: D_shard = sum of the ranks' fp32 partials of this
// rank's rows, added in rank order 0, 1, ..., P-1 (one fixed order, so every run gives the
// same bits, which NCCL's own reduce-scatter does not promise across algorithms and
// protocols), rounded once to D's type. nvcc only.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/runtime/cuda_status.hpp"

namespace tessera::tp {

// More ranks than this in one communicator are refused (kErrorCommunicatorSize): the partials'
// pointers travel in the kernel's parameters.
inline constexpr int kMaxRanks = 64;

template <class ElementD>
struct SumPartials {
  const float* part[kMaxRanks];  // part[q]: rank q's partial, rows x N, row stride N
  int ranks = 0;
  std::int64_t rows = 0, N = 0;
  ElementD* D = nullptr;  // rows x N row-major, row stride ldd
  std::int64_t ldd = 0;
};

template <class ElementD>
__global__ void sum_partials_kernel(SumPartials<ElementD> p) {
  const std::int64_t count = p.rows * p.N;
  for (std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += std::int64_t(gridDim.x) * blockDim.x) {
    float acc = p.part[0][e];
    for (int q = 1; q < p.ranks; ++q) acc += p.part[q][e];
    const std::int64_t i = e / p.N, j = e % p.N;
    p.D[i * p.ldd + j] = from_float<ElementD>(acc);
  }
}

template <class ElementD>
Status sum_partials(const SumPartials<ElementD>& p, cudaStream_t stream) {
  const std::int64_t count = p.rows * p.N;
  if (count <= 0) return Status::kSuccess;
  const int threads = 256;
  const std::int64_t blocks = (count + threads - 1) / threads;
  sum_partials_kernel<ElementD><<<unsigned(blocks < 4096 ? blocks : 4096), threads, 0, stream>>>(p);
  return status_from_cuda(cudaGetLastError());
}

}  // namespace tessera::tp
