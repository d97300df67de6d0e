// wgmma (sm_90a): warpgroup matrix multiply-accumulate with operands in shared memory,
// described by 64-bit matrix descriptors, and the fences that order it.
//
// A warpgroup (4 consecutive warps, the first a multiple of 4) issues
// wgmma.mma_async m64nNk16 (16-bit operands) or m64nNk32 (fp8 operands) together; the instructions run asynchronously and are grouped
// with commit_group; wait_group<N> blocks until at most N groups are still running (the
// accumulator registers of the finished ones may then be read or reused).
//
// The descriptor (PTX ISA, "Matrix Descriptor Format" of the asynchronous warpgroup
// matrix instructions), encoded by make_smem_descriptor():
//   bits  0-13  start address >> 4            (shared-window byte address)
//   bits 16-29  leading dimension byte offset >> 4  (LBO)
//   bits 32-45  stride dimension byte offset >> 4   (SBO)
//   bits 49-51  base offset (0: every tile here starts on a 1024-byte boundary)
//   bits 62-63  swizzle: 0 none, 1 128-byte, 2 64-byte, 3 32-byte
// Tessera's shared-memory tiles use the 128-byte swizzle (the TMA's
// CU_TENSOR_MAP_SWIZZLE_128B, which writes exactly that pattern). For 16-bit elements:
//   K-major (K contiguous): rows of 64 elements = 128 bytes, 8-row atoms of 1024 bytes.
//     SBO = 1024 (next 8 rows of M/N); LBO unused (1 by convention); the k-th 16-element
//     slice starts 32 * k bytes into the row.
//   MN-major (M or N contiguous): "rows" of 64 M/N elements = 128 bytes, one per k;
//     8-k atoms of 1024 bytes. SBO = 1024 (next 8 k), LBO = bytes between 64-wide chunks
//     of M/N; the k-th 16-element slice starts 2048 * k bytes in.
// These are CUTLASS's canonical SW128 layouts (cute/atom/mma_traits_sm90_gmma.hpp:
// K-major ((8,m),(T,2k)):((8T,SBO),(1,T)), MN-major ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))).
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TESSERA_SM90A_DEVICE_PASS 1
#endif

namespace tessera::nvidia {

// Operand types: f16, bf16 (k16 instructions, either operand K- or MN-major); e4m3, e5m2
// (k32 instructions, both operands K-major, any pairing of the two).
enum class WgmmaType { kF16, kBf16, kE4m3, kE5m2 };

enum class Swizzle : std::uint64_t { kNone = 0, k128B = 1, k64B = 2, k32B = 3 };

// The descriptor of a shared-memory operand starting at shared-window address `address`.
TESSERA_HOST_DEVICE constexpr std::uint64_t make_smem_descriptor(std::uint32_t address,
                                                                 std::uint32_t leading_byte_offset,
                                                                 std::uint32_t stride_byte_offset,
                                                                 Swizzle swizzle) {
  return (std::uint64_t((address >> 4) & 0x3fffu)) |
         (std::uint64_t((leading_byte_offset >> 4) & 0x3fffu) << 16) |
         (std::uint64_t((stride_byte_offset >> 4) & 0x3fffu) << 32) |
         (std::uint64_t(swizzle) << 62);
}

// The descriptor `bytes` further into shared memory (a multiple of 16). The start address is
// the descriptor's low 14 bits in 16-byte units, and every operand tile lies inside the
// 228 KiB shared window, so the field never carries into the next one: the offset adds to the
// descriptor itself. Built once per stage and advanced by compile-time offsets (the fp8 main
// loop), a wgmma's descriptor costs one add instead of make_smem_descriptor's shift, mask and or
// (CUTLASS's GmmaDescriptor and DeepGEMM advance their descriptors the same way).
TESSERA_HOST_DEVICE constexpr std::uint64_t advance_smem_descriptor(std::uint64_t d, std::uint32_t bytes) {
  return d + (bytes >> 4);
}

// Field readers, for tests and for printing a descriptor.
struct SmemDescriptorFields {
  std::uint32_t address, leading_byte_offset, stride_byte_offset, base_offset;
  Swizzle swizzle;
};
TESSERA_HOST_DEVICE constexpr SmemDescriptorFields decode_smem_descriptor(std::uint64_t d) {
  return {std::uint32_t(d & 0x3fffu) << 4, std::uint32_t((d >> 16) & 0x3fffu) << 4,
          std::uint32_t((d >> 32) & 0x3fffu) << 4, std::uint32_t((d >> 49) & 0x7u), Swizzle(d >> 62)};
}

}  // namespace tessera::nvidia

#if defined(TESSERA_CUDA)
#include "tessera/arch/nvidia/wgmma_instructions.hpp"

namespace tessera::nvidia {

// Before the first wgmma that reads registers written by ordinary instructions (the
// accumulators, after they were zeroed or read by an epilogue).
TESSERA_DEVICE TESSERA_FORCEINLINE void wgmma_fence() {
#if defined(TESSERA_SM90A_DEVICE_PASS)
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
TESSERA_DEVICE TESSERA_FORCEINLINE void wgmma_commit_group() {
#if defined(TESSERA_SM90A_DEVICE_PASS)
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}
template <int N>
TESSERA_DEVICE TESSERA_FORCEINLINE void wgmma_wait_group() {
  static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0 to 7 pending groups");
#if defined(TESSERA_SM90A_DEVICE_PASS)
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
#endif
}

// Keeps the compiler from moving accesses of the accumulators across a wgmma boundary
// (the asm statements above do not name them).
template <int N>
TESSERA_DEVICE TESSERA_FORCEINLINE void fence_registers(float (&d)[N]) {
  TESSERA_UNROLL
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// The value as it stands here, opaque to the compiler from here on, so that a loop uses the
// register it is in rather than computing it again: NVVM sinks a loop-invariant descriptor's
// shift, mask and or into every iteration of the main loop otherwise.
TESSERA_DEVICE TESSERA_FORCEINLINE void keep_computed(std::uint64_t& v) { asm volatile("" : "+l"(v)); }
TESSERA_DEVICE TESSERA_FORCEINLINE void keep_computed(std::uint32_t& v) { asm volatile("" : "+r"(v)); }

// d (N/2 floats per thread) = A * B (+ d when scale_d != 0) for one m64nNk16 step.
template <int N, WgmmaType T, int kTransA, int kTransB>
TESSERA_DEVICE TESSERA_FORCEINLINE void wgmma_m64k16(float (&d)[N / 2], std::uint64_t desc_a,
                                                     std::uint64_t desc_b, int scale_d) {
  static_assert(N == 16 || N == 32 || N == 64 || N == 128 || N == 192 || N == 256,
                "Tessera wgmma: the wrapped shapes are m64nNk16 for N = 16, 32, 64, 128, 192 and 256");
  detail::WgmmaInstruction<N, T>::template run<kTransA, kTransB>(d, desc_a, desc_b, scale_d);
}

// d (N/2 floats per thread) = A * B (+ d when scale_d != 0) for one m64nNk32 step of fp8
// operands, both K-major. The tensor core sums the 32 products and d with fewer bits than
// fp32 keeps (benchmark/notes/fp8.md measures how many), so long sums are promoted into
// fp32 registers by the caller (gemm/wgmma/fp8_mainloop.hpp).
template <int N, WgmmaType A, WgmmaType B>
TESSERA_DEVICE TESSERA_FORCEINLINE void wgmma_m64k32(float (&d)[N / 2], std::uint64_t desc_a, std::uint64_t desc_b,
                                                     int scale_d) {
  static_assert(N == 16 || N == 32 || N == 64 || N == 128 || N == 192 || N == 256,
                "Tessera wgmma: the wrapped fp8 shapes are m64nNk32 for N = 16, 32, 64, 128, 192 and 256");
  static_assert((A == WgmmaType::kE4m3 || A == WgmmaType::kE5m2) && (B == WgmmaType::kE4m3 || B == WgmmaType::kE5m2),
                "Tessera wgmma: m64nNk32 takes e4m3 or e5m2 operands");
  detail::WgmmaFp8Instruction<N, A, B>::run(d, desc_a, desc_b, scale_d);
}

}  // namespace tessera::nvidia
#endif  // TESSERA_CUDA
