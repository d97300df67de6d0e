// The TMA producer of the Hopper kernel: one thread of the producer warpgroup walks the
// CTA's tiles and, per K tile, waits for a free stage, announces the stage's bytes on its
// full barrier and issues the copies. In a cluster, the tile an operand shares with other
// CTAs (A along N, B along M) is loaded a slice per CTA and multicast to all of them, so
// each CTA still receives whole tiles and expects their full byte count.
//
// The Blackwell family reuses it. Its CTA pairs (Config::kCtaPair, tcgen05 cta_group::2,
// umma_config.hpp) differ in two ways: each CTA keeps its own slice of the shared B tile
// where it lands (the pair's MMA reads both CTAs' shared memory) instead of multicasting it,
// and both CTAs' copies complete on the leader's (even CTA's) full barrier, which the leader
// alone announces, for both CTAs' bytes. Configurations without kCtaPair are unaffected.
#pragma once
#include <cstdint>
#include <type_traits>

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

namespace detail {
// Config::kCtaPair where the configuration has it, else false.
template <class Config, class = void>
struct IsCtaPair : std::false_type {};
template <class Config>
struct IsCtaPair<Config, std::void_t<decltype(Config::kCtaPair)>> : std::bool_constant<Config::kCtaPair> {};
}  // namespace detail

template <class Config>
struct TmaProducer {
  static constexpr int kBM = Config::kBlockM, kBN = Config::kBlockN, kBK = Config::kBlockK;
  using Cluster = typename Config::Cluster;
  using TileA = typename Config::TileA;
  using TileB = typename Config::TileB;
  static constexpr bool kPair = detail::IsCtaPair<Config>::value;

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
        if constexpr (kPair) {
          if (at.rank % 2 == 0) nvidia::mbarrier_arrive_expect_tx(&full[pos.stage], 2 * Config::kStageBytes);
        } else {
          nvidia::mbarrier_arrive_expect_tx(&full[pos.stage], Config::kStageBytes);
        }
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
    // Where the slice goes in the stage: at its place in the tile, or (a pair's B) at the
    // start of this CTA's half-tile stage.
    const int place = kPair ? 0 : first;
    if constexpr (kKMajor) {
      // One box of {64 K, kSliceRows rows}: rows are 128-byte lines.
      copy<kSharers>(map, full, dst + place * 128, k0, outer0 + first, group);
    } else {
      // Boxes of {64 M/N, 64 K}, one per 64-wide chunk of the slice.
      constexpr int kChunkBytes = Config::kBlockK * 128;
      TESSERA_UNROLL
      for (int c = 0; c < kSliceRows / 64; ++c) {
        const int chunk = first / 64 + c;
        copy<kSharers>(map, full, dst + (place / 64 + c) * kChunkBytes, outer0 + chunk * 64, k0, group);
      }
    }
  }
  template <int kSharers>
  TESSERA_DEVICE static void copy(const CUtensorMap* map, std::uint64_t* full, unsigned char* dst, int inner,
                                  int outer, std::uint16_t group) {
    if constexpr (kPair) {
      // The leader's barrier at the same offset: the pair's ranks differ in bit 0 only.
      const std::uint32_t leader = nvidia::cluster_cta_rank() & ~1u;
      nvidia::tma_load_2d_pair(map, nvidia::cluster_shared_address(full, leader), dst, inner, outer);
    } else if constexpr (kSharers > 1) {
      nvidia::tma_load_2d_multicast(map, full, dst, inner, outer, group);
    } else {
      nvidia::tma_load_2d(map, full, dst, inner, outer);
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
