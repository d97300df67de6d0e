// tcgen05 (sm_100a): the fifth-generation tensor cores and their tensor memory (TMEM).
//
// What differs from wgmma (wgmma.hpp): one thread issues an MMA for the whole CTA (or for a
// pair of CTAs, cta_group::2); the accumulator lives in TMEM, not in registers; completion
// is signalled by tcgen05.commit, which arrives on an mbarrier once every MMA the thread
// issued before it has completed. benchmark/notes/umma.md lists the PTX ISA facts used here
// with their sections.
//
//   TMEM      128 lanes x 512 columns of 32-bit cells per SM. An address is 32 bits: lane in
//             bits 31-16, column in bits 15-0. Allocation is by columns (a power of two, at
//             least 32), by one warp, which receives the base address in shared memory.
//   Access    tcgen05.ld by a warp reaches 32 lanes only: warp w of a warpgroup (w = warp
//             index % 4) lanes 32w .. 32w + 31 (PTX ISA 9.7.16.8.1), so reading a 128-lane
//             accumulator takes a warpgroup.
//   Ordering  tcgen05 operations are asynchronous. Between threads they are ordered by a
//             thread synchronisation (bar.sync, an mbarrier wait) bracketed by
//             tcgen05.fence::before_thread_sync on the side that finished and
//             tcgen05.fence::after_thread_sync on the side that goes on (PTX ISA 9.7.16.6).
//
// Device code for sm_100a only (__CUDA_ARCH_FEAT_SM100_ALL); elsewhere the wrappers compile to
// nothing, and kernels that use them are compiled only for Sm100 (arch.hpp,
// device_pass_targets).
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"

#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define TESSERA_SM100A_DEVICE_PASS 1
#endif

namespace tessera::nvidia {

// A TMEM address: lane in the upper half, column in the lower.
TESSERA_HOST_DEVICE constexpr std::uint32_t tmem_address(std::uint32_t base, int lane, int column) {
  return base + (std::uint32_t(lane) << 16) + std::uint32_t(column);
}

// The column counts tcgen05.alloc takes: a power of two from 32 to 512.
TESSERA_HOST_DEVICE constexpr bool is_tmem_allocation(int columns) {
  return columns >= 32 && columns <= 512 && (columns & (columns - 1)) == 0;
}

// The MMA kinds Tessera issues: .kind::f16 (half_t / bfloat16_t inputs, K = 16) and
// .kind::f8f6f4 (fp8, fp6 and fp4 inputs in any mix, K = 32; mma/umma_lowp_atom.hpp) take the
// same operands; only the kind, and the type fields of the instruction descriptor, differ.
// The block-scaled kinds (mma/umma_block_scaled_atom.hpp) add two tensor-memory operands, the
// scale factors of A and B: .kind::mxf8f6f4.block_scale.scale_vec::1X (K = 32),
// .kind::mxf4.block_scale.scale_vec::2X and .kind::mxf4nvf4.block_scale.scale_vec::4X
// (K = 64). (Host-visible: configurations name their kind.)
enum class UmmaKind { kF16, kF8F6F4, kMxF8F6F4, kMxF4, kMxF4NvF4 };

#if defined(TESSERA_CUDA)

namespace detail {
template <int kCtaGroup>
constexpr bool is_cta_group = kCtaGroup == 1 || kCtaGroup == 2;
}  // namespace detail

// ---- allocation (one warp; with cta_group::2, one warp in each CTA of the pair) ----------

// Allocates kColumns columns and writes their base address to `slot` (shared memory). Blocks
// while the columns are not free.
template <int kCtaGroup, int kColumns>
TESSERA_DEVICE TESSERA_FORCEINLINE void tmem_alloc(std::uint32_t* slot) {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
  static_assert(is_tmem_allocation(kColumns), "tcgen05.alloc takes a power of two from 32 to 512 columns");
#if defined(TESSERA_SM100A_DEVICE_PASS)
  if constexpr (kCtaGroup == 1) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(smem_address(slot)),
                 "n"(kColumns)
                 : "memory");
  } else {
    asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(smem_address(slot)),
                 "n"(kColumns)
                 : "memory");
  }
#else
  (void)slot;
#endif
}

// Gives up this CTA's right to allocate more (so a CTA launched next on the SM is not kept
// waiting by this one's later attempts); the allocation made stays.
template <int kCtaGroup>
TESSERA_DEVICE TESSERA_FORCEINLINE void tmem_relinquish_alloc_permit() {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
#if defined(TESSERA_SM100A_DEVICE_PASS)
  if constexpr (kCtaGroup == 1) {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  } else {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
  }
#endif
}

// Frees an allocation (same column count); every access to it must have completed.
template <int kCtaGroup, int kColumns>
TESSERA_DEVICE TESSERA_FORCEINLINE void tmem_dealloc(std::uint32_t base) {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
  static_assert(is_tmem_allocation(kColumns), "tcgen05.dealloc takes a power of two from 32 to 512 columns");
#if defined(TESSERA_SM100A_DEVICE_PASS)
  if constexpr (kCtaGroup == 1) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(base), "n"(kColumns) : "memory");
  } else {
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(base), "n"(kColumns) : "memory");
  }
#else
  (void)base;
#endif
}

// ---- fences around thread synchronisation -----------------------------------------------

TESSERA_DEVICE TESSERA_FORCEINLINE void tcgen05_fence_before_thread_sync() {
#if defined(TESSERA_SM100A_DEVICE_PASS)
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}
TESSERA_DEVICE TESSERA_FORCEINLINE void tcgen05_fence_after_thread_sync() {
#if defined(TESSERA_SM100A_DEVICE_PASS)
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
#endif
}

// ---- MMA ---------------------------------------------------------------------------------

// D (TMEM at d) = A * B (+ D when accumulate): A and B from shared-memory descriptors, the
// instruction descriptor kIdesc (its fields: mma/umma_atom.hpp, umma_lowp_atom.hpp) as an
// immediate. Issued by one thread (a pair's leader for cta_group::2); asynchronous.
template <UmmaKind kKind, int kCtaGroup, std::uint32_t kIdesc>
TESSERA_DEVICE TESSERA_FORCEINLINE void umma(std::uint32_t d, std::uint64_t desc_a, std::uint64_t desc_b,
                                             bool accumulate) {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
#if defined(TESSERA_SM100A_DEVICE_PASS)
  // The instruction text is a literal per (cta_group, kind); everything else is shared.
#define TESSERA_UMMA_ASM(group_kind)                                                                          \
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\ttcgen05.mma." group_kind                      \
               " [%0], %1, %2, %3, p;\n\t}" ::"r"(d),                                                          \
               "l"(desc_a), "l"(desc_b), "n"(kIdesc), "r"(std::uint32_t(accumulate))                           \
               : "memory")
  if constexpr (kKind == UmmaKind::kF16) {
    if constexpr (kCtaGroup == 1) {
      TESSERA_UMMA_ASM("cta_group::1.kind::f16");
    } else {
      TESSERA_UMMA_ASM("cta_group::2.kind::f16");
    }
  } else {
    if constexpr (kCtaGroup == 1) {
      TESSERA_UMMA_ASM("cta_group::1.kind::f8f6f4");
    } else {
      TESSERA_UMMA_ASM("cta_group::2.kind::f8f6f4");
    }
  }
#undef TESSERA_UMMA_ASM
#else
  (void)d;
  (void)desc_a;
  (void)desc_b;
  (void)accumulate;
#endif
}

// The block-scaled form: D (TMEM at d) = (A x scale_a) * (B x scale_b) (+ D when accumulate),
// the scale factors in tensor memory at sfa and sfb (their words' first columns; the
// instruction descriptor's scale factor data IDs name the bytes). Syntax as CCCL's generated
// tcgen05_mma.h (CUDA 13.0), tcgen05_mma_block_scale_vec_{1x,2x,4x}.
template <UmmaKind kKind, int kCtaGroup, std::uint32_t kIdesc>
TESSERA_DEVICE TESSERA_FORCEINLINE void umma_block_scaled(std::uint32_t d, std::uint64_t desc_a, std::uint64_t desc_b,
                                                          std::uint32_t sfa, std::uint32_t sfb, bool accumulate) {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
  static_assert(kKind == UmmaKind::kMxF8F6F4 || kKind == UmmaKind::kMxF4 || kKind == UmmaKind::kMxF4NvF4,
                "tcgen05: umma_block_scaled issues the block-scaled kinds");
#if defined(TESSERA_SM100A_DEVICE_PASS)
#define TESSERA_UMMA_BS_ASM(group_kind)                                                                       \
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\ttcgen05.mma." group_kind                      \
               " [%0], %1, %2, %3, [%4], [%5], p;\n\t}" ::"r"(d),                                                \
               "l"(desc_a), "l"(desc_b), "n"(kIdesc), "r"(sfa), "r"(sfb), "r"(std::uint32_t(accumulate))       \
               : "memory")
  if constexpr (kKind == UmmaKind::kMxF8F6F4) {
    if constexpr (kCtaGroup == 1) {
      TESSERA_UMMA_BS_ASM("cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X");
    } else {
      TESSERA_UMMA_BS_ASM("cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X");
    }
  } else if constexpr (kKind == UmmaKind::kMxF4) {
    if constexpr (kCtaGroup == 1) {
      TESSERA_UMMA_BS_ASM("cta_group::1.kind::mxf4.block_scale.scale_vec::2X");
    } else {
      TESSERA_UMMA_BS_ASM("cta_group::2.kind::mxf4.block_scale.scale_vec::2X");
    }
  } else {
    if constexpr (kCtaGroup == 1) {
      TESSERA_UMMA_BS_ASM("cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X");
    } else {
      TESSERA_UMMA_BS_ASM("cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X");
    }
  }
#undef TESSERA_UMMA_BS_ASM
#else
  (void)d;
  (void)desc_a;
  (void)desc_b;
  (void)sfa;
  (void)sfb;
  (void)accumulate;
#endif
}

// ---- copies from shared memory ------------------------------------------------------------

// 32 rows of 128 bits from shared memory (the matrix descriptor desc) into 32 lanes x 4
// columns at taddr, repeated in each of the 4 lane quarters (.32x128b.warpx4): how scale
// factors reach tensor memory (mma/umma_scale_factors.hpp). Asynchronous; issued by one
// thread (the MMA thread: it executes before that thread's later tcgen05.mma); with
// cta_group::2 by the pair's leader, for both CTAs. Syntax: CCCL's generated tcgen05_cp.h.
template <int kCtaGroup>
TESSERA_DEVICE TESSERA_FORCEINLINE void tmem_copy_32x128b_warpx4(std::uint32_t taddr, std::uint64_t desc) {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
#if defined(TESSERA_SM100A_DEVICE_PASS)
  if constexpr (kCtaGroup == 1) {
    asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;" ::"r"(taddr), "l"(desc) : "memory");
  } else {
    asm volatile("tcgen05.cp.cta_group::2.32x128b.warpx4 [%0], %1;" ::"r"(taddr), "l"(desc) : "memory");
  }
#else
  (void)taddr;
  (void)desc;
#endif
}

// One arrival on `bar` (this CTA) once every tcgen05 operation this thread issued before has
// completed. Implies tcgen05.fence::before_thread_sync.
template <int kCtaGroup>
TESSERA_DEVICE TESSERA_FORCEINLINE void umma_commit(std::uint64_t* bar) {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
#if defined(TESSERA_SM100A_DEVICE_PASS)
  if constexpr (kCtaGroup == 1) {
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                     smem_address(bar))
                 : "memory");
  } else {
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                     smem_address(bar))
                 : "memory");
  }
#else
  (void)bar;
#endif
}

// The same, arriving on the barrier at the same offset in every CTA of `cta_mask` (bit i:
// cluster rank i): how an MMA frees a stage that other CTAs multicast into, or tells both
// CTAs of a pair that their accumulators are ready.
template <int kCtaGroup>
TESSERA_DEVICE TESSERA_FORCEINLINE void umma_commit_multicast(std::uint64_t* bar, std::uint16_t cta_mask) {
  static_assert(detail::is_cta_group<kCtaGroup>, "tcgen05: cta_group is 1 or 2");
#if defined(TESSERA_SM100A_DEVICE_PASS)
  if constexpr (kCtaGroup == 1) {
    asm volatile(
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%0], %1;" ::"r"(
            smem_address(bar)),
        "h"(cta_mask)
        : "memory");
  } else {
    asm volatile(
        "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%0], %1;" ::"r"(
            smem_address(bar)),
        "h"(cta_mask)
        : "memory");
  }
#else
  (void)bar;
  (void)cta_mask;
#endif
}

// ---- loads from TMEM -----------------------------------------------------------------------

// 32 consecutive columns from the warp's 32 lanes (shape .32x32b, .x32): thread l of the warp
// receives lane (lane of taddr) + l, register j = column (column of taddr) + j. Warp-wide
// (.sync.aligned), asynchronous: the registers are valid after tmem_wait_ld.
TESSERA_DEVICE TESSERA_FORCEINLINE void tmem_load_32x32b_x32(std::uint32_t taddr, std::uint32_t* r) {
#if defined(TESSERA_SM100A_DEVICE_PASS)
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]),
        "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15]),
        "=r"(r[16]), "=r"(r[17]), "=r"(r[18]), "=r"(r[19]), "=r"(r[20]), "=r"(r[21]), "=r"(r[22]), "=r"(r[23]),
        "=r"(r[24]), "=r"(r[25]), "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]), "=r"(r[30]), "=r"(r[31])
      : "r"(taddr)
      : "memory");
#else
  (void)taddr;
  for (int i = 0; i < 32; ++i) r[i] = 0u;
#endif
}

// Until every tcgen05.ld this thread issued has completed. The N registers they wrote (at r)
// pass through an empty asm after the wait, so the compiler cannot read them earlier (the
// wait names no registers).
template <int N>
TESSERA_DEVICE TESSERA_FORCEINLINE void tmem_wait_ld(std::uint32_t* r) {
#if defined(TESSERA_SM100A_DEVICE_PASS)
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#endif
  TESSERA_UNROLL
  for (int i = 0; i < N; ++i) asm volatile("" : "+r"(r[i])::"memory");
}

#endif  // TESSERA_CUDA

}  // namespace tessera::nvidia
