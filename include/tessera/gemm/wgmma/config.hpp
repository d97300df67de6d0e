// WgmmaConfig: every compile-time choice of the Hopper tensor-core GEMM (TMA + wgmma,
// warp-specialised, persistent), checked once with messages a person can act on.
//
//   using Config = tessera::gemm::WgmmaConfig<bfloat16_t, RowMajor,      // A
//                                             bfloat16_t, ColumnMajor,   // B
//                                             bfloat16_t, RowMajor>;     // C and D
//   tessera::gemm::Gemm<Config>::run(args, nullptr, stream);           // wgmma/wgmma.hpp
//
// fp8 A and B (float8_e4m3_t, float8_e5m2_t, any pairing; both K-major: A row-major, B
// column-major) take a scale mode (option::Scales<...>, gemm/scale_mode.hpp); their epilogue
// wraps the configuration's in the scales, D's scale and amax (Fp8Scaling,
// gemm/epilogue/fp8_scaling.hpp). Every scheduler of the 16-bit operands takes them (one GEMM,
// stream-K, a batch, groups):
//
//   using Fp8 = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
//                           option::Tile<GemmShape<128, 128, 128>>, option::Scales<scale::Blockwise>>;
//
// Host-includable (no CUDA needed): the shared-memory plan (wgmma/smem_plan.hpp) and
// print_plans use it.
#pragma once
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/tma/cluster.hpp"
#include "tessera/gemm/tma/config_rules.hpp"
#include "tessera/gemm/tma/operand_tiles.hpp"
#include "tessera/gemm/wgmma/scale_stages.hpp"
#include "tessera/gemm/config_base.hpp"
#include "tessera/gemm/epilogue/fp8_scaling.hpp"
#include "tessera/gemm/scale_mode.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/mma/wgmma_atom.hpp"
#include "tessera/schedule/sm90.hpp"

namespace tessera::gemm {

// The family tag: Gemm<WgmmaConfig<...>> launches through KernelLauncher<WgmmaFamily, Config>
// (tessera/gemm/wgmma/wgmma.hpp).
struct WgmmaFamily {};

namespace detail {
// Full and empty barrier per stage, and one spare pair.
constexpr int wgmma_barrier_bytes(int stages) { return 2 * stages * 8 + 16; }
// The epilogue's C barriers: a full and an empty one per staging box of each consumer
// warpgroup (C loaded into the staging boxes with TMA, wgmma/epilogue.hpp).
constexpr int wgmma_c_barrier_bytes(int boxes_per_warpgroup) { return 2 * 2 * boxes_per_warpgroup * 8; }

}  // namespace detail

// Options (options.hpp), each with its default:
//   option::Tile<GemmShape<M, N, K>>   the CTA's output tile and K step (GemmShape<128, 256, 64>)
//   option::Schedule<S>                schedule::Cooperative, Pingpong or AutoSm90 (chosen by the tile)
//   option::Cluster<M, N>              CTAs sharing operand tiles by multicast (1 x 1)
//   option::Stages<N>                  pipeline stages (0: as many as fit)
//   option::StagingBoxes<N>            epilogue staging boxes per consumer warpgroup (2)
//   option::Scales<M>                  fp8 operands: scale::PerTensor (the default), PerRowColumn,
//                                      Blockwise, Fast<PerTensor or PerRowColumn>
//   option::OutputElement<T>, option::Epilogue<E>, option::Scheduler<S> (scheduler::DataParallel,
//   persistent over the tiles; or scheduler::StreamK<>, gemm/scheduler/stream_k.hpp).
// The shared memory is planned in wgmma/smem_plan.hpp.
template <class ElementA_, class LayoutA_, class ElementB_, class LayoutB_, class ElementC_, class LayoutC_,
          class... Options_>
struct WgmmaConfig
    : ConfigBase<WgmmaFamily, Sm90, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_, scheduler::DataParallel,
                 Options_...> {
  using Base = ConfigBase<WgmmaFamily, Sm90, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_,
                          scheduler::DataParallel, Options_...>;
  using Options = typename Base::Options;
  // fp8 operands: scaled per the scale mode, their epilogue the fp8 one.
  static constexpr bool kFp8 = is_ocp_float8<ElementA_>;
  using Scales = typename Options::template Get<option::kind::Scales, option::Scales<scale::PerTensor>>::type;
  // fp8: the scales, then the configuration's epilogue (LinearCombination unless given), then
  // D's scale and amax (epilogue/fp8_scaling.hpp).
  using Epilogue = std::conditional_t<kFp8, Fp8Scaling<Scales, typename Base::ElementD, typename Base::Options::Epilogue>,
                                      typename Base::Options::Epilogue>;
  using TileShape = typename Options::template Get<option::kind::Tile, option::Tile<GemmShape<128, 256, 64>>>::type;
  using ClusterOption = typename Options::template Get<option::kind::Cluster, option::Cluster<1, 1>>;
  using Cluster = ClusterShape<ClusterOption::kM, ClusterOption::kN>;
  TESSERA_CONFIG_REFUSES("WgmmaConfig", Instruction);
  TESSERA_CONFIG_REFUSES("WgmmaConfig", ThreadTile);
  TESSERA_CONFIG_REFUSES("WgmmaConfig", Accumulator);
  TESSERA_CONFIG_REFUSES("WgmmaConfig", MinBlocksPerSm);
  TESSERA_CONFIG_REFUSES("WgmmaConfig", CtaGroup);
  TESSERA_CONFIG_REFUSES("WgmmaConfig", AccumulatorBuffers);
  static constexpr int kBlockM = TileShape::kM;
  static constexpr int kBlockN = TileShape::kN;
  static constexpr int kBlockK = TileShape::kK;
  using Schedule = schedule::ResolveSm90Schedule<
      typename Options::template Get<option::kind::Schedule, option::Schedule<schedule::AutoSm90>>::type, kBlockM,
      kBlockN>;
  static constexpr bool kPingpong = Schedule::kPingpong;
  // option::DependentLaunch: launched with programmatic stream serialization, the kernel waits
  // for the previous grid before its first global access (wgmma/kernel.hpp).
  static constexpr bool kDependentLaunch = Options::kDependentLaunch;

  // A is K-major when row-major; B (K x N) is K-major when column-major.
  static constexpr bool kKMajorA = LayoutA_::kIsRowMajor;
  static constexpr bool kKMajorB = !LayoutB_::kIsRowMajor;

  // Warpgroups: one producer, two consumers.
  static constexpr int kThreads = 3 * 128;
  static constexpr int kWarpgroupRows = Schedule::template kWarpgroupRows<kBlockM>;
  static constexpr int kWgmmaRowBlocks = kWarpgroupRows / 64;  // m64 blocks per warpgroup
  using Atom = mma::WgmmaAtom<(kBlockN <= 256 ? kBlockN : 256)>;
  static constexpr int kAccumulators = kWgmmaRowBlocks * Atom::kAccumulators;  // per consumer thread

  static_assert((is_16bit_mma_operand<ElementA_> && std::is_same_v<ElementA_, ElementB_>) ||
                    (is_ocp_float8<ElementA_> && is_ocp_float8<ElementB_>),
                "Tessera WgmmaConfig: A and B must both be half_t or both bfloat16_t, or each float8_e4m3_t "
                "or float8_e5m2_t");
  static_assert((is_mma_output<ElementC_> || is_ocp_float8<ElementC_>) &&
                    (is_mma_output<typename Base::ElementD> || is_ocp_float8<typename Base::ElementD>),
                "Tessera WgmmaConfig: C and D must each be float, half_t, bfloat16_t, float8_e4m3_t or "
                "float8_e5m2_t");
  static_assert(is_matrix_layout<LayoutA_> && is_matrix_layout<LayoutB_> && is_matrix_layout<LayoutC_>,
                "Tessera WgmmaConfig: layouts must be tessera::RowMajor or tessera::ColumnMajor");
  static_assert(kBlockN == 16 || kBlockN == 32 || kBlockN == 64 || kBlockN == 128 || kBlockN == 192 ||
                    kBlockN == 256,
                "Tessera WgmmaConfig: the N tile must be 16, 32, 64, 128, 192 or 256 (one wgmma m64nNk16 spans it)");
  static_assert(kBlockN >= 64 || kKMajorB,
                "Tessera WgmmaConfig: an N tile below 64 needs a K-major B (column-major): an N-major B tile is "
                "read in 64-element (128-byte) chunks of N");
  static_assert(kBlockM % 64 == 0, "Tessera WgmmaConfig: the M tile must be a multiple of 64 (wgmma's m64)");
  static_assert(!(std::is_same_v<Schedule, schedule::Cooperative> && !(kBlockM == 128 || kBlockM == 256)),
                "Tessera WgmmaConfig: the Cooperative schedule splits the tile's rows between two "
                "warpgroups of at least 64 rows each: the M tile must be 128 or 256");
  static_assert(!(std::is_same_v<Schedule, schedule::Pingpong> && !(kBlockM == 64 || kBlockM == 128)),
                "Tessera WgmmaConfig: the Pingpong schedule gives each warpgroup a whole tile: the M "
                "tile must be 64 or 128");
  static_assert(kAccumulators <= 128,
                "Tessera WgmmaConfig: each consumer thread would hold more than 128 fp32 accumulators "
                "(warpgroup rows x N tile / 128); they would not fit its registers: use a smaller tile");
  // ---- fp8 ------------------------------------------------------------------------------
  static_assert(!(is_ocp_float8<ElementC_> || is_ocp_float8<typename Base::ElementD>) || kFp8,
                "Tessera WgmmaConfig: an fp8 C or D needs fp8 operands (its scale and amax come with them)");
  static_assert(kFp8 || !Base::Options::kScalesGiven,
                "Tessera WgmmaConfig: option::Scales is for fp8 operands only");
  static_assert(Scales::kKind == scale::Kind::kPerTensor || Scales::kKind == scale::Kind::kPerRowColumn ||
                    Scales::kKind == scale::Kind::kBlockwise || Scales::kKind == scale::Kind::kBlockwiseTransposed,
                "Tessera WgmmaConfig: the wgmma family takes the scale modes scale::PerTensor, PerRowColumn and "
                "Blockwise (or Fast<PerTensor or PerRowColumn>), applied to fp8 operands in software; scale::None, "
                "Mx and Nvfp4 are not built for it");
  static_assert(!kFp8 || kBlockK % 32 == 0,
                "Tessera WgmmaConfig: with fp8 operands the K tile must be a multiple of 32 (one wgmma "
                "m64nNk32 step)");
  static_assert(!kFp8 || Scales::kKind != scale::Kind::kBlockwise || scale::kBlock % kBlockK == 0,
                "Tessera WgmmaConfig: block scales need a K tile that divides 128 (each K tile under one A "
                "and one B scale)");
  static_assert(!kFp8 || Scales::kKind != scale::Kind::kBlockwiseTransposed ||
                    (kBlockK == scale::kBlock && kBlockM == scale::kBlock && !kPingpong),
                "Tessera WgmmaConfig: transposed block scales need a 128 x N x 128 Cooperative tile (each tile "
                "under one A scale block per K tile)");
  static_assert(!kFp8 || Scales::kKind != scale::Kind::kBlockwise || kBlockN == 64 || kBlockN == 128,
                "Tessera WgmmaConfig: block scales need an N tile of 64 or 128 (each tile under one B scale "
                "block of 128 columns)");
  static_assert(!kFp8 || !Scales::kPromoted || 2 * kAccumulators <= 192,
                "Tessera WgmmaConfig: promoted fp8 accumulation keeps the K tile's sums beside the fp32 "
                "accumulators, and both would not fit a consumer thread's registers: use at most 64 rows x "
                "192 columns per consumer warpgroup (e.g. 128 x 128 or 128 x 192, Cooperative) or scale::Fast<...>");
  static_assert(!is_ocp_float8<typename Base::ElementD> || kBlockN % 128 == 0,
                "Tessera WgmmaConfig: an fp8 D needs an N tile of 128 or 256 (its epilogue boxes are 128 "
                "one-byte columns wide)");
  static_assert(!is_ocp_float8<typename Base::ElementD> || LayoutC_::kIsRowMajor,
                "Tessera WgmmaConfig: an fp8 D must be row-major (its epilogue stages 64 rows x 128 one-byte "
                "columns)");

  static_assert(in_launch_scheduler<typename Base::Scheduler>,
                "Tessera WgmmaConfig: the wgmma family walks its tiles with scheduler::DataParallel or "
                "scheduler::StreamK<> (gemm/scheduler/stream_k.hpp), or a batch or groups with scheduler::StridedBatched / "
                "scheduler::Grouped<Layout>; it takes no other scheduler yet");

  // ---- what the collectives are given (tma/operand_tiles.hpp) --------------------------------
  // The TMA path: the cluster's multicast slices. The realigning path: one CTA, no cluster.
  using Operands = OperandTiles<ElementA_, ElementB_, kKMajorA, kKMajorB, kBlockM, kBlockN, kBlockK, Cluster>;
  using RealigningOperands = OperandTiles<ElementA_, ElementB_, kKMajorA, kKMajorB, kBlockM, kBlockN, kBlockK>;
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  static constexpr int kSliceRowsA = Operands::kSliceRowsA;
  static constexpr int kSliceRowsB = Operands::kSliceRowsB;
  static constexpr int kStageBytes = Operands::kStageBytes;

  // Epilogue staging: per consumer warpgroup kStagingBoxes boxes of at most 64 lines x 128
  // bytes (a row of a row-major D or a column of a column-major one), one being filled while
  // the TMA stores of the others drain. Where C has D's element size, C is loaded into the
  // same boxes with TMA ahead of the epilogue (wgmma/epilogue.hpp): more boxes let the loads
  // run further ahead (option::StagingBoxes<N>; default 2), at the cost of stages.
  static constexpr int kStagingBoxes = Options::template Get<option::kind::StagingBoxes, option::StagingBoxes<2>>::value;
  static constexpr int kStagingBoxBytes = 64 * 128;
  static constexpr int kStagingBytes = 2 * kStagingBoxes * kStagingBoxBytes;
  static constexpr bool kStagedCPossible = !kFp8 && sizeof(ElementC_) == sizeof(typename Base::ElementD);
  static constexpr int kCBarrierBytes = detail::wgmma_c_barrier_bytes(kStagingBoxes);
  // fp8 block scales: each stage of the TMA path also holds the K tile's scales
  // (wgmma/scale_stages.hpp).
  static constexpr bool kStagedScales = kFp8 && Scales::kKind == scale::Kind::kBlockwise;
  static constexpr int kScaleSlotBytes = kStagedScales ? ScaleSlot<kBlockM>::kBytes : 0;
  static constexpr int kStagesGiven = Options::template Get<option::kind::Stages, option::Stages<0>>::value;
  static constexpr int kStages =
      kStagesGiven > 0 ? kStagesGiven
                   : detail::stages_that_fit<kStageBytes + kScaleSlotBytes,
                                             kStagingBytes + kCBarrierBytes + detail::wgmma_barrier_bytes(8), Sm90>();
  static_assert(kStagingBoxes >= 2 && kStagingBoxes <= 8,
                "Tessera WgmmaConfig: option::StagingBoxes takes 2 to 8 boxes per consumer warpgroup (one is "
                "filled while the others' stores drain)");
  static_assert(kStages >= 2, "Tessera WgmmaConfig: the pipeline needs at least 2 stages");
};

}  // namespace tessera::gemm
