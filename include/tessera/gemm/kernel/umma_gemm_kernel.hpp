// The Blackwell tensor-core GEMM kernel (sm_100a): D = alpha * A * B + beta * C with TMA (or
// ordinary realigning loads), tcgen05.mma into tensor memory, and a persistent,
// warp-specialised schedule. Compiled and checked; no Blackwell GPU has run it.
//
// A CTA is 288 threads in three roles, all walking the same output tiles in the same order
// (PersistentTileWalk, a static persistent grid: benchmark/notes/umma.md says why not
// Cluster Launch Control):
//   warps 0-3  producer: the Hopper family's TMA producer (one thread; multicast in
//              clusters; a pair's copies complete on the leader's barrier), or its generic
//              realigning producer (all 128 threads) where TMA cannot describe the operands;
//   warps 4-7  epilogue: warp w reads accumulator rows 32w..32w+31 from tensor memory and
//              stores D (sm100_epilogue.hpp);
//   warp 8     MMA: allocates the tensor memory the plan asks for (Config::TmemPlan) and
//              one of its threads issues every tcgen05.mma (sm100_mma.hpp); on a CTA pair,
//              only the leader's.
// The accumulators are a ring of Config::kAccumulatorBuffers buffers in tensor memory, each
// with a full barrier (the MMA warp's commit: the tile is complete) and an empty one (every
// epilogue warp, of both CTAs of a pair, has read it): with two, the epilogue of tile j runs
// while the MMAs of tile j + 1 fill the other buffer (Blackwell's form of ping-pong).
// Shared memory comes from Config::Plan (umma_config.hpp).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tcgen05.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/collective/sm100_epilogue.hpp"
#include "tessera/gemm/collective/sm100_mma.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"
#include "tessera/gemm/collective/sm90_producer_generic.hpp"
#include "tessera/gemm/collective/sm90_producer_tma.hpp"
#include "tessera/gemm/kernel/tma_gemm_params.hpp"
#include "tessera/gemm/umma_config.hpp"

namespace tessera::gemm {

// The operand paths and kernel parameters are the Hopper family's (tma_gemm_params.hpp).
using UmmaPath = WgmmaPath;
template <class Config>
using UmmaParams = WgmmaParams<Config>;

template <class Config, UmmaPath kPath>
struct UmmaGemmKernel {
  // TMA loads on kTma and kPacked; TMA stores on kTma only (kPacked: D that TMA cannot
  // describe, written with direct element stores; tma_packing.hpp).
  static constexpr bool kTmaLoads = kPath != UmmaPath::kGeneric;
  static constexpr bool kTmaStores = kPath == UmmaPath::kTma;
  // What this path runs: the configuration, or (generic path) its one-CTA form without a
  // cluster (umma_config.hpp, GenericConfig).
  using C = std::conditional_t<kTmaLoads, Config, typename Config::GenericConfig>;
  using Plan = std::conditional_t<kTmaLoads, typename C::Plan, typename C::GenericPlan>;
  using TmemPlan = typename C::TmemPlan;
  using Cluster = typename C::Cluster;
  static constexpr int kStages = kTmaLoads ? C::kStages : C::kGenericStages;
  static constexpr int kBuffers = C::kAccumulatorBuffers;
  static constexpr int kCtaGroup = C::kCtaGroup;
  static constexpr int kColumns = TmemPlan::kAllocColumns;
  static constexpr int kEpilogueWarp0 = 4, kMmaWarp = 8;
  static_assert(C::kThreads == 32 * (kMmaWarp + 1), "Tessera: the kernel's roles are warps 0-3, 4-7 and 8");

  TESSERA_DEVICE static void run(const UmmaParams<Config>& p) {
    extern __shared__ __align__(1024) unsigned char smem[];
    // The swizzled tiles must start on 1024-byte boundaries (the pattern comes from address
    // bits), and the launch must give exactly the planned bytes.
    if ((nvidia::smem_address(smem) & 1023u) != 0) __trap();
    if (dynamic_smem_bytes() != std::uint32_t(Plan::kTotalBytes)) __trap();
    std::uint64_t* full;
    unsigned char *stages_a, *stages_b, *staging = nullptr, *raw = nullptr;
    if constexpr (kTmaLoads) {
      full = Plan::template pointer<typename C::Barriers, std::uint64_t>(smem);
      stages_a = Plan::template pointer<typename C::StagesA, unsigned char>(smem);
      stages_b = Plan::template pointer<typename C::StagesB, unsigned char>(smem);
      staging = Plan::template pointer<typename C::Staging, unsigned char>(smem);
    } else {
      full = Plan::template pointer<typename C::GenericBarriers, std::uint64_t>(smem);
      stages_a = Plan::template pointer<typename C::GenericStagesA, unsigned char>(smem);
      stages_b = Plan::template pointer<typename C::GenericStagesB, unsigned char>(smem);
      raw = Plan::template pointer<typename C::RawSlots, unsigned char>(smem);
    }
    std::uint64_t* empty = full + kStages;
    std::uint64_t* acc_full = empty + kStages;
    std::uint64_t* acc_empty = acc_full + kBuffers;
    std::uint64_t* raw_full = acc_empty + kBuffers;  // generic path: one per raw slot
    std::uint32_t* tmem_slot = reinterpret_cast<std::uint32_t*>(raw_full + (kTmaLoads ? 0 : C::kRawSlots));

    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    const ClusterPosition<Cluster> at = ClusterPosition<Cluster>::current();
    const int cluster = int(blockIdx.x) / Cluster::kSize;
    const int k_tiles = int((p.K + C::kBlockK - 1) / C::kBlockK);

    if (threadIdx.x == 0) {
      for (int s = 0; s < kStages; ++s) {
        nvidia::mbarrier_init(&full[s], kTmaLoads ? 1 : GenericProducer<C>::kThreads);
        nvidia::mbarrier_init(&empty[s], C::kStageReleases);
      }
      for (int b = 0; b < kBuffers; ++b) {
        nvidia::mbarrier_init(&acc_full[b], 1);
        nvidia::mbarrier_init(&acc_empty[b], C::kAccumulatorReleases);
      }
      if constexpr (!kTmaLoads) {
        for (int s = 0; s < C::kRawSlots; ++s) nvidia::mbarrier_init(&raw_full[s], GenericProducer<C>::kThreads);
      }
      nvidia::fence_barrier_init();
    }
    if (warp == kMmaWarp) {
      nvidia::tmem_alloc<kCtaGroup, kColumns>(tmem_slot);
      nvidia::tmem_relinquish_alloc_permit<kCtaGroup>();
    }
    // The barriers (of every CTA of the cluster) and the TMEM base address exist before anyone
    // uses them.
    nvidia::tcgen05_fence_before_thread_sync();
    cta_or_cluster_sync();
    nvidia::tcgen05_fence_after_thread_sync();
    const std::uint32_t tmem_base = *tmem_slot;

    if (warp < kEpilogueWarp0) {
      if constexpr (kTmaLoads) {
        if (threadIdx.x == 0) {
          nvidia::tma_prefetch(&p.map_a);
          nvidia::tma_prefetch(&p.map_b);
          TmaProducer<C>::run(p, full, empty, stages_a, stages_b, cluster, at, k_tiles);
        }
      } else {
        GenericProducer<C>::run(p, full, empty, raw_full, raw, stages_a, stages_b, cluster, k_tiles,
                                int(threadIdx.x));
      }
    } else if (warp < kMmaWarp) {
      epilogue(p, warp - kEpilogueWarp0, lane, acc_full, acc_empty, tmem_base, staging, cluster, at, k_tiles);
    } else if (lane == 0 && (kCtaGroup == 1 || at.rank % 2 == 0)) {
      issue(p, full, empty, acc_full, acc_empty, tmem_base, stages_a, stages_b, cluster, at, k_tiles);
    }

    // Every tensor-memory access (this CTA's reads, a pair leader's MMAs into it) is done, and
    // peers no longer arrive on this CTA's barriers: then the allocating warp frees the columns.
    // (Each warp first reconverges: one lane ran the producer or the MMAs, and the cluster
    // barrier and tcgen05.dealloc are .aligned, warp-wide instructions.)
    __syncwarp();
    nvidia::tcgen05_fence_before_thread_sync();
    cta_or_cluster_sync();
    if (warp == kMmaWarp) {
      nvidia::tcgen05_fence_after_thread_sync();
      nvidia::tmem_dealloc<kCtaGroup, kColumns>(tmem_base);
    }
  }

 private:
  TESSERA_DEVICE static void cta_or_cluster_sync() {
    if constexpr (Cluster::kSize > 1) {
      nvidia::cluster_sync();
    } else {
      __syncthreads();
    }
  }

  // The dynamic shared memory the launch gave this CTA.
  TESSERA_DEVICE static std::uint32_t dynamic_smem_bytes() {
    std::uint32_t bytes;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return bytes;
  }

  // The TMEM address of accumulator buffer b (the plan's column), lane 0.
  TESSERA_DEVICE static std::uint32_t buffer_address(std::uint32_t base, int b) {
    return nvidia::tmem_address(base, 0, C::accumulator_column(b));
  }

  // The MMA thread: every tile of this CTA (or pair) into the accumulator ring.
  TESSERA_DEVICE static void issue(const UmmaParams<Config>& p, std::uint64_t* full, std::uint64_t* empty,
                                   std::uint64_t* acc_full, std::uint64_t* acc_empty, std::uint32_t tmem_base,
                                   unsigned char* stages_a, unsigned char* stages_b, int cluster,
                                   const ClusterPosition<Cluster>& at, int k_tiles) {
    using Mainloop = UmmaMainloop<C, kStages>;
    if (k_tiles == 0) return;  // the epilogue writes beta * C without an accumulator
    // Releases reach the CTAs that wrote into the stage; a pair's reach both CTAs.
    const std::uint16_t pair = std::uint16_t(3u << (at.rank & ~1));
    const std::uint16_t stage_mask = kCtaGroup == 2 ? pair : std::uint16_t(at.a_group() | at.b_group());
    const std::uint32_t a = nvidia::smem_address(stages_a), b = nvidia::smem_address(stages_b);
    RingPosition<kStages> pos;
    RingPosition<kBuffers> buffer;
    const int units = p.walk.units_of(cluster);
    for (int j = 0; j < units; ++j) {
      // The epilogue warps (of both CTAs of a pair) have read the buffer's previous tile.
      nvidia::mbarrier_wait<(Cluster::kSize > 1)>(&acc_empty[buffer.stage], buffer.phase ^ 1u);
      nvidia::tcgen05_fence_after_thread_sync();
      Mainloop::tile(buffer_address(tmem_base, buffer.stage), a, b, full, empty, &acc_full[buffer.stage], pos,
                     k_tiles, stage_mask, pair);
      buffer.advance();
    }
  }

  // Epilogue warp w (0..3), lane `lane`: every tile of this CTA from the accumulator ring.
  TESSERA_DEVICE static void epilogue(const UmmaParams<Config>& p, int w, int lane, std::uint64_t* acc_full,
                                      std::uint64_t* acc_empty, std::uint32_t tmem_base, unsigned char* staging,
                                      int cluster, const ClusterPosition<Cluster>& at, int k_tiles) {
    using Epilogue = UmmaEpilogue<C>;
    const bool have = k_tiles > 0;
    unsigned char* my_staging = staging + w * 2 * Epilogue::kBoxBytes;
    int turn = 0;  // boxes this warp has stored
    RingPosition<kBuffers> buffer;
    const int units = p.walk.units_of(cluster);
    for (int j = 0; j < units; ++j) {
      const TileCoord tile = p.walk.tile(cluster, j, at.cm, at.cn);
      if (have) {
        nvidia::mbarrier_wait<(Cluster::kSize > 1)>(&acc_full[buffer.stage], buffer.phase);
        nvidia::tcgen05_fence_after_thread_sync();
      }
      // After the warp's last TMEM read of the tile: one arrival per warp on the buffer's
      // empty barrier (a pair's: the leader's, where its MMA thread waits).
      std::uint64_t* empty_bar = &acc_empty[buffer.stage];
      auto release = [&] {
        if (!have) return;
        nvidia::tcgen05_fence_before_thread_sync();
        __syncwarp();
        if (lane == 0) {
          if constexpr (kCtaGroup == 2) {
            nvidia::mbarrier_arrive_cluster(empty_bar, std::uint32_t(at.rank & ~1));
          } else {
            nvidia::mbarrier_arrive(empty_bar);
          }
        }
      };
      const std::uint32_t taddr = nvidia::tmem_address(buffer_address(tmem_base, buffer.stage), 32 * w, 0);
      const std::int64_t m0 = std::int64_t(tile.m) * C::kBlockM, n0 = std::int64_t(tile.n) * C::kBlockN;
      if constexpr (kTmaStores) {
        Epilogue::tma_store(p, taddr, have, m0, n0, my_staging, turn, w, lane, release);
      } else {
        Epilogue::direct_store(p, taddr, have, m0, n0, w, lane, release);
      }
      buffer.advance();
    }
    if constexpr (kTmaStores) {
      if (lane == 0) nvidia::bulk_wait_group<0>();  // the stores have read shared memory and landed
    }
  }
};

template <class Config, UmmaPath kPath>
TESSERA_GLOBAL void __launch_bounds__(Config::kThreads, 1)
    umma_gemm_kernel(const __grid_constant__ UmmaParams<Config> params) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 1000 && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(sizeof(Config) == 0,
                "Tessera UmmaConfig kernels need the sm_100a target: compile with "
                "-gencode=arch=compute_100a,code=sm_100a (plain sm_100 has no tcgen05)");
#endif
  // Compiled only for sm_100a (arch.hpp, device_pass_targets); elsewhere the entry is empty
  // and the host API never launches it.
  if constexpr (device_pass_targets<Sm100>()) {
    UmmaGemmKernel<Config, kPath>::run(params);
  }
}

}  // namespace tessera::gemm
