// The MFMA GEMM's LDS: the operand stages, the epilogue's staging tiles, the program
// outline from which the planner decides what may share bytes, and the swizzled layout
// of an operand tile. Host-includable: tools print the plan without a GPU compiler.
//
// Operand tiles are stored K-contiguous whatever the global layout: A as [BlockM][BlockK],
// B as [BlockN][BlockK] (row n of the tile is column n of B), because an MFMA lane reads
// 8 consecutive K values of one row (mma/mfma_atom.hpp) as one ds_read_b128. Rows are
// 64, 128 or 256 bytes, so without a swizzle the 32 rows a read instruction touches share
// banks; BankSwizzle XORs the row into the 16-byte chunk index so that every 8 rows of a
// chunk column hit distinct banks, and 16-byte chunks stay contiguous (a lane's read or
// write stays one instruction). test/unit/test_mfma_lds.cpp counts the conflicts of the
// kernel's own read and write addresses.
#pragma once
#include <cstddef>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/gemm/mfma_config.hpp"
#include "tessera/layout/swizzle.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace tessera::gemm {

namespace detail {
// The operand tile's swizzle. First level (every operand): BankSwizzle XORs the row's low
// bits into the 16-byte chunk index, so the 8 consecutive rows one phase of an MFMA
// operand read covers hit distinct banks. Second level (operands transposed in registers,
// kRowChunks > 1): the lanes of one write phase each write a few K values of rows 8
// apart (same low row bits, so the first level maps them to the same chunk: a 16-way
// conflict for 8-byte writes); XOR-ing row bits 3.. into the high chunk bits spreads them.
// It uses log2(kRowChunks) row bits, kRowChunks = MFMA rows / 8, so rows one MFMA tile
// apart keep the same XOR (the reads' constant offsets between MFMA tiles survive), and a
// read phase (8 consecutive rows) sees one constant second-level XOR (still conflict-free).
template <int kK, int kRowChunks>
struct MfmaOperandSwizzle {
  static constexpr int kChunkBits = log2_floor(kK / 8);
  static constexpr int kRowBits = log2_floor(kRowChunks);
  using First = BankSwizzle<kK, 2, 16>;
  using type = std::conditional_t<kRowChunks == 1, First,
                                  SwizzlePair<First, Swizzle<kRowBits, 3 + kChunkBits - kRowBits, 3 + kRowBits>>>;
  static_assert(kRowBits <= kChunkBits, "Tessera MFMA: too many row chunks for the second swizzle level");
};
}  // namespace detail

// Rows x K operand tile of 16-bit elements, K-contiguous, swizzled in 16-byte chunks;
// kRowChunks > 1 adds the second swizzle level for operands transposed in registers.
template <int kRows, int kK, int kRowChunks = 1>
using MfmaOperandTile = SwizzledTile<kRows, kK, 2, typename detail::MfmaOperandSwizzle<kK, kRowChunks>::type>;

template <class Config>
struct MfmaSmemPlan {
  // Row chunks of 8 rows that one phase of a transposing write covers (1: not transposed).
  static constexpr int kWriteRowChunksA = Config::kKContiguousA ? 1 : Config::Atom::kM / 8;
  static constexpr int kWriteRowChunksB = Config::kKContiguousB ? 1 : Config::Atom::kN / 8;
  using TileA = MfmaOperandTile<Config::kBlockM, Config::kBlockK, kWriteRowChunksA>;
  using TileB = MfmaOperandTile<Config::kBlockN, Config::kBlockK, kWriteRowChunksB>;
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

  // One stage holds the A tile, then the B tile; stages follow each other, so one offset
  // names a stage for both operands (the three-stage loop rotates one offset, not four).
  static constexpr std::size_t kStageBytes = std::size_t(TileA::kBytes) + TileB::kBytes;
  static constexpr std::size_t kStageOffsetB = TileA::kBytes;

  struct Stages : smem::Buffer<std::size_t(kLdsStages) * kStageBytes> {
    static constexpr const char* kName = "A+B stages";
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
                "smaller tile (128x128x64 is the seed's shape)");
};

}  // namespace tessera::gemm
