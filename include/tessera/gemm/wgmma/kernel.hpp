// The Hopper tensor-core GEMM kernel (sm_90a): D = epilogue(A * B, C) with TMA (or ordinary
// realigning loads), wgmma and a persistent, warp-specialised schedule. kPath picks loads and
// stores: TMA and TMA (kTma), TMA and direct (kPacked), realigning and direct (kRealigning).
//
// A CTA is three warpgroups. Warpgroup 0 produces: it keeps a ring of kStages shared-memory
// stages filled with K tiles of A and B (TmaProducer, or RealigningProducer where TMA cannot
// describe the operands), and gives most of its registers to the consumers (setmaxnreg).
// Warpgroups 1 and 2 consume: wgmma over each stage, then the epilogue. Every role walks the
// same units of work, in the same order (Config::Scheduler, scheduler/tile_scheduler.hpp). Two
// schedules (schedule/sm90.hpp):
//   Cooperative  both consumers on every unit, each on half of its rows;
//   Pingpong     consumers on alternate units; an ordered pair of named barriers makes
//                their main loops take turns, so one's epilogue runs under the other's MMAs.
// With a cluster, operand tiles shared by CTAs are multicast (tma/producer.hpp) and a
// consumer frees a stage in every CTA that writes into it; before the CTAs leave, each
// producer waits until its stages have been released (TmaProducer::tail).
// Where the call stages C (p.c_staged), warp 1 of the producer warpgroup loads C into the
// epilogue's staging boxes with TMA ahead of each epilogue (wgmma/staged_c_loader.hpp).
// With a scheduler that splits K (scheduler::StreamK<>), a unit that covers part of its tile's K
// hands its accumulators on as a partial instead of storing D, and after their last unit the
// consumers reduce their share of the split tiles: the fix-up hooks (scheduler/fixup.hpp,
// FixupHooks: hand_on after each unit, finish after the last), which do nothing otherwise.
// Shared memory comes from WgmmaSmemPlan<Config> (wgmma/smem_plan.hpp). fp8 operands take
// their own main loop (wgmma/fp8_mainloop.hpp: k32 steps, scales, promotion into fp32; block
// scales staged beside the operands by a second producer warp, wgmma/scale_stages.hpp) and
// their epilogue's per-thread copy (fp8_scaling.hpp), which also gathers the amax of D.
// A batch or groups (a scheduler with kProblemSet, problem_set.hpp; any operands): the same
// kernel on 3-D tensor maps; an epilogue box whose rows all belong to the unit's problem is
// stored with TMA, one of a group's last tile has the group's rows copied out by the
// warpgroup's threads.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/grid_dependency.hpp"
#include "tessera/arch/nvidia/wgmma.hpp"
#include "tessera/gemm/wgmma/staged_c_loader.hpp"
#include "tessera/gemm/scheduler/fixup.hpp"
#include "tessera/gemm/wgmma/epilogue.hpp"
#include "tessera/gemm/wgmma/fp8_mainloop.hpp"
#include "tessera/gemm/wgmma/mainloop.hpp"
#include "tessera/gemm/tma/kernel_support.hpp"
#include "tessera/gemm/wgmma/smem_plan.hpp"
#include "tessera/gemm/wgmma/config.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

template <class Config, TmaPath kPath>
struct WgmmaGemmKernel {
  static constexpr bool kTmaLoads = PathIo<kPath>::kTmaLoads;
  static constexpr bool kTmaStores = PathIo<kPath>::kTmaStores;
  using SmemPlan = WgmmaSmemPlan<Config>;
  using Plan = std::conditional_t<kTmaLoads, typename SmemPlan::Plan, typename SmemPlan::RealigningPlan>;
  // The realigning path loads every tile itself: no multicast, no cluster.
  using Operands = std::conditional_t<kTmaLoads, typename Config::Operands, typename Config::RealigningOperands>;
  using Cluster = typename Operands::Cluster;
  using Realigning = typename SmemPlan::Realigning;
  static constexpr int kStages = kTmaLoads ? Config::kStages : Realigning::kStages;
  static constexpr bool kProblemSet = takes_problem_set<typename Config::Scheduler>;
  using Producer = TmaProducer<Operands, kStages, kProblemSet>;
  // fp8 block scales on the TMA path: warp 1 of the producer warpgroup stages them
  // (wgmma/scale_stages.hpp).
  static constexpr bool kStagedScales = kTmaLoads && Config::kStagedScales;
  using ScaleCopies = ScaleStageCopies<Config::kBlockM, Config::kBlockN, typename Config::Scheduler, kStages,
                                      (Cluster::kSize > 1)>;
  using Place = ProblemOfSet<problem_owns_all_rows<typename Config::Scheduler>>;
  using RealigningLoads = RealigningProducer<Operands, typename Realigning::Slots>;
  static constexpr int kRowBlocks = Config::kWgmmaRowBlocks;
  static constexpr int kAccPerBlock = Config::kBlockN / 2;
  // Registers per thread after setmaxnreg. The launch gives every thread 168 (65536 / 384,
  // rounded down to 8): 64512 in all, and 128 x producer + 256 x consumer must not exceed
  // that, or the consumers' setmaxnreg.inc waits forever for registers no one frees. The
  // realigning producer realigns lines in registers and needs more: fewer made ptxas spill
  // (scripts/sass_check.py checks every kernel of the GPU suite for local memory).
  static constexpr int kLaunchRegisters = 65536 / Config::kThreads / 8 * 8;
  static constexpr int kProducerRegisters = kTmaLoads ? 40 : 104;
  static constexpr int kConsumerRegisters = kTmaLoads ? 232 : 200;
  static_assert(128 * kProducerRegisters + 256 * kConsumerRegisters <= Config::kThreads * kLaunchRegisters,
                "Tessera: the warpgroups' register budgets exceed what the launch allocates");
  // Consumer warpgroups that read each stage, in each CTA.
  static constexpr int kReadersPerStage = Config::kPingpong ? 1 : 2;
  // Who of a reading warpgroup releases a stage: its thread 0 once the MMAs that read the stage
  // are done; with block scales staged, every warp (lane 0, after __syncwarp). Each warp reads
  // the stage's scale slot with its own loads, and an arrive (release) orders only the arriving
  // thread's own accesses before the producer's refill, so each warp orders its lanes' loads
  // (__syncwarp) and arrives for them.
  static constexpr int kReleasesPerReader = kStagedScales ? 4 : 1;
  // Named barriers: 0 is __syncthreads; 1, 2 each consumer's epilogue; 3, 4 the Pingpong
  // turns (fp8, Cooperative: the turns of the MMA issue); 5 the realigning producer's threads;
  // 6 both consumers (the stream-K fix-up).
  static constexpr int kEpilogueBarrier = 1, kTurnBarrier = 3, kConsumersBarrier = 6;
  using Epilogue = WgmmaEpilogue<typename Config::ElementC, typename Config::ElementD, typename Config::LayoutC,
                                 Config::kBlockN, kRowBlocks, Config::kStagingBoxes>;
  using CLoader = StagedCLoader<Config, Epilogue>;
  static constexpr int kBoxes = Config::kStagingBoxes;
  // TMA stores: the C barriers after the stage barriers and their spare pair, [2][kBoxes]
  // full ones, then as many empty ones (offsets from full[0]).
  static constexpr int kCFullOffset = 2 * kStages + 2, kCEmptyOffset = kCFullOffset + 2 * kBoxes;
  using Fixup = FixupHooks<typename Config::Scheduler, typename Config::LayoutC, Config::kBlockM, Config::kBlockN>;

  TESSERA_DEVICE static void run(const TmaGemmParams<Config>& p) {
    extern __shared__ __align__(1024) unsigned char smem[];
    require_smem_base_aligned(smem);
    const StagePointers at_smem = stage_pointers<kTmaLoads, SmemPlan, Plan>(smem);
    std::uint64_t* full = at_smem.full;
    unsigned char *stages_a = at_smem.stages_a, *stages_b = at_smem.stages_b, *staging = at_smem.staging,
                  *raw = at_smem.raw;
    std::uint64_t* empty = full + kStages;
    std::uint64_t* raw_full = empty + kStages;  // realigning path: one per raw slot
    std::uint64_t* c_full = full + kCFullOffset;
    std::uint64_t* c_empty = full + kCEmptyOffset;
    std::uint32_t scale_slots = 0;
    if constexpr (kStagedScales) {
      scale_slots = nvidia::smem_address(Plan::template pointer<typename SmemPlan::ScaleStages, unsigned char>(smem));
    }

    const int warpgroup = nvidia::uniform_warpgroup();  // uniform: descriptors stay in uniform registers
    const int t = int(threadIdx.x) % 128;
    const ClusterPosition<Cluster> at = ClusterPosition<Cluster>::current();
    const int worker = int(blockIdx.x) / Cluster::kSize;  // this CTA's cluster

    if (threadIdx.x == 0) {
      init_stage_barriers(full, empty, kStages, kTmaLoads ? 1 + (kStagedScales ? ScaleCopies::kArrivals : 0) : RealigningLoads::kThreads,
                          kReadersPerStage * kReleasesPerReader * (Cluster::kM + Cluster::kN - 1));
      init_raw_slot_barriers<kTmaLoads, Realigning, RealigningLoads>(raw_full);
      if constexpr (kTmaStores) init_stage_barriers(c_full, c_empty, 2 * kBoxes, 1, 1);
      nvidia::fence_barrier_init();
    }
    cta_or_cluster_sync<Cluster>();  // every CTA's barriers exist before any CTA arrives on them
    if constexpr (Config::kDependentLaunch) {
      // option::DependentLaunch: what came before touched shared memory and the parameters only
      // and may overlap the previous kernel's tail; every global access (the maps' operands, C,
      // the scales, a group's sizes, the workspace, D) comes after its end. Letting the next
      // kernel launch at once gives it the SMs this grid leaves idle and each SM this grid frees.
      nvidia::wait_for_prerequisite_grids();
      nvidia::let_dependents_launch();
    }

    if (warpgroup == 0) {
      nvidia::setmaxnreg_dec<kProducerRegisters>();
      if constexpr (kTmaLoads) {
        if (t < 32) {  // one warp walks the ring; its first lane issues
          if (t == 0) {
            nvidia::tma_prefetch(&p.map_a);
            nvidia::tma_prefetch(&p.map_b);
            const RingPosition<kStages> filled = Producer::run(p, full, empty, stages_a, stages_b, worker, at);
            Producer::tail(empty, filled);
          }
          __syncwarp();
        } else if (t < 64) {
          if constexpr (kStagedScales) {  // the block scales of every stage (wgmma/scale_stages.hpp)
            ScaleCopies::run(p, full, empty, scale_slots, worker, at.cm, at.cn, t - 32);
          } else if constexpr (kTmaStores && !kProblemSet) {
            if (t == 32 && p.c_staged) CLoader::run(p, c_full, c_empty, staging, worker, at.cm, at.cn);
          }
          __syncwarp();
        }
      } else {
        RealigningLoads::run(p, full, empty, raw_full, raw, stages_a, stages_b, worker, t);
      }
    } else {
      nvidia::setmaxnreg_inc<kConsumerRegisters>();
      consume(p, warpgroup - 1, t, full, empty, stages_a, stages_b, staging, worker, at, scale_slots);
    }

    if constexpr (Cluster::kSize > 1) {
      nvidia::cluster_sync();  // peers may still read this CTA's barriers until here
    }
  }

 private:
  // Consumer warpgroup c (0 or 1), thread t of it.
  TESSERA_DEVICE static void consume(const TmaGemmParams<Config>& p, int c, int t, std::uint64_t* full,
                                     std::uint64_t* empty, unsigned char* stages_a, unsigned char* stages_b,
                                     unsigned char* staging, int worker, const ClusterPosition<Cluster>& at,
                                     std::uint32_t scale_slots) {
    using Mainloop = WgmmaMainloop<Operands, kStages, kRowBlocks, (Cluster::kSize > 1)>;
    using Fp8Mainloop = WgmmaFp8Mainloop<Operands, kStages, kRowBlocks, (Cluster::kSize > 1), typename Config::Scales,
                                         !Config::kPingpong, kTurnBarrier, typename Config::Scheduler, kStagedScales>;
    const std::uint32_t a = nvidia::smem_address(stages_a), b = nvidia::smem_address(stages_b);
    unsigned char* my_staging = staging + c * kBoxes * Epilogue::kBoxStride;
    const std::uint16_t sharers = at.a_group() | at.b_group();  // CTAs writing into our stages
    auto release = [&](int stage) {
      if constexpr (kReleasesPerReader > 1) {
        __syncwarp();
        if (t % 32 != 0) return;
      } else {
        if (t != 0) return;
      }
      if constexpr (Cluster::kSize == 1) {
        nvidia::mbarrier_arrive(&empty[stage]);
      } else {
        for (int r = 0; r < Cluster::kSize; ++r) {
          if ((sharers >> r) & 1) nvidia::mbarrier_arrive_cluster(&empty[stage], std::uint32_t(r));
        }
      }
    };

    float acc[kRowBlocks][kAccPerBlock];
    decltype(auto) output = detail::thread_output_op<Config::kFp8>(p.epilogue);
    IssueTurns<kTurnBarrier> turns{c};  // fp8, Cooperative: the order the warpgroups issue in
    const int units = p.scheduler.units_of(worker);
    const int rows = Config::kWarpgroupRows;
    const int row0 = Config::kPingpong ? 0 : c * rows;  // this warpgroup's rows in the tile
    int turn = 0;                                        // epilogue boxes stored so far
    RingPosition<kStages> pos;
    // Cooperative: every unit; Pingpong: units c, c + 2, ...
    const int first = Config::kPingpong ? c : 0, step = Config::kPingpong ? 2 : 1;
    auto walk = walk_units(p.scheduler);  // this warpgroup's units, in order
    for (int j = first; j < units; j += step) {
      const WorkUnit tile = walk.unit(worker, j, at.cm, at.cn);
      TESSERA_UNROLL
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        TESSERA_UNROLL
        for (int i = 0; i < kAccPerBlock; ++i) acc[rb][i] = 0.0f;
      }
      if constexpr (Config::kPingpong) {
        pos = RingPosition<kStages>::at(p.scheduler.k_tiles_before(worker, j));  // skip the other's K tiles
        if (j > 0) nvidia::named_barrier_sync(kTurnBarrier + c, 256);  // unit j-1's MMAs are done
      }
      if constexpr (Config::kFp8) {
        Fp8Mainloop::run(acc, a, b, full, pos, tile, row0, release, p, t, turns, j + step >= units, scale_slots);
      } else {
        Mainloop::run(acc, a, b, full, pos, tile.k_tiles(), row0, release);
      }
      if constexpr (Config::kPingpong) {
        if (j + 1 < units) nvidia::named_barrier_arrive(kTurnBarrier + (1 - c), 256);  // its turn
      }
      // Part of the tile's K: a partial, reduced after the last unit (Cooperative: both
      // consumers published it; Pingpong: this one).
      if constexpr (Config::kPingpong) {
        if (Fixup::kActive &&
            Fixup::hand_on(
                p.scheduler, worker, j, at.cm, at.cn, [&](float* partial) { scatter_partial(partial, acc, row0, t); },
                t, 128, [c] { nvidia::named_barrier_sync(kEpilogueBarrier + c, 128); })) {
          continue;
        }
      } else {
        if (Fixup::kActive &&
            Fixup::hand_on(
                p.scheduler, worker, j, at.cm, at.cn, [&](float* partial) { scatter_partial(partial, acc, row0, t); },
                c * 128 + t, 256, [] { nvidia::named_barrier_sync(kConsumersBarrier, 256); })) {
          continue;
        }
      }
      const std::int64_t m0 = std::int64_t(tile.m) * Config::kBlockM + row0;
      const std::int64_t n0 = std::int64_t(tile.n) * Config::kBlockN;
      if constexpr (kProblemSet && kTmaStores) {
        // A batch or groups read C with ordinary loads (the launch stages C only for one GEMM).
        Epilogue::tma_store_with(p, output, acc, tile.row_begin + m0, n0, my_staging, turn, kEpilogueBarrier + c, t,
                                 nullptr, nullptr, Place::of(p, tile));
      } else if constexpr (kProblemSet) {
        Epilogue::direct_store_with(p, output, acc, tile.row_begin + m0, n0, t, Place::of(p, tile));
      } else if constexpr (kTmaStores) {
        // This warpgroup's C barriers, found from full[0] (kept live anyway) rather than kept
        // in registers of their own through the main loop.
        Epilogue::tma_store_with(p, output, acc, m0, n0, my_staging, turn, kEpilogueBarrier + c, t,
                                 full + kCFullOffset + c * kBoxes, full + kCEmptyOffset + c * kBoxes);
      } else {
        Epilogue::direct_store_with(p, output, acc, m0, n0, t);
      }
    }
    if constexpr (Fixup::kActive) {
      // The split tiles' sums carry A's and B's scales (the main loop applied them to each
      // part); fp8 writes them through the thread's own output op, whose amax joins this one's.
      const auto finished = Fixup::finish(
        p.scheduler, worker, at.cm, at.cn,
        [&] {
          return output_run_with<typename Config::ElementC, typename Config::ElementD, typename Config::LayoutC>(
              p, detail::thread_output_op<Config::kFp8>(p.epilogue));
        },
        c * 128 + t, 256, [] { nvidia::named_barrier_sync(kConsumersBarrier, 256); });
      if constexpr (Config::kFp8) output.amax = fmaxf(output.amax, finished.epilogue.amax);
    }
    if constexpr (kTmaStores) {
      if (t == 0) nvidia::bulk_wait_group<0>();  // the stores have read shared memory and landed
    }
    if constexpr (Config::kFp8) p.epilogue.publish_amax(output.amax);
  }

  // A unit's accumulators (this thread's fragment) into `partial`, a tile of floats in D's layout.
  TESSERA_DEVICE static void scatter_partial(float* partial, const float (&acc)[kRowBlocks][kAccPerBlock], int row0,
                                             int t) {
    using Atom = typename Config::Atom;
    using Partial = typename Fixup::Partial;
    // From this thread's first element, every other one is a constant step away (the index is
    // linear in row and column): one base address, immediate offsets.
    const auto first = Atom::element(t, 0);
    float* base = partial + Partial::index(row0 + first.row, first.col);
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int i = 0; i < kAccPerBlock; i += 2) {
        const auto e = Atom::element(0, i);  // (r, c) and (r, c + 1), from thread 0's first
        Partial::store_pair(base, rb * 64 + e.row, e.col, acc[rb][i], acc[rb][i + 1]);
      }
    }
  }
};

template <class Config, TmaPath kPath>
TESSERA_GLOBAL void __launch_bounds__(Config::kThreads, 1)
    wgmma_gemm_kernel(const __grid_constant__ TmaGemmParams<Config> params) {
  run_on_own_target<Sm90, WgmmaGemmKernel<Config, kPath>>(params);
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
