// Scheduling and synchronisation primitives of CDNA3/CDNA4 (gfx942, gfx950): wave
// priority, the compiler's scheduling barriers, the workgroup barrier and s_waitcnt.
//
// These are what an AMD ping-pong schedule is made of (schedule/amd_pingpong.hpp):
// the dot cluster runs at raised priority so that the wave doing MFMAs wins issue
// slots over the wave doing memory, sched_barrier keeps the compiler from melting the
// clusters back together, and waits name exactly the loads a stage needs.
//
// The header is safe to include anywhere. The bodies touch AMD builtins only when
// clang compiles device code for an AMD GPU; in a host pass or under nvcc the hints
// compile to nothing, so vendor-neutral code may leave them in place. barrier() is
// the exception: a barrier must never vanish silently, so on NVIDIA it is
// __syncthreads(). The waitcnt encoding is plain constexpr and usable on the host
// (the unit tests check it there). In an emulated host build (TESSERA_AMD_EMULATION)
// every wrapper reaches the wave emulator, which records the hints per wave and models
// the barrier and the waits.
#pragma once
#include <cstdint>

#include "tessera/arch/amd/emulation_hooks.hpp"
#include "tessera/core/macros.hpp"

// Builtins are touched only under TESSERA_AMD_DEVICE_PASS (core/macros.hpp).

#if defined(TESSERA_AMD_DEVICE_PASS) && !defined(__GFX9__)
#error "tessera/arch/amd/sched.hpp encodes s_waitcnt for gfx9 (gfx942, gfx950) only"
#endif

namespace tessera {
namespace amd {

// ---- sched_barrier / sched_group_barrier masks ------------------------------------
// Bit values of LLVM's llvm.amdgcn.sched.barrier / sched.group.barrier operand
// (IntrinsicsAMDGPU.td and AMDGPUUsage). For sched_barrier a set bit means "this
// kind of instruction MAY cross"; for sched_group_barrier it selects which kind of
// instruction fills the group. Values combine with |, but do not mix kAluAll with the
// specific ALU bits: LLVM changed what that means (llvm-project PR 160782).
struct SchedMask {
  static constexpr std::uint32_t kNone = 0x000;       // nothing crosses / no kind
  static constexpr std::uint32_t kAluAll = 0x001;     // every non-memory, side-effect-free op
  static constexpr std::uint32_t kValu = 0x002;
  static constexpr std::uint32_t kSalu = 0x004;
  static constexpr std::uint32_t kMfma = 0x008;       // MFMA (WMMA on RDNA)
  static constexpr std::uint32_t kVmemAll = 0x010;
  static constexpr std::uint32_t kVmemRead = 0x020;
  static constexpr std::uint32_t kVmemWrite = 0x040;
  static constexpr std::uint32_t kDsAll = 0x080;      // LDS (DS_*) instructions
  static constexpr std::uint32_t kDsRead = 0x100;
  static constexpr std::uint32_t kDsWrite = 0x200;
  static constexpr std::uint32_t kTrans = 0x400;      // transcendental VALU (v_exp, ...)
  static constexpr std::uint32_t kAllKnown = 0x7ff;
};

// ---- wave priority ----------------------------------------------------------------
// s_setprio P: the wave's issue priority within its SIMD, 0 (default) to 3. A
// ping-pong schedule raises it around the dot cluster and drops it back to 0 after.
template <int P>
TESSERA_DEVICE TESSERA_FORCEINLINE void set_priority() {
  static_assert(P >= 0 && P <= 3, "s_setprio takes a wave priority from 0 to 3");
#if defined(TESSERA_AMD_DEVICE_PASS)
  __builtin_amdgcn_s_setprio(static_cast<short>(P));
#elif defined(TESSERA_AMD_EMULATION)
  emulation::s_setprio(P);
#endif
}

// ---- compiler scheduling barriers -------------------------------------------------
// sched_barrier<Mask>: the machine scheduler may move only the instruction kinds in
// Mask across this point (kNone: nothing moves). Emits no instruction, only an
// assembly comment "; sched_barrier mask(0x...)", which the ISA tests look for.
template <std::uint32_t Mask>
TESSERA_DEVICE TESSERA_FORCEINLINE void sched_barrier() {
  static_assert((Mask & ~SchedMask::kAllKnown) == 0,
                "sched_barrier mask has bits no LLVM release defines; use SchedMask values");
#if defined(TESSERA_AMD_DEVICE_PASS)
  __builtin_amdgcn_sched_barrier(static_cast<int>(Mask));
#elif defined(TESSERA_AMD_EMULATION)
  emulation::sched_barrier(Mask);
#endif
}

// sched_group_barrier<Mask, Count, SyncId>: asks the scheduler to place Count
// instructions of kind Mask here. Consecutive calls with the same SyncId form one
// pipeline that is filled in order, which is how "1 MFMA, then 3 SALU, repeat"
// interleaves are spelled. The requests are hints: the scheduler fills what the
// dependences allow.
template <std::uint32_t Mask, int Count, int SyncId = 0>
TESSERA_DEVICE TESSERA_FORCEINLINE void sched_group_barrier() {
  static_assert(Mask != SchedMask::kNone,
                "sched_group_barrier needs at least one instruction kind in its mask");
  static_assert((Mask & ~SchedMask::kAllKnown) == 0,
                "sched_group_barrier mask has bits no LLVM release defines; use SchedMask values");
  static_assert(Count > 0, "sched_group_barrier must ask for at least one instruction");
  static_assert(SyncId >= 0, "sched_group_barrier sync ids are non-negative");
#if defined(TESSERA_AMD_DEVICE_PASS)
  __builtin_amdgcn_sched_group_barrier(static_cast<int>(Mask), Count, SyncId);
#elif defined(TESSERA_AMD_EMULATION)
  emulation::sched_group_barrier(Mask, Count, SyncId);
#endif
}

// ---- workgroup barrier ------------------------------------------------------------
// A bare s_barrier: every wave of the workgroup must arrive before any goes on. It
// orders execution, not memory: gfx90a and later have the "back-off barrier", so the
// compiler does not wait for outstanding loads first. Wait for the LDS traffic the
// other waves must see (wait_lgkmcnt<0>()) before calling it. A conditional barrier
// (ping-pong's asymmetric sync) is this call under a wave-uniform branch.
TESSERA_DEVICE TESSERA_FORCEINLINE void barrier() {
#if defined(TESSERA_AMD_DEVICE_PASS)
  __builtin_amdgcn_s_barrier();
#elif defined(__CUDA_ARCH__)
  __syncthreads();
#elif defined(TESSERA_AMD_EMULATION)
  emulation::s_barrier();
#endif
}

// ---- wave barrier -----------------------------------------------------------------
// No instruction (";wave barrier" in the assembly): it keeps the compiler from moving
// memory operations across this point, which is what lanes of one wave that exchange
// data through LDS need between the write and the read (a wave's LDS operations issue
// and complete in order, but the compiler reasons per lane). The wave emulator runs a
// wave's lanes one at a time between such points, so it reports an exchange that lacks
// one. The only definition: arch/amd/wave.hpp (wave and lane indices) includes this
// header rather than defining its own.
TESSERA_DEVICE TESSERA_FORCEINLINE void wave_barrier() {
#if defined(TESSERA_AMD_DEVICE_PASS)
  __builtin_amdgcn_wave_barrier();
#elif defined(TESSERA_AMD_EMULATION)
  emulation::wave_barrier();
#endif
}

// ---- s_waitcnt --------------------------------------------------------------------
// The 16-bit immediate of s_waitcnt on gfx9 (gfx940 table in LLVM's AMDGPU docs):
//   vmcnt   bits [3:0] low, [15:14] high   0..63  vector memory (global/buffer loads)
//   expcnt  bits [6:4]                     0..7   exports / GDS (unused by compute)
//   lgkmcnt bits [11:8]                    0..15  LDS, scalar memory, messages
// A counter's wait means "until at most N such operations are outstanding", so the
// field's largest value means "do not wait on this counter".
struct Gfx9Waitcnt {
  static constexpr unsigned kMaxVmcnt = 63;
  static constexpr unsigned kMaxExpcnt = 7;
  static constexpr unsigned kMaxLgkmcnt = 15;
};

struct WaitCounts {
  unsigned vmcnt;
  unsigned expcnt;
  unsigned lgkmcnt;
};

namespace detail {
TESSERA_HOST_DEVICE constexpr unsigned saturate(unsigned v, unsigned max) {
  return v < max ? v : max;
}
}  // namespace detail

// Counts above a field's range saturate to "do not wait", like the assembler's
// vmcnt_sat(): a larger count allows more in flight, and the largest encodable
// value already allows every operation the counter can track. The templates below
// reject such counts at compile time instead, since asking for one is usually a bug.
TESSERA_HOST_DEVICE constexpr std::uint16_t waitcnt_encoding(unsigned vmcnt, unsigned expcnt,
                                                              unsigned lgkmcnt) {
  const unsigned vm = detail::saturate(vmcnt, Gfx9Waitcnt::kMaxVmcnt);
  const unsigned exp = detail::saturate(expcnt, Gfx9Waitcnt::kMaxExpcnt);
  const unsigned lgkm = detail::saturate(lgkmcnt, Gfx9Waitcnt::kMaxLgkmcnt);
  return static_cast<std::uint16_t>((vm & 0xfu) | ((vm >> 4) << 14) | (exp << 4) | (lgkm << 8));
}

TESSERA_HOST_DEVICE constexpr WaitCounts waitcnt_decode(std::uint16_t imm) {
  return WaitCounts{(imm & 0xfu) | (((imm >> 14) & 0x3u) << 4), (imm >> 4) & 0x7u,
                    (imm >> 8) & 0xfu};
}

// The immediate that waits on nothing; a single-counter wait starts from it.
constexpr std::uint16_t kWaitcntNone =
    waitcnt_encoding(Gfx9Waitcnt::kMaxVmcnt, Gfx9Waitcnt::kMaxExpcnt, Gfx9Waitcnt::kMaxLgkmcnt);

namespace detail {
template <std::uint16_t Imm>
TESSERA_DEVICE TESSERA_FORCEINLINE void s_waitcnt() {
#if defined(TESSERA_AMD_DEVICE_PASS)
  __builtin_amdgcn_s_waitcnt(Imm);
#elif defined(TESSERA_AMD_EMULATION)
  emulation::s_waitcnt(Imm);
#endif
}
}  // namespace detail

// Wait until at most N vector-memory operations (global/buffer loads and stores) of
// this wave are still in flight. Loads complete in order, so with tickets issued
// oldest first, N = the number of newer loads the consumer does not need yet.
template <unsigned N>
TESSERA_DEVICE TESSERA_FORCEINLINE void wait_vmcnt() {
  static_assert(N <= Gfx9Waitcnt::kMaxVmcnt,
                "vmcnt counts at most 63 loads in flight on gfx9; wait for fewer");
  detail::s_waitcnt<waitcnt_encoding(N, Gfx9Waitcnt::kMaxExpcnt, Gfx9Waitcnt::kMaxLgkmcnt)>();
}

// Wait until at most N LDS / scalar-memory operations are in flight. LDS operations
// complete in order, scalar loads do not: wait_lgkmcnt<0>() whenever an s_load result
// is involved.
template <unsigned N>
TESSERA_DEVICE TESSERA_FORCEINLINE void wait_lgkmcnt() {
  static_assert(N <= Gfx9Waitcnt::kMaxLgkmcnt,
                "lgkmcnt counts at most 15 LDS/scalar operations in flight on gfx9; wait for fewer");
  detail::s_waitcnt<waitcnt_encoding(Gfx9Waitcnt::kMaxVmcnt, Gfx9Waitcnt::kMaxExpcnt, N)>();
}

// All three counters in one instruction.
template <unsigned Vm, unsigned Exp, unsigned Lgkm>
TESSERA_DEVICE TESSERA_FORCEINLINE void wait_counts() {
  static_assert(Vm <= Gfx9Waitcnt::kMaxVmcnt,
                "vmcnt counts at most 63 loads in flight on gfx9; wait for fewer");
  static_assert(Exp <= Gfx9Waitcnt::kMaxExpcnt,
                "expcnt counts at most 7 exports in flight on gfx9; wait for fewer");
  static_assert(Lgkm <= Gfx9Waitcnt::kMaxLgkmcnt,
                "lgkmcnt counts at most 15 LDS/scalar operations in flight on gfx9; wait for fewer");
  detail::s_waitcnt<waitcnt_encoding(Vm, Exp, Lgkm)>();
}

}  // namespace amd
}  // namespace tessera
