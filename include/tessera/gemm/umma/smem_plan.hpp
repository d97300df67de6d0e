// The Blackwell kernel's shared and tensor memory (umma/kernel.hpp), planned from the
// buffers' lifetimes (memory/smem_plan.hpp, memory/tmem_plan.hpp): the TMA path's stage
// ring, epilogue staging and barriers, the realigning path's plan (tma/realigning_smem_plan.hpp,
// for Config::RealigningConfig, the one-CTA form the realigning path runs), and the accumulator
// buffers in tensor memory; with block scales, the scale-factor stages beside the operand
// stages and the scale factors' columns beside the accumulators. Host-includable: print_plans
// and the host tests read the plans.
#pragma once
#include <cstddef>
#include <utility>

#include "tessera/gemm/tma/realigning_smem_plan.hpp"
#include "tessera/gemm/tma/stage_buffers.hpp"
#include "tessera/gemm/umma/config.hpp"
#include "tessera/memory/smem_plan.hpp"
#include "tessera/memory/tmem_plan.hpp"

namespace tessera::gemm {

template <class Config>
struct UmmaSmemPlan : TmaStageBuffers<Config> {
  using Arch = typename Config::Arch;
  using typename TmaStageBuffers<Config>::StagesA;
  using typename TmaStageBuffers<Config>::StagesB;
  using typename TmaStageBuffers<Config>::Staging;
  struct Barriers : smem::Buffer<detail::umma_barrier_bytes(Config::kStages, Config::kAccumulatorBuffers), 16> {
    static constexpr const char* kName = "barriers, TMEM base";
  };
  // Block scales: each stage's scale-factor atoms (umma/scale_loader.hpp writes them, the
  // MMA thread copies them to tensor memory); 16-byte aligned (tcgen05.cp's descriptor).
  struct StagesScales : smem::Buffer<std::size_t(Config::kStages) * std::size_t(Config::kScaleStageBytes), 128> {
    static constexpr const char* kName = "scale-factor stages";
  };
  // Persistent and warp-specialised: the producer refills stages while the MMA warp reads
  // them and the epilogue stages the previous tile's output, so nothing may share bytes.
  using Epilogue = smem::Seq<smem::Step<smem::Read<Barriers>, smem::Overwrite<Staging>>, smem::Step<smem::Read<Staging>>>;
  template <class... Stages>
  using PlanOf = smem::Plan<
      smem::Buffers<Stages..., Staging, Barriers>,
      smem::Seq<smem::Step<smem::Overwrite<Barriers>>,
                smem::Loop<smem::Parallel<smem::Loop<smem::Step<smem::Read<Barriers>, smem::Write<Stages...>>>,
                                          smem::Loop<smem::Step<smem::Read<Barriers, Stages...>>>, Epilogue>>>>;
  using Plan = std::conditional_t<Config::kBlockScaled, PlanOf<StagesA, StagesB, StagesScales>,
                                  PlanOf<StagesA, StagesB>>;
  static_assert(sizeof(smem::AssertFits<Arch, Plan>) > 0, "");

  // The realigning path's shared memory, for the one-CTA form of the tile (B stages of the whole
  // N), beside its accumulator barriers and TMEM base address.
  using Realigning = RealigningSmemPlan<typename Config::RealigningConfig::Operands, Arch,
                                      detail::umma_barrier_bytes(0, Config::kAccumulatorBuffers)>;
  using RealigningPlan = typename Realigning::Plan;

  // ---- tensor memory ---------------------------------------------------------------------
  // With block scales, one K tile's scale factors of A and of B beside the accumulators.
  using TmemScalesA = TmemScaleFactors<Config::ScaleTileA::kColumns, 0>;
  using TmemScalesB = TmemScaleFactors<Config::ScaleTileB::kColumns, 1>;
  using Sequence = std::make_integer_sequence<int, Config::kAccumulatorBuffers>;
  using Accumulators =
      std::conditional_t<Config::kBlockScaled,
                         detail::AccumulatorPlan<Config::kBlockN, Sequence, TmemScalesA, TmemScalesB>,
                         detail::AccumulatorPlan<Config::kBlockN, Sequence>>;
  using TmemPlan = typename Accumulators::Plan;
  static_assert(sizeof(tmem::AssertFits<Arch, TmemPlan>) > 0, "");
  // First TMEM columns of A's and B's scale factors (block scales only).
  TESSERA_HOST_DEVICE static constexpr int scale_column_a() { return TmemPlan::template column<TmemScalesA>(); }
  TESSERA_HOST_DEVICE static constexpr int scale_column_b() { return TmemPlan::template column<TmemScalesB>(); }
  template <int kIndex>
  using Accumulator = TmemAccumulator<Config::kBlockN, kIndex>;
  // First TMEM column of accumulator buffer b, from the plan.
  TESSERA_HOST_DEVICE static constexpr int accumulator_column(int b) { return Accumulators::column(b); }
};

}  // namespace tessera::gemm
