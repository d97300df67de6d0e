// The rule of Gemm<Auto<...>> (select/auto.hpp): which shipped Hopper configuration a call runs,
// from what the call is (M, N, K, whether TMA can describe A and B, A's layout, whether the call
// passes a workspace) and the device's SM count. Host-only and constexpr, so the host tests walk
// it for every benchmark shape; the entries' own checks (can_implement) guard the launch again.
//
// The entries (select/auto.hpp has their types), each a configuration tested by the GPU suite:
//   kSmallM16/32/64   WgmmaSmallM<..., 16/32/64> (select/small_m.hpp): D^T = B^T A^T with the weights
//                     on the tensor cores' 64-row side, K split over a cluster
//   kSplit64/128      ClusterSplitK with 128 x 64 and 128 x 128 tiles
//                     (wgmma/cluster_split_config.hpp): few output tiles, K split over a cluster
//                     where it is deep enough
//   kTile128          WgmmaConfig 128 x 128, Cooperative, persistent: twice the tiles of the
//                     default, for shapes whose 128 x 256 tiles leave a wave part empty
//   kStreamK          WgmmaConfig 128 x 256, Cooperative, scheduler::StreamK<> (scheduler/stream_k.hpp):
//                     deep K on a few dozen tiles, split-K through the caller's workspace
//   kStreamK128       the same with 128 x 128 tiles: deep K where the last wave is partial
//   kLarge            WgmmaConfig 128 x 256, Cooperative, persistent (the family's default)
//   kLarge2x1         the same in 2 x 1 clusters (B tiles multicast)
//   kTile64           WgmmaConfig 64 x 128, Pingpong, persistent: four times the tiles of the
//                     default, one consumer warpgroup per tile, the two taking turns so that one
//                     tile's epilogue runs under the other's main loop (small shapes); the rule
//                     never picks it, the timed selector and the cost model may
// Where the epilogue reads C, the 128 x 256 entries load it with TMA ahead of the epilogue
// when C can be (wgmma/wgmma.hpp, wgmma_stages_c), else with ordinary loads.
//
// The rule, first match (T256, T128: output tiles of 128 x 256 and 128 x 128; k: K tiles of 64;
// "deep": k >= 256; a wave: one tile per SM; fill(T) = T / (SMs x waves), the busy fraction):
//   1. small M: M <= 64, N >= 4 M and N >= 512, A and B describable by TMA or a workspace to
//      copy them into -> the smallest small-M tile that holds M (16 and 32 only for a row-major
//      A).
//   2. few tiles (T256 below half the SMs), A and B describable by TMA or a workspace:
//      a. not deep, k < 128 and T128 at least a quarter of the SMs -> kTile128 (splitting K
//         costs more than the idle SMs when K is short);
//      b. deep and T128 fills at least 0.9 of one wave -> kTile128;
//      c. deep, a workspace and T256 >= 16 -> kStreamK;
//      d. else a split entry (split_entry below).
//   3. A and B describable by TMA, deep, a workspace and fill(T256) < 0.8 -> kStreamK128 (the
//      partial last wave's tiles split through the workspace).
//   4. A and B describable by TMA, rows of A or B an odd multiple of 16 bytes apart (K = 8 mod
//      16 in 16-bit types: every other row starts in the middle of a 32-byte sector) ->
//      kLarge2x1: on such rows the 1 x 1 tiles lost much of their rate, the 2 x 1 cluster
//      (B multicast: half of B's loads) least (benchmark/notes/small_m.md, "Numbers behind
//      the rule").
//   5. A and B describable by TMA and 128 x 128 tiles filling the waves so much better that
//      0.9 fill(T128) > fill(T256) -> kTile128 (0.9: in full waves a 128 x 128 tile ran
//      somewhat below a 128 x 256 one; the same notes). The packed and realigning paths (A or
//      B not describable) keep the 128 x 256 tile: the new entries were not timed there.
//   6. at least two waves of 128 x 256 tiles and A, B describable by TMA -> kLarge2x1 (on the
//      packed path, clusters were slower); else kLarge, which runs every valid argument
//      (the packed and realigning paths included).
// The thresholds come from timings on an H100 and an H200 (benchmark/notes/small_m.md, its
// section "Numbers behind the rule"). Gemm<AutoModel<...>>
// chooses by the cost model of select/cost_model.hpp instead.
#pragma once
#include <cstdint>

#include "tessera/core/math.hpp"
#include "tessera/gemm/scheduler/split_k.hpp"

namespace tessera::gemm {

enum class AutoEntry {
  kSmallM16, kSmallM32, kSmallM64, kSplit64, kSplit128, kTile128, kStreamK, kStreamK128, kLarge, kLarge2x1,
  kTile64
};
// How many entries the table holds (the enumerators above, in order).
inline constexpr int kAutoEntryCount = int(AutoEntry::kTile64) + 1;

// What the rule reads of a call.
struct AutoProblem {
  std::int64_t M = 0, N = 0, K = 0;
  bool tma_a = false, tma_b = false;  // TMA can describe A, B (tma.hpp)
  bool k_major_a = true;              // A is row-major
  bool workspace = false;             // the call passes a workspace (of workspace_size(args) bytes)
  bool odd_pitch = false;             // A's or B's rows are an odd multiple of 16 bytes apart
  int sms = 132;
  // Read by the cost model (select/cost_model.hpp) only: whether the epilogue reads C, and the
  // bytes of an element of A, B, C and D.
  bool reads_c = false;
  int bytes_a = 2, bytes_b = 2, bytes_c = 2, bytes_d = 2;
  // Read by the timed selector (select/nearest_shapes.hpp) only: B is column-major (W[N][K]).
  bool k_major_b = true;
};

// Why an entry was chosen (explain() says it in words).
enum class AutoReason {
  kSmallM, kFewTiles, kShortK, kDeepK, kOddPitch, kUnevenWaves, kManyTiles, kDefault, kFallback,
  kCostModel,  // the cost model's smallest predicted time (select/cost_model.hpp)
  kTimed       // the fastest entry on the nearest calibrated shapes (select/nearest_shapes.hpp)
};

struct AutoChoice {
  AutoEntry entry;
  AutoReason reason;
};

struct AutoRule {
  static constexpr std::int64_t kSmallMMax = 64;
  static constexpr std::int64_t kSmallMMinN = 512;
  static constexpr std::int64_t kDeepKTiles = 256;  // K >= 16384
  static constexpr std::int64_t kShortKTiles = 128;  // K < 8192 is short: splitting it does not pay
  static constexpr std::int64_t kStreamKMinTiles = 16;

  // Whether an entry's configuration runs the problem at all (its can_implement's rules, as
  // the rule sees them): the small-M and split entries load A and B by TMA only, so where TMA
  // cannot describe one they copy it into the workspace first and need one
  // (wgmma/cluster_split.hpp); narrow small-M tiles need a row-major A. The others run every
  // valid argument (their packed and realigning paths).
  static constexpr bool runs(AutoEntry e, const AutoProblem& p) {
    const bool loads = (p.tma_a && p.tma_b) || p.workspace;
    switch (e) {
      case AutoEntry::kSmallM16:
      case AutoEntry::kSmallM32: return loads && p.k_major_a;
      case AutoEntry::kSmallM64:
      case AutoEntry::kSplit64:
      case AutoEntry::kSplit128: return loads;
      case AutoEntry::kTile128:
      case AutoEntry::kStreamK:
      case AutoEntry::kStreamK128:
      case AutoEntry::kLarge:
      case AutoEntry::kLarge2x1:
      case AutoEntry::kTile64: return true;
    }
    return false;
  }

  // The smallest small-M tile that holds M (tiles below 64 need a row-major A).
  static constexpr AutoEntry small_m_entry(const AutoProblem& p) {
    if (p.M <= 16 && p.k_major_a) return AutoEntry::kSmallM16;
    if (p.M <= 32 && p.k_major_a) return AutoEntry::kSmallM32;
    return AutoEntry::kSmallM64;
  }

  static constexpr std::int64_t tiles(const AutoProblem& p, int tile_n) {
    return ceil_div<std::int64_t>(p.M, 128) * ceil_div<std::int64_t>(p.N, tile_n);
  }
  // The split a split entry with tile_n-wide tiles takes (scheduler/split_k.hpp), and the CTAs
  // it then runs.
  static constexpr int split_of(const AutoProblem& p, int tile_n) {
    return choose_cluster_splits(tiles(p, tile_n), ceil_div<std::int64_t>(p.K, 64), p.sms);
  }
  static constexpr std::int64_t split_ctas(const AutoProblem& p, int tile_n) {
    return tiles(p, tile_n) * split_of(p, tile_n);
  }
  // Between the split tiles (128 x 128 first): with deep K (kDeepKTiles K tiles or more),
  // 128 x 128 where its CTAs fill 0.45 of the SMs, else 128 x 64 (less traffic per FLOP counts
  // more than idle SMs where K is deep); else, of those that fill 9/10 of the SMs, the one
  // split least (the cluster's sum costs more than a narrower tile); else the one with the
  // most CTAs. 128 x 256 split tiles are not in the table: on an H100 they ran every few-tile
  // shape slower than these two (benchmark/notes/small_m.md, "Numbers behind the rule").
  static constexpr AutoEntry split_entry(const AutoProblem& p) {
    const AutoEntry entries[2] = {AutoEntry::kSplit128, AutoEntry::kSplit64};
    const int widths[2] = {128, 64};
    const std::int64_t sms = p.sms;
    if (ceil_div<std::int64_t>(p.K, 64) >= kDeepKTiles) {
      for (int i = 0; i < 2; ++i) {
        if (20 * split_ctas(p, widths[i]) >= 9 * sms) return entries[i];
      }
    }
    int best = -1;
    for (int i = 0; i < 2; ++i) {
      if (10 * split_ctas(p, widths[i]) < 9 * sms) continue;
      if (best < 0 || split_of(p, widths[i]) < split_of(p, widths[best])) best = i;
    }
    if (best >= 0) return entries[best];
    return split_ctas(p, widths[0]) > split_ctas(p, widths[1]) ? entries[0] : entries[1];
  }

  // The busy fraction of the SMs over the waves `tiles` one-tile-per-SM CTAs take, in
  // thousandths (integers keep the rule constexpr and exact).
  static constexpr std::int64_t fill_permille(std::int64_t tiles, int sms) {
    const std::int64_t waves = ceil_div<std::int64_t>(tiles, sms);
    return waves == 0 ? 0 : tiles * 1000 / (waves * sms);
  }

  static constexpr AutoChoice choose(const AutoProblem& p) {
    if (p.M <= kSmallMMax && p.N >= 4 * p.M && p.N >= kSmallMMinN) {
      const AutoEntry e = small_m_entry(p);
      if (runs(e, p)) return {e, AutoReason::kSmallM};
    }
    const std::int64_t large_tiles = tiles(p, 256), mid_tiles = tiles(p, 128);
    const std::int64_t k_tiles = ceil_div<std::int64_t>(p.K, 64);
    const bool deep = k_tiles >= kDeepKTiles;
    if (2 * large_tiles < p.sms && runs(AutoEntry::kSplit64, p)) {
      if (!deep && k_tiles < kShortKTiles && 4 * mid_tiles >= p.sms) return {AutoEntry::kTile128, AutoReason::kShortK};
      if (deep && 10 * mid_tiles >= 9 * p.sms && mid_tiles <= p.sms) return {AutoEntry::kTile128, AutoReason::kFewTiles};
      if (deep && p.workspace && large_tiles >= kStreamKMinTiles) return {AutoEntry::kStreamK, AutoReason::kDeepK};
      return {split_entry(p), AutoReason::kFewTiles};
    }
    const bool tma = p.tma_a && p.tma_b;
    const std::int64_t fill_large = fill_permille(large_tiles, p.sms), fill_mid = fill_permille(mid_tiles, p.sms);
    if (tma && deep && p.workspace && fill_large < 800) return {AutoEntry::kStreamK128, AutoReason::kDeepK};
    if (tma && p.odd_pitch) return {AutoEntry::kLarge2x1, AutoReason::kOddPitch};
    if (tma && 9 * fill_mid > 10 * fill_large) return {AutoEntry::kTile128, AutoReason::kUnevenWaves};
    if (large_tiles >= 2 * std::int64_t(p.sms) && tma) {
      return {AutoEntry::kLarge2x1, AutoReason::kManyTiles};
    }
    return {AutoEntry::kLarge, AutoReason::kDefault};
  }
};

// The entry's enumerator as a word ("kLarge"): benchmark names, tuned-choice files.
inline const char* auto_entry_token(AutoEntry e) {
  switch (e) {
    case AutoEntry::kSmallM16: return "kSmallM16";
    case AutoEntry::kSmallM32: return "kSmallM32";
    case AutoEntry::kSmallM64: return "kSmallM64";
    case AutoEntry::kSplit64: return "kSplit64";
    case AutoEntry::kSplit128: return "kSplit128";
    case AutoEntry::kTile128: return "kTile128";
    case AutoEntry::kStreamK: return "kStreamK";
    case AutoEntry::kStreamK128: return "kStreamK128";
    case AutoEntry::kLarge: return "kLarge";
    case AutoEntry::kLarge2x1: return "kLarge2x1";
    case AutoEntry::kTile64: return "kTile64";
  }
  return "?";
}

inline const char* auto_entry_name(AutoEntry e) {
  switch (e) {
    case AutoEntry::kSmallM16: return "WgmmaSmallM<16> (D^T = B^T A^T, 128 x 16 tiles, K split over a cluster)";
    case AutoEntry::kSmallM32: return "WgmmaSmallM<32> (D^T = B^T A^T, 128 x 32 tiles, K split over a cluster)";
    case AutoEntry::kSmallM64: return "WgmmaSmallM<64> (D^T = B^T A^T, 128 x 64 tiles, K split over a cluster)";
    case AutoEntry::kSplit64: return "ClusterSplitK<128 x 64 x 64> (one CTA per tile, K split over a cluster where deep)";
    case AutoEntry::kSplit128: return "ClusterSplitK<128 x 128 x 64> (one CTA per tile, K split over a cluster where deep)";
    case AutoEntry::kTile128: return "WgmmaConfig 128 x 128 x 64, Cooperative, persistent";
    case AutoEntry::kStreamK: return "WgmmaConfig 128 x 256 x 64, Cooperative, scheduler::StreamK<> (split-K in the workspace)";
    case AutoEntry::kStreamK128:
      return "WgmmaConfig 128 x 128 x 64, Cooperative, scheduler::StreamK<> (the last wave split in the workspace)";
    case AutoEntry::kLarge: return "WgmmaConfig 128 x 256 x 64, Cooperative, persistent (the default)";
    case AutoEntry::kLarge2x1: return "WgmmaConfig 128 x 256 x 64, Cooperative, persistent, 2 x 1 clusters (B multicast)";
    case AutoEntry::kTile64: return "WgmmaConfig 64 x 128 x 64, Pingpong, persistent";
  }
  return "?";
}

}  // namespace tessera::gemm
