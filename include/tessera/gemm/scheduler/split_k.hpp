// The split rules of the media that split every tile (scheduler/stream_k.hpp walks the slices):
//   choose_split_k          reduce::SecondKernel (the FMA family): when a problem has too few
//                           output tiles to give every SM a block, K is cut into slices computed
//                           by separate blocks, each writing its partial tile (fp32) to the
//                           workspace; a second kernel sums them in a fixed order;
//   choose_cluster_splits   reduce::ClusterShared (the wgmma family's ClusterSplitK): the CTAs of
//                           one cluster each take a slice of a tile and sum their partials
//                           through distributed shared memory.
// Either way the sum's order never depends on timing. Host-includable.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera::gemm {

struct SplitK {
  int splits;             // K slices (1: no split)
  int k_tiles_per_split;  // K tiles each slice covers (the last may cover fewer)
};

// The split for `tiles` output tiles of `k_tiles` K tiles each on a GPU of `sms`
// multiprocessors (one block each): as many slices as fit in one wave of blocks, so
// only problems that leave at least half the SMs idle are split (a second, partial
// wave costs more than it gains: benchmark/notes/fma.md), each slice at least
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

}  // namespace tessera::gemm
