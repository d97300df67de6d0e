// The FMA GEMM's shared memory: two operand stages and an epilogue staging tile, and the
// program outline from which the planner decides what may share bytes. Host-includable,
// so that tools can print the plan of any configuration without a GPU compiler.
#pragma once

#include "tessera/gemm/fma/config.hpp"
#include "tessera/memory/operand_tile_loader.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace tessera::gemm {

template <class Config>
struct FmaSmemPlan {
  static constexpr int kBM = Config::kBlockM, kBN = Config::kBlockN, kBK = Config::kBlockK;
  using LoaderA = OperandTileLoader<typename Config::ElementA, typename Config::LayoutA, true,
                                    kBM, kBK, Config::kThreads>;
  using LoaderB = OperandTileLoader<typename Config::ElementB, typename Config::LayoutB, false,
                                    kBN, kBK, Config::kThreads>;

  // Epilogue staging: one band of the tile's rows at a time (a thread's rows come in
  // ThreadM/4 bands of 4, kBandM rows apart), laid out so that reading it in D's
  // contiguous order is a run of 16-byte vectors.
  static constexpr int kBandM = kBM / (Config::kThreadM / 4);
  static constexpr bool kRowMajorC = Config::LayoutC::kIsRowMajor;
  static constexpr int kStageCStride = kRowMajorC ? kBN + 4 : kBandM + 4;
  static constexpr int kStageCFloats = kRowMajorC ? kBandM * kStageCStride : kBN * kStageCStride;

  struct StagesA : smem::Buffer<2 * LoaderA::kStageFloats * 4> {
    static constexpr const char* kName = "A stages";
  };
  struct StagesB : smem::Buffer<2 * LoaderB::kStageFloats * 4> {
    static constexpr const char* kName = "B stages";
  };
  struct StagingC : smem::Buffer<kStageCFloats * 4> {
    static constexpr const char* kName = "C staging";
  };
  using Outline = smem::Seq<
      smem::Step<smem::Overwrite<StagesA, StagesB>>,  // the prologue fills stage 0
      smem::Loop<smem::Step<smem::Read<StagesA, StagesB>, smem::Write<StagesA, StagesB>>>,
      smem::Loop<smem::Step<smem::Overwrite<StagingC>>,  // one band of rows per pass
                 smem::Step<smem::Read<StagingC>>>>;
  using Plan = smem::Plan<smem::Buffers<StagesA, StagesB, StagingC>, Outline>;
  static_assert(sizeof(smem::AssertFits<typename Config::Arch, Plan>) > 0, "");
};

}  // namespace tessera::gemm
