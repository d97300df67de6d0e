// The MFMA GEMM's LDS: the operand stages, the epilogue's staging tiles, the program
// outline from which the planner decides what may share bytes, and the swizzled layout
// of an operand tile. Host-includable: tools print the plan without a GPU compiler.
//
// Operand tiles are stored K-contiguous whatever the global layout: A as [BlockM][BlockK],
// B as [BlockN][BlockK] (row n of the tile is column n of B), because an MFMA lane reads
// 8 consecutive K values of one row (mma/mfma_atom.hpp) as one ds_read_b128. Rows are
// 64, 128 or 256 bytes, so without a swizzle the rows a read instruction touches share
// banks; the swizzle (ChunkXorSwizzle, per target: 32 LDS banks on gfx942, 64 on gfx950)
// XORs row bits into the 16-byte chunk index so that the rows one phase of a read or a
// write serves hit distinct banks, and 16-byte chunks stay contiguous (a lane's read or
// write stays one instruction). test/unit/test_mfma_lds.cpp counts the conflicts of the
// kernel's own read and write addresses with each target's bank model.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/layout/swizzle.hpp"
#include "tessera/memory/mfma_scale_copy.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace tessera::gemm {

// The operand tile's swizzle: row r's 16-byte chunk c (8 K values) is stored at chunk
// c ^ g(r), bit b of g(r) being the parity of r & kMaskB. Chunks stay whole (a lane's
// 16-byte read or write stays one instruction), every offset stays in its row, and,
// since g depends on the row alone, applying the swizzle twice undoes it.
// Offsets count elements; a chunk is 2^kChunkShift of them (16 bytes: 8 of 2 bytes, 16 of 1).
template <int kK, std::uint32_t kMask0, std::uint32_t kMask1 = 0, std::uint32_t kMask2 = 0,
          std::uint32_t kMask3 = 0, int kChunkShift = 3>
struct ChunkXorSwizzle {
  static constexpr int kRowShift = log2_floor(kK);
  static constexpr std::uint32_t kRowBits = kMask0 | kMask1 | kMask2 | kMask3;
  static constexpr int kBase = kChunkShift;  // runs of one chunk stay contiguous
  static constexpr int kBlock = kK;          // and inside their row
  // The pattern repeats every 2^(highest row bit used + 1) rows.
  static constexpr int kPeriod = kK << (kRowBits == 0 ? 0 : log2_floor(int(kRowBits)) + 1);
  static constexpr bool kIsIdentity = kRowBits == 0;
  static_assert(kK >= (1 << kChunkShift) << ((kMask3 != 0) ? 3 : (kMask2 != 0) ? 2 : (kMask1 != 0) ? 1 : 0),
                "ChunkXorSwizzle: a mask for a chunk bit the row does not have");

  TESSERA_HOST_DEVICE static constexpr std::uint32_t parity(std::uint32_t x) {
    return std::uint32_t(__builtin_popcount(x)) & 1u;
  }
  template <class Int>
  TESSERA_HOST_DEVICE static constexpr Int apply(Int offset) {
    const std::uint32_t row = std::uint32_t(offset >> kRowShift);
    const std::uint32_t g = parity(row & kMask0) | parity(row & kMask1) << 1 | parity(row & kMask2) << 2 |
                            parity(row & kMask3) << 3;
    return offset ^ static_cast<Int>(g << kChunkShift);
  }
};

namespace detail {
// Which row bits go into which chunk bit, for a tile of kK elements per row on a target
// with kLdsBanks 4-byte banks (one bank pass: 4 * kLdsBanks bytes = 1 row of 128 bytes on
// gfx942, 2 on gfx950). Two levels, XORed:
//  first   (every operand) the rows one ds_read_b128 phase serves must fall into distinct
//          bank groups: chunk bit b ^= row bit (b + log2 rows per bank pass), i.e.
//          BankSwizzle with the target's window: row & 7 on gfx942, (row >> 1) & 7 on
//          gfx950 (whose two rows per pass are told apart by the row's low bit already);
//  second  (operands transposed in registers, kRowChunks > 1) the lanes of one write phase
//          write rows 8 apart (the same low row bits), so row bits 3.. are XORed in too:
//          on gfx942 into the chunk bits from the top down, on gfx950 from chunk bit 1 up.
//          The order matters: gfx942's ds_read_b128 phases pair rows 0-3 with rows 20-23
//          (and so on: rows that differ in bits 2 and 4), and row bit 4 into chunk bit 2
//          (where the first level puts bit 2) would cancel that difference; gfx950's phases
//          pair rows that differ in bits 2-4 with (row >> 1) & 7 in place, for which the
//          order from bit 1 keeps them apart.
// test/unit/test_mfma_lds.cpp counts every read and write of the shipped configurations
// (BlockK 64, and the async 32) with each target's bank model; other BlockK values use
// the same rule unchecked.
template <int kLdsBanks, int kK, int kRowChunks, int kElementBytes>
struct MfmaOperandMasks {
  static constexpr int kRowBytes = kK * kElementBytes;
  static constexpr int kChunkBits = log2_floor(kRowBytes / 16);
  static constexpr int kPassBytes = 4 * kLdsBanks;
  static constexpr int kFirstBits = log2_floor(const_min(kRowBytes, kPassBytes) / 16);
  static constexpr int kFirstRowBit = log2_floor(const_max(1, kPassBytes / kRowBytes));
  static constexpr int kSecondBits = log2_floor(kRowChunks);
  static_assert(kSecondBits <= kChunkBits, "Tessera MFMA: too many row chunks for the second swizzle level");

  static constexpr std::uint32_t mask(int chunk_bit) {
    std::uint32_t m = chunk_bit < kFirstBits ? 1u << (kFirstRowBit + chunk_bit) : 0u;
    for (int j = 0; j < kSecondBits; ++j) {
      const int target = kLdsBanks == 32 ? kChunkBits - 1 - j : (1 + j) % kChunkBits;
      if (target == chunk_bit) m ^= 1u << (3 + j);
    }
    return m;
  }
  using type = ChunkXorSwizzle<kK, mask(0), mask(1), mask(2), mask(3), log2_floor(16 / kElementBytes)>;
};
}  // namespace detail

// Rows x K operand tile of kElementBytes-sized elements, K-contiguous, swizzled in 16-byte
// chunks for a target with kLdsBanks banks; kRowChunks > 1 adds the second level for
// operands transposed in registers.
template <int kLdsBanks, int kRows, int kK, int kElementBytes, int kRowChunks = 1>
using MfmaOperandTile = SwizzledTile<kRows, kK, kElementBytes,
                                     typename detail::MfmaOperandMasks<kLdsBanks, kK, kRowChunks, kElementBytes>::type>;

template <class Config>
struct MfmaSmemPlan {
  // Row chunks of 8 rows that one phase of a transposing write covers (1: not transposed).
  static constexpr int kWriteRowChunksA = Config::kKContiguousA ? 1 : Config::Atom::kM / 8;
  static constexpr int kWriteRowChunksB = Config::kKContiguousB ? 1 : Config::Atom::kN / 8;
  // Packed fp6 operands: the instruction's lane groups, which place their chunks
  // (memory/mfma_tile_copy.hpp, stored_k); 0 for every other operand.
  static constexpr int kSixBitGroupsA = Config::kPackedSixA ? Config::Atom::kKGroups : 0;
  static constexpr int kSixBitGroupsB = Config::kPackedSixB ? Config::Atom::kKGroups : 0;
  static constexpr int kLdsBanks = Config::Arch::kLdsBanks;
  // Units of kLdsUnitBytes: 16-bit elements, or bytes (fp8, fp4 pairs, fp6 one value a
  // byte slot: memory/mfma_tile_copy.hpp).
  using TileA = MfmaOperandTile<kLdsBanks, Config::kBlockM, Config::kBlockK, Config::kLdsUnitBytes, kWriteRowChunksA>;
  using TileB = MfmaOperandTile<kLdsBanks, Config::kBlockN, Config::kBlockK, Config::kLdsUnitBytes, kWriteRowChunksB>;
  // Two pipeline stages keep the next tile in registers and need one LDS buffer; three
  // stages load straight into LDS and need three.
  static constexpr int kLdsStages = Config::kStages == 3 ? 3 : 1;

  // Epilogue: each wave stages a 32x32 fp32 piece of its tile at a time, laid out along
  // D's contiguous dimension and padded by 4 floats per line, so that the reads back are
  // 16-byte vectors in D's order. Wave-private: no block barrier between pieces.
  static constexpr int kStageLine = 32 + 4;
  static constexpr int kStageFloatsPerWave = 32 * kStageLine;
  static constexpr bool kRowMajorC = Config::LayoutC::kIsRowMajor;
  // Where element (i, j) of a 32x32 piece is staged: lines run along D's contiguous
  // dimension.
  TESSERA_HOST_DEVICE static constexpr int staging_index(int i, int j) {
    return kRowMajorC ? i * kStageLine + j : j * kStageLine + i;
  }
  // The run of 4 that lane `lane` reads back in pass q (0..3): line q*8 + lane/8, elements
  // 4*(lane%8) .. +3 of it; as (i, j) of the piece: the run's first element.
  struct Run {
    int line, at;
  };
  TESSERA_HOST_DEVICE static constexpr Run staging_run(int lane, int q) { return {q * 8 + lane / 8, 4 * (lane % 8)}; }
  TESSERA_HOST_DEVICE static constexpr int run_row(Run r) { return kRowMajorC ? r.line : r.at; }
  TESSERA_HOST_DEVICE static constexpr int run_col(Run r) { return kRowMajorC ? r.at : r.line; }

  // One stage holds the A tile, then the B tile (then, with MX block scales, their scale
  // tiles: memory/mfma_scale_copy.hpp); stages follow each other, so one offset names a
  // stage for both operands (the three-stage loop rotates one offset, not four).
  static constexpr std::size_t scale_bytes() {
    if constexpr (Config::kBlockScaled) {
      return std::size_t(MfmaScaleTiles<TileA, TileB, Config::kScaleBlocks>::kBytes);
    } else {
      return 0;
    }
  }
  static constexpr std::size_t kScaleBytes = scale_bytes();
  static constexpr std::size_t kStageBytes = std::size_t(TileA::kBytes) + TileB::kBytes + kScaleBytes;
  static constexpr std::size_t kStageOffsetB = TileA::kBytes;

  struct Stages : smem::Buffer<std::size_t(kLdsStages) * kStageBytes> {
    static constexpr const char* kName = Config::kBlockScaled ? "A+B stages with scales" : "A+B stages";
  };
  struct StagingC : smem::Buffer<std::size_t(Config::kWaves) * kStageFloatsPerWave * 4> {
    static constexpr const char* kName = "C staging";
  };
  using Outline = smem::Seq<
      smem::Step<smem::Overwrite<Stages>>,  // the prologue fills the first stage(s)
      smem::Loop<smem::Step<smem::Read<Stages>, smem::Write<Stages>>>,
      smem::Loop<smem::Step<smem::Overwrite<StagingC>>,  // one 32x32 piece per pass
                 smem::Step<smem::Read<StagingC>>>>;
  using Plan = smem::Plan<smem::Buffers<Stages, StagingC>, Outline>;
  static_assert(sizeof(smem::AssertFits<typename Config::Arch, Plan>) > 0, "");
  static_assert(Plan::kTotalBytes * Config::kBlocksPerCu <= Config::Arch::kSmemBytesPerBlock,
                "Tessera MFMA GEMM: the one-cluster ping-pong runs two workgroups per CU, so its "
                "LDS plan must fit in half the CU's LDS (32 KiB on gfx942, 80 KiB on gfx950); use a "
                "smaller tile (128x128x64 is Triton BlockPingpong's shape)");
};

}  // namespace tessera::gemm
