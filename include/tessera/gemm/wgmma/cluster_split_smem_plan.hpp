// The shared memory of the cluster split-K kernel (wgmma/cluster_split_kernel.hpp), planned from
// the buffers' lifetimes (memory/smem_plan.hpp): the ring of A and B stages and its barriers
// while the main loop runs, and, for the whole kernel, the inbox the other CTAs of the cluster
// push their parts of this CTA's share of the tile into (wgmma/cluster_partial_sum.hpp) and its
// barrier: a peer may push before this CTA's main loop is done, so the inbox cannot take the
// stages' bytes. Host-includable: print_plans and the host tests read the plan.
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
  struct Inbox : smem::Buffer<Config::kInboxBytes, 16> {
    static constexpr const char* kName = "cluster sum inbox";
  };
  // The stages' full and empty barriers, then the inbox's.
  struct Barriers : smem::Buffer<2 * Config::kStages * 8 + 8, 16> {
    static constexpr const char* kName = "barriers";
  };
  using Producer = smem::Loop<smem::Step<smem::Read<Barriers>, smem::Write<StagesA, StagesB>>>;
  using Consumer = smem::Loop<smem::Step<smem::Read<Barriers, StagesA, StagesB>>>;
  using Plan = smem::Plan<smem::Buffers<StagesA, StagesB, Inbox, Barriers>,
                          smem::Seq<smem::Step<smem::Overwrite<Barriers, Inbox>>, smem::Parallel<Producer, Consumer>,
                                    smem::Step<smem::Read<Inbox, Barriers>>>>;
  static_assert(sizeof(smem::AssertFits<Arch, Plan>) > 0, "");
};

}  // namespace tessera::gemm
