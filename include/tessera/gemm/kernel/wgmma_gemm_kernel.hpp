// The Hopper tensor-core GEMM kernel (sm_90a): D = alpha * A * B + beta * C with TMA (or
// ordinary realigning loads), wgmma and a persistent, warp-specialised schedule. kPath
// picks loads and stores: TMA and TMA (kTma), TMA and direct (kPacked), realigning and
// direct (kGeneric).
//
// A CTA is three warpgroups. Warpgroup 0 produces: it keeps a ring of kStages shared-memory
// stages filled with K tiles of A and B (TmaProducer, or GenericProducer where TMA cannot
// describe the operands), and gives most of its registers to the consumers (setmaxnreg).
// Warpgroups 1 and 2 consume: wgmma over each stage, then the epilogue. The CTA walks
// output tiles persistently (PersistentTileWalk: grouped raster order over cluster tiles).
// Two schedules (schedule/sm90.hpp):
//   Cooperative  both consumers on every tile, each on half of its rows;
//   Pingpong     consumers on alternate tiles; an ordered pair of named barriers makes
//                their main loops take turns, so one's epilogue runs under the other's MMAs.
// With a cluster, operand tiles shared by CTAs are multicast (sm90_producer_tma.hpp) and a
// consumer frees a stage in every CTA that writes into it.
// Shared memory comes from Config::Plan (wgmma_config.hpp).
#pragma once
#include <cstdint>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/arch/nvidia/wgmma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/collective/sm90_epilogue.hpp"
#include "tessera/gemm/collective/sm90_mainloop.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"
#include "tessera/gemm/collective/sm90_producer_generic.hpp"
#include "tessera/gemm/collective/sm90_producer_tma.hpp"
#include "tessera/gemm/kernel/tma_gemm_params.hpp"
#include "tessera/gemm/wgmma_config.hpp"

namespace tessera::gemm {

template <class Config, WgmmaPath kPath>
struct WgmmaGemmKernel {
  // TMA loads on kTma and kPacked; TMA stores on kTma only (kPacked: D that TMA cannot
  // describe, written with direct element stores; tma_packing.hpp).
  static constexpr bool kTmaLoads = kPath != WgmmaPath::kGeneric;
  static constexpr bool kTmaStores = kPath == WgmmaPath::kTma;
  using Plan = std::conditional_t<kTmaLoads, typename Config::Plan, typename Config::GenericPlan>;
  // The generic path loads every tile itself: no multicast, no cluster.
  using Cluster = std::conditional_t<kTmaLoads, typename Config::Cluster, ClusterShape<1, 1>>;
  static constexpr int kStages = kTmaLoads ? Config::kStages : Config::kGenericStages;
  static constexpr int kRowBlocks = Config::kWgmmaRowBlocks;
  static constexpr int kAccPerBlock = Config::kBlockN / 2;
  // Registers per thread after setmaxnreg. The launch gives every thread 168 (65536 / 384,
  // rounded down to 8): 64512 in all, and 128 x producer + 256 x consumer must not exceed
  // that, or the consumers' setmaxnreg.inc waits forever for registers no one frees. The
  // generic producer realigns lines in registers: 88 made ptxas spill 40 bytes for an
  // M-major A (Pingpong 64x256; sass_check found the local memory); 104 / 200 spill nowhere
  // in the GPU suite's 69 kernels.
  static constexpr int kLaunchRegisters = 65536 / Config::kThreads / 8 * 8;
  static constexpr int kProducerRegisters = kTmaLoads ? 40 : 104;
  static constexpr int kConsumerRegisters = kTmaLoads ? 232 : 200;
  static_assert(128 * kProducerRegisters + 256 * kConsumerRegisters <= Config::kThreads * kLaunchRegisters,
                "Tessera: the warpgroups' register budgets exceed what the launch allocates");
  // Consumer warpgroups that read each stage, in each CTA.
  static constexpr int kReadersPerStage = Config::kPingpong ? 1 : 2;
  // Named barriers: 0 is __syncthreads; 1, 2 each consumer's epilogue; 3, 4 the Pingpong
  // turns; 5 the generic producer's threads.
  static constexpr int kEpilogueBarrier = 1, kTurnBarrier = 3;

  TESSERA_DEVICE static void run(const WgmmaParams<Config>& p) {
    extern __shared__ __align__(1024) unsigned char smem[];
    // The swizzled tiles must start on 1024-byte boundaries (the pattern comes from address
    // bits); the plan aligns offsets, the base must be aligned too.
    if ((nvidia::smem_address(smem) & 1023u) != 0) __trap();
    std::uint64_t* full;
    unsigned char *stages_a, *stages_b, *staging = nullptr, *raw = nullptr;
    if constexpr (kTmaLoads) {
      full = Plan::template pointer<typename Config::Barriers, std::uint64_t>(smem);
      stages_a = Plan::template pointer<typename Config::StagesA, unsigned char>(smem);
      stages_b = Plan::template pointer<typename Config::StagesB, unsigned char>(smem);
      staging = Plan::template pointer<typename Config::Staging, unsigned char>(smem);
    } else {
      full = Plan::template pointer<typename Config::GenericBarriers, std::uint64_t>(smem);
      stages_a = Plan::template pointer<typename Config::GenericStagesA, unsigned char>(smem);
      stages_b = Plan::template pointer<typename Config::GenericStagesB, unsigned char>(smem);
      raw = Plan::template pointer<typename Config::RawSlots, unsigned char>(smem);
    }
    std::uint64_t* empty = full + kStages;
    std::uint64_t* raw_full = empty + kStages;  // generic path: one per raw slot

    const int warpgroup = int(threadIdx.x) / 128;
    const int t = int(threadIdx.x) % 128;
    const ClusterPosition<Cluster> at = ClusterPosition<Cluster>::current();
    const int cluster = int(blockIdx.x) / Cluster::kSize;
    const int k_tiles = int((p.K + Config::kBlockK - 1) / Config::kBlockK);

    if (threadIdx.x == 0) {
      for (int s = 0; s < kStages; ++s) {
        nvidia::mbarrier_init(&full[s], kTmaLoads ? 1 : GenericProducer<Config>::kThreads);
        nvidia::mbarrier_init(&empty[s], kReadersPerStage * (Cluster::kM + Cluster::kN - 1));
      }
      if constexpr (!kTmaLoads) {
        for (int s = 0; s < Config::kRawSlots; ++s) {
          nvidia::mbarrier_init(&raw_full[s], GenericProducer<Config>::kThreads);
        }
      }
      nvidia::fence_barrier_init();
    }
    if constexpr (Cluster::kSize > 1) {
      nvidia::cluster_sync();  // every CTA's barriers exist before any CTA arrives on them
    } else {
      __syncthreads();
    }

    if (warpgroup == 0) {
      nvidia::setmaxnreg_dec<kProducerRegisters>();
      if constexpr (kTmaLoads) {
        if (t < 32) {  // one warp walks the ring; its first lane issues
          if (t == 0) {
            nvidia::tma_prefetch(&p.map_a);
            nvidia::tma_prefetch(&p.map_b);
            TmaProducer<Config>::run(p, full, empty, stages_a, stages_b, cluster, at, k_tiles);
          }
          __syncwarp();
        }
      } else {
        GenericProducer<Config>::run(p, full, empty, raw_full, raw, stages_a, stages_b, cluster, k_tiles, t);
      }
    } else {
      nvidia::setmaxnreg_inc<kConsumerRegisters>();
      consume(p, warpgroup - 1, t, full, empty, stages_a, stages_b, staging, cluster, at, k_tiles);
    }

    if constexpr (Cluster::kSize > 1) {
      nvidia::cluster_sync();  // peers may still arrive on this CTA's barriers until here
    }
  }

 private:
  // Consumer warpgroup c (0 or 1), thread t of it.
  TESSERA_DEVICE static void consume(const WgmmaParams<Config>& p, int c, int t, std::uint64_t* full,
                                     std::uint64_t* empty, unsigned char* stages_a, unsigned char* stages_b,
                                     unsigned char* staging, int cluster, const ClusterPosition<Cluster>& at,
                                     int k_tiles) {
    using Mainloop = WgmmaMainloop<Config, kStages, (Cluster::kSize > 1)>;
    using Epilogue = WgmmaEpilogue<Config>;
    const std::uint32_t a = nvidia::smem_address(stages_a), b = nvidia::smem_address(stages_b);
    unsigned char* my_staging = staging + c * 2 * Epilogue::Box::kBytes;
    const std::uint16_t sharers = at.a_group() | at.b_group();  // CTAs writing into our stages
    auto release = [&](int stage) {
      if (t != 0) return;
      if constexpr (Cluster::kSize == 1) {
        nvidia::mbarrier_arrive(&empty[stage]);
      } else {
        for (int r = 0; r < Cluster::kSize; ++r) {
          if ((sharers >> r) & 1) nvidia::mbarrier_arrive_cluster(&empty[stage], std::uint32_t(r));
        }
      }
    };

    float acc[kRowBlocks][kAccPerBlock];
    const int units = p.walk.units_of(cluster);
    const int rows = Config::kWarpgroupRows;
    const int row0 = Config::kPingpong ? 0 : c * rows;  // this warpgroup's rows in the tile
    int turn = 0;                                        // epilogue boxes stored so far
    RingPosition<kStages> pos;
    // Cooperative: every unit; Pingpong: units c, c + 2, ...
    const int first = Config::kPingpong ? c : 0, step = Config::kPingpong ? 2 : 1;
    for (int j = first; j < units; j += step) {
      const TileCoord tile = p.walk.tile(cluster, j, at.cm, at.cn);
      TESSERA_UNROLL
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        TESSERA_UNROLL
        for (int i = 0; i < kAccPerBlock; ++i) acc[rb][i] = 0.0f;
      }
      if constexpr (Config::kPingpong) {
        pos = RingPosition<kStages>::at(std::int64_t(j) * k_tiles);  // skip the other's K tiles
        if (j > 0) nvidia::named_barrier_sync(kTurnBarrier + c, 256);  // unit j-1's MMAs are done
      }
      Mainloop::run(acc, a, b, full, pos, k_tiles, row0, release);
      if constexpr (Config::kPingpong) {
        if (j + 1 < units) nvidia::named_barrier_arrive(kTurnBarrier + (1 - c), 256);  // its turn
      }
      const std::int64_t m0 = std::int64_t(tile.m) * Config::kBlockM + row0;
      const std::int64_t n0 = std::int64_t(tile.n) * Config::kBlockN;
      if constexpr (kTmaStores) {
        Epilogue::tma_store(p, acc, m0, n0, my_staging, turn, kEpilogueBarrier + c, t);
      } else {
        Epilogue::direct_store(p, acc, m0, n0, t);
      }
    }
    if constexpr (kTmaStores) {
      if (t == 0) nvidia::bulk_wait_group<0>();  // the stores have read shared memory and landed
    }
  }
};

template <class Config, WgmmaPath kPath>
TESSERA_GLOBAL void __launch_bounds__(Config::kThreads, 1)
    wgmma_gemm_kernel(const __grid_constant__ WgmmaParams<Config> params) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(sizeof(Config) == 0,
                "Tessera WgmmaConfig kernels need the sm_90a target: compile with "
                "-gencode=arch=compute_90a,code=sm_90a (plain sm_90 has no wgmma or setmaxnreg)");
#endif
  // Compiled only for sm_90a (arch.hpp, device_pass_targets); elsewhere the entry is empty
  // and the host API never launches it.
  if constexpr (device_pass_targets<Sm90>()) {
    WgmmaGemmKernel<Config, kPath>::run(params);
  }
}

}  // namespace tessera::gemm
