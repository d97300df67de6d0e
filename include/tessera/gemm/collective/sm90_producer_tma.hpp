// The TMA producer of the Hopper kernel: one thread of the producer warpgroup walks the
// CTA's tiles and, per K tile, waits for a free stage, announces the stage's bytes on its
// full barrier and issues the copies. In a cluster, the tile an operand shares with other
// CTAs (A along N, B along M) is loaded a slice per CTA and multicast to all of them, so
// each CTA still receives whole tiles and expects their full byte count.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

// Where a CTA sits in its cluster, and the CTAs it shares operand tiles with.
template <class Cluster>
struct ClusterPosition {
  int rank, cm, cn;
  TESSERA_DEVICE static ClusterPosition current() {
    const int r = Cluster::kSize > 1 ? int(nvidia::cluster_cta_rank()) : 0;
    return {r, r % Cluster::kM, r / Cluster::kM};
  }
  // CTAs with the same cm: the same rows of A (the A tile is multicast among them).
  TESSERA_DEVICE std::uint16_t a_group() const {
    std::uint16_t mask = 0;
    for (int j = 0; j < Cluster::kN; ++j) mask |= std::uint16_t(1u << (cm + Cluster::kM * j));
    return mask;
  }
  // CTAs with the same cn: the same columns of B.
  TESSERA_DEVICE std::uint16_t b_group() const {
    std::uint16_t mask = 0;
    for (int i = 0; i < Cluster::kM; ++i) mask |= std::uint16_t(1u << (i + Cluster::kM * cn));
    return mask;
  }
};

template <class Config>
struct TmaProducer {
  static constexpr int kBM = Config::kBlockM, kBN = Config::kBlockN, kBK = Config::kBlockK;
  using Cluster = typename Config::Cluster;
  using TileA = typename Config::TileA;
  using TileB = typename Config::TileB;

  // One K tile of A (rows [m0, m0 + BM)) and B (columns [n0, n0 + BN)) into stage buffers
  // a and b; this CTA's slice of each, multicast where the cluster shares the tile.
  TESSERA_DEVICE static void load_stage(const CUtensorMap* map_a, const CUtensorMap* map_b,
                                        std::uint64_t* full, unsigned char* a, unsigned char* b, int m0,
                                        int n0, int k0, const ClusterPosition<Cluster>& at) {
    load_operand<Config::kKMajorA, Config::kSliceRowsA, Cluster::kN>(map_a, full, a, m0, k0, at.cn,
                                                                     at.a_group());
    load_operand<Config::kKMajorB, Config::kSliceRowsB, Cluster::kM>(map_b, full, b, n0, k0, at.cm,
                                                                     at.b_group());
  }

  // Walks the CTA's tiles and fills the ring.
  template <class Params>
  TESSERA_DEVICE static void run(const Params& p, std::uint64_t* full, std::uint64_t* empty,
                                 unsigned char* stages_a, unsigned char* stages_b, int cluster,
                                 const ClusterPosition<Cluster>& at, int k_tiles) {
    RingPosition<Config::kStages> pos;
    const int units = p.walk.units_of(cluster);
    for (int j = 0; j < units; ++j) {
      const TileCoord tile = p.walk.tile(cluster, j, at.cm, at.cn);
      for (int kt = 0; kt < k_tiles; ++kt) {
        nvidia::mbarrier_wait<(Cluster::kSize > 1)>(&empty[pos.stage], pos.phase ^ 1u);
        nvidia::mbarrier_arrive_expect_tx(&full[pos.stage], Config::kStageBytes);
        load_stage(&p.map_a, &p.map_b, &full[pos.stage], stages_a + pos.stage * TileA::kBytes,
                   stages_b + pos.stage * TileB::kBytes, tile.m * kBM, tile.n * kBN, kt * kBK, at);
        pos.advance();
      }
    }
  }

 private:
  // An operand tile of `outer` rows (A: M, B: N) at `outer0`, K tile at k0. With sharers >
  // 1 this CTA loads slice `slice` of kSliceRows rows and multicasts it to `group`.
  template <bool kKMajor, int kSliceRows, int kSharers>
  TESSERA_DEVICE static void load_operand(const CUtensorMap* map, std::uint64_t* full, unsigned char* dst,
                                          int outer0, int k0, int slice, std::uint16_t group) {
    const int first = slice * kSliceRows;
    if constexpr (kKMajor) {
      // One box of {64 K, kSliceRows rows}: rows are 128-byte lines.
      copy<kSharers>(map, full, dst + first * 128, k0, outer0 + first, group);
    } else {
      // Boxes of {64 M/N, 64 K}, one per 64-wide chunk of the slice.
      constexpr int kChunkBytes = Config::kBlockK * 128;
      TESSERA_UNROLL
      for (int c = 0; c < kSliceRows / 64; ++c) {
        const int chunk = first / 64 + c;
        copy<kSharers>(map, full, dst + chunk * kChunkBytes, outer0 + chunk * 64, k0, group);
      }
    }
  }
  template <int kSharers>
  TESSERA_DEVICE static void copy(const CUtensorMap* map, std::uint64_t* full, unsigned char* dst, int inner,
                                  int outer, std::uint16_t group) {
    if constexpr (kSharers > 1) {
      nvidia::tma_load_2d_multicast(map, full, dst, inner, outer, group);
    } else {
      nvidia::tma_load_2d(map, full, dst, inner, outer);
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
