// FmaConfig: every compile-time choice of the FMA GEMM, checked once with messages a
// person can act on.
#pragma once
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/config_base.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::gemm {

template <class T>
constexpr bool is_fma_element =
    std::is_same_v<T, float> || std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;

// Defaults per vendor (benchmark/notes/fma.md has the numbers). Hopper: a
// 128x256x16 tile of 256 threads at 16x8 outputs each, which leaves registers free; the
// equally fast 512 threads at 8x8 sat at their 128-register cap and spilled in some
// instantiations. AMD: the tile
// must fit gfx942's 64 KiB of LDS. One block per SM / CU in both: the NVIDIA tile uses
// the register file, the AMD tile's 33 KiB of LDS leave gfx942 no room for a second.
template <class Arch>
using DefaultFmaBlockTile =
    std::conditional_t<is_nvidia<Arch>, GemmShape<128, 256, 16>, GemmShape<128, 128, 8>>;
template <class Arch>
using DefaultFmaThreadTile =
    std::conditional_t<is_nvidia<Arch>, GemmShape<16, 8, 1>, GemmShape<8, 8, 1>>;
template <class Arch>
constexpr int kDefaultFmaMinBlocks = 1;

// The family tag: Gemm<FmaConfig<...>> launches through KernelLauncher<FmaFamily, Config>
// (tessera/gemm/fma/fma.hpp).
struct FmaFamily {};

// Options (options.hpp), each with its default:
//   option::Tile<GemmShape<M, N, K>>   BlockTile: the output tile one block computes and its K step
//                                      (DefaultFmaBlockTile<Arch>)
//   option::ThreadTile<GemmShape<TM, TN, 1>>  the outputs one thread accumulates; each thread owns
//                                      TM/4 x TN/4 sub-blocks of 4x4, spaced evenly over the block
//                                      tile, so that its shared-memory reads are 16-byte vectors and
//                                      neighbouring threads read neighbouring vectors
//                                      (DefaultFmaThreadTile<Arch>)
//   option::Accumulator<T>             float (the only one)
//   option::Stages<N>                  2 (the only one: register double-buffering)
//   option::MinBlocksPerSm<N>          occupancy the register allocation must allow (registers per
//                                      thread are capped at register file / (threads x this); 1)
//   option::OutputElement<T>, option::Epilogue<E>; option::Scheduler<S>: scheduler::StreamK<scheduler::reduce::SecondKernel>
//   (split-K with a workspace when the tiles cannot fill the device, the slices summed by a second
//   kernel; the default) or a problem set's.
template <class Arch_, class ElementA_, class LayoutA_, class ElementB_, class LayoutB_,
          class ElementC_, class LayoutC_, class... Options_>
struct FmaConfig
    : ConfigBase<FmaFamily, Arch_, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_,
                 scheduler::StreamK<scheduler::reduce::SecondKernel>, Options_...> {
  using Base = ConfigBase<FmaFamily, Arch_, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_,
                          scheduler::StreamK<scheduler::reduce::SecondKernel>, Options_...>;
  using Options = typename Base::Options;
  using ElementAccumulator =
      typename Options::template Get<option::kind::Accumulator, option::Accumulator<float>>::type;
  using BlockTile = typename Options::template Get<option::kind::Tile, option::Tile<DefaultFmaBlockTile<Arch_>>>::type;
  using ThreadTile =
      typename Options::template Get<option::kind::ThreadTile, option::ThreadTile<DefaultFmaThreadTile<Arch_>>>::type;
  static constexpr int kStages = Options::template Get<option::kind::Stages, option::Stages<2>>::value;
  // Blocks the compiler must fit on one SM/CU at once (__launch_bounds__): it caps the
  // registers per thread at register file / (threads x this).
  static constexpr int kMinBlocksPerSm =
      Options::template Get<option::kind::MinBlocksPerSm, option::MinBlocksPerSm<kDefaultFmaMinBlocks<Arch_>>>::value;
  TESSERA_CONFIG_REFUSES("FmaConfig", Schedule);
  TESSERA_CONFIG_REFUSES("FmaConfig", Cluster);
  TESSERA_CONFIG_REFUSES("FmaConfig", Instruction);
  TESSERA_CONFIG_REFUSES("FmaConfig", CtaGroup);
  TESSERA_CONFIG_REFUSES("FmaConfig", AccumulatorBuffers);
  TESSERA_CONFIG_REFUSES("FmaConfig", StagingBoxes);
  TESSERA_CONFIG_REFUSES("FmaConfig", Scales);
  TESSERA_CONFIG_REFUSES("FmaConfig", DependentLaunch);

  static constexpr int kBlockM = BlockTile::kM;
  static constexpr int kBlockN = BlockTile::kN;
  static constexpr int kBlockK = BlockTile::kK;
  static constexpr int kThreadM = ThreadTile::kM;
  static constexpr int kThreadN = ThreadTile::kN;
  static constexpr int kThreadsM = kBlockM / kThreadM;
  static constexpr int kThreadsN = kBlockN / kThreadN;
  static constexpr int kThreads = kThreadsM * kThreadsN;

  static_assert(is_fma_element<ElementA_> && is_fma_element<ElementB_> && is_fma_element<ElementC_> &&
                    is_fma_element<typename Base::ElementD>,
                "Tessera FMA GEMM: A, B, C and D must each be float, half_t or bfloat16_t");
  static_assert(std::is_same_v<typename Base::Scheduler, scheduler::StreamK<scheduler::reduce::SecondKernel>> ||
                    takes_problem_set<typename Base::Scheduler>,
                "Tessera FMA GEMM: the FMA family schedules its tiles with "
                "scheduler::StreamK<scheduler::reduce::SecondKernel> (one tile, or one K slice of a tile, per "
                "block, the slices summed by a second kernel), or a batch or groups with "
                "scheduler::StridedBatched / scheduler::Grouped<Layout>; it takes no other scheduler");
  static_assert(std::is_same_v<ElementAccumulator, float>,
                "Tessera FMA GEMM: the accumulator type must be float");
  static_assert(is_matrix_layout<LayoutA_> && is_matrix_layout<LayoutB_> && is_matrix_layout<LayoutC_>,
                "Tessera FMA GEMM: layouts must be tessera::RowMajor or tessera::ColumnMajor");
  static_assert(kStages == 2,
                "Tessera FMA GEMM: the FMA kernel double-buffers through registers (it converts "
                "f16/bf16 to float on the way into shared memory), so kStages must be 2");
  static_assert(ThreadTile::kK == 1, "Tessera FMA GEMM: ThreadTile's K extent must be 1");
  static_assert(kThreadM % 4 == 0 && kThreadN % 4 == 0,
                "Tessera FMA GEMM: ThreadTile M and N must be multiples of 4 (16-byte reads)");
  static_assert(kBlockM % kThreadM == 0 && kBlockN % kThreadN == 0,
                "Tessera FMA GEMM: BlockTile M and N must be multiples of ThreadTile M and N");
  static_assert(kThreads % Arch_::kWarpSize == 0,
                "Tessera FMA GEMM: the thread count (BlockTile / ThreadTile) must be a multiple of "
                "the target's warp/wave size");
  static_assert(kThreads <= Arch_::kMaxThreadsPerBlock,
                "Tessera FMA GEMM: BlockTile / ThreadTile needs more threads than a block may have");
  static_assert(kBlockK % 4 == 0, "Tessera FMA GEMM: BlockTile K must be a multiple of 4");
  static_assert(kBlockM * kBlockK % (4 * kThreads) == 0 && kBlockN * kBlockK % (4 * kThreads) == 0,
                "Tessera FMA GEMM: each operand tile (BlockTile M or N times K) must split into "
                "4-element vectors evenly over the threads");
  static_assert(kThreadM * kThreadN <= 128,
                "Tessera FMA GEMM: more than 128 accumulators per thread would spill registers");
};

}  // namespace tessera::gemm
