// The Hopper tensor-core GEMM with K split across a cluster (sm_90a): configuration
// ClusterSplitK<Tile> (wgmma/cluster_split_config.hpp), units from scheduler::StreamK with the
// ClusterShared medium (scheduler/stream_k.hpp): one K slice of a tile per CTA.
//
// A CTA is three warpgroups and runs one unit: K slice r of an output tile, r its rank in the
// cluster. Warpgroup 0 produces: one thread fills a ring of stages with the slice's K tiles
// of A and B by TMA (tma/producer.hpp, no multicast). Warpgroups 1 and 2 consume: wgmma over
// each stage, each on half the tile's rows (wgmma/mainloop.hpp). Then, with a split, the
// cluster sums its partial tiles through distributed shared memory: each CTA pushes the parts
// of the tile others own into their inboxes and stores its own share of D
// (wgmma/cluster_partial_sum.hpp); without one (a cluster of 1), the consumers store D from
// their accumulators the same way. The inbox has shared memory of its own
// (wgmma/cluster_split_smem_plan.hpp).
//
// The cluster barrier (arrived at the start once the inbox barrier is initialised, waited for
// before the first push) is reached by every thread of every CTA of the cluster, the producer
// warpgroup's too, each in its own branch of the role split (setmaxnreg needs the roles to be
// one if/else).
#pragma once
#include <cstdint>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/nvidia/dsmem.hpp"
#include "tessera/arch/nvidia/grid_dependency.hpp"
#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/arch/nvidia/wgmma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/tma/cluster.hpp"
#include "tessera/gemm/wgmma/cluster_partial_sum.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/tma/producer.hpp"
#include "tessera/gemm/wgmma/fp8_mainloop.hpp"
#include "tessera/gemm/wgmma/mainloop.hpp"
#include "tessera/gemm/wgmma/cluster_split_smem_plan.hpp"
#include "tessera/gemm/tma/params.hpp"
#include "tessera/gemm/tma/kernel_support.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

template <class Config>
struct WgmmaClusterSplitKernel {
  using Operands = typename Config::Operands;
  using Plan = typename ClusterSplitSmemPlan<Config>::Plan;
  using SmemPlan = ClusterSplitSmemPlan<Config>;
  static constexpr int kStages = Config::kStages;
  static constexpr int kRowBlocks = Config::kWgmmaRowBlocks;
  static constexpr int kAccPerBlock = Config::kBlockN / 2;
  using Producer = TmaProducer<Operands, kStages>;
  using Mainloop = WgmmaMainloop<Operands, kStages, kRowBlocks, false>;
  // fp8 operands: promoted (or fast) accumulation with the scales applied in the main loop. The
  // consumers read block scales themselves, two K tiles ahead, and issue freely: a K-split
  // unit is a short, memory-bound slice, where taking turns has nothing to hide.
  static constexpr int kTurnBarrier = 2;  // named barriers 2 and 3 (unused: no turns)
  using Fp8Mainloop = WgmmaFp8Mainloop<Operands, kStages, kRowBlocks, false, typename Config::Scales, false,
                                       kTurnBarrier, typename Config::Scheduler, false>;
  using Sum = ClusterPartialSum<typename Config::LayoutC, typename Config::ElementD, Config::kBlockN, kRowBlocks>;
  // As the wgmma kernel: 40 registers for the producer, 232 for each consumer.
  static constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
  static_assert(ClusterSumInbox::max_bytes(Sum::kUnits, kMaxClusterSplits) == Config::kInboxBytes,
                "Tessera: the cluster sum's inbox and the configuration's plan of it disagree");

  TESSERA_DEVICE static void run(const TmaGemmParams<Config>& p) {
    extern __shared__ __align__(1024) unsigned char smem[];
    require_smem_base_aligned(smem);
    std::uint64_t* full = Plan::template pointer<typename SmemPlan::Barriers, std::uint64_t>(smem);
    std::uint64_t* empty = full + kStages;
    unsigned char* stages_a = Plan::template pointer<typename SmemPlan::StagesA, unsigned char>(smem);
    unsigned char* stages_b = Plan::template pointer<typename SmemPlan::StagesB, unsigned char>(smem);
    std::uint64_t* inbox_full = empty + kStages;
    unsigned char* inbox = Plan::template pointer<typename SmemPlan::Inbox, unsigned char>(smem);

    const int warpgroup = nvidia::uniform_warpgroup();  // uniform: descriptors stay in uniform registers
    const int t = int(threadIdx.x) % 128;
    const int worker = int(blockIdx.x);
    const int splits = p.scheduler.cluster_split();  // the cluster's size: the same in every CTA

    if (threadIdx.x == 0) {
      // The tensor maps' fetch first: with a short K slice (decode) the kernel is mostly its
      // first loads' latency, and the maps are needed before any of them. (K == 0: no maps.)
      if (p.K > 0) {
        nvidia::tma_prefetch(&p.map_a);
        nvidia::tma_prefetch(&p.map_b);
      }
      init_stage_barriers(full, empty, kStages, 1, 2);
      nvidia::mbarrier_init(inbox_full, 1);  // one arrival: this CTA's expectation of bytes
      nvidia::fence_barrier_init();
    }
    __syncthreads();
    if (splits > 1) nvidia::cluster_arrive_relaxed();  // this CTA's inbox barrier is ready
    if constexpr (Config::kDependentLaunch) {
      // option::DependentLaunch: what came before touched shared memory and the parameters only
      // and may overlap the previous kernel's tail; every global access comes after its end.
      nvidia::wait_for_prerequisite_grids();
      nvidia::let_dependents_launch();
    }

    if (warpgroup == 0) {
      nvidia::setmaxnreg_dec<kProducerRegisters>();
      if (t == 0) {
        Producer::run(p, full, empty, stages_a, stages_b, worker, ClusterPosition<ClusterShape<1, 1>>{0, 0, 0});
      }
      __syncwarp();
      Sum::producer_side(splits);  // the wait for the start's cluster barrier, which every thread reaches
    } else {
      nvidia::setmaxnreg_inc<kConsumerRegisters>();
      const int c = warpgroup - 1;
      float acc[kRowBlocks][kAccPerBlock];
      TESSERA_UNROLL
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        TESSERA_UNROLL
        for (int i = 0; i < kAccPerBlock; ++i) acc[rb][i] = 0.0f;
      }
      const WorkUnit unit = p.scheduler.unit(worker, 0, 0, 0);
      const int row0 = c * Config::kWarpgroupRows;
      RingPosition<kStages> pos;
      const std::uint32_t a = nvidia::smem_address(stages_a), b = nvidia::smem_address(stages_b);
      auto release = [&](int stage) {
        if (t == 0) nvidia::mbarrier_arrive(&empty[stage]);
      };
      if constexpr (Config::kFp8) {
        IssueTurns<kTurnBarrier> turns{c};
        Fp8Mainloop::run(acc, a, b, full, pos, unit, row0, release, p, t, turns, true, 0u);
      } else {
        Mainloop::run(acc, a, b, full, pos, unit.k_tiles(), row0, release);
      }
      const std::int64_t m0 = std::int64_t(unit.m) * Config::kBlockM + row0;
      const std::int64_t n0 = std::int64_t(unit.n) * Config::kBlockN;
      // The medium's fix-up: the cluster's partials pushed to their owners and summed in slice
      // order, this CTA's share of D stored (from registers alone without a split) through the
      // thread's output op.
      decltype(auto) output = detail::thread_output_op<Config::kFp8>(p.epilogue);
      Sum::consumer_side(p, output, acc, inbox, inbox_full, m0, n0, t, c * 128 + t, splits);
      if constexpr (Config::kFp8) p.epilogue.publish_amax(output.amax);
    }
  }
};

template <class Config>
TESSERA_GLOBAL void __launch_bounds__(Config::kThreads, 1)
    wgmma_cluster_split_kernel(const __grid_constant__ TmaGemmParams<Config> params) {
  run_on_own_target<Sm90, WgmmaClusterSplitKernel<Config>>(params);
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
