// The scale factors of a block-scaled tcgen05 configuration (option::OperandScales with
// scale::Mx or Nvfp4: umma/config.hpp), global -> shared memory, beside the operand
// stages and on the same barriers. Warps 1-3 of the producer warpgroup (96 threads; warp 0's
// first thread is the TMA producer) walk the same units and K tiles as the TMA producer and,
// per stage:
//   1. wait for the stage to be free (its empty barrier, as the TMA producer does);
//   2. write A's and B's scale factors of the K tile into the stage's scale-factor atoms
//      (mma/umma_scale_factors.hpp): one 32-bit word per row and 4 scale blocks, read a byte
//      at a time from the row-major scale tensors of gemm/operand_scales.hpp (row r's scale
//      of K block kb at data[r * ld + kb]: Tessera's one layout for every family, so no
//      alignment is asked of them); rows past M (N) and blocks past ceil(K / block) are
//      written as 0 (2^-127 for ue8m0, 0 for ue4m3: finite, and their operand values are the
//      TMA's zero fill, so they add nothing);
//   3. make the writes visible to the async proxy (fence.proxy.async: tcgen05.cp reads shared
//      memory through it, as the MMA does) and arrive once per warp on the stage's full
//      barrier: this CTA's, or on a CTA pair the leader's, with cluster-scope release (the
//      leader's tcgen05.cp.cta_group::2 reads the peer's shared memory).
// The full barrier thus completes when the TMA bytes have landed and the three warps have
// arrived (UmmaConfig::kFullArrivals); the MMA thread then copies the atoms to tensor memory
// (umma/mainloop.hpp). Each CTA of a pair writes its own 128 rows of A's scale factors and all
// N of B's: each CTA's MMA half reads B's scale factors from its own tensor memory.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/cluster.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/mma/umma_scale_factors.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

template <class Config, int kStages>
struct UmmaScaleLoader {
  static constexpr int kWarps = 3, kThreads = 32 * kWarps;
  using TileA = typename Config::ScaleTileA;
  using TileB = typename Config::ScaleTileB;
  using Cluster = typename Config::Cluster;
  static constexpr int kStageBytes = TileA::kBytes + TileB::kBytes;
  static constexpr bool kPair = Config::kCtaPair;
  static constexpr bool kClusterWaits = Cluster::kSize > 1;

  // thread: 0 .. kThreads - 1 (warps 1-3 of the producer warpgroup).
  template <class Params>
  TESSERA_DEVICE static void run(const Params& p, std::uint64_t* full, std::uint64_t* empty, unsigned char* stages,
                                 int worker, const ClusterPosition<Cluster>& at, int thread) {
    const auto* scales_a = reinterpret_cast<const std::uint8_t*>(p.epilogue.scales.a.data);
    const auto* scales_b = reinterpret_cast<const std::uint8_t*>(p.epilogue.scales.b.data);
    // K blocks of each row (K in values: the launcher counts packed fp4 in bytes).
    const std::int64_t blocks =
        (std::int64_t(p.K) * Config::kValuesPerKUnit + Config::kValuesPerScale - 1) / Config::kValuesPerScale;
    RingPosition<kStages> pos;
    const int units = p.scheduler.units_of(worker);
    auto walk = walk_units(p.scheduler);  // this role's units, in order
    for (int j = 0; j < units; ++j) {
      const WorkUnit tile = walk.unit(worker, j, at.cm, at.cn);
      const std::int64_t m0 = std::int64_t(tile.m) * Config::kBlockM, n0 = std::int64_t(tile.n) * Config::kBlockN;
      for (int kt = tile.k_begin; kt < tile.k_end; ++kt) {
        nvidia::mbarrier_wait<kClusterWaits>(&empty[pos.stage], pos.phase ^ 1u);
        unsigned char* stage = stages + pos.stage * kStageBytes;
        write<TileA>(stage, scales_a, p.epilogue.ld_a, p.M, m0, kt, blocks, thread);
        write<TileB>(stage + TileA::kBytes, scales_b, p.epilogue.ld_b, p.N, n0, kt, blocks, thread);
        nvidia::fence_proxy_async_shared();
        __syncwarp();
        if (thread % 32 == 0) {
          if constexpr (kPair) {
            nvidia::mbarrier_arrive_cluster<true>(&full[pos.stage], std::uint32_t(at.rank & ~1));
          } else {
            nvidia::mbarrier_arrive(&full[pos.stage]);
          }
        }
        pos.advance();
      }
    }
  }

 private:
  // The words of K tile kt (ScaleFactorTile: word w is row load_row(w)'s blocks
  // load_global_block(kt, w) .. + 3 of K), each at its place in the atoms.
  template <class Tile>
  TESSERA_DEVICE static void write(unsigned char* tile, const std::uint8_t* data, std::int64_t ld, std::int64_t extent,
                                   std::int64_t row0, int kt, std::int64_t blocks, int thread) {
    for (int w = thread; w < Tile::kLoadWords; w += kThreads) {
      const int r = Tile::load_row(w), block = Tile::load_block(w);
      const std::int64_t row = row0 + r, first = Tile::load_global_block(kt, w);
      std::uint32_t v = 0;
      if (row < extent) {
        const std::uint8_t* line = data + row * ld;
        TESSERA_UNROLL
        for (int i = 0; i < 4; ++i) {
          if (first + i < blocks) v |= std::uint32_t(line[first + i]) << (8 * i);
        }
      }
      *reinterpret_cast<std::uint32_t*>(tile + Tile::offset(r, block)) = v;
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
