// The tcgen05 MMA atom of sm_100a ("UMMA") as data: its two descriptors with every field
// named, encoded by constexpr functions and decoded for tests and printing; the shapes the
// family uses; and where an accumulator element sits in tensor memory and in the registers
// of tcgen05.ld. Host-visible: test/unit/test_umma_host.cpp checks every field against the
// PTX ISA's tables for the shipped configurations. benchmark/notes/umma.md cites each fact.
//
// Shared-memory matrix descriptor, 64 bits (PTX ISA 9.7.16.4.1, Table 40):
//   bits  0-13  start address >> 4              bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4
//   bits 46-48  fixed 0b001 (what wgmma's descriptor does not have)
//   bits 49-51  base offset (0: the swizzle pattern starts on its 1024-byte boundary)
//   bit  52     leading dimension mode: 0 relative offset, 1 absolute address (sm_103a)
//   bits 61-63  swizzle: 0 none, 1 128-byte with 32-byte atoms, 2 128-byte, 4 64-byte, 6 32-byte
// Instruction descriptor, 32 bits, .kind::f16 (PTX ISA 9.7.16.4.2, Table 42):
//   bits 0-1 sparsity selector, 2 sparse, 3 saturate, 4-5 D type (0 f16, 1 f32), 6 reserved,
//   7-9 A type (0 f16, 1 bf16), 10-12 B type, 13 negate A, 14 negate B, 15 transpose A
//   (0 K-major, 1 M-major), 16 transpose B (0 K-major, 1 N-major), 17-22 N >> 3, 23 reserved,
//   24-28 M >> 4, 29 reserved, 30-31 maximum shift (.ws only).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera::mma::umma {

// Which dimension of an operand is contiguous in shared memory (the descriptor's "transpose"
// bit: K-major = not transposed).
enum class Major : std::uint32_t { kK = 0, kMN = 1 };

// ---- shared-memory matrix descriptor ------------------------------------------------------

enum class Swizzle : std::uint32_t { kNone = 0, k128BAtom32B = 1, k128B = 2, k64B = 4, k32B = 6 };

struct SmemDescriptor {
  std::uint32_t start_address = 0;        // shared-window byte address, 16-byte aligned
  std::uint32_t leading_byte_offset = 0;  // bytes (or an absolute address in that mode)
  std::uint32_t stride_byte_offset = 0;   // bytes
  std::uint32_t fixed_001 = 1;            // the constant field of bits 46-48
  std::uint32_t base_offset = 0;
  bool lbo_absolute = false;
  Swizzle swizzle = Swizzle::kNone;
};

// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: 14 bits of a 16-byte-aligned value.
TESSERA_HOST_DEVICE constexpr std::uint64_t descriptor_field14(std::uint32_t bytes) {
  return std::uint64_t((bytes & 0x3ffffu) >> 4);
}

TESSERA_HOST_DEVICE constexpr std::uint64_t encode(const SmemDescriptor& d) {
  return descriptor_field14(d.start_address) | (descriptor_field14(d.leading_byte_offset) << 16) |
         (descriptor_field14(d.stride_byte_offset) << 32) | (std::uint64_t(d.fixed_001 & 0x7u) << 46) |
         (std::uint64_t(d.base_offset & 0x7u) << 49) | (std::uint64_t(d.lbo_absolute ? 1u : 0u) << 52) |
         (std::uint64_t(std::uint32_t(d.swizzle) & 0x7u) << 61);
}

TESSERA_HOST_DEVICE constexpr SmemDescriptor decode_smem_descriptor(std::uint64_t v) {
  SmemDescriptor d;
  d.start_address = std::uint32_t(v & 0x3fffu) << 4;
  d.leading_byte_offset = std::uint32_t((v >> 16) & 0x3fffu) << 4;
  d.stride_byte_offset = std::uint32_t((v >> 32) & 0x3fffu) << 4;
  d.fixed_001 = std::uint32_t((v >> 46) & 0x7u);
  d.base_offset = std::uint32_t((v >> 49) & 0x7u);
  d.lbo_absolute = ((v >> 52) & 1u) != 0;
  d.swizzle = Swizzle(std::uint32_t(v >> 61) & 0x7u);
  return d;
}

// The descriptor of K step `step` (0, 1, ...; kInstructionK elements deep, 16 for 16-bit
// inputs) of an operand tile in the 128-byte-swizzled layout of layout/sm90_tile.hpp
// (Sw128OperandTile: what the TMA writes), starting at shared address `tile` (1024-byte
// aligned). The canonical layouts (CUTLASS cute/atom/mma_traits_sm100.hpp, make_umma_desc;
// PTX ISA 9.7.16.3), in 16-byte units T:
//   K-major   ((8, m), (T, 2)) : ((8T, SBO), (1, T))   rows of 128 bytes, 8-row atoms SBO =
//             1024 bytes apart; LBO unused for swizzled K-major ("assumed 1"); a K step is
//             kInstructionK elements along the row (32 bytes for 16 elements of 2 bytes).
//   MN-major  ((8, n), (8, k)) : ((1, LBO), (8, SBO))  lines of 128 bytes of M/N, one per k;
//             LBO = bytes between line-wide chunks of M/N, SBO = 1024 (8 k lines); a K step
//             is kInstructionK lines (16 lines = 2048 bytes for 16-bit inputs).
// (The same layouts wgmma reads: Hopper's WgmmaMainloop builds the same three numbers.)
template <class Tile, bool kKMajor, int kInstructionK = 16>
TESSERA_HOST_DEVICE constexpr SmemDescriptor sw128_k_step(std::uint32_t tile, int step) {
  SmemDescriptor d;
  d.swizzle = Swizzle::k128B;
  d.stride_byte_offset = 1024;
  if constexpr (kKMajor) {
    d.start_address = tile + std::uint32_t(step) * std::uint32_t(kInstructionK * Tile::kElementBytes);
    d.leading_byte_offset = 16;  // "assumed 1" (in 16-byte units)
  } else {
    d.start_address = tile + std::uint32_t(step) * std::uint32_t(kInstructionK * 128);
    d.leading_byte_offset = std::uint32_t(Tile::kChunkBytes);
  }
  return d;
}

// ---- instruction descriptor (.kind::f16) --------------------------------------------------

enum class AccumulatorType : std::uint32_t { kF16 = 0, kF32 = 1 };
enum class OperandType : std::uint32_t { kF16 = 0, kBf16 = 1 };

struct InstrDescriptor {
  std::uint32_t sparsity_selector = 0;
  bool sparse = false;
  bool saturate = false;
  AccumulatorType d_type = AccumulatorType::kF32;
  OperandType a_type = OperandType::kF16;
  OperandType b_type = OperandType::kF16;
  bool negate_a = false;
  bool negate_b = false;
  Major a_major = Major::kK;  // "transpose A"
  Major b_major = Major::kK;  // "transpose B"
  int n = 0;                  // the MMA's N (a multiple of 8)
  int m = 0;                  // the MMA's M (a multiple of 16)
  std::uint32_t max_shift = 0;
};

TESSERA_HOST_DEVICE constexpr std::uint32_t encode(const InstrDescriptor& d) {
  return (d.sparsity_selector & 0x3u) | (std::uint32_t(d.sparse) << 2) | (std::uint32_t(d.saturate) << 3) |
         ((std::uint32_t(d.d_type) & 0x3u) << 4) | ((std::uint32_t(d.a_type) & 0x7u) << 7) |
         ((std::uint32_t(d.b_type) & 0x7u) << 10) | (std::uint32_t(d.negate_a) << 13) |
         (std::uint32_t(d.negate_b) << 14) | (std::uint32_t(d.a_major) << 15) | (std::uint32_t(d.b_major) << 16) |
         ((std::uint32_t(d.n >> 3) & 0x3fu) << 17) | ((std::uint32_t(d.m >> 4) & 0x1fu) << 24) |
         ((d.max_shift & 0x3u) << 30);
}

TESSERA_HOST_DEVICE constexpr InstrDescriptor decode_instr_descriptor(std::uint32_t v) {
  InstrDescriptor d;
  d.sparsity_selector = v & 0x3u;
  d.sparse = ((v >> 2) & 1u) != 0;
  d.saturate = ((v >> 3) & 1u) != 0;
  d.d_type = AccumulatorType((v >> 4) & 0x3u);
  d.a_type = OperandType((v >> 7) & 0x7u);
  d.b_type = OperandType((v >> 10) & 0x7u);
  d.negate_a = ((v >> 13) & 1u) != 0;
  d.negate_b = ((v >> 14) & 1u) != 0;
  d.a_major = Major((v >> 15) & 1u);
  d.b_major = Major((v >> 16) & 1u);
  d.n = int((v >> 17) & 0x3fu) << 3;
  d.m = int((v >> 24) & 0x1fu) << 4;
  d.max_shift = (v >> 30) & 0x3u;
  return d;
}

template <class T>
TESSERA_HOST_DEVICE constexpr OperandType operand_type() {
  static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>,
                "Tessera tcgen05 .kind::f16: operands are half_t or bfloat16_t");
  return std::is_same_v<T, half_t> ? OperandType::kF16 : OperandType::kBf16;
}

// The shapes of .kind::f16 with fp32 accumulators this family issues: one CTA (cta_group::1)
// M = 128 with N a multiple of 16 from 16 to 256; a CTA pair (cta_group::2) M = 256, N the
// same (CUTLASS cute/arch/mma_sm100_umma.hpp asserts these; PTX ISA 9.7.16.10.1). K is 16.
// (M = 64 and the pair's M = 128 exist too, with other TMEM layouts; they are not used.)
TESSERA_HOST_DEVICE constexpr bool is_f16_shape(int cta_group, int m, int n) {
  const bool n_ok = n % 16 == 0 && n >= 16 && n <= 256;
  return n_ok && ((cta_group == 1 && m == 128) || (cta_group == 2 && m == 256));
}
inline constexpr int kF16K = 16;

// The descriptor of D(f32) = A(T) x B(T), A and B with the given majors, M x N.
template <class T>
TESSERA_HOST_DEVICE constexpr InstrDescriptor f16_f32_descriptor(int m, int n, Major a_major, Major b_major) {
  InstrDescriptor d;
  d.d_type = AccumulatorType::kF32;
  d.a_type = operand_type<T>();
  d.b_type = operand_type<T>();
  d.a_major = a_major;
  d.b_major = b_major;
  d.m = m;
  d.n = n;
  return d;
}

// ---- the accumulator in tensor memory ------------------------------------------------------

// With M = 128 on one CTA, and with M = 256 on a pair (each CTA holds the 128 rows of its own
// A rows), row r of a CTA's accumulator block is TMEM lane r and the fp32 element of column n
// is one 32-bit column at the buffer's first column + n (CUTLASS mma_traits_sm100.hpp: the
// 1-SM and 2-SM C layouts; its 2-SM tutorial, 04_mma_tma_2sm_sm100.cu).
// tcgen05.ld .32x32b.xN, issued by warp w of a warpgroup at column c0: thread l receives
// lane 32 (w % 4) + l, its register j column c0 + j (PTX ISA 9.7.16.2.3.1.1 and the access
// restriction of 9.7.16.8.1). The epilogue's element of (warp, thread, register).
struct Load32x32b {
  struct Element {
    int row, col;
  };
  TESSERA_HOST_DEVICE static constexpr Element element(int warp, int lane, int reg, int column0) {
    return {32 * (warp % 4) + lane, column0 + reg};
  }
};

}  // namespace tessera::mma::umma
