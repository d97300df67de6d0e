// Tile schedulers: how a GEMM becomes units of work. A unit is one output tile (in tile
// coordinates) and the K tiles of it that the unit covers; a worker (a CTA, a cluster of
// CTAs, an AMD workgroup) runs a sequence of units. Every kernel loops over its worker's units
// and never knows how the list was made: data-parallel, split-K, stream-K, batched and
// grouped GEMMs are different schedulers, not different kernels.
//
// A scheduler is a small, trivially copyable struct (it travels in the kernel's parameters):
//
//   // host
//   static std::int64_t units(const TileGrid&);         every unit of the problem
//   static Scheduler make(const TileGrid&, int workers);  workers: the grid's size, in workers
//   std::size_t workspace_bytes(std::size_t output_bytes, std::size_t tile_bytes) const;
//       what its fix-up of partial tiles needs, given the bytes of one partial copy of the
//       whole output and of one tile in the family's partial format (0: no fix-up)
//   // device (and host: tests walk them)
//   int units_of(int worker) const;                    how many units `worker` runs
//   WorkUnit unit(int worker, int j, int cm, int cn) const;
//       its j-th unit, for the CTA at (cm, cn) of its cluster (0, 0 without clusters)
//   std::int64_t k_tiles_before(int worker, int j) const;
//       K tiles in the worker's units before its j-th: where a stage ring, which every role of
//       a CTA walks in the same order, stands when unit j begins.
//
// A role of a kernel asks for its units in increasing j, through walk_units(scheduler) (below).
// A scheduler that finds a unit by walking something (scheduler::Grouped: the group sizes) can
// take that order: it declares `struct Cursor` and `WorkUnit unit(worker, j, cm, cn, Cursor&)`,
// which resumes where the last unit was found, and a role's walk costs O(groups + units)
// rather than O(groups x units). Any j still gets the unit the plain form gives.
//
// Units must be independent of the order workers run in (no unit waits for another's),
// unless the scheduler's fix-up says how partial tiles meet.
//
// A scheduler whose units may cover part of a tile's K (scheduler::StreamK<Medium>,
// scheduler/stream_k.hpp) adds a fix-up to this interface: `static constexpr bool kFixup = true`
// (scheduler_has_fixup<S>) and `kReducesInLaunch`; host: make(grid, workers, SplitRequest),
// `use_workspace(FixupSpace)` after it (without enough workspace it falls back to whole tiles)
// and `static workspace_bound(grid, workers, SplitRequest)`; device: `partial_slot(worker, j)`
// (-1: the unit stores D itself), `readers_of_piece`, `reduces(worker, which)`, `reduction(...)`,
// `partial(slot, rank)`, `flag(slot, rank, reader)`, which scheduler/fixup.hpp asks. Kernels
// reach it only through FixupHooks<S, ...> (scheduler/fixup.hpp), whose hooks do nothing for
// the other schedulers, so their code is unchanged.
//
// Many GEMMs in one launch (problem_set.hpp): a scheduler that walks a batch or groups says so
// with `static constexpr bool kProblemSet = true`, takes gemm::Arguments::problems on the host
//   static std::int64_t units(const TileGrid&, const ProblemSet&);   at least every unit
//   static Scheduler make(const TileGrid&, const ProblemSet&, int workers);
// and fills the WorkUnit's problem fields: which problem the tile belongs to, the first row of
// A, C and D that problem owns, and its rows; m then counts tiles from that first row, and the
// kernel stores only the problem's rows; `static constexpr bool kRowOffsets` says whether that
// first row can be other than 0, `kAllRows` whether every problem has all M rows.
// scheduler_units() / make_scheduler() below call the right form for any scheduler.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/gemm/problem_set.hpp"

namespace tessera::gemm {

struct TileCoord {
  int m;  // tile row
  int n;  // tile column
};

// Maps a linear index to an output tile so that tiles processed at the same time share
// operand tiles in L2: consecutive indices walk down a group of kGroupM tile rows before
// moving one tile column right (Triton's "grouped ordering").
template <int kGroupM = 8>
struct GroupedRasterScheduler {
  static_assert(kGroupM >= 1, "Tessera: GroupedRasterScheduler needs a group of at least one tile row");
  int tiles_m;
  int tiles_n;

  TESSERA_HOST_DEVICE static GroupedRasterScheduler make(std::int64_t M, std::int64_t N, int tile_m,
                                                         int tile_n) {
    return {int(ceil_div<std::int64_t>(M, tile_m)), int(ceil_div<std::int64_t>(N, tile_n))};
  }
  TESSERA_HOST_DEVICE std::int64_t num_tiles() const {
    return std::int64_t(tiles_m) * std::int64_t(tiles_n);
  }
  TESSERA_HOST_DEVICE TileCoord tile(int linear) const {
    const int tiles_per_group = kGroupM * tiles_n;
    const int group = linear / tiles_per_group;
    const int first_m = group * kGroupM;
    const int rows_in_group = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
    const int within = linear - group * tiles_per_group;
    return {first_m + within % rows_in_group, within / rows_in_group};
  }
};

// One unit of work.
struct WorkUnit {
  int m, n;            // the output tile, in tiles
  int k_begin, k_end;  // its K tiles [k_begin, k_end)
  int slice;           // split-K: which partial slice the unit writes (0: the whole K)
  // Problem-set schedulers only (0 elsewhere): the problem (batch entry, group), the first row
  // of A, C and D it owns (the contiguous grouped layout; 0 otherwise), its rows.
  int problem = 0;
  int row_begin = 0;
  int rows = 0;
  TESSERA_HOST_DEVICE int k_tiles() const { return k_end - k_begin; }
};

// The problem as a scheduler sees it: extents, the CTA tile, and the cluster of CTAs that
// shares operand tiles (1 x 1 without clusters).
struct TileGrid {
  std::int64_t M, N, K;
  int tile_m, tile_n, tile_k;
  int cluster_m = 1, cluster_n = 1;
  TESSERA_HOST_DEVICE int k_tiles() const { return int(ceil_div<std::int64_t>(K, tile_k)); }
};

namespace scheduler {

// Every tile once, over all of K. Workers take cluster tiles w, w + workers, w + 2 workers,
// ... in grouped raster order (the CTA at (cm, cn) of a cluster takes the tile at that
// offset inside its cluster tile). With as many workers as cluster tiles, each runs one
// (a non-persistent grid); with fewer, each loops (a persistent one).
struct DataParallel {
  GroupedRasterScheduler<8> cluster_tiles;  // over tiles of (cluster M x cluster N) tiles
  int cluster_m, cluster_n;
  int workers;
  int k_tiles;

  TESSERA_HOST_DEVICE static std::int64_t units(const TileGrid& g) {
    return GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m * g.cluster_m, g.tile_n * g.cluster_n).num_tiles();
  }
  TESSERA_HOST_DEVICE static DataParallel make(const TileGrid& g, int workers) {
    DataParallel s;
    s.cluster_tiles = GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m * g.cluster_m, g.tile_n * g.cluster_n);
    s.cluster_m = g.cluster_m;
    s.cluster_n = g.cluster_n;
    s.workers = workers;
    s.k_tiles = g.k_tiles();
    return s;
  }
  std::size_t workspace_bytes(std::size_t /*output_bytes*/, std::size_t /*tile_bytes*/) const { return 0; }

  TESSERA_HOST_DEVICE std::int64_t units() const { return cluster_tiles.num_tiles(); }
  TESSERA_HOST_DEVICE int units_of(int worker) const {
    const std::int64_t u = units();
    return worker < u ? int((u - 1 - worker) / workers + 1) : 0;
  }
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int j, int cm, int cn) const {
    const TileCoord c = cluster_tiles.tile(worker + j * workers);
    return {c.m * cluster_m + cm, c.n * cluster_n + cn, 0, k_tiles, 0};
  }
  TESSERA_HOST_DEVICE std::int64_t k_tiles_before(int /*worker*/, int j) const {
    return std::int64_t(j) * k_tiles;
  }
};

}  // namespace scheduler

// Whether a scheduler walks a problem set (see the top of this file).
template <class S, class = void>
struct TakesProblemSet : std::false_type {};
template <class S>
struct TakesProblemSet<S, std::enable_if_t<S::kProblemSet>> : std::true_type {};
template <class S>
constexpr bool takes_problem_set = TakesProblemSet<S>::value;

// Whether every problem of the scheduler's set owns all M rows of its layer (a strided batch),
// so that a problem's tiles end at M like one GEMM's (kAllRows below; false when unknown).
template <class S, class = void>
struct OwnsAllRows : std::false_type {};
template <class S>
struct OwnsAllRows<S, std::enable_if_t<S::kAllRows>> : std::true_type {};
template <class S>
constexpr bool problem_owns_all_rows = OwnsAllRows<S>::value;

// A role's walk over its units (see the top of this file): unit(worker, j, cm, cn) as the
// scheduler answers it, through the scheduler's cursor where it has one.
template <class S, class = void>
struct UnitWalk {
  const S& scheduler;
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int j, int cm, int cn) { return scheduler.unit(worker, j, cm, cn); }
};
template <class S>
struct UnitWalk<S, std::void_t<typename S::Cursor>> {
  const S& scheduler;
  typename S::Cursor at{};
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int j, int cm, int cn) {
    return scheduler.unit(worker, j, cm, cn, at);
  }
};
template <class S>
TESSERA_HOST_DEVICE UnitWalk<S> walk_units(const S& scheduler) {
  return UnitWalk<S>{scheduler};
}

// Whether S is a tile scheduler of this interface (above), one GEMM's or a problem set's: what
// the kernels walk, whatever the scheduler. (Which media a family's kernel can reduce is its
// configuration's check: in_launch_scheduler, scheduler/stream_k.hpp.)
template <class S, class = void>
struct IsOneGemmScheduler : std::false_type {};
template <class S>
struct IsOneGemmScheduler<
    S, std::enable_if_t<std::is_same_v<decltype(S::units(std::declval<const TileGrid&>())), std::int64_t> &&
                        std::is_same_v<decltype(S::make(std::declval<const TileGrid&>(), 1)), S> &&
                        std::is_same_v<decltype(std::declval<const S&>().unit(0, 0, 0, 0)), WorkUnit> &&
                        std::is_same_v<decltype(std::declval<const S&>().units_of(0)), int> &&
                        std::is_same_v<decltype(std::declval<const S&>().k_tiles_before(0, 0)), std::int64_t>>>
    : std::true_type {};
template <class S>
constexpr bool is_tile_scheduler = takes_problem_set<S> || IsOneGemmScheduler<S>::value;

// Host: every unit of the launch (an upper bound for schedulers whose sizes are on the device),
// and the scheduler of a persistent launch of `workers` workers.
template <class S>
std::int64_t scheduler_units(const TileGrid& g, const ProblemSet& problems) {
  if constexpr (takes_problem_set<S>) {
    return S::units(g, problems);
  } else {
    (void)problems;
    return S::units(g);
  }
}
template <class S>
S make_scheduler(const TileGrid& g, const ProblemSet& problems, int workers) {
  if constexpr (takes_problem_set<S>) {
    return S::make(g, problems, workers);
  } else {
    (void)problems;
    return S::make(g, workers);
  }
}

}  // namespace tessera::gemm
