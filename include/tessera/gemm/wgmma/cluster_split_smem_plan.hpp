// The shared memory of the cluster split-K kernel (wgmma/cluster_split_kernel.hpp), planned from
// the buffers' lifetimes (memory/smem_plan.hpp): the ring of A and B stages and its barriers
// while the main loop runs, then the CTA's partial tile, which the other CTAs of its cluster
// read. One unit of work per CTA, so the partial tile is written only after the last stage has
// been read, and the planner lets it take the stages' bytes. Host-includable: print_plans and
// the host tests read the plan.
#pragma once
#include <cstddef>

#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/tma/stage_buffers.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace tessera::gemm {

template <class Config>
struct ClusterSplitSmemPlan : TmaStageBuffers<Config> {
  using Arch = typename Config::Arch;
  using typename TmaStageBuffers<Config>::StagesA;
  using typename TmaStageBuffers<Config>::StagesB;
  struct Partial : smem::Buffer<Config::kPartialBytes, 16> {
    static constexpr const char* kName = "partial tile";
  };
  struct Barriers : smem::Buffer<2 * Config::kStages * 8, 16> {
    static constexpr const char* kName = "barriers";
  };
  using Producer = smem::Loop<smem::Step<smem::Read<Barriers>, smem::Write<StagesA, StagesB>>>;
  using Consumer = smem::Loop<smem::Step<smem::Read<Barriers, StagesA, StagesB>>>;
  using Plan = smem::Plan<smem::Buffers<StagesA, StagesB, Partial, Barriers>,
                          smem::Seq<smem::Step<smem::Overwrite<Barriers>>, smem::Parallel<Producer, Consumer>,
                                    smem::Step<smem::Overwrite<Partial>>, smem::Step<smem::Read<Partial, Barriers>>>>;
  static_assert(sizeof(smem::AssertFits<Arch, Plan>) > 0, "");
};

}  // namespace tessera::gemm
