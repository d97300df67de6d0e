// scheduler::ClusterSlices: K split across the CTAs of a thread-block cluster. Each output tile
// is one cluster of `splits` CTAs; CTA r of the cluster computes K slice r of the tile, and the
// cluster sums its partial tiles through distributed shared memory before the one store of D
// (wgmma/cluster_split_kernel.hpp). No workspace, no second kernel, and the sum is taken
// in slice order, so the result is the same on every run.
//
// Worker w (one CTA, one unit: a non-persistent grid of tiles x splits CTAs) is CTA w % splits
// of cluster w / splits, which is how a 1-D grid launched with clusters of `splits` CTAs
// numbers them. Clusters take tiles in grouped raster order; a tile's K tiles are cut into
// `splits` slices whose sizes differ by at most one.
//
// The split is chosen per call by choose_cluster_splits (below), from the number of output
// tiles, the K depth and the SM count. Host-includable: the host tests walk it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

// The most CTAs of a cluster: 8 is the portable limit, Hopper allows 16 with the non-portable
// cluster-size opt-in, which the launch makes (wgmma/cluster_split.hpp).
constexpr int kMaxClusterSplits = 16;
constexpr int kMaxPortableClusterSize = 8;

// The split for `tiles` output tiles of `k_tiles` K tiles on `sms` SMs (one CTA each), where
// a cluster of s CTAs fits only if `resident(s)` clusters of s are at least `tiles` (one wave):
// the largest s <= max_splits with tiles * s <= sms and every slice at least min_k_tiles deep
// (shallower slices cost more in the cluster's sum and in pipeline fill than they save). 1
// when no split helps (the tiles alone fill the SMs, or K is shallow).
template <class Resident>
constexpr int choose_cluster_splits(std::int64_t tiles, std::int64_t k_tiles, int sms, Resident&& resident,
                                    int max_splits = kMaxClusterSplits, int min_k_tiles = 16) {
  int best = 1;
  for (int s = 2; s <= max_splits; ++s) {
    if (tiles * s > sms) break;
    if (k_tiles < std::int64_t(s) * min_k_tiles) break;
    if (std::int64_t(resident(s)) < tiles) continue;
    best = s;
  }
  return best;
}
// Without a residency limit (every SM can hold a CTA of any cluster): host tests, explain().
constexpr int choose_cluster_splits(std::int64_t tiles, std::int64_t k_tiles, int sms,
                                    int max_splits = kMaxClusterSplits, int min_k_tiles = 16) {
  return choose_cluster_splits(
      tiles, k_tiles, sms, [sms](int s) { return sms / s; }, max_splits, min_k_tiles);
}

namespace scheduler {

struct ClusterSlices {
  GroupedRasterScheduler<8> tiles;
  int splits;
  int k_tiles;

  TESSERA_HOST_DEVICE static std::int64_t units(const TileGrid& g, int splits) {
    return GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m, g.tile_n).num_tiles() * splits;
  }
  TESSERA_HOST_DEVICE static ClusterSlices make(const TileGrid& g, int splits) {
    return {GroupedRasterScheduler<8>::make(g.M, g.N, g.tile_m, g.tile_n), splits, g.k_tiles()};
  }
  // The partial tiles meet in the cluster's shared memory.
  std::size_t workspace_bytes(std::size_t /*output_bytes*/, std::size_t /*tile_bytes*/) const { return 0; }

  TESSERA_HOST_DEVICE std::int64_t units() const { return tiles.num_tiles() * splits; }
  TESSERA_HOST_DEVICE int units_of(int worker) const { return worker < units() ? 1 : 0; }
  // K tiles [k_tiles * r / splits, k_tiles * (r + 1) / splits) of the cluster's tile.
  TESSERA_HOST_DEVICE WorkUnit unit(int worker, int /*j*/, int /*cm*/, int /*cn*/) const {
    const int cluster = worker / splits, slice = worker - cluster * splits;
    const TileCoord t = tiles.tile(cluster);
    const int k_begin = int(std::int64_t(k_tiles) * slice / splits);
    const int k_end = int(std::int64_t(k_tiles) * (slice + 1) / splits);
    return {t.m, t.n, k_begin, k_end, slice};
  }
  TESSERA_HOST_DEVICE std::int64_t k_tiles_before(int /*worker*/, int /*j*/) const { return 0; }
};

}  // namespace scheduler

}  // namespace tessera::gemm
