// Thread/block indices and the block-wide barrier, spelled once for CUDA and HIP.
// HIP's threadIdx/blockIdx go through ockl, which Debian's device libraries lack for
// gfx942/gfx950 (we build with -nogpulib), so AMD code uses the builtins directly.
// In an emulated host build (TESSERA_AMD_EMULATION, neither CUDA nor HIP) they are the
// wave emulator's hooks.
#pragma once

#include "tessera/arch/amd/emulation_hooks.hpp"
#include "tessera/core/macros.hpp"

#if defined(TESSERA_CUDA) || defined(TESSERA_HIP) || defined(TESSERA_AMD_EMULATION)

namespace tessera {

TESSERA_DEVICE TESSERA_FORCEINLINE int thread_index() {
#if defined(TESSERA_HIP)
  return int(__builtin_amdgcn_workitem_id_x());
#elif defined(TESSERA_CUDA)
  return int(threadIdx.x);
#else
  return amd::emulation::workitem_id_x();
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE int block_index() {
#if defined(TESSERA_HIP)
  return int(__builtin_amdgcn_workgroup_id_x());
#elif defined(TESSERA_CUDA)
  return int(blockIdx.x);
#else
  return amd::emulation::workgroup_id_x();
#endif
}

// All threads of the block reach this point, and their shared-memory writes before it
// are visible to every thread after it.
TESSERA_DEVICE TESSERA_FORCEINLINE void block_barrier() {
#if defined(TESSERA_HIP)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#elif defined(TESSERA_CUDA)
  __syncthreads();
#else
  // The acquire half needs nothing in the emulator: LDS reads see what has landed.
  amd::emulation::workgroup_release_fence();
  amd::emulation::s_barrier();
#endif
}

}  // namespace tessera

#endif
