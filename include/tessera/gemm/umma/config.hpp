// UmmaConfig: every compile-time choice of the Blackwell tensor-core GEMM (sm_100a: TMA +
// tcgen05.mma with accumulators in tensor memory, warp-specialised, persistent), checked once
// with messages a person can act on.
//
//   using Config = tessera::gemm::UmmaConfig<bfloat16_t, RowMajor,      // A
//                                            bfloat16_t, ColumnMajor,   // B
//                                            bfloat16_t, RowMajor>;     // C and D
//   tessera::gemm::Gemm<Config>::run(args, nullptr, stream);          // umma/umma.hpp
//
// Low-precision operands run .kind::f8f6f4 (mma/umma_lowp_atom.hpp): fp8 (float8_e4m3_t,
// float8_e5m2_t), fp6 (float6_e2m3x4_t, float6_e3m2x4_t: four values in three bytes) and fp4
// (float4_e2m1x2_t: two a byte), A and B in any mix, K-contiguous (A row-major, B
// column-major), a K tile of 128 values (TileShape GemmShape<128, N, 128>); no operand scales.
// K, lda and ldb count values. fp6 and fp4 operands are loaded only by TMA, which unpacks them
// into the byte-a-value layout the MMA reads: K must be a multiple of 128, A and B 32-byte
// aligned with pitches of a multiple of 32 bytes (the launcher's check() names the problem).
//
// Block scales (option::Scales<scale::Mx> or <scale::Nvfp4>,
// gemm/operand_scales.hpp) run the block-scaled kinds (mma/umma_block_scaled_atom.hpp): MX on
// two fp4 operands .kind::mxf4 (scale_vec::2X; fp4 read packed, a K tile of 256 values), MX on
// any other mix .kind::mxf8f6f4 (scale_vec::1X), NVFP4 (fp4 operands only) .kind::mxf4nvf4
// (scale_vec::4X, K tile 256). The scale tensors are the arguments' (Arguments::epilogue.scales,
// row-major [rows][ceil(K / block)], operand_scales.hpp); they travel global -> shared memory
// with the operand stages (umma/scale_loader.hpp) and on to tensor memory by
// tcgen05.cp (umma/mainloop.hpp), where the TMEM plan puts them beside the accumulators.
//
// Host-includable (no CUDA needed): the plans, the descriptors and print_plans use it.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/nvidia/tcgen05.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/tma/cluster.hpp"
#include "tessera/gemm/tma/config_rules.hpp"
#include "tessera/gemm/tma/operand_tiles.hpp"
#include "tessera/gemm/config_base.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/memory/tmem_plan.hpp"
#include "tessera/mma/umma_atom.hpp"
#include "tessera/mma/umma_block_scaled_atom.hpp"
#include "tessera/mma/umma_lowp_atom.hpp"
#include "tessera/mma/umma_scale_factors.hpp"

namespace tessera::gemm {

// The family tag: Gemm<UmmaConfig<...>> launches through KernelLauncher<UmmaFamily, Config>
// (tessera/gemm/umma/umma.hpp).
struct UmmaFamily {};

// How many CTAs one tcgen05.mma spans.
//   OneCta   cta_group::1: a CTA computes its 128 x N tile alone.
//   CtaPair  cta_group::2: two CTAs of a 2x1 cluster compute a 256 x N tile with one MMA
//            stream issued by the even one (the leader): each CTA loads its own 128 rows of
//            A and half of the B tile, the MMA reads both CTAs' shared memory, and each CTA's
//            tensor memory receives its 128 rows of the result. B is loaded once per pair
//            (half by each), as a 2x1 multicast would, but without a second copy of it.
struct OneCta {
  static constexpr int kCtaGroup = 1;
  static constexpr const char* kName = "one CTA (cta_group::1)";
};
struct CtaPair {
  static constexpr int kCtaGroup = 2;
  static constexpr const char* kName = "CTA pair (cta_group::2)";
};

// The scale factors of A (kWhich 0) or B (1) in tensor memory: one K tile's atoms
// (mma/umma_scale_factors.hpp), kColumns columns x 128 lanes.
template <int kColumns, int kWhich>
struct TmemScaleFactors : tmem::Buffer<std::size_t(kColumns), 16> {
  static constexpr const char* kName = kWhich == 0 ? "A scale factors" : "B scale factors";
};

// One accumulator buffer in tensor memory: kColumns fp32 columns x 128 lanes.
template <int kColumns, int kIndex>
struct TmemAccumulator : tmem::Buffer<std::size_t(kColumns), 16> {
  static constexpr const char* kName = kIndex == 0   ? "accumulator 0"
                                       : kIndex == 1 ? "accumulator 1"
                                       : kIndex == 2 ? "accumulator 2"
                                                     : "accumulator 3";
};

namespace detail {
// Full and empty barrier per stage and per accumulator buffer, and 16 bytes for the TMEM base
// address that tcgen05.alloc writes.
constexpr int umma_barrier_bytes(int stages, int accumulators) { return (2 * stages + 2 * accumulators) * 8 + 16; }

// The accumulators' TMEM plan. Persistent and warp-specialised: the MMA warp fills buffer
// j % n for tile j while the epilogue drains the others, so all of them are live at once.
// With block scales (Scales: the two TmemScaleFactors buffers) the scale factors live beside
// them: the MMA thread rewrites them every K tile and its MMAs read them.
template <int kColumns, class Indices, class... Scales>
struct AccumulatorPlan;
template <int kColumns, int... kIndex, class... Scales>
struct AccumulatorPlan<kColumns, std::integer_sequence<int, kIndex...>, Scales...> {
  using Accumulators =
      tmem::Parallel<tmem::Seq<tmem::Step<tmem::Overwrite<TmemAccumulator<kColumns, kIndex>>>...>,
                     tmem::Seq<tmem::Step<tmem::Read<TmemAccumulator<kColumns, kIndex>>>...>>;
  using Outline = std::conditional_t<
      sizeof...(Scales) == 0, tmem::Loop<Accumulators>,
      tmem::Loop<tmem::Parallel<Accumulators, tmem::Step<tmem::Overwrite<Scales...>, tmem::Read<Scales...>>>>>;
  using Plan = tmem::Plan<tmem::Buffers<TmemAccumulator<kColumns, kIndex>..., Scales...>, Outline>;
  // The plan's first column of buffer b.
  TESSERA_HOST_DEVICE static constexpr int column(int b) {
    int c = 0;
    ((c = b == kIndex ? Plan::template column<TmemAccumulator<kColumns, kIndex>>() : c), ...);
    return c;
  }
};
}  // namespace detail

// The realigning twin of a configuration (UmmaConfig::RealigningConfig): the configuration itself
// when it is one CTA without a cluster and stages chosen to fit; else the same options on one
// CTA of a kBlockM x kBlockN tile, without a cluster, stages chosen to fit.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class... Options>
struct UmmaConfig;

namespace detail {
template <class... Options>
struct OptionList {};
template <class List, class... Options>
struct DropPlacement {
  using type = List;
};
template <class... Kept, class First, class... Rest>
struct DropPlacement<OptionList<Kept...>, First, Rest...> {
  static constexpr bool kDrop =
      IsOptionOf<First, option::kind::Tile>::value || IsOptionOf<First, option::kind::CtaGroup>::value ||
      IsOptionOf<First, option::kind::Cluster>::value || IsOptionOf<First, option::kind::Stages>::value ||
      IsOptionOf<First, option::kind::AccumulatorBuffers>::value;
  using type = typename DropPlacement<std::conditional_t<kDrop, OptionList<Kept...>, OptionList<Kept..., First>>,
                                      Rest...>::type;
};
template <class Config, class Kept>
struct UmmaWithOptions;
template <class EA, class LA, class EB, class LB, class EC, class LC, class... Options, class... Kept>
struct UmmaWithOptions<UmmaConfig<EA, LA, EB, LB, EC, LC, Options...>, OptionList<Kept...>> {
  using type = UmmaConfig<EA, LA, EB, LB, EC, LC, Kept...>;
};
template <bool kItself, class Config, int kBlockM, int kBlockN, int kBlockK, int kAccumulatorBuffers>
struct UmmaRealigningConfig {
  using type = Config;
};
template <class EA, class LA, class EB, class LB, class EC, class LC, class... Options, int kBlockM, int kBlockN,
          int kBlockK, int kAccumulatorBuffers>
struct UmmaRealigningConfig<false, UmmaConfig<EA, LA, EB, LB, EC, LC, Options...>, kBlockM, kBlockN, kBlockK,
                            kAccumulatorBuffers> {
  using type = typename UmmaWithOptions<
      UmmaConfig<EA, LA, EB, LB, EC, LC>,
      typename DropPlacement<OptionList<option::Tile<GemmShape<kBlockM, kBlockN, kBlockK>>,
                                        option::AccumulatorBuffers<kAccumulatorBuffers>>,
                             Options...>::type>::type;
};
}  // namespace detail

// Options (options.hpp), each with its default:
//   option::Tile<GemmShape<M, N, K>>   the MMA tile (GemmShape<128, 256, 64>; M 256 on a CTA pair)
//   option::CtaGroup<G>                OneCta or CtaPair (OneCta)
//   option::Cluster<M, N>              CTAs sharing operand tiles by multicast (1 x 1)
//   option::AccumulatorBuffers<N>      tensor-memory accumulator buffers (2)
//   option::Stages<N>                  pipeline stages (0: as many as fit)
//   option::Scales<M>                  scale::None, Mx or Nvfp4 (block scales)
//   option::OutputElement<T>, option::Epilogue<E>, option::Scheduler<S> (scheduler::DataParallel,
//   persistent over the tiles; or scheduler::StreamK<>).
// Shared and tensor memory are planned in umma/smem_plan.hpp.
template <class ElementA_, class LayoutA_, class ElementB_, class LayoutB_, class ElementC_, class LayoutC_,
          class... Options_>
struct UmmaConfig
    : ConfigBase<UmmaFamily, Sm100, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_, scheduler::DataParallel,
                 Options_...> {
  using Base = ConfigBase<UmmaFamily, Sm100, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_,
                          scheduler::DataParallel, Options_...>;
  using Options = typename Base::Options;
  using TileShape = typename Options::template Get<option::kind::Tile, option::Tile<GemmShape<128, 256, 64>>>::type;
  using CtaGroup = typename Options::template Get<option::kind::CtaGroup, option::CtaGroup<OneCta>>::type;
  using ClusterOption = typename Options::template Get<option::kind::Cluster, option::Cluster<1, 1>>;
  using ClusterGiven = ClusterShape<ClusterOption::kM, ClusterOption::kN>;
  TESSERA_CONFIG_REFUSES("UmmaConfig", Schedule);
  TESSERA_CONFIG_REFUSES("UmmaConfig", Instruction);
  TESSERA_CONFIG_REFUSES("UmmaConfig", ThreadTile);
  TESSERA_CONFIG_REFUSES("UmmaConfig", Accumulator);
  TESSERA_CONFIG_REFUSES("UmmaConfig", MinBlocksPerSm);
  TESSERA_CONFIG_REFUSES("UmmaConfig", StagingBoxes);
  TESSERA_CONFIG_REFUSES("UmmaConfig", DependentLaunch);
  static constexpr int kCtaGroup = CtaGroup::kCtaGroup;
  static constexpr bool kCtaPair = kCtaGroup == 2;
  // A pair is a 2x1 cluster of its own; a one-CTA MMA may still share tiles by multicast.
  using Cluster = std::conditional_t<kCtaPair, ClusterShape<2, 1>, ClusterGiven>;

  // The MMA tile (M x N of one MMA stream) and each CTA's share of it: 128 rows, all N.
  static constexpr int kMmaM = TileShape::kM;
  static constexpr int kMmaN = TileShape::kN;
  static constexpr int kBlockM = kMmaM / kCtaGroup;
  static constexpr int kBlockN = kMmaN;

  // A is K-major when row-major; B (K x N) is K-major when column-major.
  static constexpr bool kKMajorA = LayoutA_::kIsRowMajor;
  static constexpr bool kKMajorB = !LayoutB_::kIsRowMajor;

  // Roles: warpgroup 0 produces (TMA: one thread; realigning: all 128), warpgroup 1 is the
  // epilogue (warp w reads TMEM lanes 32w..32w+31), warp 8 allocates TMEM and issues the MMAs.
  static constexpr int kThreads = 2 * 128 + 32;
  static constexpr int kEpilogueWarps = 4;
  static constexpr int kAccumulatorBuffers =
      Options::template Get<option::kind::AccumulatorBuffers, option::AccumulatorBuffers<2>>::value;

  // Low-precision operands (fp8, fp6, fp4 in any mix): .kind::f8f6f4 (mma/umma_lowp_atom.hpp);
  // 16-bit ones: .kind::f16.
  static constexpr bool kLowp =
      mma::umma::is_umma_f8f6f4<typename Base::ElementA> && mma::umma::is_umma_f8f6f4<typename Base::ElementB>;
  // fp6 / fp4 operands: packed in global memory, unpacked by TMA to a byte a value in a stage.
  static constexpr bool kSubByteA = mma::umma::is_umma_sub_byte<typename Base::ElementA>;
  static constexpr bool kSubByteB = mma::umma::is_umma_sub_byte<typename Base::ElementB>;
  // ---- block scales ------------------------------------------------------------------------
  using OperandScales =
      typename Options::template Get<option::kind::Scales, option::Scales<scale::None>>::type;
  static constexpr bool kBlockScaled = OperandScales::kBlock;
  static constexpr bool kNvfp4 = std::is_same_v<OperandScales, scale::Nvfp4>;
  static constexpr bool kFp4Operands =
      std::is_same_v<ElementA_, float4_e2m1x2_t> && std::is_same_v<ElementB_, float4_e2m1x2_t>;
  // MX on two fp4 operands: .kind::mxf4 (fp4 packed in the stages); NVFP4: .kind::mxf4nvf4;
  // MX otherwise: .kind::mxf8f6f4.
  static constexpr mma::umma::BlockScaledKind kScaledKind = kNvfp4           ? mma::umma::BlockScaledKind::kMxF4NvF4
                                                            : kFp4Operands ? mma::umma::BlockScaledKind::kMxF4
                                                                           : mma::umma::BlockScaledKind::kMxF8F6F4;
  // The .kind::mxf4 kinds read fp4 packed, two values a byte: inside the kernel (and in its
  // tile grid, tensor maps and stages) K counts bytes, kValuesPerKUnit values each.
  static constexpr bool kPackedFp4 = kBlockScaled && mma::umma::BlockScaled<kScaledKind>::kPackedFp4;
  static constexpr int kValuesPerKUnit = kPackedFp4 ? 2 : 1;
  // The K tile in K units (values; bytes of two fp4 values for the .kind::mxf4 kinds).
  static constexpr int kBlockK = TileShape::kK / kValuesPerKUnit;
  static constexpr int kValuesPerScale = detail::scale_block_values<OperandScales>();
  static constexpr int kScaleBlocksPerTile = kBlockScaled ? TileShape::kK / kValuesPerScale : 4;
  // Configurations whose operands only TMA can bring in (no realigning path; arguments TMA cannot
  // describe are refused by the launcher's check()).
  static constexpr bool kTmaOnly = kSubByteA || kSubByteB || kBlockScaled;
  // With block scales the configuration's epilogue is ScaledOperands around the option's (its
  // Arguments carry the scale tensors, operand_scales.hpp); the scaling itself is the MMA's.
  using Epilogue = std::conditional_t<kBlockScaled, ScaledOperands<OperandScales, typename Base::Epilogue>,
                                      typename Base::Epilogue>;
  static_assert(std::is_same_v<OperandScales, scale::None> || kBlockScaled,
                "Tessera UmmaConfig: the tcgen05 family takes the scale modes scale::None, Mx and Nvfp4 (block scales, "
                "applied by its block-scaled MMA kinds); per-tensor scales are not built for it (fold them into "
                "alpha), PerRowColumn, Blockwise and Fast<...> are the wgmma family's");
  static_assert(!kBlockScaled || kLowp,
                "Tessera UmmaConfig: block scales (scale::Mx, Nvfp4) are for fp8, fp6 and fp4 operands");
  static_assert(!kNvfp4 || kFp4Operands,
                "Tessera UmmaConfig: NVFP4 scales (scale::Nvfp4: ue4m3 per 16 values) are applied by "
                ".kind::mxf4nvf4, whose operands are both fp4 (float4_e2m1x2_t)");
  static_assert(!kBlockScaled || TileShape::kK % (kBlockScaled ? 4 * kValuesPerScale : 1) == 0,
                "Tessera UmmaConfig: with block scales the K tile must hold whole 32-bit words of scale factors "
                "(4 scale blocks a row: 128 values for MX, 64 for NVFP4)");
  static_assert(!kBlockScaled || kCtaPair || std::is_same_v<ClusterGiven, ClusterShape<1, 1>>,
                "Tessera UmmaConfig: block-scaled configurations run on one CTA without a multicast cluster, or on "
                "a CTA pair (the scale loader does not multicast)");
  static_assert((is_16bit_mma_operand<typename Base::ElementA> &&
                 std::is_same_v<typename Base::ElementA, typename Base::ElementB>) ||
                    kLowp,
                "Tessera UmmaConfig: A and B must both be half_t or both bfloat16_t, or both low-precision "
                "(float8_e4m3_t, float8_e5m2_t, float6_e2m3x4_t, float6_e3m2x4_t or float4_e2m1x2_t, in any mix)");
  static_assert(!kLowp || kPackedFp4 || TileShape::kK == 128,
                "Tessera UmmaConfig: fp8, fp6 and fp4 operands need a K tile of 128 values (a byte a value, one "
                "128-byte line a row in a stage; TMA unpacks fp6 / fp4 in boxes of 128 values)");
  static_assert(!kPackedFp4 || TileShape::kK == 256,
                "Tessera UmmaConfig: fp4 operands of the .kind::mxf4 kinds (MX or NVFP4 scales on fp4 x fp4) need a "
                "K tile of 256 values (two a byte, one 128-byte line a row in a stage)");
  static_assert(!kLowp || (kKMajorA && kKMajorB),
                "Tessera UmmaConfig: fp8, fp6 and fp4 operands must be K-contiguous (A row-major, B column-major): "
                "tcgen05 reads them K-major only here");

  // The kind and the instruction descriptor of every tcgen05.mma of this configuration (for
  // the block-scaled kinds, with both scale factor data IDs 0: each K step sets its own).
  static constexpr nvidia::UmmaKind kKind =
      !kBlockScaled ? (kLowp ? nvidia::UmmaKind::kF8F6F4 : nvidia::UmmaKind::kF16)
      : kScaledKind == mma::umma::BlockScaledKind::kMxF8F6F4 ? nvidia::UmmaKind::kMxF8F6F4
      : kScaledKind == mma::umma::BlockScaledKind::kMxF4     ? nvidia::UmmaKind::kMxF4
                                                             : nvidia::UmmaKind::kMxF4NvF4;
  static constexpr auto kInstr = [] {
    if constexpr (kBlockScaled) {
      return mma::umma::block_scaled_descriptor<kScaledKind, ElementA_, ElementB_>(kMmaM, kMmaN);
    } else if constexpr (kLowp) {
      return mma::umma::f8f6f4_f32_descriptor<typename Base::ElementA, typename Base::ElementB>(kMmaM, kMmaN);
    } else {
      return mma::umma::f16_f32_descriptor<ElementA_>(kMmaM, kMmaN,
                                                     kKMajorA ? mma::umma::Major::kK : mma::umma::Major::kMN,
                                                     kKMajorB ? mma::umma::Major::kK : mma::umma::Major::kMN);
    }
  }();
  static constexpr std::uint32_t kIdesc = mma::umma::encode(kInstr);

  static_assert(is_mma_output<ElementC_> && is_mma_output<typename Base::ElementD>,
                "Tessera UmmaConfig: C and D must each be float, half_t or bfloat16_t");
  static_assert(in_launch_scheduler<typename Base::Scheduler>,
                "Tessera UmmaConfig: the tcgen05 family walks its tiles with scheduler::DataParallel or "
                "scheduler::StreamK<> (gemm/scheduler/stream_k.hpp), or a batch or groups with scheduler::StridedBatched / "
                "scheduler::Grouped<Layout>; it takes no other scheduler yet");
  static_assert(!kLowp || std::is_same_v<typename Base::Scheduler, scheduler::DataParallel>,
                "Tessera UmmaConfig: fp8, fp6 and fp4 operands are walked with scheduler::DataParallel only "
                "(stream-K and problem sets are not compiled and checked for them yet)");
  static_assert(is_matrix_layout<LayoutA_> && is_matrix_layout<LayoutB_> && is_matrix_layout<LayoutC_>,
                "Tessera UmmaConfig: layouts must be tessera::RowMajor or tessera::ColumnMajor");
  static_assert(std::is_same_v<CtaGroup, OneCta> || std::is_same_v<CtaGroup, CtaPair>,
                "Tessera UmmaConfig: the CTA group must be tessera::gemm::OneCta or tessera::gemm::CtaPair");
  static_assert(mma::umma::is_f16_shape(kCtaGroup, kMmaM, kMmaN),
                "Tessera UmmaConfig: the MMA tile must be 128 x N on one CTA or 256 x N on a CTA pair, "
                "N a multiple of 16 up to 256 (the tcgen05.mma shapes with one 128-lane accumulator per CTA)");
  static_assert(kBlockN % 64 == 0,
                "Tessera UmmaConfig: the N tile must be 64, 128, 192 or 256 (the epilogue stores "
                "128-byte lines of D)");
  static_assert(!kCtaPair || std::is_same_v<ClusterGiven, ClusterShape<1, 1>>,
                "Tessera UmmaConfig: a CTA pair is its own 2x1 cluster; larger clusters around pairs "
                "are not supported: leave the cluster shape at ClusterShape<1, 1>");
  static_assert(kAccumulatorBuffers >= 1 && kAccumulatorBuffers <= 4,
                "Tessera UmmaConfig: 1 to 4 accumulator buffers (2 lets the epilogue of one tile "
                "overlap the MMAs of the next)");

  // Arrivals that complete a stage's empty barrier: one commit per MMA that read the stage
  // (this CTA's and, in a multicast cluster, its sharers'; a pair's one MMA); and an
  // accumulator buffer's empty barrier: every epilogue warp of the CTAs the MMA wrote.
  static constexpr int kStageReleases = kCtaPair ? 1 : Cluster::kM + Cluster::kN - 1;
  static constexpr int kAccumulatorReleases = kEpilogueWarps * kCtaGroup;

  // ---- what the collectives are given (tma/operand_tiles.hpp) --------------------------------
  // A tile shared by CTAs of a cluster is loaded a slice per CTA: multicast to all of them
  // (one CTA per MMA), or kept where it lands (a pair: each CTA holds its half of B).
  // Low-precision values take a byte each in a stage (fp6 / fp4 unpacked by TMA); TMA's bytes
  // are their global ones.
  // (fp4 read packed: a byte holds a K unit of two values, in the stage as in global memory.)
  static constexpr int kStageBytesA = kLowp ? 1 : int(sizeof(ElementA_));
  static constexpr int kStageBytesB = kLowp ? 1 : int(sizeof(ElementB_));
  static constexpr int kGlobalBitsA = kPackedFp4 ? 8 : value_bits<ElementA_>;
  static constexpr int kGlobalBitsB = kPackedFp4 ? 8 : value_bits<ElementB_>;
  using Operands = OperandTiles<ElementA_, ElementB_, kKMajorA, kKMajorB, kBlockM, kBlockN, kBlockK, Cluster, kCtaPair,
                                kStageBytesA, kStageBytesB, kGlobalBitsA, kGlobalBitsB>;
  // Bits of a value TMA unpacks into a byte of the stage (0: moved as it is), per operand.
  static constexpr int kUnpackBitsA = kSubByteA && !kPackedFp4 ? value_bits<ElementA_> : 0;
  static constexpr int kUnpackBitsB = kSubByteB && !kPackedFp4 ? value_bits<ElementB_> : 0;
  // A stage's scale factors (block scales): A's rows and B's columns (all N: each CTA of a pair
  // reads all of B's) x the K tile's scale blocks, in atoms (mma/umma_scale_factors.hpp).
  using ScaleTileA = mma::umma::ScaleFactorTile<kBlockM, kScaleBlocksPerTile>;
  using ScaleTileB = mma::umma::ScaleFactorTile<kBlockN, kScaleBlocksPerTile>;
  static constexpr int kScaleStageBytes = kBlockScaled ? ScaleTileA::kBytes + ScaleTileB::kBytes : 0;
  // Arrivals that complete a stage's full barrier: the TMA producer's (with the bytes), and
  // with block scales each scale-writing warp's (umma/scale_loader.hpp), of both CTAs of a pair.
  static constexpr int kScaleLoaderWarps = 3;
  static constexpr int kFullArrivals = 1 + (kBlockScaled ? kScaleLoaderWarps * kCtaGroup : 0);
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  static constexpr int kSliceRowsA = Operands::kSliceRowsA;
  static constexpr int kSliceRowsB = Operands::kSliceRowsB;
  static constexpr int kStageRowsB = Operands::kStageRowsB;
  static constexpr int kStageBytes = Operands::kStageBytes;

  // Epilogue staging: per epilogue warp two boxes of 4 KiB (its 32 rows x 128 bytes of a
  // row-major D, or 128/size columns x its 32 rows of a column-major one), one filled while
  // the TMA store of the other drains.
  static constexpr int kStagingBoxBytes = 32 * 128;
  static constexpr int kStagingBytes = kEpilogueWarps * 2 * kStagingBoxBytes;
  static constexpr int kStagesGiven = Options::template Get<option::kind::Stages, option::Stages<0>>::value;
  static constexpr int kStages =
      kStagesGiven > 0 ? kStagesGiven
                   : detail::stages_that_fit<kStageBytes + kScaleStageBytes,
                                             kStagingBytes + detail::umma_barrier_bytes(8, kAccumulatorBuffers), Sm100>();
  static_assert(kStages >= 2, "Tessera UmmaConfig: the pipeline needs at least 2 stages");

  // ---- the realigning path ----------------------------------------------------------------
  // The realigning path runs RealigningConfig, the one-CTA configuration of the same tile without a
  // cluster (for a one-CTA configuration without a cluster, the configuration itself): the
  // realigning producer (tma/realigning_producer.hpp) feeds one CTA per 128 x N tile.
  using RealigningConfig = typename detail::UmmaRealigningConfig<
      !kCtaPair && Cluster::kSize == 1 && !Options::template kGiven<option::kind::Stages>,
      UmmaConfig<ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_, Options_...>, kBlockM, kBlockN,
      TileShape::kK, kAccumulatorBuffers>::type;
};

}  // namespace tessera::gemm
