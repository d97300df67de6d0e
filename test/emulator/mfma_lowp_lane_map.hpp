// The low-precision MFMA lane layouts as AMD's own code loads the operands, written in
// the direction those loaders run (lane, element -> matrix position), not the emulator's
// (position -> lane), so that the two are independent:
//   gfx942 32x32x16 / 16x16x32 fp8: AMD's matrix instruction calculator (CDNA3,
//     --register-layout): A[i][k] is v(k%8 / 4){lane i + M * (k / 8)}, byte k % 4; i.e.
//     element e of lane l is A[l % M][8 * (l / M) + e];
//   gfx950 f8f6f4: Composable Kernel, test/mx_mfma_op/mx_mfma_op.hpp, load_A_row_major /
//     load_B_col_major: a lane starts at (row l % M, K = (l / M) * chunk) and reads
//     num_chunks chunks of `chunk` values, chunk_offset = chunk * 64 / M apart: 8-bit
//     operands 2 chunks of 16, fp4 one chunk of 32 (two values a byte, f4x2_pk_t: the first
//     in the low nibble), fp6 one chunk of 32 ("FP6 chunk_size = 32, num_chunks = 1" at
//     CK e55b154: one f6x32_pk_t, value i at bit 6 i of its six words);
//   scales: load_mx_B_col_major: lane l holds the scale of column (row of A) l % M for the
//     32-value block l / M of the instruction's K.
// EMU_TEST_MUTANT_LOWP_LANE_SWAP (a mutation check) exchanges two chunks of A's map.
#pragma once

#include "mfma_lane_map.hpp"
#include "tessera/arch/amd/mfma_lowp.hpp"

namespace emu_test {

// Value e of lane `lane`'s A operand (M x K), counting fp4 values (2 a byte).
template <class Shape>
constexpr MatrixIndex mfma_lowp_a_element(int lane, int e) {
  constexpr int M = Shape::kM;
  if constexpr (!Shape::kF8F6F4) {
    return {lane % M, 8 * (lane / M) + e};
  } else if constexpr (tessera::amd::mfma_format_bits(Shape::kFormatA) != 8) {  // fp4, fp6: one chunk
    return {lane % M, (lane / M) * 32 + e};
  } else {
    constexpr int kChunk = 16, kChunkOffset = kChunk * 64 / M;
    int chunk = e / kChunk;
#if defined(EMU_TEST_MUTANT_LOWP_LANE_SWAP)
    chunk ^= 1;
#endif
    return {lane % M, (lane / M) * kChunk + chunk * kChunkOffset + e % kChunk};
  }
}

// Value e of lane `lane`'s B operand (K x N): the same map with the column for the row.
template <class Shape>
constexpr MatrixIndex mfma_lowp_b_element(int lane, int e) {
  constexpr int M = Shape::kM;
  if constexpr (!Shape::kF8F6F4) {
    return {8 * (lane / M) + e, lane % M};
  } else if constexpr (tessera::amd::mfma_format_bits(Shape::kFormatB) != 8) {
    return {(lane / M) * 32 + e, lane % M};
  } else {
    constexpr int kChunk = 16, kChunkOffset = kChunk * 64 / M;
    return {(lane / M) * kChunk + (e / kChunk) * kChunkOffset + e % kChunk, lane % M};
  }
}

// The scale lane `lane` supplies: row of A (column of B) and 32-value block of K.
struct ScaleIndex {
  int row, block;
};
template <class Shape>
constexpr ScaleIndex mfma_lowp_scale_element(int lane) {
  return {lane % Shape::kM, lane / Shape::kM};
}

// Values per lane of each operand (fp4 and fp6 count values, not bytes).
template <class Shape>
constexpr int mfma_lowp_values_per_lane() {
  return Shape::kValuesPerLane;
}

}  // namespace emu_test
