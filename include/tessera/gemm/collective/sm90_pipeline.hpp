// The stage ring of the warp-specialised Hopper kernel: where a producer or consumer is in
// the ring (stage index and the parity of the current pass over it), the per-stage
// barriers, and the tile walk every role of a CTA shares.
//
//   full[s]  completes when stage s holds a K tile: the producer's arrival(s) plus, with
//            TMA, the bytes of the copies. Consumers wait on it.
//   empty[s] completes when every consumer that reads stage s (in this CTA and, with
//            multicast, in the CTAs this CTA writes into) has released it. The producer
//            waits on it before refilling stage s.
// A role starts at pass 0; the producer waits for the empty phase of parity 1 on its first
// pass, which a freshly initialised barrier reports complete (the ring starts empty).
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/gemm/tile_scheduler.hpp"

namespace tessera::gemm {

template <int kStages>
struct RingPosition {
  int stage = 0;
  std::uint32_t phase = 0;  // parity of the current pass over the ring

  // The position `count` steps from the start of the ring.
  TESSERA_HOST_DEVICE static RingPosition at(std::int64_t count) {
    RingPosition p;
    p.stage = int(count % kStages);
    p.phase = std::uint32_t((count / kStages) & 1);
    return p;
  }
  TESSERA_HOST_DEVICE void advance() {
    if (++stage == kStages) {
      stage = 0;
      phase ^= 1u;
    }
  }
};

// The persistent walk over output tiles: cluster c of a grid of `clusters` takes cluster
// tiles c, c + clusters, ... (grouped raster order); the CTA of rank (cm, cn) in the
// cluster takes the tile at that offset inside each cluster tile.
struct PersistentTileWalk {
  GroupedRasterScheduler<8> cluster_tiles;  // over tiles of (cluster M x cluster N) tiles
  int cluster_m, cluster_n;
  int clusters;  // clusters in the grid

  TESSERA_HOST_DEVICE static PersistentTileWalk make(std::int64_t M, std::int64_t N, int tile_m, int tile_n,
                                                     int cluster_m, int cluster_n, int clusters) {
    PersistentTileWalk w;
    w.cluster_tiles = GroupedRasterScheduler<8>::make(M, N, tile_m * cluster_m, tile_n * cluster_n);
    w.cluster_m = cluster_m;
    w.cluster_n = cluster_n;
    w.clusters = clusters;
    return w;
  }
  TESSERA_HOST_DEVICE std::int64_t units() const { return cluster_tiles.num_tiles(); }
  // Work units (cluster tiles) cluster `cluster` processes.
  TESSERA_HOST_DEVICE int units_of(int cluster) const {
    const std::int64_t u = units();
    return cluster < u ? int((u - 1 - cluster) / clusters + 1) : 0;
  }
  // The tile of the CTA at (cm, cn) in its cluster, in the j-th unit of cluster `cluster`.
  TESSERA_HOST_DEVICE TileCoord tile(int cluster, int j, int cm, int cn) const {
    const TileCoord c = cluster_tiles.tile(cluster + j * clusters);
    return {c.m * cluster_m + cm, c.n * cluster_n + cn};
  }
};

}  // namespace tessera::gemm
