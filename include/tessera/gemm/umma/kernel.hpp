// The Blackwell tensor-core GEMM kernel (sm_100a): D = epilogue(A * B, C) with TMA (or
// ordinary realigning loads), tcgen05.mma into tensor memory, and a persistent,
// warp-specialised schedule. Compiled and checked; no Blackwell GPU has run it.
//
// A CTA is 288 threads in three roles, all walking the same units of work in the same order
// (Config::Scheduler over a static persistent grid: benchmark/notes/umma.md says why not
// Cluster Launch Control):
//   warps 0-3  producer: the TMA producer both TMA families share (one thread; multicast in
//              clusters; a pair's copies complete on the leader's barrier), or the realigning
//              realigning producer (all 128 threads) where TMA cannot describe the operands;
//              with block scales warps 1-3 write each stage's scale factors beside the TMA's
//              copies (umma/scale_loader.hpp);
//   warps 4-7  epilogue: warp w reads accumulator rows 32w..32w+31 from tensor memory and
//              stores D (umma/epilogue.hpp);
//   warp 8     MMA: allocates the tensor memory the plan asks for (the TMEM plan of
//              umma/smem_plan.hpp) and one of its threads issues every tcgen05.mma
//              (umma/mainloop.hpp); on a CTA pair, only the leader's.
// The accumulators are a ring of Config::kAccumulatorBuffers buffers in tensor memory, each
// with a full barrier (the MMA warp's commit: the tile is complete) and an empty one (every
// epilogue warp, of both CTAs of a pair, has read it): with two, the epilogue of tile j runs
// while the MMAs of tile j + 1 fill the other buffer (Blackwell's form of ping-pong).
// Before the CTAs of a cluster leave, each producer waits until its stages have been released
// (TmaProducer::tail) and a pair leader's MMA thread until its accumulator buffers have been
// read by both CTAs' epilogue warps. Shared memory comes from UmmaSmemPlan<Config>.
// With scheduler::StreamK<>, the epilogue warps write a unit that covers part of its tile's K as
// a partial (straight from tensor memory) instead of D, and after their last unit reduce their
// share of the split tiles: the fix-up hooks (scheduler/fixup.hpp: FixupHooks), no-ops for
// schedulers without partials.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/tcgen05.hpp"
#include "tessera/gemm/scheduler/fixup.hpp"
#include "tessera/gemm/umma/epilogue.hpp"
#include "tessera/gemm/umma/mainloop.hpp"
#include "tessera/gemm/umma/scale_loader.hpp"
#include "tessera/gemm/tma/kernel_support.hpp"
#include "tessera/gemm/umma/smem_plan.hpp"
#include "tessera/gemm/umma/config.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

template <class Config, TmaPath kPath>
struct UmmaGemmKernel {
  static constexpr bool kTmaLoads = PathIo<kPath>::kTmaLoads;
  static constexpr bool kTmaStores = PathIo<kPath>::kTmaStores;
  // What this path runs: the configuration, or (realigning path) its one-CTA form without a
  // cluster (umma/config.hpp, RealigningConfig).
  using C = std::conditional_t<kTmaLoads, Config, typename Config::RealigningConfig>;
  using SmemPlan = UmmaSmemPlan<C>;
  using Realigning = typename SmemPlan::Realigning;
  using Plan = std::conditional_t<kTmaLoads, typename SmemPlan::Plan, typename SmemPlan::RealigningPlan>;
  using TmemPlan = typename SmemPlan::TmemPlan;
  using Operands = typename C::Operands;
  using Cluster = typename C::Cluster;
  static constexpr int kStages = kTmaLoads ? C::kStages : Realigning::kStages;
  static constexpr bool kProblemSet = takes_problem_set<typename Config::Scheduler>;
  using Producer = TmaProducer<Operands, kStages, kProblemSet>;
  using RealigningLoads = RealigningProducer<Operands, typename Realigning::Slots>;
  using ScaleLoader = UmmaScaleLoader<C, kStages>;
  static constexpr int kBuffers = C::kAccumulatorBuffers;
  static constexpr int kCtaGroup = C::kCtaGroup;
  static constexpr int kColumns = TmemPlan::kAllocColumns;
  static constexpr int kEpilogueWarp0 = 4, kMmaWarp = 8;
  // Named barrier 1: the four epilogue warps (the stream-K fix-up); 5 is the realigning producer's.
  static constexpr int kEpilogueWarpsBarrier = 1;
  using Fixup = FixupHooks<typename Config::Scheduler, typename C::LayoutC, C::kBlockM, C::kBlockN>;
  static_assert(C::kThreads == 32 * (kMmaWarp + 1), "Tessera: the kernel's roles are warps 0-3, 4-7 and 8");

  TESSERA_DEVICE static void run(const TmaGemmParams<Config>& p) {
    extern __shared__ __align__(1024) unsigned char smem[];
    // The launch must give exactly the planned bytes.
    require_smem_base_aligned(smem);
    if (dynamic_smem_bytes() != std::uint32_t(Plan::kTotalBytes)) __trap();
    const StagePointers at_smem = stage_pointers<kTmaLoads, SmemPlan, Plan>(smem);
    std::uint64_t* full = at_smem.full;
    unsigned char *stages_a = at_smem.stages_a, *stages_b = at_smem.stages_b, *staging = at_smem.staging,
                  *raw = at_smem.raw, *stages_sf = nullptr;
    if constexpr (kTmaLoads && C::kBlockScaled) {
      stages_sf = Plan::template pointer<typename SmemPlan::StagesScales, unsigned char>(smem);
    }
    std::uint64_t* empty = full + kStages;
    std::uint64_t* acc_full = empty + kStages;
    std::uint64_t* acc_empty = acc_full + kBuffers;
    std::uint64_t* raw_full = acc_empty + kBuffers;  // realigning path: one per raw slot
    std::uint32_t* tmem_slot = reinterpret_cast<std::uint32_t*>(raw_full + (kTmaLoads ? 0 : Realigning::kRawSlots));

    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    const ClusterPosition<Cluster> at = ClusterPosition<Cluster>::current();
    const int worker = int(blockIdx.x) / Cluster::kSize;  // this CTA's cluster

    if (threadIdx.x == 0) {
      init_stage_barriers(full, empty, kStages, kTmaLoads ? C::kFullArrivals : RealigningLoads::kThreads,
                          C::kStageReleases);
      for (int b = 0; b < kBuffers; ++b) {
        nvidia::mbarrier_init(&acc_full[b], 1);
        nvidia::mbarrier_init(&acc_empty[b], C::kAccumulatorReleases);
      }
      init_raw_slot_barriers<kTmaLoads, Realigning, RealigningLoads>(raw_full);
      nvidia::fence_barrier_init();
    }
    if (warp == kMmaWarp) {
      nvidia::tmem_alloc<kCtaGroup, kColumns>(tmem_slot);
      nvidia::tmem_relinquish_alloc_permit<kCtaGroup>();
    }
    // The barriers (of every CTA of the cluster) and the TMEM base address exist before anyone
    // uses them.
    nvidia::tcgen05_fence_before_thread_sync();
    cta_or_cluster_sync<Cluster>();
    nvidia::tcgen05_fence_after_thread_sync();
    const std::uint32_t tmem_base = *tmem_slot;

    if (warp < kEpilogueWarp0) {
      if constexpr (kTmaLoads) {
        if (threadIdx.x == 0) {
          nvidia::tma_prefetch(&p.map_a);
          nvidia::tma_prefetch(&p.map_b);
          const RingPosition<kStages> filled = Producer::run(p, full, empty, stages_a, stages_b, worker, at);
          Producer::tail(empty, filled);
        } else if constexpr (C::kBlockScaled) {
          if (warp >= 1) ScaleLoader::run(p, full, empty, stages_sf, worker, at, int(threadIdx.x) - 32);
        }
      } else {
        RealigningLoads::run(p, full, empty, raw_full, raw, stages_a, stages_b, worker, int(threadIdx.x));
      }
    } else if (warp < kMmaWarp) {
      epilogue(p, warp - kEpilogueWarp0, lane, acc_full, acc_empty, tmem_base, staging, worker, at);
    } else if (lane == 0 && (kCtaGroup == 1 || at.rank % 2 == 0)) {
      issue(p, full, empty, acc_full, acc_empty, tmem_base, stages_a, stages_b, stages_sf, worker, at);
    }

    // Every tensor-memory access (this CTA's reads, a pair leader's MMAs into it) is done, and
    // peers no longer arrive on this CTA's barriers: then the allocating warp frees the columns.
    // (Each warp first reconverges: one lane ran the producer or the MMAs, and the cluster
    // barrier and tcgen05.dealloc are .aligned, warp-wide instructions.)
    __syncwarp();
    nvidia::tcgen05_fence_before_thread_sync();
    cta_or_cluster_sync<Cluster>();
    if (warp == kMmaWarp) {
      nvidia::tcgen05_fence_after_thread_sync();
      nvidia::tmem_dealloc<kCtaGroup, kColumns>(tmem_base);
    }
  }

 private:
  // The TMEM address of accumulator buffer b (the plan's column), lane 0.
  TESSERA_DEVICE static std::uint32_t buffer_address(std::uint32_t base, int b) {
    return nvidia::tmem_address(base, 0, SmemPlan::accumulator_column(b));
  }

  // The MMA thread: every unit of this CTA (or pair) into the accumulator ring. A unit
  // without K tiles has no accumulator: its epilogue stores what the epilogue makes of zero
  // and C, and neither role touches the ring for it.
  TESSERA_DEVICE static void issue(const TmaGemmParams<Config>& p, std::uint64_t* full, std::uint64_t* empty,
                                   std::uint64_t* acc_full, std::uint64_t* acc_empty, std::uint32_t tmem_base,
                                   unsigned char* stages_a, unsigned char* stages_b, unsigned char* stages_sf,
                                   int worker, const ClusterPosition<Cluster>& at) {
    using Mainloop = UmmaMainloop<Operands, kStages, C>;
    // Block scales: the stages' scale factors and their columns in tensor memory (the plan's).
    typename Mainloop::Scales scales;
    if constexpr (C::kBlockScaled) {
      scales.stages_sf = nvidia::smem_address(stages_sf);
      scales.sfa = nvidia::tmem_address(tmem_base, 0, SmemPlan::scale_column_a());
      scales.sfb = nvidia::tmem_address(tmem_base, 0, SmemPlan::scale_column_b());
    } else {
      (void)stages_sf;
    }
    // Releases reach the CTAs that wrote into the stage; a pair's reach both CTAs.
    const std::uint16_t pair = std::uint16_t(3u << (at.rank & ~1));
    const std::uint16_t stage_mask = kCtaGroup == 2 ? pair : std::uint16_t(at.a_group() | at.b_group());
    const std::uint32_t a = nvidia::smem_address(stages_a), b = nvidia::smem_address(stages_b);
    RingPosition<kStages> pos;
    RingPosition<kBuffers> buffer;
    int filled = 0;  // accumulator buffers filled so far
    const int units = p.scheduler.units_of(worker);
    auto walk = walk_units(p.scheduler);  // this role's units, in order
    for (int j = 0; j < units; ++j) {
      const WorkUnit tile = walk.unit(worker, j, at.cm, at.cn);
      if (tile.k_tiles() == 0) continue;
      // The epilogue warps (of both CTAs of a pair) have read the buffer's previous tile.
      nvidia::mbarrier_wait<(Cluster::kSize > 1)>(&acc_empty[buffer.stage], buffer.phase ^ 1u);
      nvidia::tcgen05_fence_after_thread_sync();
      Mainloop::tile(buffer_address(tmem_base, buffer.stage), a, b, full, empty, &acc_full[buffer.stage], pos,
                     tile.k_tiles(), stage_mask, pair, scales);
      buffer.advance();
      ++filled;
    }
    // A pair's peer releases the leader's buffers from the other CTA: before the pair may
    // leave, every buffer filled and not yet waited for must have been released by both CTAs'
    // epilogue warps, so that no remote arrive is still in flight (DeepGEMM's final wait).
    if constexpr (kCtaGroup == 2) {
      for (int b = 0; b < kBuffers && b < filled; ++b) {
        nvidia::mbarrier_wait<true>(&acc_empty[buffer.stage], buffer.phase ^ 1u);
        buffer.advance();
      }
    }
  }

  // Epilogue warp w (0..3), lane `lane`: every tile of this CTA from the accumulator ring.
  TESSERA_DEVICE static void epilogue(const TmaGemmParams<Config>& p, int w, int lane, std::uint64_t* acc_full,
                                      std::uint64_t* acc_empty, std::uint32_t tmem_base, unsigned char* staging,
                                      int worker, const ClusterPosition<Cluster>& at) {
    using Epilogue = UmmaEpilogue<typename C::ElementD, typename C::LayoutC, C::kBlockN, C::kStagingBoxBytes>;
    unsigned char* my_staging = staging + w * 2 * Epilogue::kBoxBytes;
    int turn = 0;  // boxes this warp has stored
    RingPosition<kBuffers> buffer;
    const int units = p.scheduler.units_of(worker);
    auto walk = walk_units(p.scheduler);  // this role's units, in order
    for (int j = 0; j < units; ++j) {
      const WorkUnit tile = walk.unit(worker, j, at.cm, at.cn);
      const bool have = tile.k_tiles() > 0;
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
      // Part of the tile's K (so K > 0: the buffer holds it): a partial, reduced after the last unit.
      if (Fixup::kActive &&
          Fixup::hand_on(
              p.scheduler, worker, j, at.cm, at.cn,
              [&](float* partial) { scatter_partial<Epilogue>(partial, taddr, w, lane, release); }, 32 * w + lane,
              128, [] { nvidia::named_barrier_sync(kEpilogueWarpsBarrier, 128); })) {
        buffer.advance();
        continue;
      }
      const std::int64_t m0 = std::int64_t(tile.m) * C::kBlockM, n0 = std::int64_t(tile.n) * C::kBlockN;
      if constexpr (kProblemSet) {
        // A batch or groups: TMA stores where all the warp's 32 rows are the problem's (a batch:
        // always, the 3-D store clips at M), else (a group's last tile) direct stores of its rows.
        constexpr bool kAllRows = problem_owns_all_rows<typename Config::Scheduler>;
        const auto place = ProblemOfSet<kAllRows>::of(p, tile);
        if (kTmaStores && (kAllRows || m0 + 32 * (w + 1) <= tile.rows)) {
          Epilogue::tma_store(p, taddr, have, tile.row_begin + m0, n0, my_staging, turn, w, lane, release, place);
        } else {
          Epilogue::direct_store(p, taddr, have, tile.row_begin + m0, n0, w, lane, release, place);
        }
      } else if constexpr (kTmaStores) {
        Epilogue::tma_store(p, taddr, have, m0, n0, my_staging, turn, w, lane, release);
      } else {
        Epilogue::direct_store(p, taddr, have, m0, n0, w, lane, release);
      }
      if (have) buffer.advance();
    }
    if (Fixup::kActive) {
      Fixup::finish(
        p.scheduler, worker, at.cm, at.cn,
        [&] {
          return output_run<typename C::ElementC, typename C::ElementD, typename C::LayoutC, typename C::Epilogue>(p);
        },
        32 * w + lane, 128, [] { nvidia::named_barrier_sync(kEpilogueWarpsBarrier, 128); });
    }
    if constexpr (kTmaStores) {
      if (lane == 0) nvidia::bulk_wait_group<0>();  // the stores have read shared memory and landed
    }
  }

  // A unit's accumulator rows of this warp (row 32 w + lane, 32 columns per TMEM load) into
  // `partial`; the buffer is released after the last load.
  template <class Epilogue, class Release>
  TESSERA_DEVICE static void scatter_partial(float* partial, std::uint32_t taddr, int w, int lane, Release&& release) {
    using Partial = typename Fixup::Partial;
    const int row = 32 * w + lane;
    for (int chunk = 0; chunk < C::kBlockN / 32; ++chunk) {
      std::uint32_t r[32];
      Epilogue::template load<32>(taddr + std::uint32_t(32 * chunk), true, r);
      if (chunk == C::kBlockN / 32 - 1) release();
      TESSERA_UNROLL
      for (int i = 0; i < 32; i += 2) {
        Partial::store_pair(partial, row, 32 * chunk + i, __uint_as_float(r[i]), __uint_as_float(r[i + 1]));
      }
    }
  }
};

template <class Config, TmaPath kPath>
TESSERA_GLOBAL void __launch_bounds__(Config::kThreads, 1)
    umma_gemm_kernel(const __grid_constant__ TmaGemmParams<Config> params) {
  run_on_own_target<Sm100, UmmaGemmKernel<Config, kPath>>(params);
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
