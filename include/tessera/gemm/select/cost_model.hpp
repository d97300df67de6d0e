// The cost model of Gemm<AutoModel<...>> (select/auto.hpp): a predicted time for every entry of
// the Auto table on one call, the smallest taken. Host-only and constexpr like the rule
// (select/auto_rule.hpp), which stays the default selector of Gemm<Auto<...>> until the model has
// been calibrated on a GPU (scripts/fit_cost_model.py, docs/tuned.md).
//
// Per entry e (its tile tm x tn, the tiles T of the output, K tiles k of 64):
//   split s        cluster-split entries: choose_cluster_splits (scheduler/split_k.hpp);
//                  stream-K entries with a workspace: K shared evenly over the SMs; else 1
//   waves          ceil(T s / slots), slots = the CTAs resident at once (one per SM; a 2 x 1
//                  cluster occupies two): wave quantisation, a partial last wave costs a
//                  whole one
//   compute        waves x ceil(k / s) x 2 tm tn 64 FLOP, on one SM at the entry's rate
//                  (kTflops[e] / kSms, the whole device's rate at full occupancy): padding of
//                  the last tile row and column counts, as it does on the tensor cores
//   memory         A, B, C (when the epilogue reads it) and D once each, at kBandwidthGBs
//   fix-up         cluster splits: s - 1 partial tiles of fp32 summed in rank order through
//                  distributed shared memory, at kDsmemGBsPerSm; stream-K: one partial tile
//                  written to the workspace per SM that shares a tile (at kBandwidthGBs, all
//                  SMs at once), and the tile's owner reading its sharers' partials one after
//                  another (at kDsmemGBsPerSm, one SM's rate)
//   time           max(compute, memory) + fix-up + kFixedUs[e]
// Ties (e.g. decode, memory-bound on every entry) go to the entry with less compute (less
// padding), then to the earlier entry. The constants are select/cost_table.hpp, generated.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>

#include "tessera/core/math.hpp"
#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/select/auto_rule.hpp"
#include "tessera/gemm/select/cost_table.hpp"

namespace tessera::gemm::select {

using gemm::kAutoEntryCount;
static_assert(CostTable::kEntries == kAutoEntryCount,
              "Tessera cost model: the generated table (select/cost_table.hpp) and AutoEntry list the same "
              "entries: regenerate the table with scripts/fit_cost_model.py after adding one");

// How an entry covers the output: tile extents over the rows and columns of the product it
// computes (the transposed product D^T for the small-M entries), and how K is split.
struct EntryGeometry {
  int tile_m = 128, tile_n = 256;
  bool transposed = false;     // small M: D^T = B^T A^T, tiles over (N, M)
  bool cluster_split = false;  // K split over a cluster, summed in distributed shared memory
  bool stream_k = false;       // K split through the caller's workspace (when one is given)
  int cluster = 1;             // CTAs a cluster holds besides the split (2 x 1: two)
};

constexpr EntryGeometry entry_geometry(AutoEntry e) {
  switch (e) {
    case AutoEntry::kSmallM16: return {128, 16, true, true, false, 1};
    case AutoEntry::kSmallM32: return {128, 32, true, true, false, 1};
    case AutoEntry::kSmallM64: return {128, 64, true, true, false, 1};
    case AutoEntry::kSplit64: return {128, 64, false, true, false, 1};
    case AutoEntry::kSplit128: return {128, 128, false, true, false, 1};
    case AutoEntry::kTile128: return {128, 128, false, false, false, 1};
    case AutoEntry::kStreamK: return {128, 256, false, false, true, 1};
    case AutoEntry::kStreamK128: return {128, 128, false, false, true, 1};
    case AutoEntry::kLarge: return {128, 256, false, false, false, 1};
    case AutoEntry::kLarge2x1: return {128, 256, false, false, false, 2};
    case AutoEntry::kTile64: return {64, 128, false, false, false, 1};
  }
  return {};
}

// Which term of an entry's predicted time is the larger (explain() names it).
enum class CostBound { kCompute, kMemory };

// One entry's prediction and the counts behind it.
struct EntryCost {
  AutoEntry entry = AutoEntry::kLarge;
  std::int64_t tiles = 0, waves = 0;
  int splits = 1;
  double work_flop = 0;  // FLOP one SM computes on the critical path (padded tiles, its waves)
  double bytes = 0;      // DRAM bytes of A, B, C and D
  double compute_s = 0, memory_s = 0, fixup_s = 0, fixed_s = 0, total_s = 0;
  CostBound bound = CostBound::kCompute;
};

struct CostModel {
  static constexpr EntryCost cost(AutoEntry e, const AutoProblem& p) {
    const EntryGeometry g = entry_geometry(e);
    EntryCost c;
    c.entry = e;
    const std::int64_t rows = g.transposed ? p.N : p.M, cols = g.transposed ? p.M : p.N;
    const std::int64_t k_tiles = ceil_div<std::int64_t>(p.K, 64);
    const int sms = p.sms > 0 ? p.sms : CostTable::kSms;
    c.tiles = ceil_div<std::int64_t>(rows, g.tile_m) * ceil_div<std::int64_t>(cols, g.tile_n);
    const double tile_flop_per_k = 2.0 * g.tile_m * g.tile_n * 64;
    const double per_sm_flops = CostTable::kTflops[int(e)] * 1e12 / CostTable::kSms;
    const double tile_fp32_bytes = 4.0 * g.tile_m * g.tile_n;
    const std::int64_t slots = sms / g.cluster * g.cluster;
    if (g.cluster_split) {
      c.splits = choose_cluster_splits(c.tiles, k_tiles, sms);
      c.waves = ceil_div<std::int64_t>(c.tiles * c.splits, slots);
      c.work_flop = double(c.waves) * double(ceil_div<std::int64_t>(k_tiles, c.splits)) * tile_flop_per_k;
      c.fixup_s = double(c.splits - 1) * tile_fp32_bytes / (CostTable::kDsmemGBsPerSm * 1e9);
    } else if (g.stream_k && p.workspace && c.tiles % slots != 0 && k_tiles > 1) {
      // Every SM takes an equal share of the tiles' K iterations; the SMs whose share starts
      // or ends inside a tile exchange a partial tile through the workspace.
      const std::int64_t iterations = c.tiles * k_tiles;
      const std::int64_t shared_tiles = c.tiles < slots ? c.tiles : c.tiles % slots;
      c.waves = ceil_div<std::int64_t>(c.tiles, slots);
      c.splits = int(ceil_div<std::int64_t>(slots, shared_tiles));
      c.work_flop = double(ceil_div<std::int64_t>(iterations, slots)) * tile_flop_per_k;
      c.fixup_s = double(slots) * tile_fp32_bytes / (CostTable::kBandwidthGBs * 1e9) +
                  double(c.splits - 1) * tile_fp32_bytes / (CostTable::kDsmemGBsPerSm * 1e9);
    } else {
      c.waves = ceil_div<std::int64_t>(c.tiles, slots);
      c.work_flop = double(c.waves) * double(k_tiles) * tile_flop_per_k;
    }
    c.compute_s = c.work_flop / per_sm_flops;
    c.bytes = double(p.M) * double(p.K) * p.bytes_a + double(p.K) * double(p.N) * p.bytes_b +
              double(p.M) * double(p.N) * (p.bytes_d + (p.reads_c ? p.bytes_c : 0));
    c.memory_s = c.bytes / (CostTable::kBandwidthGBs * 1e9);
    c.fixed_s = CostTable::kFixedUs[int(e)] * 1e-6;
    c.bound = c.memory_s > c.compute_s ? CostBound::kMemory : CostBound::kCompute;
    c.total_s = (c.bound == CostBound::kMemory ? c.memory_s : c.compute_s) + c.fixup_s + c.fixed_s;
    return c;
  }

  // Whether a's prediction beats b's (ties: less compute, then the earlier entry).
  static constexpr bool better(const EntryCost& a, const EntryCost& b) {
    const double scale = a.total_s > b.total_s ? a.total_s : b.total_s;
    const double gap = a.total_s - b.total_s;
    if (gap < -1e-9 * scale) return true;
    if (gap > 1e-9 * scale) return false;
    if (a.compute_s != b.compute_s) return a.compute_s < b.compute_s;
    return int(a.entry) < int(b.entry);
  }

  // The entries that run p (AutoRule::runs), fastest predicted first; returns how many.
  static constexpr int rank(const AutoProblem& p, EntryCost (&out)[kAutoEntryCount]) {
    int n = 0;
    for (int i = 0; i < kAutoEntryCount; ++i) {
      const AutoEntry e = AutoEntry(i);
      if (!AutoRule::runs(e, p)) continue;
      EntryCost c = cost(e, p);
      int at = n++;
      while (at > 0 && better(c, out[at - 1])) {
        out[at] = out[at - 1];
        --at;
      }
      out[at] = c;
    }
    return n;
  }

  // The entries alone, in that order (what auto_choice and the tuned mode walk).
  static constexpr AutoReason kReason = AutoReason::kCostModel;
  static constexpr int ranked_entries(const AutoProblem& p, AutoEntry (&out)[kAutoEntryCount]) {
    EntryCost ranked[kAutoEntryCount] = {};
    const int n = rank(p, ranked);
    for (int i = 0; i < n; ++i) out[i] = ranked[i].entry;
    return n;
  }

  static constexpr AutoChoice choose(const AutoProblem& p) {
    AutoEntry ranked[kAutoEntryCount] = {};
    const int n = ranked_entries(p, ranked);
    return {n > 0 ? ranked[0] : AutoEntry::kLarge, n > 0 ? kReason : AutoReason::kFallback};
  }
};

// Which term separates the winner w from the next entry n: the larger of compute and memory
// time, the fix-up, the fixed cost, or none (a tie, broken by less padded compute).
inline const char* cost_decider(const EntryCost& w, const EntryCost& n) {
  const double bound_w = w.compute_s > w.memory_s ? w.compute_s : w.memory_s;
  const double bound_n = n.compute_s > n.memory_s ? n.compute_s : n.memory_s;
  const double gaps[3] = {bound_n - bound_w, n.fixup_s - w.fixup_s, n.fixed_s - w.fixed_s};
  int most = 0;
  for (int i = 1; i < 3; ++i) {
    if (gaps[i] > gaps[most]) most = i;
  }
  if (gaps[most] <= 1e-9 * (w.total_s > 0 ? w.total_s : 1.0)) return "a tie, broken by its less padded compute";
  if (most == 1) return "the fix-up of the next one's split partial sums";
  if (most == 2) return "the next one's fixed cost per call";
  if (n.bound == CostBound::kMemory && w.bound == CostBound::kMemory) return "DRAM traffic";
  return "compute time (tiles, waves, padding of the last tiles)";
}

inline void describe_cost(std::ostringstream& o, const EntryCost& c) {
  o << c.tiles << " tile" << (c.tiles == 1 ? "" : "s") << " in " << c.waves << " wave" << (c.waves == 1 ? "" : "s");
  if (c.splits > 1) o << ", K split " << c.splits << " ways";
  o << (c.bound == CostBound::kMemory ? ", memory-bound" : ", compute-bound");
  if (c.fixup_s > 0) o << ", plus the fix-up of partial sums";
}

// In words, with no timing: why the model picks `chosen` for p (the entry it predicts fastest
// among those that run p and take the arguments), against the next entry in its order.
inline std::string explain_costs(const AutoProblem& p, AutoEntry chosen) {
  EntryCost ranked[kAutoEntryCount] = {};
  const int n = CostModel::rank(p, ranked);
  int at = 0;
  while (at < n && ranked[at].entry != chosen) ++at;
  std::ostringstream o;
  if (at == n) {
    o << "the cost model does not rank this entry for the call";
    return o.str();
  }
  o << "the cost model (select/cost_model.hpp, table from " << CostTable::kSource << ") predicts it fastest of the "
    << (n - at) << " entries that run the call: ";
  describe_cost(o, ranked[at]);
  if (at > 0) o << " (" << at << " entr" << (at == 1 ? "y" : "ies") << " predicted faster refuse the arguments)";
  if (at + 1 < n) {
    o << "; next, " << auto_entry_name(ranked[at + 1].entry) << ": ";
    describe_cost(o, ranked[at + 1]);
    o << "; decided by " << cost_decider(ranked[at], ranked[at + 1]);
  }
  return o.str();
}

// The two selectors Gemm<Auto...> can be given: the hand-written rule (the default) and the model.
struct Rule {
  static constexpr AutoChoice choose(const AutoProblem& p) { return AutoRule::choose(p); }
};

}  // namespace tessera::gemm::select
