// scheduler::StridedBatched: `problems.count` GEMMs of one M x N x K shape in one launch
// (problem_set.hpp), entry p's operands at p times their strides. The units are every entry's
// tiles, entry after entry, each entry's in the grouped raster order DataParallel uses; workers
// take units w, w + workers, ... of that one list, so a persistent grid stays busy across entry
// boundaries and the tail is at most one unit per worker.
//
//   using Config = WgmmaConfig<..., option::Scheduler<scheduler::StridedBatched>>;
//   args.problems.count = 32;
//   args.problems.stride_a = M * K;   // 0 shares the operand (a broadcast B)
//   args.problems.stride_b = N * K;
//   args.problems.stride_d = M * N;
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm::scheduler {

struct StridedBatched {
  static constexpr bool kProblemSet = true;
  static constexpr bool kRowOffsets = false;  // every entry's rows start at its matrix's row 0
  static constexpr bool kAllRows = true;      // ... and are all M of them
  DataParallel entry;  // one entry's cluster tiles (its `workers` are the launch's)
  int count;           // entries
  int rows;            // M
  int k_tiles;

  // Host: the batch's arguments (M, and D's span: matrix_span of one D) before anything else.
  static Status can_implement(const ProblemSet& s, std::int64_t M, std::int64_t d_elements) {
    if (s.count < 0 || s.count >= (std::int64_t(1) << 31)) return Status::kErrorProblemCount;
    if (s.stride_a < 0 || s.stride_b < 0 || s.stride_c < 0 || s.stride_d < 0) return Status::kErrorProblemStride;
    if (s.count > 1 && s.stride_d < d_elements) return Status::kErrorProblemStride;
    if (M >= (std::int64_t(1) << 31)) return Status::kErrorDimensionTooLarge;
    return Status::kSuccess;
  }
  static ProblemStrides strides(const ProblemSet& s) { return {s.stride_a, s.stride_b, s.stride_c, s.stride_d}; }

  static std::int64_t units(const TileGrid& g, const ProblemSet& s) { return DataParallel::units(g) * s.count; }
  static StridedBatched make(const TileGrid& g, const ProblemSet& s, int workers) {
    return {DataParallel::make(g, workers), int(s.count), int(g.M), g.k_tiles()};
  }
  std::size_t workspace_bytes(std::size_t /*output_bytes*/, std::size_t /*tile_bytes*/) const { return 0; }

  TESSERA_HOST_DEVICE std::int64_t units() const { return entry.units() * count; }
  TESSERA_HOST_DEVICE int units_of(int worker) const {
    const int u = int(units());
    return worker < u ? (u - 1 - worker) / entry.workers + 1 : 0;
  }
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int j, int cm, int cn) const {
    const int linear = worker + j * entry.workers;  // < 2^31: the launch checks refuse more units
    const int per_entry = entry.cluster_tiles.tiles_m * entry.cluster_tiles.tiles_n;
    const int index = linear / per_entry;
    const TileCoord c = entry.cluster_tiles.tile(linear - index * per_entry);
    WorkUnit u{c.m * entry.cluster_m + cm, c.n * entry.cluster_n + cn, 0, k_tiles, 0};
    u.problem = index;
    u.rows = rows;
    return u;
  }
  TESSERA_HOST_DEVICE std::int64_t k_tiles_before(int /*worker*/, int j) const { return std::int64_t(j) * k_tiles; }
};

}  // namespace tessera::gemm::scheduler
