// Thread/block indices and the block-wide barrier, spelled once for CUDA and HIP.
// HIP's threadIdx/blockIdx go through ockl, which Debian's device libraries lack for
// gfx942/gfx950 (we build with -nogpulib), so AMD code uses the builtins directly.
#pragma once

#include "tessera/core/macros.hpp"

#if defined(TESSERA_CUDA) || defined(TESSERA_HIP)

namespace tessera {

TESSERA_DEVICE TESSERA_FORCEINLINE int thread_index() {
#if defined(TESSERA_HIP)
  return int(__builtin_amdgcn_workitem_id_x());
#else
  return int(threadIdx.x);
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE int block_index() {
#if defined(TESSERA_HIP)
  return int(__builtin_amdgcn_workgroup_id_x());
#else
  return int(blockIdx.x);
#endif
}

// All threads of the block reach this point, and their shared-memory writes before it
// are visible to every thread after it.
TESSERA_DEVICE TESSERA_FORCEINLINE void block_barrier() {
#if defined(TESSERA_HIP)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#else
  __syncthreads();
#endif
}

}  // namespace tessera

#endif
