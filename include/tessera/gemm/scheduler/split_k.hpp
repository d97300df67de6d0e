// Split-K: when a problem has too few output tiles to give every SM a block, the K
// dimension is cut into slices computed by separate blocks; each writes its partial
// tile (fp32) to a workspace, and a second pass sums the slices in a fixed order and
// applies the epilogue (so results do not depend on timing).
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

struct SplitK {
  int splits;             // K slices (1: no split)
  int k_tiles_per_split;  // K tiles each slice covers (the last may cover fewer)
};

// The split for `tiles` output tiles of `k_tiles` K tiles each on a GPU of `sms`
// multiprocessors (one block each): as many slices as fit in one wave of blocks, so
// only problems that leave at least half the SMs idle are split (a second, partial
// wave costs more than it gains: measured, benchmark/notes/fma.md), each slice at least
// `min_k_tiles` deep (shallower slices cost more in partial-tile traffic than they
// gain), at most `max_splits`. No slice is ever empty.
TESSERA_HOST_DEVICE constexpr SplitK choose_split_k(std::int64_t tiles, std::int64_t k_tiles,
                                                    int sms, int min_k_tiles = 8,
                                                    int max_splits = 32) {
  const SplitK none{1, int(k_tiles)};
  if (tiles <= 0 || k_tiles <= 0 || tiles >= sms) return none;
  std::int64_t splits = sms / tiles;                       // blocks within one wave
  const std::int64_t by_depth = k_tiles / min_k_tiles;     // slices deep enough
  if (splits > by_depth) splits = by_depth;
  if (splits > max_splits) splits = max_splits;
  if (splits <= 1) return none;
  const std::int64_t per_split = (k_tiles + splits - 1) / splits;
  return {int((k_tiles + per_split - 1) / per_split), int(per_split)};  // no empty slice
}

namespace scheduler {

// Every tile once per K slice, one unit per worker (a non-persistent grid of tiles x splits
// blocks): worker w computes slice w / tiles of tile w % tiles (grouped raster order), so the
// blocks of one slice, which read the same K range, run together. With one slice it is
// data-parallel. The partial slices are summed by the fix-up pass (scheduler/split_k_reduce.hpp).
struct SplitKSlices {
  GroupedRasterScheduler<8> tiles;
  int splits;
  int k_tiles_per_split;
  int k_tiles;

  TESSERA_HOST_DEVICE static std::int64_t units(const TileGrid& g, const SplitK& split) {
    return GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m, g.tile_n).num_tiles() * split.splits;
  }
  TESSERA_HOST_DEVICE static SplitKSlices make(const TileGrid& g, const SplitK& split) {
    return {GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m, g.tile_n), split.splits, split.k_tiles_per_split,
            g.k_tiles()};
  }

  // One partial copy of the output per slice, when there is more than one.
  std::size_t workspace_bytes(std::size_t output_bytes, std::size_t /*tile_bytes*/) const {
    return splits > 1 ? std::size_t(splits) * output_bytes : 0;
  }

  TESSERA_HOST_DEVICE std::int64_t units() const { return tiles.num_tiles() * splits; }
  TESSERA_HOST_DEVICE int units_of(int worker) const { return worker < units() ? 1 : 0; }
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int /*j*/, int /*cm*/, int /*cn*/) const {
    const int per_slice = tiles.tiles_m * tiles.tiles_n;  // < 2^31: the launch checks refuse more
    const int slice = worker / per_slice;
    const TileCoord t = tiles.tile(worker - slice * per_slice);
    const int k_begin = slice * k_tiles_per_split;
    const int k_end = k_tiles - k_begin < k_tiles_per_split ? k_tiles : k_begin + k_tiles_per_split;
    return {t.m, t.n, k_begin, k_end, slice};
  }
  TESSERA_HOST_DEVICE std::int64_t k_tiles_before(int /*worker*/, int /*j*/) const { return 0; }
};

}  // namespace scheduler

}  // namespace tessera::gemm
