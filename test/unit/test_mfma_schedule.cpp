// The MFMA GEMM's schedule selection rule (schedule/amd_pingpong.hpp) on the seed's test
// shapes (Triton's amd-block-pingpong.mlir), and what MfmaConfig derives from it for the
// shipped configurations (examples/mfma_configs.hpp): waves, wave grid, MFMA tiles per
// wave, K slices, registers estimated against the occupancy the schedule needs, LDS plan
// against the capacity (half of it for the one-cluster schedule, two workgroups per CU).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>
#include <type_traits>

#include "mfma_configs.hpp"
#include "tessera/gemm/mfma/k_tile_order.hpp"
#include "tessera/gemm/mfma/mfma.hpp"
#include "tessera/gemm/mfma/smem_plan.hpp"

using namespace tessera;
using schedule::PingPongKind;
using schedule::ScheduleRequest;
using schedule::select_schedule;

namespace {
constexpr std::int64_t bits(int m, int n, int k) { return std::int64_t(m) * n * k * 16; }
}  // namespace

TEST_CASE("select_schedule: the seed's shapes and thresholds", "[mfma][schedule]") {
  // pingpong_small: 128x128x64 f16, 4 waves -> one cluster.
  CHECK(select_schedule({bits(128, 128, 64), 4, 2, false, true}) == PingPongKind::kOneCluster);
  // pingpong_medium: 256x128x64, 8 waves -> two clusters; pingpong_large: 256x256x64 -> four.
  CHECK(select_schedule({bits(256, 128, 64), 8, 2, false, true}) == PingPongKind::kTwoClusters);
  CHECK(select_schedule({bits(256, 256, 64), 8, 2, false, false}) == PingPongKind::kFourClusters);
  // pingpong_reject: 256x256x16 is "small" by size but asks for 8 waves: no ping-pong.
  CHECK(select_schedule({bits(256, 256, 16), 8, 2, false, true}) == PingPongKind::kNone);
  // minTile = 32x128x64 is the smallest one-cluster tile; below it, nothing.
  CHECK(select_schedule({bits(32, 128, 64), 4, 2, false, true}) == PingPongKind::kOneCluster);
  CHECK(select_schedule({bits(32, 64, 64), 4, 2, false, true}) == PingPongKind::kNone);
  // numStages must be > 1 (the seed returns early): one stage never pingpongs.
  CHECK(select_schedule({bits(128, 128, 64), 4, 1, false, true}) == PingPongKind::kNone);
  // Waves left open: the rule picks them with the schedule.
  CHECK(select_schedule({bits(128, 128, 64), 0, 2, true, true}) == PingPongKind::kOneCluster);
  CHECK(select_schedule({bits(256, 256, 64), 0, 2, true, true}) == PingPongKind::kFourClusters);
  // A 4-wave request on a large tile: no 4-wave ping-pong exists for it.
  CHECK(select_schedule({bits(256, 256, 64), 4, 2, false, true}) == PingPongKind::kNone);
}

TEST_CASE("select_schedule: ranges where the seed tests equality, and the async rule", "[mfma][schedule]") {
  // The seed's two-cluster test is tileSize == medium; our lowering works for any tile in
  // [medium, large) whose K splits in two (the config checks that): 256x192x64.
  CHECK(select_schedule({bits(256, 192, 64), 8, 2, false, true}) == PingPongKind::kTwoClusters);
  // Three stages: async on gfx950 with both operands K-contiguous, else no ping-pong.
  CHECK(select_schedule({bits(256, 256, 32), 0, 3, true, true}) == PingPongKind::kAsync);
  CHECK(select_schedule({bits(256, 256, 32), 0, 3, false, true}) == PingPongKind::kNone);
  CHECK(select_schedule({bits(256, 256, 32), 0, 3, true, false}) == PingPongKind::kNone);
  CHECK(select_schedule({bits(128, 128, 32), 0, 3, true, true}) == PingPongKind::kNone);
}

template <class Config>
void describe(const char* name) {
  using Plan = typename gemm::MfmaSmemPlan<Config>::Plan;
  std::printf("  %-14s %-6s %-32s %dx%dx%d, %d waves (%dx%d, %dx%d each), %d K slice(s), ~%d of %d regs, "
              "LDS %zu B\n",
              name, Config::Arch::kName, Config::Schedule::kName, Config::kBlockM, Config::kBlockN,
              Config::kBlockK, Config::kWaves, Config::kWavesM, Config::kWavesN, Config::kWaveM,
              Config::kWaveN, Config::kSlices, Config::kEstimatedRegs, Config::kRegisterBudget,
              Plan::kTotalBytes);
  CHECK(Config::kEstimatedRegs <= Config::kRegisterBudget);
  CHECK(Plan::kTotalBytes * Config::kBlocksPerCu <= Config::Arch::kSmemBytesPerBlock);
  // The plan aliases the epilogue's staging with the operand stages: total = max, not sum.
  CHECK(Plan::kTotalBytes == Plan::kLowerBoundBytes);
}

TEST_CASE("Shipped MFMA configurations: schedule, waves, registers, LDS", "[mfma][schedule]") {
  namespace cfg = examples::mfma;
  using schedule::NoPingPong;
  using schedule::PingPongAsync;
  using schedule::PingPongFourClusters;
  using schedule::PingPongOneCluster;
  using schedule::PingPongTwoClusters;
  STATIC_REQUIRE(std::is_same_v<cfg::Baseline<Gfx942>::Schedule, NoPingPong<4>>);
  STATIC_REQUIRE(std::is_same_v<cfg::OneCluster<Gfx942>::Schedule, PingPongOneCluster>);
  STATIC_REQUIRE(std::is_same_v<cfg::OneCluster16<Gfx950>::Schedule, PingPongOneCluster>);
  STATIC_REQUIRE(std::is_same_v<cfg::TwoClusters<Gfx942>::Schedule, PingPongTwoClusters>);
  STATIC_REQUIRE(std::is_same_v<cfg::FourClusters<Gfx950>::Schedule, PingPongFourClusters>);
  STATIC_REQUIRE(std::is_same_v<cfg::Async::Schedule, PingPongAsync>);
  // The four-cluster tile: 8 waves as 2x4, 128x64 each, 4x2 MFMA tiles of 32x32.
  using Four = cfg::FourClusters<Gfx942>;
  STATIC_REQUIRE(Four::kWavesM == 2);
  STATIC_REQUIRE(Four::kWaveM == 128);
  STATIC_REQUIRE(Four::kRepM == 4);
  STATIC_REQUIRE(Four::kRepN == 2);
  STATIC_REQUIRE(Four::kReadStepsPerSlice == 1);
  // Two waves per SIMD wherever ping-pong runs: the partner wave.
  STATIC_REQUIRE(Four::kWavesPerSimd == 2);
  STATIC_REQUIRE(cfg::OneCluster<Gfx942>::kWavesPerSimd == 2);
  STATIC_REQUIRE(cfg::Async::kWavesPerSimd == 2);

  std::printf("Shipped MFMA GEMM configurations\n");
  describe<cfg::Baseline<Gfx942>>("baseline");
  describe<cfg::Baseline<Gfx950>>("baseline");
  describe<cfg::OneCluster<Gfx942>>("one cluster");
  describe<cfg::OneCluster<Gfx950>>("one cluster");
  describe<cfg::OneCluster16<Gfx942>>("one cl. 16x16");
  describe<cfg::OneCluster16<Gfx950>>("one cl. 16x16");
  describe<cfg::TwoClusters<Gfx942>>("two clusters");
  describe<cfg::TwoClusters<Gfx950>>("two clusters");
  describe<cfg::FourClusters<Gfx942>>("four clusters");
  describe<cfg::FourClusters<Gfx950>>("four clusters");
  describe<cfg::Async>("async");
}

TEST_CASE("LastFirstKOrder: every K tile once, the last one first, cursor = positions", "[mfma][k_order]") {
  using gemm::LastFirstKOrder;
  REQUIRE(LastFirstKOrder::make(0, 64).tiles() == 0);
  for (int bk : {32, 64, 128}) {
    for (int k = 1; k <= 5 * bk + 7; ++k) {
      const auto o = LastFirstKOrder::make(k, bk);
      const int tiles = (k + bk - 1) / bk;
      REQUIRE(o.tiles() == tiles);
      // Positions 0 .. tiles-1 cover every K tile exactly once, the last one (the only one
      // that may be partial, and the only one holding K - 1) first.
      std::vector<int> seen(tiles, 0);
      for (int pos = 0; pos < tiles; ++pos) ++seen[o.tile_at(pos)];
      for (int n : seen) REQUIRE(n == 1);
      REQUIRE(o.tile_at(0) == tiles - 1);
      REQUIRE(o.first_tile_depth(k, bk) > 0);
      REQUIRE(o.first_tile_depth(k, bk) <= bk);
      REQUIRE(o.first_tile_depth(k, bk) == std::min(bk, k - o.tile_at(0) * bk));
      // The kernel's cursor: position 0, a jump to position 1, then step() after each load;
      // it agrees with tile_at, and the loop's run-ahead loads (up to two past the end)
      // only ever name tiles before the last (or tile 0 when there is none, whose loads
      // read 0: limit_to_whole_tiles).
      int cursor = o.first_tile();
      REQUIRE(cursor == o.tile_at(0));
      cursor += o.full_index(1) - o.first_tile();
      for (int pos = 1; pos < tiles + 3; ++pos) {
        REQUIRE(cursor == o.tile_at(pos));
        REQUIRE(cursor >= 0);
        if (o.n_rest > 0) REQUIRE(cursor < o.n_rest);
        if (o.n_rest == 0) REQUIRE(cursor == 0);
        cursor += o.step(pos) ? 1 : 0;
      }
    }
  }
}

TEST_CASE("MFMA host API: the family's requirements and refusals", "[mfma][host]") {
  namespace cfg = examples::mfma;
  using Four = gemm::Gemm<cfg::FourClusters<Gfx942>>;
  using Async = gemm::Gemm<cfg::Async>;
  std::vector<bfloat16_t> a(64 * 64 + 8), b(64 * 64 + 8);
  std::vector<float> d(64 * 64);
  gemm::Arguments<bfloat16_t, bfloat16_t, float> args{64, 64, 64, a.data(), 64, b.data(), 64,
                                                      nullptr, 64, d.data(), 64, 1.0f, 0.0f};
  CHECK(Four::can_implement(args) == Status::kSuccess);
  CHECK(Async::can_implement(args) == Status::kSuccess);
  // An odd leading dimension: the register path gathers elements, the async path has no
  // narrower load than 16 bytes and refuses.
  auto odd = args;
  odd.lda = 65;
  CHECK(Four::can_implement(odd) == Status::kSuccess);
  CHECK(Async::can_implement(odd) == Status::kErrorMisalignedA);
  auto odd_b = args;
  odd_b.B = b.data() + 1;
  CHECK(Four::can_implement(odd_b) == Status::kSuccess);
  CHECK(Async::can_implement(odd_b) == Status::kErrorMisalignedB);
  // Buffer descriptors count bytes in 32 bits: A or B of 4 GiB or more is refused.
  auto huge = args;
  huge.M = (std::int64_t(1) << 16) + 1;
  huge.lda = std::int64_t(1) << 15;  // A spans 2^31 + 64 elements of 2 bytes: over 4 GiB
  CHECK(Four::can_implement(huge) == Status::kErrorOffsetOverflow);
  huge.M = std::int64_t(1) << 16;  // just under 4 GiB
  CHECK(Four::can_implement(huge) == Status::kSuccess);
  // K is counted in 32 bits (with room for one more tile).
  auto deep = args;
  deep.M = deep.N = 1;
  deep.K = deep.lda = deep.ldb = 0x7fffffff;
  CHECK(Four::can_implement(deep) == Status::kErrorOffsetOverflow);
  // No workspace in this family; a host build has no device to run on.
  CHECK(Four::workspace_size(args) == 0);
  CHECK(Four::run(args) == Status::kErrorNoDevice);
}
