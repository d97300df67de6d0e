// One wave's share of the MFMA GEMM's block tile: kRepM x kRepN MFMA tiles of
// accumulators, the operand registers read from LDS, and the dot.
//
// Reads: per read step r (kKPerRead values of K) and MFMA tile row i, each lane reads the
// 16 bytes of its row (mma/mfma_atom.hpp: read_row, read_k) from the swizzled LDS tile:
// one ds_read_b128. The lane's byte offsets are computed once (one per read step: the
// swizzle mixes the row into the K chunk, so steps differ by more than a constant);
// MFMA tiles i > 0 are a constant further (their rows are a multiple of the swizzle's
// period apart) and that constant rides in the instruction's offset field.
//
// Dot: per read step, kInstructionsPerRead MFMAs per (i, j) (two on gfx942, taking the
// low and the high 8 bytes of each read; one on gfx950), ordered so that consecutive
// MFMAs write different accumulators (no back-to-back dependence stalls).
//
// The offsets are host-visible (read_offset) for the bank-conflict test.
#pragma once
#include <cstdint>
#include <utility>

#include "tessera/core/macros.hpp"
#include "tessera/mma/mfma_atom.hpp"

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)
#include "tessera/arch/amd/mfma.hpp"
#endif

namespace tessera::mma {

template <class Atom, class Tile>
struct MfmaOperandReads {
  static constexpr int kRowBytes = Tile::kCols * Tile::kElementBytes;
  // MFMA tile i of a wave is read kRepStride bytes after tile 0: its rows are kM further
  // on, a whole number of swizzle periods, so the swizzle does not change between them.
  static constexpr int kRepStride = Atom::kM * kRowBytes;
  static_assert((Atom::kM * Tile::kCols) % Tile::SwizzleType::kPeriod == 0,
                "Tessera MFMA: an MFMA tile's rows must span whole swizzle periods");
  // Byte offset in the LDS tile of the 16 bytes that `lane` reads for read step r of the
  // MFMA tile whose first row is row0.
  TESSERA_HOST_DEVICE static constexpr int read_offset(int row0, int lane, int r) {
    return Tile::byte_offset(row0 + Atom::read_row(lane), r * Atom::kKPerRead + Atom::read_k(lane, 0));
  }
};

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)

template <class Atom, class TileA, class TileB, int kRepM, int kRepN, int kReadSteps>
struct MfmaWaveTile {
  using Instruction = typename Atom::Instruction;
  using Acc = amd::MfmaAccumulator<Instruction>;
  using Operand = amd::MfmaOperand<Instruction>;
  using Read = std::uint32_t __attribute__((ext_vector_type(4)));  // one ds_read_b128
  using ReadsA = MfmaOperandReads<Atom, TileA>;
  using ReadsB = MfmaOperandReads<Atom, TileB>;
  static constexpr int kE = Atom::kOperandElements;

  Acc acc[kRepM][kRepN];
  Read a[kReadSteps][kRepM];
  Read b[kReadSteps][kRepN];
  std::uint32_t a_offset[kReadSteps];
  std::uint32_t b_offset[kReadSteps];

  // row0_a / row0_b: the wave's first row in the A tile and in the B tile.
  TESSERA_DEVICE TESSERA_FORCEINLINE void init(int row0_a, int row0_b, int lane) {
    TESSERA_UNROLL
    for (int r = 0; r < kReadSteps; ++r) {
      a_offset[r] = std::uint32_t(ReadsA::read_offset(row0_a, lane, r));
      b_offset[r] = std::uint32_t(ReadsB::read_offset(row0_b, lane, r));
    }
    TESSERA_UNROLL
    for (int i = 0; i < kRepM; ++i) {
      TESSERA_UNROLL
      for (int j = 0; j < kRepN; ++j) acc[i][j] = Acc{};
    }
  }

  // Read steps [kFirst, kFirst + kCount) of A (B) from the LDS stages.
  template <int kFirst, int kCount>
  TESSERA_DEVICE TESSERA_FORCEINLINE void read_a(const unsigned char* stage) {
    TESSERA_UNROLL
    for (int r = kFirst; r < kFirst + kCount; ++r) {
      TESSERA_UNROLL
      for (int i = 0; i < kRepM; ++i) {
        a[r][i] = *reinterpret_cast<const Read*>(stage + a_offset[r] + i * ReadsA::kRepStride);
      }
    }
  }
  template <int kFirst, int kCount>
  TESSERA_DEVICE TESSERA_FORCEINLINE void read_b(const unsigned char* stage) {
    TESSERA_UNROLL
    for (int r = kFirst; r < kFirst + kCount; ++r) {
      TESSERA_UNROLL
      for (int j = 0; j < kRepN; ++j) {
        b[r][j] = *reinterpret_cast<const Read*>(stage + b_offset[r] + j * ReadsB::kRepStride);
      }
    }
  }

  // Instruction t's operand from a 16-byte read: elements [t*E, t*E + E).
  template <int t>
  TESSERA_DEVICE TESSERA_FORCEINLINE static Operand part(Read v) {
    const auto halves = __builtin_bit_cast(amd::U16Vec<8>, v);
    if constexpr (kE == 8) {
      return halves;
    } else if constexpr (t == 0) {
      return halves.lo;
    } else {
      return halves.hi;
    }
  }

  template <int r, int t>
  TESSERA_DEVICE TESSERA_FORCEINLINE void mfma_step() {
    TESSERA_UNROLL
    for (int i = 0; i < kRepM; ++i) {
      const Operand av = part<t>(a[r][i]);
      TESSERA_UNROLL
      for (int j = 0; j < kRepN; ++j) acc[i][j] = amd::mfma<Instruction>(av, part<t>(b[r][j]), acc[i][j]);
    }
  }

  // The MFMAs of read steps [kFirst, kFirst + kCount).
  template <int kFirst, int kCount>
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot() {
    dot_steps<kFirst>(std::make_integer_sequence<int, kCount>{});
  }

  static constexpr int kMfmasPerStep = kRepM * kRepN * Atom::kInstructionsPerRead;

 private:
  template <int kFirst, int... r>
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot_steps(std::integer_sequence<int, r...>) {
    (dot_step<kFirst + r>(), ...);
  }
  template <int r>
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot_step() {
    mfma_step<r, 0>();
    if constexpr (Atom::kInstructionsPerRead == 2) mfma_step<r, 1>();
  }
};

#endif  // TESSERA_AMD_TARGET && __clang__

}  // namespace tessera::mma
