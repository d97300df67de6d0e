// The Hopper kernel's shared memory (wgmma/kernel.hpp), planned from the buffers'
// lifetimes (memory/smem_plan.hpp): the TMA path's stage ring, epilogue staging and barriers,
// and the realigning path's plan (tma/realigning_smem_plan.hpp). Host-includable: print_plans and
// the host tests read the plans.
#pragma once
#include <cstddef>

#include "tessera/gemm/tma/realigning_smem_plan.hpp"
#include "tessera/gemm/tma/stage_buffers.hpp"
#include "tessera/gemm/wgmma/config.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace tessera::gemm {

template <class Config>
struct WgmmaSmemPlan : TmaStageBuffers<Config> {
  using Arch = typename Config::Arch;
  using typename TmaStageBuffers<Config>::StagesA;
  using typename TmaStageBuffers<Config>::StagesB;
  using typename TmaStageBuffers<Config>::Staging;
  // The stage ring's barriers, then the epilogue's C barriers (a pair per staging box).
  struct Barriers : smem::Buffer<detail::wgmma_barrier_bytes(Config::kStages) + Config::kCBarrierBytes, 16> {
    static constexpr const char* kName = "barriers";
  };
  // fp8 block scales: a scale slot per stage (wgmma/scale_stages.hpp); no bytes otherwise.
  struct ScaleStages : smem::Buffer<std::size_t(Config::kStages) * Config::kScaleSlotBytes, 16> {
    static constexpr const char* kName = "scale stages";
  };
  // Persistent and warp-specialised: the producer refills stages while the consumers
  // stage the previous tile's output, so nothing may share bytes.
  using Producer = smem::Loop<smem::Step<smem::Read<Barriers>, smem::Write<StagesA, StagesB, ScaleStages>>>;
  using Consumer = smem::Seq<smem::Loop<smem::Step<smem::Read<Barriers, StagesA, StagesB, ScaleStages>>>,
                             smem::Step<smem::Overwrite<Staging>>, smem::Step<smem::Read<Staging>>>;
  using Plan = smem::Plan<smem::Buffers<StagesA, StagesB, ScaleStages, Staging, Barriers>,
                          smem::Seq<smem::Step<smem::Overwrite<Barriers>>,
                                    smem::Loop<smem::Parallel<Producer, Consumer>>>>;
  static_assert(sizeof(smem::AssertFits<Arch, Plan>) > 0, "");

  // The realigning path: one CTA, no cluster.
  using Realigning = RealigningSmemPlan<typename Config::RealigningOperands, Arch>;
  using RealigningPlan = typename Realigning::Plan;
};

}  // namespace tessera::gemm
