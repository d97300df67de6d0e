// scheduler::StreamK<Medium>: the one tile scheduler (scheduler/tile_scheduler.hpp) for everything
// that splits K. Its decomposition is chosen per call: data-parallel, split-K or stream-K; one
// kernel runs all three, only the units differ. Medium (namespace reduce, below) is where the
// partial sums of a split tile meet and who adds them up; the plan, the walk and the partial
// slots are the same for every medium:
//   reduce::InLaunch      (the default, StreamK<>) partials and flags in the workspace, each
//                         split tile reduced inside the launch by its peers; a persistent grid.
//                         The wgmma, tcgen05 and MFMA families.
//   reduce::SecondKernel  partials in the workspace, summed after the launch by a second kernel
//                         (scheduler/fixup.hpp, second_kernel_reduce), one block per split
//                         tile, with the in-launch reduction's summation; split-K only, every
//                         tile split, one piece per worker (a grid of tiles x slices). The FMA
//                         family, with its rule (choose_split_k).
//   reduce::ClusterShared partials in the shared memory of the tile's cluster of CTAs, summed
//                         through distributed shared memory; split-K only, one piece per CTA,
//                         the cluster's size the split (choose_cluster_splits). The wgmma
//                         family's ClusterSplitK, whose kernel sums through
//                         wgmma/cluster_partial_sum.hpp.
// A kernel calls the fix-up through two hooks (scheduler/fixup.hpp, FixupHooks): hand_on after
// each unit's main loop, finish after its last unit; they do nothing for schedulers without
// partials, so those kernels' code does not change.
//
//   using Config = WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, GemmShape<128, 256, 64>,
//                              schedule::AutoSm90, ClusterShape<1, 1>, 0,
//                              option::Scheduler<scheduler::StreamK<>>>;
//
// The problem is a line of cluster tiles in grouped raster order (DataParallel's), each k_tiles
// K tiles deep, and W workers (resident clusters). A plan (StreamKPlan) cuts it in two:
//   - the first dp_tiles tiles are data-parallel: worker w computes tiles w, w + W, ... whole;
//   - the rest (the split region) are cut into split units of `granule` K tiles (a tile's last
//     unit may be shallower), and worker w < sk_workers takes the contiguous run of split units
//     [sk_units * w / sk_workers, sk_units * (w + 1) / sk_workers): one piece per tile the run
//     touches, walked in tile order after its data-parallel tiles.
// Data-parallel is dp_tiles = all; split-K is granule = k_tiles / splits with one split unit per
// worker (sk_workers = sk_units: the pieces never cross a tile), after the full waves
// data-parallel; stream-K is granule = 1 with runs that cross tiles (CUTLASS's "DP + SK" hybrid
// leaves the last one or two waves' worth of tiles to it).
//
// A piece that covers only part of its tile's K tiles is a partial: it writes its fp32
// accumulators to a slot of the workspace instead of D, and the tile is reduced afterwards by
// the fix-up (scheduler/fixup.hpp): the partials summed in a fixed order (the peers'
// worker order), the epilogue applied, D written. So every run gives the same bits (on the same
// device: W is the resident count). Every worker stores all its partials before it reduces
// anything, so a reduction waits only for stores, never for another reduction: with every
// worker resident (the persistent launch's grid is the resident count) the fix-up cannot
// deadlock. Who reduces (Reducers):
//   kEveryPeer  each peer of a split tile reduces its share of the tile's lines (contiguous
//               lines of D's layout), after all peers' partials are in: the reduction is
//               spread over the peers, each reading about one tile of partials;
//   kLastPeer   the tile's last peer (highest worker) reduces all of it: reductions then wait
//               only for lower workers, which is what a launch that runs workers one after
//               another (the AMD wave emulator) needs.
//
// Which plan: choose_decomposition(), a cost model in K-tile iterations (the rule is written out
// there); a call may ask for another through gemm::Arguments::split (scheduler/split_request.hpp).
// Without a workspace (or one too small) the launch takes the data-parallel plan: the same
// result, unsplit.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/scheduler/split_request.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

enum class Reducers : int { kEveryPeer = 0, kLastPeer = 1 };

// How a problem is cut (see the top of this file). Counts are in cluster tiles and workers.
struct StreamKPlan {
  Decomposition mode = Decomposition::kDataParallel;
  std::int64_t dp_tiles = 0;  // tiles computed whole, first in raster order
  int granule = 1;            // K tiles per split unit
  int splits = 1;             // split units per tile: ceil(k_tiles / granule)
  int sk_workers = 0;         // workers sharing the split units (none has an empty run)
  std::int64_t sk_units = 0;  // (tiles - dp_tiles) * splits
};

// The model choose_decomposition() weighs plans with, in units of one K-tile iteration of one
// CTA (the time its main loop spends on one K tile).
struct StreamKCosts {
  double piece;     // what a piece costs beyond its K tiles: filling the pipeline, the epilogue
  double fixup;     // what a partial piece costs: its partial store and its share of the reduction
  int min_piece;    // fewest K tiles a split unit may have
  int max_splits;   // most slices a tile is cut into (the peers one reduction waits for)
  double margin;    // a split plan must be predicted this much faster than data-parallel
};

// The costs for one CTA tile. A partial is written once and read once (tile_m x tile_n fp32);
// one K-tile iteration brings in (tile_m + tile_n) x tile_k 16-bit operand elements. A partial
// byte costs several operand bytes: every worker writes and reads its partial at the same
// moment, all SMs at once, where the operands stream through L2 with reuse. `fixup` is the
// byte ratio times that factor (5: benchmark/notes/stream_k.md, "Versions", says where it comes
// from); the rest are round numbers.
inline StreamKCosts stream_k_costs(const TileGrid& g) {
  const double operand_bytes = double(g.tile_m + g.tile_n) * double(g.tile_k) * 2.0;
  const double partial_bytes = double(g.tile_m) * double(g.tile_n) * 4.0;
  return {2.0, 5.0 * 2.0 * partial_bytes / operand_bytes, 4, 32, 0.1};
}

inline StreamKPlan data_parallel_plan(std::int64_t tiles) {
  StreamKPlan p;
  p.dp_tiles = tiles;
  return p;
}

// Split-K over the tiles after the first dp_tiles (data-parallel): every such tile in `splits`
// slices of ceil(k_tiles / splits) K tiles (fewer slices when that rounds up), one worker each;
// the workers must cover (tiles - dp_tiles) x slices.
inline StreamKPlan split_k_plan(std::int64_t tiles, int k_tiles, int splits, std::int64_t dp_tiles = 0) {
  if (splits < 2 || k_tiles < 2 || tiles < 1 || dp_tiles >= tiles) return data_parallel_plan(tiles);
  StreamKPlan p;
  p.mode = Decomposition::kSplitK;
  p.dp_tiles = dp_tiles;
  p.granule = int(ceil_div<std::int64_t>(k_tiles, splits));
  p.splits = int(ceil_div<std::int64_t>(k_tiles, p.granule));
  if (p.splits < 2) return data_parallel_plan(tiles);
  p.sk_units = (tiles - dp_tiles) * p.splits;
  p.sk_workers = int(p.sk_units);
  return p;
}

// Stream-K over the last `tiles - dp_tiles` tiles, K tile by K tile, on up to `workers`
// workers, each with at least `min_piece` K tiles.
inline StreamKPlan stream_k_plan(std::int64_t tiles, int k_tiles, int workers, std::int64_t dp_tiles, int min_piece) {
  if (tiles < 1 || k_tiles < 1 || workers < 2 || dp_tiles >= tiles) return data_parallel_plan(tiles);
  StreamKPlan p;
  p.mode = Decomposition::kStreamK;
  p.dp_tiles = dp_tiles;
  p.granule = 1;
  p.splits = k_tiles;
  p.sk_units = (tiles - dp_tiles) * k_tiles;
  const std::int64_t by_depth = p.sk_units / (min_piece > 1 ? min_piece : 1);
  p.sk_workers = int(by_depth < workers ? by_depth : workers);
  if (p.sk_workers < 2) return data_parallel_plan(tiles);
  return p;
}

// The host rule. With T cluster tiles of k_tiles K tiles, W workers and the costs c, the full
// waves (floor(T / W) of them) run data-parallel and the tiles of the last, partial wave
// (T mod W, or all T when T < W) may be split: s = min(W / (T mod W), k_tiles / c.min_piece,
// c.max_splits) slices each, one worker per slice (split-K). Predicted times, in K-tile
// iterations:
//   data-parallel  ceil(T / W) waves of (k_tiles + c.piece);
//   split-K        floor(T / W) waves of (k_tiles + c.piece), then ceil(k_tiles / s) + c.piece
//                  + c.fixup (s >= 2 only);
// and split-K is taken when it is predicted faster by more than c.margin. Stream-K (K tile by
// K tile runs across tiles) is never picked: against split-K with the same work per worker it
// ran slower (its workers read the operands at staggered K offsets, so concurrently running
// tiles no longer share them in L2: benchmark/notes/stream_k.md); it stays available to a call
// that asks for it (SplitRequest).
inline StreamKPlan choose_decomposition(std::int64_t tiles, int k_tiles, int workers, const StreamKCosts& c) {
  const StreamKPlan dp = data_parallel_plan(tiles);
  if (tiles < 1 || workers < 2 || k_tiles < 2 * c.min_piece) return dp;
  const std::int64_t full_waves = tiles / workers;
  const std::int64_t tail = tiles - full_waves * workers;
  if (tail == 0) return dp;
  std::int64_t s = workers / tail;
  if (s > k_tiles / c.min_piece) s = k_tiles / c.min_piece;
  if (s > c.max_splits) s = c.max_splits;
  const StreamKPlan split = split_k_plan(tiles, k_tiles, int(s), full_waves * workers);
  if (split.mode != Decomposition::kSplitK) return dp;
  const double wave = double(k_tiles) + c.piece;
  const double t_dp = double(full_waves + 1) * wave;
  const double t_split = double(full_waves) * wave + double(split.granule) + c.piece + c.fixup;
  return t_split < (1.0 - c.margin) * t_dp ? split : dp;
}

// A token that names one launch's fix-up: partials are published under it, so flags left by
// anything else (an earlier launch that did not finish, whatever the memory held before) are
// never taken for this launch's. Distinct for every call in the process (a counter), and
// unlikely to meet another process's (a salt from the clock and an address). Never 0 (a
// cleared flag).
inline std::uint64_t next_fixup_token() {
  static const std::uint64_t salt =
      (std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) * 0x9E3779B97F4A7C15ull) ^
      std::uint64_t(reinterpret_cast<std::uintptr_t>(&salt));
  static std::atomic<std::uint64_t> counter{0};
  return (salt | 1u) + 2u * counter.fetch_add(1, std::memory_order_relaxed);  // odd, so never 0
}

// What one call gives a fix-up: where its partials and flags go (in the caller's workspace), who
// reduces, and the call's request (gemm::Arguments::split). base == nullptr: no fix-up possible,
// the plan becomes data-parallel. fixup_space() fills one.
struct FixupSpace {
  void* base = nullptr;
  std::size_t bytes = 0;
  std::uint64_t token = 0;
  Reducers reducers = Reducers::kEveryPeer;
  SplitRequest split{};
};

inline FixupSpace fixup_space(void* base, std::size_t bytes, const SplitRequest& split) {
  FixupSpace f;
  if (base != nullptr && bytes > 0) {
    f.base = base;
    f.bytes = bytes;
    f.token = next_fixup_token();
  }
  f.split = split;
  return f;
}

// A split tile to reduce: the CTA tile (m, n), its peers' partial slots (the first peer's, then
// the next `peers - 1` workers' own: first_slot + 1 ...), and which of `readers` this worker is.
struct TileReduction {
  int m, n;
  int head_slot;    // the first peer's slot
  int next_slot;    // the second peer's slot; peer i > 0 has next_slot + i - 1
  int peers;
  int reader;       // this worker's share: lines [reader, reader + 1) * lines / readers
  int readers;
};

namespace scheduler {

// The media partials meet in (where a split tile's peers leave their partial sums and who adds
// them up). StreamK<Medium> walks the same plan, with the same slots, for every medium.
namespace reduce {
// Partials and flags in the caller's workspace; each split tile reduced inside the launch by its
// peers (scheduler/fixup.hpp), after all of them have published. The grid is persistent (the
// resident workers: a reduction waits for its peers).
struct InLaunch {};
// Partials in the caller's workspace, summed after the launch by a second kernel, one block per
// split tile, with the in-launch reduction's summation (StreamKFixup::sum) and no flags. The
// grid is not persistent: split-K only, every tile split (no data-parallel waves), one piece per
// worker, so workers = tiles x slices. Its rule is the FMA family's (choose_split_k: split only
// when the tiles leave at least half the multiprocessors idle); a call's kStreamK request is
// taken as kAuto (it cannot stream).
struct SecondKernel {};
// Partials in the shared memory of the CTAs of one thread-block cluster: every tile split into
// as many slices as its cluster has CTAs (the split the launch chose), CTA r of the cluster
// computing slice r; the cluster sums its partials through distributed shared memory in slice
// order before the one store of D. No workspace, no flags, no second kernel; split-K only, one
// piece per CTA. The wgmma family's ClusterSplitK (wgmma/cluster_split_config.hpp), whose
// kernel reduces through wgmma/cluster_partial_sum.hpp.
struct ClusterShared {};
}  // namespace reduce

template <class Medium = reduce::InLaunch>
struct StreamK {
  static_assert(std::is_same_v<Medium, reduce::InLaunch> || std::is_same_v<Medium, reduce::SecondKernel> ||
                    std::is_same_v<Medium, reduce::ClusterShared>,
                "Tessera StreamK: the reduction media built are scheduler::reduce::InLaunch, SecondKernel and "
                "ClusterShared");
  using ReductionMedium = Medium;
  static constexpr bool kFixup = true;
  // Whether a tile's partials meet in its cluster's shared memory (no workspace).
  static constexpr bool kInCluster = std::is_same_v<Medium, reduce::ClusterShared>;
  // Whether the tile's peers reduce inside the launch (flags, FixupHooks::finish) or a second
  // kernel does after it.
  static constexpr bool kReducesInLaunch = std::is_same_v<Medium, reduce::InLaunch>;
  // The most units a worker has: SecondKernel's and ClusterShared's grids give each one piece
  // (or one whole tile),
  // which lets a kernel's loop over its units compile to a single pass.
  static constexpr int kMaxUnitsPerWorker = kReducesInLaunch ? 0x7fffffff : 1;
  // The most pieces a tile is cut into: what units() counts per tile (it caps the grid).
  static constexpr int kMaxPiecesPerTile = 256;

  GroupedRasterScheduler<8> cluster_tiles;  // over tiles of (cluster M x cluster N) tiles
  int cluster_m, cluster_n;
  int tile_m, tile_n;  // one CTA's tile: a partial is tile_m x tile_n floats
  int workers;
  int k_tiles;
  StreamKPlan plan;
  // The fix-up (use_workspace): slots of partials, and per slot one flag per reader.
  float* partials = nullptr;
  std::uint64_t* flags = nullptr;
  std::uint64_t token = 0;
  int flag_stride = 1;  // flags per slot: the most readers a split tile has
  Reducers reducers = Reducers::kEveryPeer;

  // ---- host ---------------------------------------------------------------------------------
  // Workers that can have work: every tile, each cut into at most kMaxPiecesPerTile pieces.
  TESSERA_HOST_DEVICE static std::int64_t units(const TileGrid& g) {
    const std::int64_t tiles =
        GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m * g.cluster_m, g.tile_n * g.cluster_n).num_tiles();
    const int k = g.k_tiles();
    return tiles * (k < 1 ? 1 : (k < kMaxPiecesPerTile ? k : kMaxPiecesPerTile));
  }

  // The plan for `workers` workers, before any workspace: the call's request, or (kAuto) the
  // rule's choice. SecondKernel: `workers` is what one wave holds (the multiprocessors); the
  // plan sets the grid (workers: tiles x slices, or the tiles unsplit).
  static StreamK make(const TileGrid& g, int workers, const SplitRequest& request = {}) {
    StreamK s;
    s.cluster_tiles = GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m * g.cluster_m, g.tile_n * g.cluster_n);
    s.cluster_m = g.cluster_m;
    s.cluster_n = g.cluster_n;
    s.tile_m = g.tile_m;
    s.tile_n = g.tile_n;
    s.workers = workers;
    s.k_tiles = g.k_tiles();
    const std::int64_t tiles = s.cluster_tiles.num_tiles();
    if constexpr (kInCluster) {
      // `workers`: the CTAs per cluster the launch chose (wgmma/cluster_split.hpp). Every tile in
      // that many slices (fewer where K is shallower), one CTA each; a kDataParallel request, or
      // a split of 1, is a cluster of one CTA per tile.
      const int splits = request.mode == Decomposition::kDataParallel ? 1 : workers;
      s.plan = split_k_plan(tiles, s.k_tiles, splits, 0);
      s.workers = int(s.plan.mode == Decomposition::kSplitK ? s.plan.sk_workers : tiles);
      return s;
    }
    if constexpr (!kReducesInLaunch) {
      int splits = 1;
      if (request.mode == Decomposition::kSplitK) {
        splits = request.splits;
      } else if (request.mode != Decomposition::kDataParallel) {
        splits = choose_split_k(tiles, s.k_tiles, workers).splits;
      }
      s.plan = split_k_plan(tiles, s.k_tiles, splits, 0);
      s.workers = int(s.plan.mode == Decomposition::kSplitK ? s.plan.sk_workers : tiles);
      return s;
    }
    const StreamKCosts costs = stream_k_costs(g);
    if (request.mode == Decomposition::kAuto) {
      s.plan = choose_decomposition(tiles, s.k_tiles, workers, costs);
    } else if (request.mode == Decomposition::kSplitK) {
      // The full waves data-parallel, the last wave's tiles in (at most) the requested slices.
      const std::int64_t full_waves = tiles / workers, tail = tiles - full_waves * workers;
      int splits = request.splits;
      if (tail > 0 && tail * splits > workers) splits = int(workers / tail);
      s.plan = tail > 0 ? split_k_plan(tiles, s.k_tiles, splits, full_waves * workers) : data_parallel_plan(tiles);
    } else if (request.mode == Decomposition::kStreamK) {
      const std::int64_t full_waves = tiles / workers;
      s.plan = stream_k_plan(tiles, s.k_tiles, workers, full_waves >= 2 ? (full_waves - 1) * workers : 0, 1);
    } else {
      s.plan = data_parallel_plan(tiles);
    }
    return s;
  }

  // Partial slots: one per worker (its first piece) and one per split tile (a tile's first
  // piece when it is not its worker's first), per CTA of a cluster; then the flags.
  // SecondKernel: one piece per worker, so only the workers' slots.
  std::int64_t slots() const {
    const std::int64_t split_tiles = kReducesInLaunch ? cluster_tiles.num_tiles() - plan.dp_tiles : 0;
    return (std::int64_t(workers) + split_tiles) * cluster_m * cluster_n;
  }
  int readers_per_tile() const {
    if (reducers == Reducers::kLastPeer) return 1;
    return plan.splits < plan.sk_workers ? plan.splits : plan.sk_workers;
  }
  static constexpr std::size_t kAlign = 256;
  std::size_t flag_bytes() const {
    if constexpr (!kReducesInLaunch) return 0;
    return round_up<std::size_t>(std::size_t(slots()) * std::size_t(readers_per_tile()) * 8u, kAlign);
  }
  // Bytes this plan's fix-up needs (0: none). The interface's arguments are not needed: a
  // partial is one CTA tile of floats.
  std::size_t workspace_bytes(std::size_t /*output_bytes*/ = 0, std::size_t /*tile_bytes*/ = 0) const {
    if (kInCluster || plan.mode == Decomposition::kDataParallel) return 0;
    return flag_bytes() + std::size_t(slots()) * std::size_t(tile_m) * std::size_t(tile_n) * 4u;
  }
  // Bytes every plan of `g` on at most `workers` workers fits in (what a launch may ask for
  // with fewer resident workers than the device's multiprocessors), or 0 when the plan for
  // `workers` workers needs none.
  static std::size_t workspace_bound(const TileGrid& g, int workers, const SplitRequest& request = {}) {
    const StreamK s = make(g, workers, request);
    if (s.plan.mode == Decomposition::kDataParallel) return 0;
    if constexpr (!kReducesInLaunch) return s.workspace_bytes();  // its grid does not depend on residency
    const std::int64_t tiles = s.cluster_tiles.num_tiles();
    const std::int64_t split_tiles = tiles < 2 * std::int64_t(workers) ? tiles : 2 * std::int64_t(workers);
    const std::int64_t slots = (std::int64_t(workers) + split_tiles) * g.cluster_m * g.cluster_n;
    return round_up<std::size_t>(std::size_t(slots) * std::size_t(workers) * 8u, kAlign) +
           std::size_t(slots) * std::size_t(g.tile_m) * std::size_t(g.tile_n) * 4u;
  }

  // Takes the fix-up's place in the workspace, or, without one big enough, the data-parallel
  // plan (the same result, unsplit).
  void use_workspace(const FixupSpace& space) {
    reducers = space.reducers;
    const std::size_t need = workspace_bytes();
    if (need == 0 || space.base == nullptr || space.bytes < need ||
        reinterpret_cast<std::uintptr_t>(space.base) % 16 != 0) {
      plan = data_parallel_plan(cluster_tiles.num_tiles());
      if constexpr (!kReducesInLaunch) workers = int(cluster_tiles.num_tiles());  // a block per tile
      return;
    }
    flags = static_cast<std::uint64_t*>(space.base);
    partials = reinterpret_cast<float*>(static_cast<unsigned char*>(space.base) + flag_bytes());
    token = space.token;
    flag_stride = readers_per_tile();
  }

  // ClusterShared: the CTAs of a tile's cluster (its slices; 1 when the plan does not split).
  TESSERA_HOST_DEVICE int cluster_split() const {
    return plan.mode == Decomposition::kSplitK ? plan.splits : 1;
  }

  // ---- the walk (device, and host: tests walk it) --------------------------------------------
  TESSERA_HOST_DEVICE int dp_units_of(int worker) const {
    return worker < plan.dp_tiles ? int((plan.dp_tiles - 1 - worker) / workers + 1) : 0;
  }
  // The first split unit of worker w's run (w <= sk_workers).
  TESSERA_HOST_DEVICE std::int64_t run_start(int w) const { return plan.sk_units * w / plan.sk_workers; }
  // The worker whose run holds split unit u.
  TESSERA_HOST_DEVICE int owner(std::int64_t u) const {
    return int(((u + 1) * plan.sk_workers - 1) / plan.sk_units);
  }
  // The split tiles (counted from the split region's first) worker w's run starts and ends in.
  TESSERA_HOST_DEVICE int first_split_tile(int w) const { return int(run_start(w) / plan.splits); }
  TESSERA_HOST_DEVICE int last_split_tile(int w) const { return int((run_start(w + 1) - 1) / plan.splits); }
  TESSERA_HOST_DEVICE int pieces_of(int worker) const {
    return worker < plan.sk_workers ? last_split_tile(worker) - first_split_tile(worker) + 1 : 0;
  }

  TESSERA_HOST_DEVICE int units_of(int worker) const { return dp_units_of(worker) + pieces_of(worker); }

  // Split tile t's piece in worker w's run, as K tiles [k_begin, k_end).
  TESSERA_HOST_DEVICE void piece_k_range(int w, int t, int& k_begin, int& k_end) const {
    const std::int64_t first = std::int64_t(t) * plan.splits;
    const std::int64_t lo = run_start(w) > first ? run_start(w) : first;
    const std::int64_t hi = run_start(w + 1) < first + plan.splits ? run_start(w + 1) : first + plan.splits;
    k_begin = int(lo - first) * plan.granule;
    const int end = int(hi - first) * plan.granule;
    k_end = end < k_tiles ? end : k_tiles;
  }

  TESSERA_HOST_DEVICE TileCoord cta_tile(std::int64_t cluster_tile, int cm, int cn) const {
    const TileCoord c = cluster_tiles.tile(int(cluster_tile));
    return {c.m * cluster_m + cm, c.n * cluster_n + cn};
  }

  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int j, int cm, int cn) const {
    const int dp = dp_units_of(worker);
    if (j < dp) {
      const TileCoord c = cta_tile(std::int64_t(worker) + std::int64_t(j) * workers, cm, cn);
      return {c.m, c.n, 0, k_tiles, 0};
    }
    const int t = first_split_tile(worker) + (j - dp);
    WorkUnit u;
    const TileCoord c = cta_tile(plan.dp_tiles + t, cm, cn);
    u.m = c.m;
    u.n = c.n;
    piece_k_range(worker, t, u.k_begin, u.k_end);
    u.slice = 0;
    return u;
  }

  TESSERA_HOST_DEVICE std::int64_t k_tiles_before(int worker, int j) const {
    const int dp = dp_units_of(worker);
    if (j <= dp) return std::int64_t(j) * k_tiles;
    int k_begin, k_end;
    piece_k_range(worker, first_split_tile(worker), k_begin, k_end);
    return std::int64_t(dp) * k_tiles + (k_end - k_begin) + std::int64_t(j - dp - 1) * k_tiles;
  }

  // ---- the fix-up's questions (scheduler/fixup.hpp asks them) ----------------------
  TESSERA_HOST_DEVICE bool fixup_active() const { return partials != nullptr; }
  TESSERA_HOST_DEVICE int cta_rank(int cm, int cn) const { return cm * cluster_n + cn; }
  TESSERA_HOST_DEVICE int cluster_size() const { return cluster_m * cluster_n; }

  // The slot piece j of worker w writes its partial to (per cluster: times the cluster size,
  // plus the CTA's rank), or -1 when the piece covers its whole tile (it stores D itself).
  TESSERA_HOST_DEVICE int partial_slot(int worker, int j) const {
    const int dp = dp_units_of(worker);
    if (j < dp || !fixup_active()) return -1;
    const int t = first_split_tile(worker) + (j - dp);
    int k_begin, k_end;
    piece_k_range(worker, t, k_begin, k_end);
    if (k_begin == 0 && k_end == k_tiles) return -1;
    return j == dp ? worker : workers + t;
  }

  // The peers of split tile t: workers first_peer .. last_peer.
  TESSERA_HOST_DEVICE int first_peer(int t) const { return owner(std::int64_t(t) * plan.splits); }
  TESSERA_HOST_DEVICE int last_peer(int t) const { return owner(std::int64_t(t + 1) * plan.splits - 1); }

  // How many readers piece j's partial has (the flags its store publishes).
  TESSERA_HOST_DEVICE int readers_of_piece(int worker, int j) const {
    if (reducers == Reducers::kLastPeer) return 1;
    const int t = first_split_tile(worker) + (j - dp_units_of(worker));
    return last_peer(t) - first_peer(t) + 1;
  }

  // Worker w's split pieces that it takes a share of: its first piece (r = 0) and its last
  // (r = 1) when either is partial (middle pieces are whole tiles). kLastPeer: only a tile's
  // last peer reduces, i.e. where the piece holds the tile's last K tile.
  TESSERA_HOST_DEVICE bool reduces(int worker, int which) const {
    if (!fixup_active() || worker >= plan.sk_workers) return false;
    const int first = first_split_tile(worker), last = last_split_tile(worker);
    if (which == 1 && last == first) return false;
    const int t = which == 0 ? first : last;
    int k_begin, k_end;
    piece_k_range(worker, t, k_begin, k_end);
    if (k_begin == 0 && k_end == k_tiles) return false;
    return reducers == Reducers::kEveryPeer || last_peer(t) == worker;
  }

  TESSERA_HOST_DEVICE TileReduction reduction(int worker, int which, int cm, int cn) const {
    const int t = which == 0 ? first_split_tile(worker) : last_split_tile(worker);
    TileReduction r = whole_reduction(t, cm, cn);
    if (reducers == Reducers::kEveryPeer) {
      r.readers = r.peers;
      r.reader = worker - first_peer(t);
    }
    return r;
  }

  // The split tiles (a second kernel's grid: one block each) and split tile t's reduction by one
  // reader, every line (reduce::SecondKernel's second kernel).
  TESSERA_HOST_DEVICE std::int64_t split_tiles() const {
    return plan.mode == Decomposition::kDataParallel ? 0 : cluster_tiles.num_tiles() - plan.dp_tiles;
  }
  // The second kernel's blocks: a share of a split tile's lines per slice of it.
  TESSERA_HOST_DEVICE std::int64_t second_kernel_blocks() const { return split_tiles() * plan.splits; }
  TESSERA_HOST_DEVICE TileReduction whole_reduction(int t, int cm, int cn) const {
    const int first = first_peer(t), last = last_peer(t);
    // The first peer wrote to its own slot when the tile is where its run starts, else to the
    // tile's; every later peer's run starts inside the tile (its own slot).
    TileReduction r;
    const TileCoord c = cta_tile(plan.dp_tiles + t, cm, cn);
    r.m = c.m;
    r.n = c.n;
    r.head_slot = run_start(first) == std::int64_t(t) * plan.splits ? first : workers + t;
    r.next_slot = first + 1;
    r.peers = last - first + 1;
    r.reader = 0;
    r.readers = 1;
    return r;
  }

  // A slot's partial and its flags, for the CTA at rank `rank` of its cluster.
  TESSERA_HOST_DEVICE float* partial(int slot, int rank) const {
    return partials + (std::int64_t(slot) * cluster_size() + rank) * std::int64_t(tile_m) * tile_n;
  }
  TESSERA_HOST_DEVICE std::uint64_t* flag(int slot, int rank, int reader) const {
    return flags + (std::int64_t(slot) * cluster_size() + rank) * flag_stride + reader;
  }
};

}  // namespace scheduler

// True for schedulers whose units may cover part of a tile's K (a fix-up follows).
template <class S, class = void>
struct SchedulerHasFixup {
  static constexpr bool value = false;
};
template <class S>
struct SchedulerHasFixup<S, std::enable_if_t<S::kFixup>> {
  static constexpr bool value = true;
};
template <class S>
constexpr bool scheduler_has_fixup = SchedulerHasFixup<S>::value;

// What a persistent kernel (wgmma, tcgen05, MFMA) walks with its fix-up hooks: any tile
// scheduler whose partials, if it has any, are reduced inside the launch (a second kernel's
// medium needs a launch of its own, which those families do not make).
template <class S, class = void>
struct ReducesAfterLaunch : std::false_type {};
template <class S>
struct ReducesAfterLaunch<S, std::enable_if_t<!S::kReducesInLaunch>> : std::true_type {};
template <class S>
constexpr bool in_launch_scheduler = is_tile_scheduler<S> && !ReducesAfterLaunch<S>::value;

}  // namespace tessera::gemm
