// The kernel parameters of the tensor-core families that load
// with TMA: Hopper's wgmma family (wgmma_gemm_kernel.hpp) and Blackwell's tcgen05 family
// (umma_gemm_kernel.hpp). The names are the Hopper family's, where they were first defined:
// kept, so that its kernels' symbols did not change when the Blackwell family began to
// share them.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"
#include "tessera/gemm/tma_packing.hpp"  // WgmmaPath

namespace tessera::gemm {

#if defined(TESSERA_CUDA)
template <class Config>
struct WgmmaParams {
  CUtensorMap map_a, map_b, map_d;  // kTma only
  const typename Config::ElementA* a;
  const typename Config::ElementB* b;
  const typename Config::ElementC* c;
  typename Config::ElementC* d;
  std::int64_t lda, ldb, ldc, ldd;
  std::int64_t span_a, span_b;  // elements from a / b to one past their last element
  std::int64_t M, N, K;
  float alpha, beta;
  PersistentTileWalk walk;
};
#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
