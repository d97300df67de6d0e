// The block-scaled forms of the tcgen05 MMA atom (sm_100a) as data: the kinds Tessera issues,
// what each MMA consumes (K, scale factors), and their instruction descriptor with every
// field named, encoded by constexpr functions and decoded for tests. Host-visible:
// test/unit/test_umma_block_scaled_host.cpp checks every field against the PTX ISA's tables.
// benchmark/notes/lowp_amd_sm100.md cites each fact.
//
//   kind (PTX)                                         operands          scales               K / MMA
//   .kind::mxf8f6f4.block_scale.scale_vec::1X          fp8/fp6/fp4 mix   ue8m0, 1 per 32      32
//   .kind::mxf4.block_scale.scale_vec::2X              fp4 x fp4         ue8m0, 2 per 64      64
//   .kind::mxf4nvf4.block_scale.scale_vec::4X          fp4 x fp4         ue4m3, 4 per 64      64
// (PTX ISA 9.7.16.10 tcgen05.mma, block scaling; the syntax as CCCL's generated tcgen05_mma.h
// of CUDA 13.0 writes it, tcgen05_mma_block_scale_vec_{1x,2x,4x}). .kind::mxf8f6f4 reads its
// operands as .kind::f8f6f4 does (a byte a value in shared memory, umma_lowp_atom.hpp);
// the .kind::mxf4 kinds read fp4 packed two a byte (32 bytes = 64 values a K step; Colfax's
// sub-byte GEMM tutorial: "the mxf4 type ... does support a packed SMEM format"; CUTLASS
// MMA_Traits<SM100_MMA_MXF4_SS>: K = 256 bits / 4).
//
// Instruction descriptor of the block-scaled kinds, 32 bits (PTX ISA 9.7.16.4.2, Table 43
// .kind::mxf8f6f4 and Table 44 .kind::mxf4 / .kind::mxf4nvf4):
//   bits 0-1 reserved, 2 sparsity, 3 reserved, 4-5 matrix B scale factor data ID (mxf4 kinds:
//   0 or 2), 6 reserved, 7-9 A type, 10-12 B type (mxf4 kinds: 10-11, bit 12 reserved),
//   13/14 negate A/B, 15/16 transpose A/B (mxf4 kinds: 0 only), 17-22 N >> 3, 23 scale type
//   (UE4M3 = 0, UE8M0 = 1), 24-26 reserved, 27-28 M >> 7, 29-30 matrix A scale factor data
//   ID, 31 K dimension (mxf4 kinds: dense K = 64 -> 0, K = 96 -> 1; reserved for mxf8f6f4).
// There is no D type field: D is F32. Type codes: .kind::mxf8f6f4 as .kind::f8f6f4 (E4M3 0,
// E5M2 1, E2M3 3, E3M2 4, E2M1 5); .kind::mxf4* E2M1 = 1. The same layout in CUTLASS
// cute/arch/mma_sm100_desc.hpp, UMMA::InstrDescriptorBlockScaled (m_dim_ at bits 24-28 as
// M >> 4 puts M >> 7 at 27-28; a_sf_id_ / b_sf_id_ taken from bits 30-31 of the scale
// factors' TMEM addresses).
//
// The scale factor data ID selects the byte of each 32-bit TMEM word of scale factors where
// this MMA's (first) scale factor sits (umma_scale_factors.hpp): a word holds 4 consecutive
// scale blocks of K, an MMA consumes 1, 2 or 4 of them.
#pragma once
#include <cstdint>

#include "tessera/core/float4.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/mma/umma_atom.hpp"
#include "tessera/mma/umma_lowp_atom.hpp"

namespace tessera::mma::umma {

enum class BlockScaledKind { kMxF8F6F4, kMxF4, kMxF4NvF4 };
enum class ScaleType : std::uint32_t { kUe4m3 = 0, kUe8m0 = 1 };

// What one MMA of a kind consumes: K values, scale factors (each covering kValuesPerScale
// values of K), the scale type, and whether its operands sit packed in shared memory.
template <BlockScaledKind kKind>
struct BlockScaled;
template <>
struct BlockScaled<BlockScaledKind::kMxF8F6F4> {
  static constexpr int kK = 32, kScales = 1, kValuesPerScale = 32;
  static constexpr ScaleType kScaleType = ScaleType::kUe8m0;
  static constexpr bool kPackedFp4 = false;
};
template <>
struct BlockScaled<BlockScaledKind::kMxF4> {
  static constexpr int kK = 64, kScales = 2, kValuesPerScale = 32;
  static constexpr ScaleType kScaleType = ScaleType::kUe8m0;
  static constexpr bool kPackedFp4 = true;
};
template <>
struct BlockScaled<BlockScaledKind::kMxF4NvF4> {
  static constexpr int kK = 64, kScales = 4, kValuesPerScale = 16;
  static constexpr ScaleType kScaleType = ScaleType::kUe4m3;
  static constexpr bool kPackedFp4 = true;
};

// The .kind::mxf4 / .kind::mxf4nvf4 type code of E2M1 (Table 44).
inline constexpr std::uint32_t kMxF4E2M1 = 1;

struct BlockScaledInstrDescriptor {
  bool sparse = false;
  std::uint32_t b_scale_id = 0;  // byte of B's scale-factor words this MMA starts at
  std::uint32_t a_type = 0;
  std::uint32_t b_type = 0;
  bool negate_a = false;
  bool negate_b = false;
  Major a_major = Major::kK;
  Major b_major = Major::kK;
  int n = 0;  // the MMA's N (a multiple of 8)
  ScaleType scale_type = ScaleType::kUe8m0;
  int m = 0;  // the MMA's M (128 or 256)
  std::uint32_t a_scale_id = 0;
  bool k96 = false;  // .kind::mxf4*: K = 96 (Tessera issues K = 64 only)
};

TESSERA_HOST_DEVICE constexpr std::uint32_t encode(const BlockScaledInstrDescriptor& d) {
  return (std::uint32_t(d.sparse) << 2) | ((d.b_scale_id & 0x3u) << 4) | ((d.a_type & 0x7u) << 7) |
         ((d.b_type & 0x7u) << 10) | (std::uint32_t(d.negate_a) << 13) | (std::uint32_t(d.negate_b) << 14) |
         (std::uint32_t(d.a_major) << 15) | (std::uint32_t(d.b_major) << 16) |
         ((std::uint32_t(d.n >> 3) & 0x3fu) << 17) | (std::uint32_t(d.scale_type) << 23) |
         ((std::uint32_t(d.m >> 7) & 0x3u) << 27) | ((d.a_scale_id & 0x3u) << 29) | (std::uint32_t(d.k96) << 31);
}

TESSERA_HOST_DEVICE constexpr BlockScaledInstrDescriptor decode_block_scaled_descriptor(std::uint32_t v) {
  BlockScaledInstrDescriptor d;
  d.sparse = ((v >> 2) & 1u) != 0;
  d.b_scale_id = (v >> 4) & 0x3u;
  d.a_type = (v >> 7) & 0x7u;
  d.b_type = (v >> 10) & 0x7u;
  d.negate_a = ((v >> 13) & 1u) != 0;
  d.negate_b = ((v >> 14) & 1u) != 0;
  d.a_major = Major((v >> 15) & 1u);
  d.b_major = Major((v >> 16) & 1u);
  d.n = int((v >> 17) & 0x3fu) << 3;
  d.scale_type = ScaleType((v >> 23) & 1u);
  d.m = int((v >> 27) & 0x3u) << 7;
  d.a_scale_id = (v >> 29) & 0x3u;
  d.k96 = ((v >> 31) & 1u) != 0;
  return d;
}

// The descriptor of D(f32) = (A(TA) sa) x (B(TB) sb) for `kKind`, A and B K-major, M x N,
// both scale factor data IDs 0 (the main loop adds each K step's: scale_ids).
template <BlockScaledKind kKind, class TA, class TB>
TESSERA_HOST_DEVICE constexpr BlockScaledInstrDescriptor block_scaled_descriptor(int m, int n) {
  BlockScaledInstrDescriptor d;
  if constexpr (kKind == BlockScaledKind::kMxF8F6F4) {
    d.a_type = std::uint32_t(f8f6f4_format<TA>());
    d.b_type = std::uint32_t(f8f6f4_format<TB>());
  } else {
    static_assert(std::is_same_v<TA, float4_e2m1x2_t> && std::is_same_v<TB, float4_e2m1x2_t>,
                  "Tessera tcgen05 .kind::mxf4 / .kind::mxf4nvf4: both operands are fp4 (float4_e2m1x2_t)");
    d.a_type = kMxF4E2M1;
    d.b_type = kMxF4E2M1;
  }
  d.scale_type = BlockScaled<kKind>::kScaleType;
  d.m = m;
  d.n = n;
  return d;
}

// K step `step` of a K tile: the scale blocks it reads start at block step * kScales of the
// tile; the word (4 blocks) holding them and the byte within it (the data ID).
template <BlockScaledKind kKind>
TESSERA_HOST_DEVICE constexpr int scale_word_of_step(int step) {
  return step * BlockScaled<kKind>::kScales / 4;
}
template <BlockScaledKind kKind>
TESSERA_HOST_DEVICE constexpr std::uint32_t scale_id_of_step(int step) {
  return std::uint32_t(step * BlockScaled<kKind>::kScales % 4);
}

// The encoded descriptor of K step `step`: both data IDs set to the step's byte.
template <BlockScaledKind kKind>
TESSERA_HOST_DEVICE constexpr std::uint32_t with_scale_ids(BlockScaledInstrDescriptor d, int step) {
  d.a_scale_id = scale_id_of_step<kKind>(step);
  d.b_scale_id = scale_id_of_step<kKind>(step);
  return encode(d);
}

}  // namespace tessera::mma::umma
