// MFMA atoms: which lane holds which element of an MFMA instruction's A, B and C, as
// constexpr maps, for the four instructions Tessera uses (arch/amd/mfma.hpp):
//
//   gfx942, gfx950   v_mfma_f32_32x32x8_{f16,bf16}    4 operand elements per lane
//                    v_mfma_f32_16x16x16_{f16,bf16}   4
//   gfx950           v_mfma_f32_32x32x16_{f16,bf16}   8
//                    v_mfma_f32_16x16x32_{f16,bf16}   8
//
// The layouts (AMD's matrix instruction calculator; Triton's and Composable
// Kernel's MFMA lowering agree):
//   A (M x K):  A[i][k] in lane  M*(k / E) + i,  element k % E      (E = operand elements)
//   B (K x N):  B[k][j] in lane  N*(k / E) + j,  element k % E
//   C (M x N):  32x32: C[i][j] in register 4*(i/8) + i%4, lane 32*((i/4)%2) + j
//               16x16: C[i][j] in register i%4,           lane 16*(i/4) + j
// The maps below are written the other way round (lane, element -> coordinate), the
// form a kernel needs to compute addresses; test/unit/test_mfma_atom.cpp checks them
// against a scalar model of each instruction written from the table above, and the
// wave emulator models the instructions independently again.
//
// Packed reads. A kernel reads operands from LDS 16 bytes (8 elements) per lane, one
// ds_read_b128. On gfx950 that is exactly one operand of a K-doubled instruction; on
// gfx942 (4 elements per operand) it feeds two instructions. Because a dot product does
// not care in which order K is summed, the two gfx942 instructions may take any split of
// the 8 elements as long as A and B use the same one: instruction t of a read takes
// elements [4t, 4t+4). So for every atom one read step covers kKPerRead values of K,
// lane l reading the 8 contiguous values starting at (l / M) * 8, and read_k() says
// which K value an element of a read holds. Triton calls this kWidth = 8 on gfx942.
//
// Low-precision atoms (arch/amd/mfma_lowp.hpp) count storage units (bytes; fp4 two values a
// byte, fp6 one value a byte slot) instead of elements, and gfx950's f8f6f4 instructions take
// 32 units a lane: two read steps r, r + 1 give an instruction's units 0..15 and 16..31, read
// step r of lane group g being the 16 units at r * kKPerRead + 16 g of the LDS row (the
// formula above). For an 8-bit operand those hold K = that position: its two runs of 16 lie
// half the instruction's K apart. An fp6 operand's 32 units are ONE run from K = 32 g; its
// copy into LDS stores each instruction's 16-value chunks where these same reads find them
// (memory/mfma_tile_copy.hpp, stored_k), so A and B read alike, in any mix of formats.
//
// Host-includable (no device code): kernels, plans and tests share these numbers.
#pragma once

#include "tessera/arch/amd/mfma.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::mma {

struct MatrixCoord {
  int row;
  int col;
};

template <class Instruction_>
struct MfmaAtom {
  using Instruction = Instruction_;
  static constexpr int kLanes = 64;
  static constexpr int kM = Instruction::kM;
  static constexpr int kN = Instruction::kN;
  static constexpr int kK = Instruction::kK;
  // Operand elements per lane in storage units (16-bit elements; bytes for the
  // low-precision instructions, arch/amd/mfma_lowp.hpp) and fp32 accumulators per lane.
  static constexpr int kStorageBytes = Instruction::kStorageBytes;
  static constexpr int kOperandElements = Instruction::kOperandElements;
  static constexpr int kAccumulators = Instruction::kAccumulators;
  // Lanes are split into groups along K: lane l holds row (column) l % M of A (B) and
  // K group l / M.
  static constexpr int kKGroups = kLanes / kM;

  // ---- one instruction ---------------------------------------------------------------
  // A's element `e` in lane `lane`: (i, k) of the M x K operand.
  // (For fp4 operands e counts bytes and k the first of the byte's two values.)
  TESSERA_HOST_DEVICE static constexpr MatrixCoord a_coord(int lane, int e) {
    return {lane % kM, Instruction::operand_k(lane / kM, e)};
  }
  // B's element `e` in lane `lane`: (k, j) of the K x N operand.
  TESSERA_HOST_DEVICE static constexpr MatrixCoord b_coord(int lane, int e) {
    return {Instruction::operand_k_b(lane / kN, e), lane % kN};
  }
  // Accumulator register `r` of lane `lane`: (i, j) of the M x N result. Registers come in
  // runs of 4 consecutive rows; a lane group (lane / N) holds every other run of 4 (32x32)
  // or one run (16x16), and further runs follow every 4 * kKGroups rows.
  TESSERA_HOST_DEVICE static constexpr MatrixCoord c_coord(int lane, int r) {
    return {(r / 4) * (4 * kKGroups) + 4 * (lane / kN) + r % 4, lane % kN};
  }

  // ---- packed 16-byte reads ------------------------------------------------------------
  static constexpr int kReadElements = 16 / kStorageBytes;          // one ds_read_b128
  // One read feeds kInstructionsPerRead instructions (gfx942: two), or one instruction
  // takes kReadsPerInstruction reads (gfx950's f8f6f4 with 8-bit operands: two, read
  // steps r and r + 1 giving its bytes 0..15 and 16..31).
  static constexpr int kInstructionsPerRead = kReadElements >= kOperandElements ? kReadElements / kOperandElements : 1;
  static constexpr int kReadsPerInstruction = kOperandElements > kReadElements ? kOperandElements / kReadElements : 1;
  static constexpr int kKPerRead = kReadElements * kKGroups;        // K covered by one read
  static_assert(kInstructionsPerRead * kOperandElements == kReadElements * kReadsPerInstruction,
                "Tessera MFMA atom: an operand must divide a 16-byte read, or a whole number of reads");
  static_assert(Instruction::kUnitsB == kOperandElements,
                "Tessera MFMA atom: A and B must take the same storage units a lane (both fp4, or both 8-bit "
                "or fp6): the GEMM's operand tiles and read steps are shared");

  // The K value (within the read step) that element x of a lane's 8-element read holds:
  // lane group l / M reads the 8 contiguous K values starting at 8 * (l / M).
  TESSERA_HOST_DEVICE static constexpr int read_k(int lane, int x) { return (lane / kM) * kReadElements + x; }
  // The row of A (column of B) a lane reads: the instruction's own map.
  TESSERA_HOST_DEVICE static constexpr int read_row(int lane) { return lane % kM; }
};

// The instruction each architecture and 16-bit type uses unless a configuration names
// another: gfx950's K-doubled 32x32x16 runs at twice the FLOP rate of 32x32x8
// (arch/amd/mfma.hpp). 32x32 and 16x16 forms of one generation run at the same FLOP
// rate and read the same LDS bytes for a given wave tile, but 32x32 needs half as many
// instructions per FLOP (fewer issue slots, fewer operand registers per FLOP).
template <bool kGfx950, bool kBf16>
using DefaultMfmaInstruction =
    amd::MfmaShape<32, 32, kGfx950 ? 16 : 8, kBf16 ? amd::MfmaType::kBf16 : amd::MfmaType::kF16>;

}  // namespace tessera::mma
