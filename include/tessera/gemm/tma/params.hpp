// The kernel parameters of the tensor-core families that load with TMA (Hopper wgmma,
// wgmma/kernel.hpp; Blackwell tcgen05, umma/kernel.hpp), built on the host by
// tma/launch.hpp.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/gemm/problem_set.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)
template <class Config>
struct TmaGemmParams {
  CUtensorMap map_a, map_b, map_d;  // the TMA path's loads and stores (map_d: kTma only)
  CUtensorMap map_c;                // C in D's store boxes, where the call stages C (c_staged)
  const typename Config::ElementA* a;
  const typename Config::ElementB* b;
  const typename Config::ElementC* c;  // read only when the epilogue reads C
  typename Config::ElementD* d;
  std::int64_t lda, ldb, ldc, ldd;
  std::int64_t span_a, span_b;  // elements from a / b to one past their last element
  std::int64_t M, N, K;
  bool c_staged;  // the epilogue reads C, loaded into its staging boxes with TMA (wgmma family)
  typename Config::Epilogue epilogue;
  typename Config::Scheduler scheduler;
  ProblemStrides strides;  // a batch's or group's entries (problem_set.hpp); 0 for one GEMM
};
#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
