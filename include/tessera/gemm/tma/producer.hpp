// The TMA producer of the two TMA families (Hopper wgmma, Blackwell tcgen05): one thread walks
// the CTA's units of work (scheduler/tile_scheduler.hpp) and, per K tile, waits for a free stage,
// announces the stage's bytes on its full barrier and issues the copies. In a cluster, the
// tile an operand shares with other CTAs (A along N, B along M) is loaded a slice per CTA and
// multicast to all of them, so each CTA still receives whole tiles and expects their full
// byte count.
//
// A tcgen05 CTA pair (Operands::kCtaPair) differs in two ways: each CTA keeps its own slice of
// the shared B tile where it lands (the pair's MMA reads both CTAs' shared memory) instead of
// multicasting it, and both CTAs' copies complete on the leader's (even CTA's) full barrier,
// which the leader alone announces, for both CTAs' bytes.
//
// Operands: OperandTiles<...> (tma/operand_tiles.hpp), the contract of what is loaded.
// kProblemSet: the scheduler walks a batch or groups (scheduler/tile_scheduler.hpp): the maps are 3-D (a
// layer per problem, problem_set.hpp), a unit's A rows start at its problem's first row, and an
// operand the problems share (stride 0, or A addressed by rows) stays at layer 0.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/cluster.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

template <class Operands, int kStages, bool kProblemSet = false>
struct TmaProducer {
  static constexpr int kBM = Operands::kBlockM, kBN = Operands::kBlockN, kBK = Operands::kBlockK;
  using Cluster = typename Operands::Cluster;
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  static constexpr bool kPair = Operands::kCtaPair;
  // Barriers other CTAs complete or release (multicast bytes, remote releases) need
  // cluster-scope waits.
  static constexpr bool kClusterWaits = Cluster::kSize > 1;

  // One K tile of A (rows [m0, m0 + BM)) and B (columns [n0, n0 + BN)) into stage buffers
  // a and b; this CTA's slice of each, multicast where the cluster shares the tile.
  TESSERA_DEVICE static void load_stage(const CUtensorMap* map_a, const CUtensorMap* map_b,
                                        std::uint64_t* full, unsigned char* a, unsigned char* b, int m0,
                                        int n0, int k0, const ClusterPosition<Cluster>& at, int layer_a = 0,
                                        int layer_b = 0) {
    load_operand<Operands::kKMajorA, Operands::kSliceRowsA, Cluster::kN, TileA>(map_a, full, a, m0, k0, layer_a,
                                                                               at.cn, at.a_group());
    load_operand<Operands::kKMajorB, Operands::kSliceRowsB, Cluster::kM, TileB>(map_b, full, b, n0, k0, layer_b,
                                                                               at.cm, at.b_group());
  }

  // Walks the worker's units and fills the ring; returns where the ring stands after the last
  // K tile it filled (for tail()).
  template <class Params>
  TESSERA_DEVICE static RingPosition<kStages> run(const Params& p, std::uint64_t* full, std::uint64_t* empty,
                                                  unsigned char* stages_a, unsigned char* stages_b, int worker,
                                                  const ClusterPosition<Cluster>& at) {
    RingPosition<kStages> pos;
    const int units = p.scheduler.units_of(worker);
    auto walk = walk_units(p.scheduler);  // this role's units, in order
    for (int j = 0; j < units; ++j) {
      const WorkUnit tile = walk.unit(worker, j, at.cm, at.cn);
      int row_a = tile.m * kBM, layer_a = 0, layer_b = 0;
      if constexpr (kProblemSet) {
        row_a += tile.row_begin;
        layer_a = p.strides.a != 0 ? tile.problem : 0;
        layer_b = p.strides.b != 0 ? tile.problem : 0;
      }
      for (int kt = tile.k_begin; kt < tile.k_end; ++kt) {
        nvidia::mbarrier_wait<kClusterWaits>(&empty[pos.stage], pos.phase ^ 1u);
        if constexpr (kPair) {
          if (at.rank % 2 == 0) nvidia::mbarrier_arrive_expect_tx(&full[pos.stage], 2 * Operands::kStageTxBytes);
        } else {
          nvidia::mbarrier_arrive_expect_tx(&full[pos.stage], Operands::kStageTxBytes);
        }
        load_stage(&p.map_a, &p.map_b, &full[pos.stage], stages_a + pos.stage * TileA::kBytes,
                   stages_b + pos.stage * TileB::kBytes, row_a, tile.n * kBN, kt * kBK, at, layer_a, layer_b);
        pos.advance();
      }
    }
    return pos;
  }

  // Before the CTA may leave its cluster: waits until every stage it filled has been released
  // by all its readers, i.e. until each empty barrier has received every arrival other CTAs
  // (a peer's consumer releasing a multicast stage, a pair leader's tcgen05.commit) and this
  // CTA's own readers owe it. `filled` is where run() left the ring: the last kStages steps
  // before it are the only stages not yet waited for as empty. Without this, nothing orders a
  // peer's last remote arrive before this CTA exits, and the arrive would land in shared memory
  // the CTA no longer owns (CUTLASS's producer_tail / load_tail do the same).
  TESSERA_DEVICE static void tail(std::uint64_t* empty, RingPosition<kStages> filled) {
    if constexpr (Cluster::kSize > 1) {
      for (int s = 0; s < kStages; ++s) {
        nvidia::mbarrier_wait<kClusterWaits>(&empty[filled.stage], filled.phase ^ 1u);
        filled.advance();
      }
    } else {
      (void)empty;
      (void)filled;
    }
  }

 private:
  // An operand tile of `outer` rows (A: M, B: N) at `outer0`, K tile at k0. With sharers >
  // 1 this CTA loads slice `slice` of kSliceRows rows and multicasts it to `group`.
  template <bool kKMajor, int kSliceRows, int kSharers, class Tile>
  TESSERA_DEVICE static void load_operand(const CUtensorMap* map, std::uint64_t* full, unsigned char* dst,
                                          int outer0, int k0, int layer, int slice, std::uint16_t group) {
    const int first = slice * kSliceRows;
    // Where the slice goes in the stage: at its place in the tile, or (a pair's B) at the
    // start of this CTA's half-tile stage.
    const int place = kPair ? 0 : first;
    if constexpr (kKMajor) {
      // One box of {K tile, kSliceRows rows}: rows are 128-byte lines.
      copy<kSharers>(map, full, dst + place * 128, k0, outer0 + first, layer, group);
    } else {
      // Boxes of {one 128-byte line of M/N, K tile}, one per line-wide chunk of the slice.
      constexpr int kChunk = Tile::kLineElements;
      TESSERA_UNROLL
      for (int c = 0; c < kSliceRows / kChunk; ++c) {
        const int chunk = first / kChunk + c;
        copy<kSharers>(map, full, dst + (place / kChunk + c) * Tile::kChunkBytes, outer0 + chunk * kChunk, k0,
                       layer, group);
      }
    }
  }
  template <int kSharers>
  TESSERA_DEVICE static void copy(const CUtensorMap* map, std::uint64_t* full, unsigned char* dst, int inner,
                                  int outer, int layer, std::uint16_t group) {
    if constexpr (kPair) {
      // The leader's barrier at the same offset: the pair's ranks differ in bit 0 only.
      const std::uint32_t leader = nvidia::cluster_cta_rank() & ~1u;
      if constexpr (kProblemSet) {
        nvidia::tma_load_3d_pair(map, nvidia::cluster_shared_address(full, leader), dst, inner, outer, layer);
      } else {
        nvidia::tma_load_2d_pair(map, nvidia::cluster_shared_address(full, leader), dst, inner, outer);
      }
    } else if constexpr (kSharers > 1) {
      if constexpr (kProblemSet) {
        nvidia::tma_load_3d_multicast(map, full, dst, inner, outer, layer, group);
      } else {
        nvidia::tma_load_2d_multicast(map, full, dst, inner, outer, group);
      }
    } else if constexpr (kProblemSet) {
      nvidia::tma_load_3d(map, full, dst, inner, outer, layer);
    } else {
      nvidia::tma_load_2d(map, full, dst, inner, outer);
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
