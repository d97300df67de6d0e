// The MFMA lane layouts as AMD's own example kernels place the operands: ROCm blog
// "Matrix Core Programming on AMD CDNA3 and CDNA4 architecture" (Salykov, Luo, Huang,
// Sun, 2025), sections 5.1-5.3, whose kernels load row-major A, B and store row-major C:
//   16x16x16 f16:  a_reg = A + 4 * (lane / 16) + 16 * (lane % 16)          (A[lane%16][4*(lane/16)+e])
//                  b_reg[e] = B[e * 16 + lane % 16 + (lane / 16) * 64]     (B[4*(lane/16)+e][lane%16])
//                  C[e * 16 + lane % 16 + (lane / 16) * 64] = c_reg[e]     (C[4*(lane/16)+e][lane%16])
//   32x32x16 (8 elements a lane, shown there for fp8; Composable Kernel gives the f16/bf16
//   forms the same k_per_blk = 8 and 32-lane blocks, xdlops_gemm.hpp mfma_type<...>):
//                  a_reg = A + (lane / 32) * 8 + (lane % 32) * 16
//                  b_reg[e] = B[e * 32 + lane % 32 + (lane / 32) * 8 * 32]
//   32x32 results (the 32x32x2 f32 example, the same for every 32x32 instruction):
//                  C[lane % 32 + (lane / 32) * 4 * 32 + g * 32 * 8 + 32 * r] = c_reg[4 * g + r]
// and AMD's matrix instruction calculator for 32x32x8 (A[i][k] in lane 32*(k/4)+i, element k%4) and 16x16x32 (the
// 16x16 pattern with 8 elements a lane). The emulator's model (emulator/src/mfma.cpp) is
// written from Composable Kernel's parameters instead; the tests check one against the
// other and the instruction against a scalar product.
//
// EMU_TEST_MUTANT_LANE_SWAP (a mutation check) exchanges lanes 0 and 1 in A's map.
#pragma once

namespace emu_test {

struct MatrixIndex {
  int row, col;
};

// Element e of lane `lane`'s A operand of an M x K instruction (kpl elements a lane).
template <int M, int K>
constexpr MatrixIndex mfma_a_element(int lane, int e) {
#if defined(EMU_TEST_MUTANT_LANE_SWAP)
  if (lane < 2) lane ^= 1;
#endif
  constexpr int kpl = M * K / 64;
  if constexpr (M == 16) {
    return {lane % 16, kpl * (lane / 16) + e};  // 16 * (lane % 16) is the row's offset in a 16-wide A
  } else {
    return {lane % 32, kpl * (lane / 32) + e};
  }
}

// Element e of lane `lane`'s B operand (B is K x N, N == M).
template <int M, int K>
constexpr MatrixIndex mfma_b_element(int lane, int e) {
  constexpr int kpl = M * K / 64;
  if constexpr (M == 16) {
    return {kpl * (lane / 16) + e, lane % 16};
  } else {
    return {kpl * (lane / 32) + e, lane % 32};
  }
}

// Accumulator register r of lane `lane` (C and D are M x M).
template <int M>
constexpr MatrixIndex mfma_c_element(int lane, int r) {
  if constexpr (M == 16) {
    return {4 * (lane / 16) + r, lane % 16};
  } else {
    const int g = r / 4;
    return {4 * (lane / 32) + 8 * g + r % 4, lane % 32};
  }
}

}  // namespace emu_test
