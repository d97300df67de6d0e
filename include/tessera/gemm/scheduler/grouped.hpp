// scheduler::Grouped<Layout>: a grouped GEMM (a mixture-of-experts layer: one GEMM per expert,
// each with its own rows, the same N and K) in one launch, the group sizes read from device
// memory by the kernel (problem_set.hpp says how the layouts address A, B, C and D):
//
//   group_layout::Contiguous  A's rows sorted by group; problems.group_ends[g] is one past
//                             group g's last row (group g: [group_ends[g-1], group_ends[g]))
//   group_layout::Masked      A, C, D as [groups][M rows]; problems.group_rows[g] rows used
//
//   using Config = WgmmaConfig<..., option::Scheduler<scheduler::Grouped<group_layout::Contiguous>>>;
//   args.M = rows of A;  args.problems.count = experts;  args.problems.group_ends = d_ends;
//   args.problems.stride_b = N * K;   // B is [experts][K x N]
//
// The units are the tiles of every group, group after group (each group's in grouped raster
// order over its own tile rows), one persistent list that workers take w, w + workers, ...:
// no worker idles while units remain, and a group without rows has no units. Only the device
// knows the sizes, so the host launches for an upper bound of the units (units(grid, problems))
// and every role of a kernel counts the real ones (units_of) and finds a unit's group (unit) by
// walking the sizes, one small array that stays in L1. A role walks its units in order through a
// Cursor (walk_units, tile_scheduler.hpp), so it reads each size about once: walked from the
// first group for every unit, 64 experts cost a scan of 32 sizes on average before each unit's
// main loop.
//
// Out-of-range sizes are clamped the same way on every read (the kernel's roles must agree):
// contiguous, an end below the previous group's end gives an empty group and an end past M is
// cut to M; masked, a count below 0 is 0 and above M is M. units() (every role calls it through
// units_of) then writes kErrorGroupRowsOutOfRange to problems.status when given; it never
// writes success: Gemm::run (gemm.hpp) sets the flag to kSuccess on the stream before the launch.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

namespace group_layout {
struct Contiguous {};
struct Masked {};
}  // namespace group_layout

namespace scheduler {

template <class Layout>
struct Grouped {
  static constexpr bool kProblemSet = true;
  static constexpr bool kContiguous = std::is_same_v<Layout, group_layout::Contiguous>;
  static constexpr bool kRowOffsets = kContiguous;  // groups start at rows of their own
  static constexpr bool kAllRows = false;            // and have fewer than M
  static_assert(kContiguous || std::is_same_v<Layout, group_layout::Masked>,
                "Tessera scheduler::Grouped: the layout must be group_layout::Contiguous (A's rows sorted by "
                "group, one end offset per group) or group_layout::Masked ([groups][M rows], one count per group)");

  const std::int32_t* sizes;  // group_ends (contiguous) or group_rows (masked), device memory
  std::int32_t* status;       // optional
  int groups;
  int max_rows;      // M: A's rows (contiguous), the rows of one group's slab (masked)
  int cluster_rows;  // rows of a cluster tile (tile M x cluster M)
  int tiles_n;       // cluster tiles along N
  int cluster_m, cluster_n;
  int workers;
  int k_tiles;

  // ---- host ------------------------------------------------------------------------------
  static Status can_implement(const ProblemSet& s, std::int64_t M, std::int64_t d_elements) {
    if (s.count < 0 || s.count >= (std::int64_t(1) << 31)) return Status::kErrorProblemCount;
    if ((kContiguous ? s.group_ends : s.group_rows) == nullptr && s.count > 0) return Status::kErrorGroupRowsNull;
    if (s.stride_a < 0 || s.stride_b < 0 || s.stride_c < 0 || s.stride_d < 0) return Status::kErrorProblemStride;
    if (!kContiguous && s.count > 1 && s.stride_d < d_elements) return Status::kErrorProblemStride;
    if (M >= (std::int64_t(1) << 31)) return Status::kErrorDimensionTooLarge;
    return Status::kSuccess;
  }
  // Contiguous: every group addresses A, C and D by its rows; only B moves per group.
  static ProblemStrides strides(const ProblemSet& s) {
    if constexpr (kContiguous) {
      return {0, s.stride_b, 0, 0};
    } else {
      return {s.stride_a, s.stride_b, s.stride_c, s.stride_d};
    }
  }

  // At least every unit, whatever the sizes: each group has at most ceil(M / rows) tile rows,
  // and contiguous groups share M's rows, so together at most ceil(M / rows) + groups.
  static std::int64_t units(const TileGrid& g, const ProblemSet& s) {
    const std::int64_t rows = std::int64_t(g.tile_m) * g.cluster_m;
    const std::int64_t per_group = ceil_div<std::int64_t>(g.M, rows);
    std::int64_t tile_rows = s.count * per_group;
    if (kContiguous && per_group + s.count < tile_rows) tile_rows = per_group + s.count;
    return tile_rows * ceil_div<std::int64_t>(g.N, std::int64_t(g.tile_n) * g.cluster_n);
  }
  static Grouped make(const TileGrid& g, const ProblemSet& s, int workers) {
    Grouped r;
    r.sizes = kContiguous ? s.group_ends : s.group_rows;
    r.status = s.status;
    r.groups = int(s.count);
    r.max_rows = int(g.M);
    r.cluster_rows = g.tile_m * g.cluster_m;
    r.tiles_n = int(ceil_div<std::int64_t>(g.N, std::int64_t(g.tile_n) * g.cluster_n));
    r.cluster_m = g.cluster_m;
    r.cluster_n = g.cluster_n;
    r.workers = workers;
    r.k_tiles = g.k_tiles();
    return r;
  }
  std::size_t workspace_bytes(std::size_t /*output_bytes*/, std::size_t /*tile_bytes*/) const { return 0; }

  // ---- device (and host: the tests walk it) ------------------------------------------------
  // Group g's rows: [begin, begin + count) of A, C and D (masked: of its slab). `end` carries
  // the previous contiguous group's end from one call to the next (start at 0, g = 0, 1, ...).
  struct Rows {
    int begin, count;
    bool clamped;  // the size was out of range
  };
  TESSERA_HOST_DEVICE Rows rows_of(int g, int& end) const {
    const int raw = sizes[g];
    if constexpr (kContiguous) {
      const int begin = end;
      end = raw < begin ? begin : (raw > max_rows ? max_rows : raw);
      return {begin, end - begin, raw < begin || raw > max_rows};
    } else {
      const int count = raw < 0 ? 0 : (raw > max_rows ? max_rows : raw);
      return {0, count, count != raw};
    }
  }
  TESSERA_HOST_DEVICE int tile_rows_of(const Rows& r) const { return (r.count + cluster_rows - 1) / cluster_rows; }

  // Every unit of the launch (reports clamped sizes to `status`).
  TESSERA_HOST_DEVICE std::int64_t units() const {
    int total = 0;
    bool clamped = false;
    int end = 0;
    for (int g = 0; g < groups; ++g) {
      const Rows r = rows_of(g, end);
      clamped |= r.clamped;
      total += tile_rows_of(r);
    }
    if (clamped && status != nullptr) *status = std::int32_t(Status::kErrorGroupRowsOutOfRange);
    return std::int64_t(total) * tiles_n;
  }
  TESSERA_HOST_DEVICE int units_of(int worker) const {
    const int u = int(units());
    return worker < u ? (u - 1 - worker) / workers + 1 : 0;
  }
  // Where a walk over the units last found one (UnitWalk, tile_scheduler.hpp): group g, the
  // units of the groups before it, and the end of the group before it (contiguous).
  struct Cursor {
    int g = 0, before = 0, end = 0;
  };
  // 32-bit counts: the launch checks keep every unit index below 2^31.
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int j, int cm, int cn) const {
    Cursor from_the_first;
    return unit(worker, j, cm, cn, from_the_first);
  }
  // The same unit, the sizes walked from `at` (from the first group if the unit lies before it),
  // and `at` left at the unit's group: a worker's units come in increasing order, so each
  // group's size is read about once per walk, not once per unit.
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int j, int cm, int cn, Cursor& at) const {
    const int linear = worker + j * workers;
    if (linear < at.before) at = Cursor{};
    for (; at.g < groups; ++at.g) {
      int end = at.end;
      const Rows r = rows_of(at.g, end);
      const int tile_rows = tile_rows_of(r);
      const int here = tile_rows * tiles_n;
      if (linear < at.before + here) {
        const TileCoord c = GroupedRasterScheduler<8>{tile_rows, tiles_n}.tile(linear - at.before);
        WorkUnit u{c.m * cluster_m + cm, c.n * cluster_n + cn, 0, k_tiles, 0};
        u.problem = at.g;
        u.row_begin = r.begin;
        u.rows = r.count;
        return u;
      }
      at.before += here;
      at.end = end;
    }
    // Past the last unit (only if the sizes changed under a running kernel): no rows, so the
    // kernel stores nothing for it.
    WorkUnit none{0, 0, 0, k_tiles, 0};
    none.problem = groups > 0 ? groups - 1 : 0;
    return none;
  }
  TESSERA_HOST_DEVICE std::int64_t k_tiles_before(int /*worker*/, int j) const { return std::int64_t(j) * k_tiles; }
};

}  // namespace scheduler

}  // namespace tessera::gemm
