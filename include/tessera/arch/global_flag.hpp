// Flags in global memory through which one block hands data it wrote to another block of the
// same grid (the stream-K fix-up: gemm/scheduler/fixup.hpp). A 64-bit flag holds a
// launch's token when the data is there, 0 when it has been taken.
//
//   writer: every thread that wrote     flag_release_fence(); then the block's (or group's)
//                                       barrier; then one thread per flag: flag_publish()
//   reader: one thread                  flag_wait(), then flag_clear() (it is the flag's only
//                                       reader); the barrier; then every reading thread:
//                                       flag_acquire_fence() before its loads
//
// CUDA: publish is a release store and wait an acquire load at GPU scope; the barrier between
// the writers' stores and the publishing thread, and between the waiting thread and the
// readers, carries the order to the other threads of the block (the PTX memory model's
// causality order through bar.sync), so the per-thread fences are empty there (CUTLASS's
// reduction barriers rely on the same). AMD: a release or acquire fence at agent scope per
// thread, because a wave's own vector stores are what a release waits for (s_waitcnt) and the
// vector L1 cache is the wave's CU's. In an emulated build (the AMD wave emulator runs
// workgroups one after another) a flag that is not set when waited for would never be: the
// emulator reports it and stops the workgroup.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_AMD_DEVICE_PASS) && !defined(TESSERA_HIP)
namespace tessera::amd::emulation {
// A lane waits for a flag that holds `actual`, not `expected`: reported (kMisuse), and the
// workgroup is stopped, as no later workgroup runs before it ends.
void unsatisfied_flag_wait(const void* flag, std::uint64_t expected, std::uint64_t actual);
}  // namespace tessera::amd::emulation
#endif

#if defined(TESSERA_CUDA) || defined(TESSERA_HIP) || defined(TESSERA_AMD_EMULATION)

namespace tessera {

TESSERA_DEVICE TESSERA_FORCEINLINE void flag_release_fence() {
#if defined(TESSERA_HIP)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE void flag_acquire_fence() {
#if defined(TESSERA_HIP)
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE void flag_publish(std::uint64_t* flag, std::uint64_t value) {
#if defined(TESSERA_HIP)
  __hip_atomic_store(flag, value, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
#elif defined(TESSERA_CUDA)
#if defined(__CUDA_ARCH__)
  asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(flag), "l"(value) : "memory");
#endif
#else
  *flag = value;
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE void flag_wait(const std::uint64_t* flag, std::uint64_t value) {
#if defined(TESSERA_HIP)
  while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) != value) __builtin_amdgcn_s_sleep(1);
#elif defined(TESSERA_CUDA)
#if defined(__CUDA_ARCH__)
  for (;;) {
    std::uint64_t seen;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(seen) : "l"(flag) : "memory");
    if (seen == value) break;
    __nanosleep(64);
  }
#endif
#else
  const std::uint64_t seen = *flag;
  if (seen != value) amd::emulation::unsatisfied_flag_wait(flag, value, seen);
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE void flag_clear(std::uint64_t* flag) {
#if defined(TESSERA_HIP)
  __hip_atomic_store(flag, std::uint64_t(0), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#elif defined(TESSERA_CUDA)
#if defined(__CUDA_ARCH__)
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(flag), "l"(std::uint64_t(0)) : "memory");
#endif
#else
  *flag = 0;
#endif
}

}  // namespace tessera

#endif
