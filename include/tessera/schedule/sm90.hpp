// The two consumer-warpgroup schedules of the Hopper kernel, as types, and the rule that
// picks one (the NVIDIA form of the ping-pong schedules: docs/architecture.md, "Schedules").
//
//   Cooperative: both consumer warpgroups work on the same BM x BN tile, each on BM/2 of
//                its rows; they run the main loop together and the epilogue together.
//   Pingpong:    each consumer warpgroup owns a whole BM x BN tile, the two take
//                alternate tiles, and an ordered barrier makes their main loops take turns:
//                while one runs its MMAs the other runs its epilogue, so the tensor cores
//                are not idle during epilogues.
// Cooperative gives each tile two warpgroups' registers (128 or 256 rows); Pingpong gives
// each warpgroup one tile (64 or 128 rows) and hides the epilogue.
#pragma once
#include <type_traits>

namespace tessera::schedule {

struct Cooperative {
  static constexpr const char* kName = "Cooperative";
  static constexpr bool kPingpong = false;
  // Rows of the block tile each consumer warpgroup computes.
  template <int kBlockM>
  static constexpr int kWarpgroupRows = kBlockM / 2;
};

struct Pingpong {
  static constexpr const char* kName = "Pingpong";
  static constexpr bool kPingpong = true;
  template <int kBlockM>
  static constexpr int kWarpgroupRows = kBlockM;
};

// Resolved by ChooseSm90Schedule from the tile shape.
struct AutoSm90 {};

// The rule (benchmark/notes/wgmma.md, section The schedule rule): a 64-row tile only fits
// Pingpong (Cooperative would give each warpgroup 32 rows, below wgmma's 64); a 256-row
// tile only fits Cooperative (one warpgroup cannot hold 256 x N accumulators); for 128
// rows both fit, and Cooperative is chosen: it ran faster on large squares (the epilogue
// is a small share of a long main loop, and Cooperative needs half the stages per tile).
template <int kBlockM, int kBlockN>
struct ChooseSm90Schedule {
  using type = std::conditional_t<kBlockM == 64, Pingpong, Cooperative>;
};

template <class Schedule, int kBlockM, int kBlockN>
using ResolveSm90Schedule =
    std::conditional_t<std::is_same_v<Schedule, AutoSm90>, typename ChooseSm90Schedule<kBlockM, kBlockN>::type,
                       Schedule>;

}  // namespace tessera::schedule
