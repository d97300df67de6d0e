// The MFMA GEMM's LDS traffic, counted instruction by instruction with each target's LDS
// bank model (test/support/lds_bank_model.hpp: 32 banks on gfx942, 64 on gfx950, lane
// phases from AMD's documentation and from measurements elsewhere; not measured here),
// for every shipped configuration (examples/mfma_configs.hpp) on gfx942 and gfx950. The addresses are the
// kernel's own: the wave tile's read offsets (mma/mfma_wave_tile.hpp) and the tile copy's
// write offsets (memory/mfma_tile_copy.hpp), so a change there is counted here.
//
// Checked:
//  - every ds_read_b128 of an MFMA operand reads the element the atom's lane map asks for
//    (the address arithmetic is right) and is bank-conflict free;
//  - every 16-byte LDS write of a K-contiguous (or gathered) operand is conflict-free;
//  - the register-transposing writes (M/N-contiguous operands) have the degree printed
//    and checked below (the notes explain it);
//  - the same reads without the swizzle conflict (the swizzle is what removes them).
// Run with -s (or ctest -V) to print the table recorded in benchmark/notes/mfma.md.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "lds_bank_model.hpp"
#include "mfma_configs.hpp"
#include "mfma_lowp_configs.hpp"
#include "tessera/gemm/mfma/smem_plan.hpp"
#include "tessera/memory/mfma_scale_copy.hpp"
#include "tessera/memory/mfma_tile_copy.hpp"
#include "tessera/mma/mfma_wave_tile.hpp"

using namespace tessera;
using tessera::test::count_conflicts;
using tessera::test::Cost;
using tessera::test::LdsAccess;
using tessera::test::amd_bank_model;

namespace {

struct Worst {
  int degree = 0;
  int instructions = 0;
  void add(const Cost& c) {
    degree = std::max(degree, c.degree);
    ++instructions;
  }
};

void report(const char* config, const char* arch, const char* what, const Worst& w) {
  std::printf("  %-14s %-7s %-48s %4d instructions, worst degree %2d\n", config, arch, what, w.instructions,
              w.degree);
}

// Every operand read of every wave: lane -> byte address, 16 bytes each. Also checks that
// the address holds the (row, K) the MFMA lane map asks for (for packed fp6 the K position
// its copy stores the right chunk at: test_mfma_lowp_host.cpp checks that placement).
template <class Config, class Tile>
Worst operand_reads(bool is_a) {
  using Atom = typename Config::Atom;
  using Reads = mma::MfmaOperandReads<Atom, Tile>;
  const int waves_along = is_a ? Config::kWavesM : Config::kWavesN;
  const int wave_rows = is_a ? Config::kWaveM : Config::kWaveN;
  const int reps = is_a ? Config::kRepM : Config::kRepN;
  Worst w;
  for (int wave = 0; wave < waves_along; ++wave) {
    const int row0 = wave * wave_rows;
    for (int r = 0; r < Config::kReadSteps; ++r) {
      for (int i = 0; i < reps; ++i) {
        std::vector<std::int64_t> addr(64);
        for (int lane = 0; lane < 64; ++lane) {
          addr[lane] = Reads::read_offset(row0, lane, r) + i * Reads::kRepStride;
          const int row = row0 + i * Atom::kM + Atom::read_row(lane);
          const int k = r * Atom::kKPerRead + Atom::read_k(lane, 0);
          REQUIRE(addr[lane] == Tile::byte_offset(row, k));
        }
        w.add(count_conflicts(amd_bank_model(typename Config::Arch{}), addr, 16));
      }
    }
  }
  return w;
}

// Every LDS write of one operand tile's copy, for the whole block (kSix: a packed fp6
// operand's lane groups, which place its chunks).
template <class Config, class Tile, TileCopyKind kKind, int kRowChunks, int kSix = 0>
Worst operand_writes() {
  using Map = MfmaTileCopyMap<Tile, Config::kThreads, kKind, kRowChunks, kSix>;
  Worst w;
  for (int wave = 0; wave < Config::kWaves; ++wave) {
    if constexpr (kKind == TileCopyKind::kTransposing) {
      for (int e = 0; e < Map::kVec; ++e) {
        std::vector<std::int64_t> addr(64);
        for (int lane = 0; lane < 64; ++lane) addr[lane] = Map::transposed_offset(64 * wave + lane, e);
        w.add(count_conflicts(amd_bank_model(typename Config::Arch{}), addr, Map::kP * 2, LdsAccess::kWrite));
      }
    } else {
      for (int v = 0; v < Map::kPieces; ++v) {
        std::vector<std::int64_t> addr(64);
        for (int lane = 0; lane < 64; ++lane) {
          const int t = 64 * wave + lane;
          addr[lane] = Map::piece_offset(t, v);
          REQUIRE(addr[lane] == Tile::byte_offset(Map::piece(t, v).row, Map::stored_k(Map::piece(t, v).k)));
        }
        w.add(count_conflicts(amd_bank_model(typename Config::Arch{}), addr, 16, LdsAccess::kWrite));
      }
    }
  }
  return w;
}

// Every element of the tile is written exactly once by the copy (any kind).
template <class Config, class Tile, TileCopyKind kKind, int kRowChunks, int kSix = 0>
void check_copy_covers_tile() {
  using Map = MfmaTileCopyMap<Tile, Config::kThreads, kKind, kRowChunks, kSix>;
  std::vector<int> seen(Tile::kElements, 0);
  for (int t = 0; t < Config::kThreads; ++t) {
    if constexpr (kKind == TileCopyKind::kTransposing) {
      for (int e = 0; e < Map::kVec; ++e)
        for (int x = 0; x < Map::kP; ++x) ++seen[Tile::offset(Map::block(t).row + e, Map::block(t).k + x)];
    } else {
      for (int v = 0; v < Map::kPieces; ++v)
        for (int x = 0; x < Map::kVec; ++x) ++seen[Tile::offset(Map::piece(t, v).row, Map::stored_k(Map::piece(t, v).k) + x)];
    }
  }
  for (int n : seen) REQUIRE(n == 1);
}

template <class Config>
void count_config(const char* name, int transposed_write_degree) {
  using Plan = gemm::MfmaSmemPlan<Config>;
  using TileA = typename Plan::TileA;
  using TileB = typename Plan::TileB;
  const char* arch = Config::Arch::kName;
  const Worst ra = operand_reads<Config, TileA>(true);
  const Worst rb = operand_reads<Config, TileB>(false);
  report(name, arch, "A operand reads (ds_read_b128)", ra);
  report(name, arch, "B operand reads (ds_read_b128)", rb);
  CHECK(ra.degree == 1);
  CHECK(rb.degree == 1);

  // The same reads through an unswizzled tile: the swizzle is what makes them free.
  using PlainA = SwizzledTile<TileA::kRows, TileA::kCols, TileA::kElementBytes, NoSwizzle>;
  const Worst plain = operand_reads<Config, PlainA>(true);
  report(name, arch, "A operand reads, no swizzle (for comparison)", plain);
  CHECK(plain.degree > 1);

  auto writes = [&](auto tile, auto kind_tag, auto row_chunks, auto six, const char* what) {
    using T = decltype(tile);
    constexpr TileCopyKind kKind = decltype(kind_tag)::value;
    constexpr int kRowChunks = decltype(row_chunks)::value;
    constexpr int kSix = decltype(six)::value;
    check_copy_covers_tile<Config, T, kKind, kRowChunks, kSix>();
    const Worst w = operand_writes<Config, T, kKind, kRowChunks, kSix>();
    report(name, arch, what, w);
    CHECK(w.degree == (kKind == TileCopyKind::kTransposing ? transposed_write_degree : 1));
  };
  using Contig = std::integral_constant<TileCopyKind, TileCopyKind::kContiguousK>;
  using Transp = std::integral_constant<TileCopyKind, TileCopyKind::kTransposing>;
  using Gather = std::integral_constant<TileCopyKind, TileCopyKind::kGather>;
  using ChunksA = std::integral_constant<int, Plan::kWriteRowChunksA>;
  using ChunksB = std::integral_constant<int, Plan::kWriteRowChunksB>;
  using SixA = std::integral_constant<int, Plan::kSixBitGroupsA>;
  using SixB = std::integral_constant<int, Plan::kSixBitGroupsB>;
  if constexpr (Config::kKContiguousA) {
    writes(TileA{}, Contig{}, ChunksA{}, SixA{}, "A writes, 16-byte pieces (ds_write_b128)");
  } else {
    writes(TileA{}, Transp{}, ChunksA{}, SixA{}, "A writes, transposed in registers");
  }
  if constexpr (Config::kKContiguousB) {
    writes(TileB{}, Contig{}, ChunksB{}, SixB{}, "B writes, 16-byte pieces (ds_write_b128)");
  } else {
    writes(TileB{}, Transp{}, ChunksB{}, SixB{}, "B writes, transposed in registers");
  }
  if constexpr (!Config::kDirectToLds) {
    writes(TileA{}, Gather{}, ChunksA{}, SixA{}, "A writes, unaligned variant (gathered)");
  }
}

}  // namespace

TEST_CASE("MFMA operand LDS traffic per shipped configuration (AMD LDS model)", "[mfma][banks]") {
  namespace cfg = examples::mfma;
  std::printf("MFMA GEMM LDS traffic, AMD LDS bank models: gfx942 32 banks, gfx950 64 (not measured)\n");
  constexpr int kTransposed = 1;
  count_config<cfg::Baseline<Gfx942>>("baseline", kTransposed);
  count_config<cfg::Baseline<Gfx950>>("baseline", kTransposed);
  count_config<cfg::OneCluster<Gfx942>>("one cluster", kTransposed);
  count_config<cfg::OneCluster<Gfx950>>("one cluster", kTransposed);
  count_config<cfg::OneCluster16<Gfx942>>("one cl. 16x16", kTransposed);
  count_config<cfg::OneCluster16<Gfx950>>("one cl. 16x16", kTransposed);
  count_config<cfg::TwoClusters<Gfx942>>("two clusters", kTransposed);
  count_config<cfg::TwoClusters<Gfx950>>("two clusters", kTransposed);
  count_config<cfg::FourClusters<Gfx942>>("four clusters", kTransposed);
  count_config<cfg::FourClusters<Gfx950>>("four clusters", kTransposed);
  count_config<cfg::Async>("async", kTransposed);
}

// The MX scale tiles: each lane reads its rows' scale bytes (4 or 8, consecutive lanes
// consecutive rows, the lane groups the same rows: one broadcast).
template <class Config>
void count_scale_reads(const char* name) {
  using Plan = gemm::MfmaSmemPlan<Config>;
  using Scales = MfmaScaleTiles<typename Plan::TileA, typename Plan::TileB, Config::kScaleBlocks>;
  using Atom = typename Config::Atom;
  Worst w;
  for (int wave = 0; wave < Config::kWavesM; ++wave) {
    for (int i = 0; i < Config::kRepM; ++i) {
      std::vector<std::int64_t> addr(64);
      for (int lane = 0; lane < 64; ++lane) {
        addr[lane] = Scales::kOffsetFromA + (wave * Config::kWaveM + i * Atom::kM + lane % Atom::kM) * Config::kScaleBlocks;
      }
      w.add(count_conflicts(amd_bank_model(typename Config::Arch{}), addr, Config::kScaleBlocks));
    }
  }
  report(name, Config::Arch::kName, "A scale reads (ds_read_b32 / b64)", w);
  CHECK(w.degree == 1);
}

TEST_CASE("Low-precision MFMA operand and scale LDS traffic per shipped configuration", "[mfma][banks][lowp]") {
  namespace cfg = examples::mfma_lowp;
  std::printf("Low-precision MFMA GEMM LDS traffic, AMD LDS bank models (not measured)\n");
  constexpr int kTransposed = 1;  // none transposes: fp8/fp6/fp4 operands are K-contiguous
  count_config<cfg::Fp8Baseline942>("fp8 baseline", kTransposed);
  count_config<cfg::Fp8OneCluster942>("fp8 one cl.", kTransposed);
  count_config<cfg::Fp8OneCluster16x942>("fp8 one 16x16", kTransposed);
  count_config<cfg::Fp8TwoClusters942>("fp8 two cl.", kTransposed);
  count_config<cfg::Fp8FourClusters942>("fp8 four cl.", kTransposed);
  count_config<cfg::Mxfp8Baseline950>("mxfp8 baseline", kTransposed);
  count_config<cfg::Fp8OneCluster950>("fp8 one cl.", kTransposed);
  count_config<cfg::Mxfp8OneCluster16x950>("mxfp8 one 16", kTransposed);
  count_config<cfg::Mxfp8TwoClusters950>("mxfp8 two cl.", kTransposed);
  count_config<cfg::Mxfp4TwoClusters950>("mxfp4 two cl.", kTransposed);
  count_config<cfg::Mxfp4OneCluster16x950>("mxfp4 one 16", kTransposed);
  count_config<cfg::Mxfp6TwoClusters950>("mxfp6 two cl.", kTransposed);
  count_config<cfg::Mxfp6Fp8OneCluster16x950>("mxfp6xfp8 one16", kTransposed);
  count_config<cfg::Fp8Bf6Baseline950>("fp8xbf6 base", kTransposed);
  count_scale_reads<cfg::Mxfp8Baseline950>("mxfp8 baseline");
  count_scale_reads<cfg::Mxfp8OneCluster16x950>("mxfp8 one 16");
  count_scale_reads<cfg::Mxfp8TwoClusters950>("mxfp8 two cl.");
  count_scale_reads<cfg::Mxfp4TwoClusters950>("mxfp4 two cl.");
  count_scale_reads<cfg::Mxfp4OneCluster16x950>("mxfp4 one 16");
  count_scale_reads<cfg::Mxfp6TwoClusters950>("mxfp6 two cl.");
  count_scale_reads<cfg::Mxfp6Fp8OneCluster16x950>("mxfp6xfp8 one16");
}

TEST_CASE("Direct-to-LDS chunks land where the swizzled tile expects them", "[mfma][banks]") {
  // gfx950 async: lane i of chunk c writes LDS bytes [1024c + 16i, +16); the copy map says
  // which global 16 bytes to fetch for that: (row, k) with byte_offset(row, k) == that.
  using Config = examples::mfma::Async;
  using Tile = typename gemm::MfmaSmemPlan<Config>::TileA;
  using Map = MfmaTileCopyMap<Tile, Config::kThreads, TileCopyKind::kContiguousK>;
  std::vector<int> seen(Tile::kElements / 8, 0);
  for (int c = 0; c < Map::kDirectChunks; ++c)
    for (int lane = 0; lane < 64; ++lane) {
      const auto at = Map::direct(c, lane);
      REQUIRE(at.k % 8 == 0);
      REQUIRE(Tile::byte_offset(at.row, at.k) == 1024 * c + 16 * lane);
      ++seen[Tile::offset(at.row, at.k) / 8];
    }
  for (int n : seen) REQUIRE(n == 1);
  // The loads' LDS writes: 1 KiB of consecutive 16-byte slots per instruction.
  std::vector<std::int64_t> slots(64);
  for (int lane = 0; lane < 64; ++lane) slots[std::size_t(lane)] = 16 * lane;
  CHECK(count_conflicts(tessera::test::kAmdGfx950, slots, 16, LdsAccess::kWrite).degree == 1);
}

template <class Config>
void check_epilogue_staging() {
  using Plan = gemm::MfmaSmemPlan<Config>;
  using Atom = typename Config::Atom;
  // Written: every (i, j) of a 32x32 piece, from the MFMA tiles' accumulators.
  std::vector<int> written(Plan::kStageFloatsPerWave, -1);
  for (int am = 0; am < 32 / Atom::kM; ++am)
    for (int an = 0; an < 32 / Atom::kN; ++an)
      for (int lane = 0; lane < 64; ++lane)
        for (int r = 0; r < Atom::kAccumulators; ++r) {
          const auto c = Atom::c_coord(lane, r);
          const int i = am * Atom::kM + c.row, j = an * Atom::kN + c.col;
          const int at = Plan::staging_index(i, j);
          REQUIRE(written[at] == -1);
          written[at] = i * 32 + j;
        }
  // Read back: each run of 4 along D's contiguous dimension holds the elements the
  // epilogue hands to the LinearCombination for (row, col) .. +3; all 1024, once.
  std::vector<int> read(32 * 32, 0);
  for (int lane = 0; lane < 64; ++lane)
    for (int q = 0; q < 4; ++q) {
      const auto run = Plan::staging_run(lane, q);
      for (int x = 0; x < 4; ++x) {
        const int row = Plan::run_row(run) + (Plan::kRowMajorC ? 0 : x);
        const int col = Plan::run_col(run) + (Plan::kRowMajorC ? x : 0);
        REQUIRE(written[run.line * Plan::kStageLine + run.at + x] == row * 32 + col);
        ++read[row * 32 + col];
      }
    }
  for (int n : read) REQUIRE(n == 1);
}

TEST_CASE("Epilogue staging: every accumulator staged once and read back in D's order", "[mfma]") {
  namespace cfg = examples::mfma;
  check_epilogue_staging<cfg::Baseline<Gfx942>>();      // 32x32 atoms, row-major D
  check_epilogue_staging<cfg::OneCluster16<Gfx942>>();  // 16x16 atoms, column-major D
  check_epilogue_staging<cfg::OneCluster16<Gfx950>>();
  check_epilogue_staging<cfg::TwoClusters<Gfx950>>();   // 32x32, column-major D
}
