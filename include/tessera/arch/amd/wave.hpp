// Which wave and lane a work-item is (the wave index as a value the compiler knows is
// wave-uniform):
//
//   wave_index()          the work-item's wave within the workgroup, in an SGPR
//   lane_index()          0..63 within the wave
//
// The synchronisation of one wave's lanes through LDS, amd::wave_barrier(), lives in
// arch/amd/sched.hpp with the other synchronisation primitives; this header includes it.
//
// Why wave_index goes through readfirstlane: thread_index() / 64 is the same in every
// lane, but the compiler cannot prove it, so a branch on it (the asymmetric sync of a
// ping-pong schedule) would become an exec-masked branch with the barrier inside, and
// LDS base addresses derived from it would sit in VGPRs. readfirstlane puts it in an
// SGPR: the branch is an s_cbranch_scc and the addresses stay scalar (M0 of a
// direct-to-LDS load must be uniform).
//
// Emulated (TESSERA_AMD_EMULATION, host build): both are computed from the work-item id
// hook (emulation_hooks.hpp), as the hardware deals work-items to waves: 64 consecutive
// work-items per wave. No hook of their own.
#pragma once

#include "tessera/arch/amd/emulation_hooks.hpp"
#include "tessera/arch/amd/sched.hpp"
#include "tessera/core/macros.hpp"

#if defined(TESSERA_AMD_TARGET)

namespace tessera {
namespace amd {

TESSERA_DEVICE TESSERA_FORCEINLINE unsigned wave_index() {
#if defined(TESSERA_AMD_DEVICE_PASS)
  return __builtin_amdgcn_readfirstlane(__builtin_amdgcn_workitem_id_x() / 64u);
#elif defined(TESSERA_AMD_EMULATION)
  return unsigned(emulation::workitem_id_x()) / 64u;
#else
  return 0;  // clang's HIP host pass: never executed
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE unsigned lane_index() {
#if defined(TESSERA_AMD_DEVICE_PASS)
  return __builtin_amdgcn_workitem_id_x() & 63u;
#elif defined(TESSERA_AMD_EMULATION)
  return unsigned(emulation::workitem_id_x()) & 63u;
#else
  return 0;
#endif
}

}  // namespace amd
}  // namespace tessera

#endif  // TESSERA_AMD_TARGET
