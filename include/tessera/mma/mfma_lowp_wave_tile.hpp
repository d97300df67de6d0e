// One wave's share of the MFMA GEMM's block tile for the low-precision instructions
// (arch/amd/mfma_lowp.hpp): MfmaWaveTile (mfma_wave_tile.hpp) specialised for their atoms,
// with the same interface (init, read_a/read_b of read steps, dot of read steps, acc).
//
// Reads: as for 16-bit operands, one ds_read_b128 per lane per read step and MFMA tile
// row, now 16 bytes = 16 fp8 values, 32 fp4 values, or 16 fp6 values of K (a 16-byte LDS
// chunk holds 16 fp6 values packed in its first 12 bytes: memory/mfma_tile_copy.hpp). What
// feeds one instruction:
//   gfx942 fp8/bf8 (8 bytes a lane)      two instructions per read, bytes [8t, 8t + 8)
//   gfx950 f8f6f4, fp4 (16 bytes)        one instruction per read
//   gfx950 f8f6f4, 8-bit (32 bytes)      one instruction per two read steps r, r + 1:
//                                        bytes 0..15 from r, 16..31 from r + 1
//   gfx950 f8f6f4, fp6 (24 bytes)        one instruction per two read steps r, r + 1:
//                                        words 0..2 of each (the packed 12 bytes)
// With lane group g reading bytes [16 g, 16 g + 16) of each read step (mfma_atom.hpp,
// read_k), the third case gives the instruction exactly the K values its lane layout names
// (two runs of 16, half the instruction's K apart), so the scales below apply to the right
// values; the fourth reads the same bytes, where the fp6 copy stored the two halves of the
// lane group's one run of 32 (memory/mfma_tile_copy.hpp, stored_k), so an fp6 x fp8 mix
// pairs each K with itself; the first two split K the way the layout does too.
//
// Scales (the MX-scaled instructions): with read step 0 of a K tile each lane reads the
// kBlocks scale bytes of each of its MFMA tile rows (of A) and columns (of B) from the
// stage's scale tiles (memory/mfma_scale_copy.hpp), shifted right by 8 g bits. Instruction u
// of the tile covers blocks kG u .. kG u + kG - 1 (kG = 64 / M lane groups), and lane group
// g supplies block kG u + g (arch/amd/mfma_lowp.hpp, scale_lane): after the shift that is
// byte (kG u) % 4 of scale word (kG u) / 4, the instruction's op_sel.
#pragma once
#include <cstdint>
#include <utility>

#include "tessera/arch/amd/mfma_lowp.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/memory/mfma_scale_copy.hpp"
#include "tessera/mma/mfma_atom.hpp"
#include "tessera/mma/mfma_wave_tile.hpp"

namespace tessera::mma {

// Which scale byte instruction u of a K tile reads, for kG lane groups: word and op_sel.
template <int kG>
struct MfmaScaleSelect {
  TESSERA_HOST_DEVICE static constexpr int word(int u) { return (kG * u) / 4; }
  TESSERA_HOST_DEVICE static constexpr int opsel(int u) { return (kG * u) % 4; }
};

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)

template <int M, int N, int K, amd::MfmaFormat kFormatA, amd::MfmaFormat kFormatB, bool kScaled, class TileA,
          class TileB, int kRepM, int kRepN, int kReadSteps>
struct MfmaWaveTile<MfmaAtom<amd::MfmaLowpShape<M, N, K, kFormatA, kFormatB, kScaled>>, TileA, TileB, kRepM, kRepN,
                    kReadSteps> {
  using Instruction = amd::MfmaLowpShape<M, N, K, kFormatA, kFormatB, kScaled>;
  using Atom = MfmaAtom<Instruction>;
  using Acc = amd::MfmaAccumulator<Instruction>;
  using OperandA = amd::MfmaLowpOperandA<Instruction>;
  using OperandB = amd::MfmaLowpOperandB<Instruction>;
  using Read = std::uint32_t __attribute__((ext_vector_type(4)));  // one ds_read_b128
  using ReadsA = MfmaOperandReads<Atom, TileA>;
  using ReadsB = MfmaOperandReads<Atom, TileB>;
  static constexpr int kI = Atom::kInstructionsPerRead;
  static constexpr int kR = Atom::kReadsPerInstruction;
  static constexpr int kG = Atom::kKGroups;
  static constexpr int kBlocks = TileA::kCols * Instruction::kValuesPerUnit / 32;  // per K tile
  static constexpr int kScaleWords = kScaled ? kBlocks / 4 : 1;
  using Select = MfmaScaleSelect<kG>;
  static_assert(kReadSteps % kR == 0, "Tessera MFMA: the K tile must hold whole instructions");

  Acc acc[kRepM][kRepN];
  Read a[kReadSteps][kRepM];
  Read b[kReadSteps][kRepN];
  std::uint32_t a_offset[kReadSteps];
  std::uint32_t b_offset[kReadSteps];
  std::uint32_t scale_a[kScaled ? kRepM : 1][kScaleWords];
  std::uint32_t scale_b[kScaled ? kRepN : 1][kScaleWords];
  std::uint32_t scale_offset_a, scale_offset_b;  // this lane's first row's scales, from A's (B's) tile
  std::uint32_t group_shift;                     // 8 * (lane / M)

  TESSERA_DEVICE TESSERA_FORCEINLINE void init(int row0_a, int row0_b, int lane) {
    TESSERA_UNROLL
    for (int r = 0; r < kReadSteps; ++r) {
      a_offset[r] = std::uint32_t(ReadsA::read_offset(row0_a, lane, r));
      b_offset[r] = std::uint32_t(ReadsB::read_offset(row0_b, lane, r));
    }
    if constexpr (kScaled) {
      using Scales = MfmaScaleTiles<TileA, TileB, kBlocks>;
      scale_offset_a = std::uint32_t((row0_a + lane % M) * kBlocks + Scales::kOffsetFromA);
      scale_offset_b = std::uint32_t((row0_b + lane % N) * kBlocks + Scales::kOffsetFromB);
      group_shift = 8u * std::uint32_t(lane / M);
    }
    TESSERA_UNROLL
    for (int i = 0; i < kRepM; ++i) {
      TESSERA_UNROLL
      for (int j = 0; j < kRepN; ++j) acc[i][j] = Acc{};
    }
  }

  template <int kFirst, int kCount>
  TESSERA_DEVICE TESSERA_FORCEINLINE void read_a(const unsigned char* stage) {
    read_operand<kFirst, kCount, kRepM, ReadsA::kRepStride>(stage, a, a_offset);
    if constexpr (kScaled && kFirst == 0) read_scales<kRepM>(stage + scale_offset_a, scale_a);
  }
  template <int kFirst, int kCount>
  TESSERA_DEVICE TESSERA_FORCEINLINE void read_b(const unsigned char* stage) {
    read_operand<kFirst, kCount, kRepN, ReadsB::kRepStride>(stage, b, b_offset);
    if constexpr (kScaled && kFirst == 0) read_scales<kRepN>(stage + scale_offset_b, scale_b);
  }

  // The MFMAs of read steps [kFirst, kFirst + kCount) (whole instructions).
  template <int kFirst, int kCount>
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot() {
    static_assert(kFirst % kR == 0 && kCount % kR == 0,
                  "Tessera MFMA: a dot slice must hold whole instructions (two read steps each for gfx950's "
                  "f8f6f4 MFMAs with 8-bit operands)");
    dot_instructions<kFirst / kR * kI>(std::make_integer_sequence<int, kCount / kR * kI>{});
  }

  static constexpr int kMfmasPerStep = kRepM * kRepN * kI / kR;

 private:
  template <int kFirst, int kCount, int kReps, int kRepStride, int kRows>
  TESSERA_DEVICE TESSERA_FORCEINLINE static void read_operand(const unsigned char* stage, Read (&regs)[kReadSteps][kRows],
                                                             const std::uint32_t (&offset)[kReadSteps]) {
    TESSERA_UNROLL
    for (int r = kFirst; r < kFirst + kCount; ++r) {
      TESSERA_UNROLL
      for (int i = 0; i < kReps; ++i) regs[r][i] = *reinterpret_cast<const Read*>(stage + offset[r] + i * kRepStride);
    }
  }

  template <int kReps>
  TESSERA_DEVICE TESSERA_FORCEINLINE void read_scales(const unsigned char* first, std::uint32_t (&out)[kReps][kScaleWords]) {
    TESSERA_UNROLL
    for (int i = 0; i < kReps; ++i) {
      const unsigned char* row = first + i * M * kBlocks;  // MFMA tile i: M rows further
      if constexpr (kScaleWords == 1) {
        out[i][0] = *reinterpret_cast<const std::uint32_t*>(row) >> group_shift;
      } else {
        using Word2 = std::uint32_t __attribute__((ext_vector_type(2)));  // one ds_read_b64
        const Word2 v = *reinterpret_cast<const Word2*>(row);
        out[i][0] = v[0] >> group_shift;
        out[i][1] = v[1] >> group_shift;
      }
    }
  }

  // Instruction u's operand from the read registers of MFMA tile row (column) i: Operand
  // is OperandA or OperandB, kWords its width (8 or 6 words with two reads) says what to take.
  template <int u, class Operand, int kWords, int kRows>
  TESSERA_DEVICE TESSERA_FORCEINLINE static Operand operand(const Read (&regs)[kReadSteps][kRows], int i) {
    constexpr int r = u / kI * kR;  // its first read step
    if constexpr (kR == 2 && kWords == 8) {
      const Read lo = regs[r][i], hi = regs[r + 1][i];
      return Operand{lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]};
    } else if constexpr (kR == 2) {  // fp6: the packed 12 bytes of each chunk
      const Read lo = regs[r][i], hi = regs[r + 1][i];
      return Operand{lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
    } else if constexpr (kI == 2) {
      const Read v = regs[r][i];
      if constexpr (u % 2 == 0) {
        return Operand{v[0], v[1]};
      } else {
        return Operand{v[2], v[3]};
      }
    } else {
      return regs[r][i];
    }
  }

  template <int u>
  TESSERA_DEVICE TESSERA_FORCEINLINE void instruction() {
    TESSERA_UNROLL
    for (int i = 0; i < kRepM; ++i) {
      const OperandA av = operand<u, OperandA, Instruction::kOperandWordsA>(a, i);
      TESSERA_UNROLL
      for (int j = 0; j < kRepN; ++j) {
        const OperandB bv = operand<u, OperandB, Instruction::kOperandWordsB>(b, j);
        if constexpr (kScaled) {
          constexpr int w = Select::word(u), s = Select::opsel(u);
          acc[i][j] = amd::mfma_lowp<Instruction, s, s>(av, bv, acc[i][j], scale_a[i][w], scale_b[j][w]);
        } else {
          acc[i][j] = amd::mfma_lowp<Instruction>(av, bv, acc[i][j]);
        }
      }
    }
  }

  template <int kFirst, int... u>
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot_instructions(std::integer_sequence<int, u...>) {
    (instruction<kFirst + u>(), ...);
  }
};

#endif  // TESSERA_AMD_TARGET && __clang__

}  // namespace tessera::mma
