// The shared memory of the TMA families' realigning path (tma/realigning_producer.hpp): two
// swizzled stages in the layout the tensor cores read, the raw line slots the producer copies
// into before it realigns them, and the barriers (a full/empty pair per stage, one per raw
// slot, and kOtherBarrierBytes the family keeps beside them: the Blackwell family's
// accumulator barriers and TMEM base address). No epilogue staging: the realigning epilogue
// stores directly. Host-includable.
#pragma once
#include <cstddef>

#include "tessera/gemm/tma/realigning_producer.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace tessera::gemm {

template <class Operands, class Arch, int kOtherBarrierBytes = 0>
struct RealigningSmemPlan {
  using Slots = RawLineSlots<Operands, Arch>;
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  static constexpr int kStages = Slots::kStages;
  static constexpr int kRawSlots = Slots::kSlots;

  struct RealigningStagesA : smem::Buffer<std::size_t(kStages) * TileA::kBytes, 1024> {
    static constexpr const char* kName = "A stages";
  };
  struct RealigningStagesB : smem::Buffer<std::size_t(kStages) * TileB::kBytes, 1024> {
    static constexpr const char* kName = "B stages";
  };
  struct RawSlots : smem::Buffer<std::size_t(kRawSlots) * Slots::kRawSlotBytes, 16> {
    static constexpr const char* kName = "raw line slots";
  };
  struct RealigningBarriers : smem::Buffer<(2 * kStages + kRawSlots) * 8 + kOtherBarrierBytes, 16> {
    static constexpr const char* kName = "barriers";
  };
  using Plan =
      smem::Plan<smem::Buffers<RealigningStagesA, RealigningStagesB, RawSlots, RealigningBarriers>,
                 smem::Seq<smem::Step<smem::Overwrite<RealigningBarriers>>,
                           smem::Loop<smem::Parallel<
                               smem::Loop<smem::Step<smem::Read<RealigningBarriers, RawSlots>,
                                                     smem::Write<RawSlots, RealigningStagesA, RealigningStagesB>>>,
                               smem::Loop<smem::Step<smem::Read<RealigningBarriers, RealigningStagesA,
                                                                RealigningStagesB>>>>>>>;
  static_assert(sizeof(smem::AssertFits<Arch, Plan>) > 0, "");
};

}  // namespace tessera::gemm
