// The functions through which the arch/ wrappers reach the AMD wave emulator in an
// emulated host build (TESSERA_AMD_EMULATION, no HIP device pass). Kernels never call
// them: they call thread_index(), block_barrier(), amd::barrier(), amd::wait_vmcnt<N>()
// and so on, which compile to the builtins in the device pass and to these calls here.
// The emulator layer (emulator/, a test-support library) defines them; see
// docs/emulator.md for what each models. The buffer, MFMA, LDS and launch hooks are
// declared beside their wrappers (buffer.hpp, mfma.hpp, lds.hpp, runtime/launch.hpp).
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_AMD_DEVICE_PASS)
namespace tessera {
namespace amd {
namespace emulation {

int workitem_id_x();   // the calling lane's work-item id within its workgroup
int workgroup_id_x();  // the calling lane's workgroup id

// s_barrier: the wave waits until every wave of the workgroup that has not ended arrives.
void s_barrier();
// A release fence at workgroup scope (the first half of block_barrier()): what the
// compiler emits for it, i.e. waits for the wave's LDS writes and direct-to-LDS loads.
void workgroup_release_fence();
// s_waitcnt with its 16-bit gfx9 immediate (vmcnt, expcnt, lgkmcnt fields).
void s_waitcnt(std::uint16_t imm);
// Scheduling hints: recorded per wave, no effect on results.
void s_setprio(int priority);
void sched_barrier(std::uint32_t mask);
void sched_group_barrier(std::uint32_t mask, int count, int sync_id);
// The compiler-only wave barrier: a point where the wave's lanes are in step.
void wave_barrier();

}  // namespace emulation
}  // namespace amd
}  // namespace tessera
#endif
