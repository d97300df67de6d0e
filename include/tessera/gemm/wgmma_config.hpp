// WgmmaConfig: every compile-time choice of the Hopper tensor-core GEMM (TMA + wgmma,
// warp-specialised, persistent), checked once with messages a person can act on.
//
//   using Config = tessera::gemm::WgmmaConfig<bfloat16_t, RowMajor,      // A
//                                             bfloat16_t, ColumnMajor,   // B
//                                             bfloat16_t, RowMajor>;     // C and D
//   tessera::gemm::Gemm<Config>::run(args, nullptr, stream);           // wgmma_gemm.hpp
//
// Host-includable (no CUDA needed): the shared-memory plan and print_plans use it.
#pragma once
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/fma_config.hpp"  // is_matrix_layout
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/layout/sm90_tile.hpp"
#include "tessera/memory/smem_plan.hpp"
#include "tessera/mma/wgmma_atom.hpp"
#include "tessera/schedule/sm90.hpp"

namespace tessera::gemm {

// The family tag: Gemm<WgmmaConfig<...>> launches through KernelLauncher<WgmmaFamily, Config>
// (tessera/gemm/wgmma_gemm.hpp).
struct WgmmaFamily {};

// CTAs of one thread-block cluster: kM along M (they share B tiles), kN along N (they
// share A tiles). The shared tile is loaded once, a slice by each CTA, and multicast.
template <int M, int N>
struct ClusterShape {
  static constexpr int kM = M, kN = N, kSize = M * N;
};

template <class T>
constexpr bool is_wgmma_operand = std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;
template <class T>
constexpr bool is_wgmma_output = is_wgmma_operand<T> || std::is_same_v<T, float>;

namespace detail {
// Full and empty barrier per stage, and one spare pair.
constexpr int wgmma_barrier_bytes(int stages) { return 2 * stages * 8 + 16; }

// Stages that fit beside the rest of the plan (at most 8), for kStages = 0. (Arch: the
// Blackwell family plans against Sm100's shared memory.)
template <int kStageBytes, int kOtherBytes, class Arch = Sm90>
constexpr int stages_that_fit() {
  const int room = int(Arch::kSmemBytesPerBlock) - kOtherBytes;
  const int stages = room / kStageBytes;
  return stages > 8 ? 8 : stages;
}
}  // namespace detail

namespace detail {
// The shared memory of the generic path (sm90_producer_generic.hpp), which the Hopper and the
// Blackwell families share: operands TMA cannot describe arrive as raw lines, the
// 16-byte-aligned hull of each line of a K tile (a row of a K-major operand, one k of an
// MN-major one), copied word by word into a ring of raw slots; the producer then realigns
// them into the same swizzled stages (TileA, TileB). No epilogue staging (the generic
// epilogue stores directly). A configuration derives from it: GenericProducer<Config> and the
// kernels read these members. kOtherBarrierBytes: what else the family keeps beside the
// ring's barriers (Blackwell: its accumulator barriers and the TMEM base address).
template <class TileA, class TileB, int kBlockM, int kBlockN, int kBlockK, bool kKMajorA, bool kKMajorB, class Arch,
          int kOtherBarrierBytes = 0>
struct GenericPathPlan {
  static constexpr int kRawLinesA = kKMajorA ? kBlockM : kBlockK;
  static constexpr int kRawPitchA = (kKMajorA ? kBlockK : kBlockM) * 2 + 16;
  static constexpr int kRawLinesB = kKMajorB ? kBlockN : kBlockK;
  static constexpr int kRawPitchB = (kKMajorB ? kBlockK : kBlockN) * 2 + 16;
  static constexpr int kRawSlotBytes = kRawLinesA * kRawPitchA + kRawLinesB * kRawPitchB;
  static constexpr int kGenericStages = 2;
  static constexpr int kRawSlots =
      2 * (TileA::kBytes + TileB::kBytes) + 2 * kRawSlotBytes + 128 <= int(Arch::kSmemBytesPerBlock) ? 2 : 1;
  struct GenericStagesA : smem::Buffer<std::size_t(kGenericStages) * TileA::kBytes, 1024> {
    static constexpr const char* kName = "A stages";
  };
  struct GenericStagesB : smem::Buffer<std::size_t(kGenericStages) * TileB::kBytes, 1024> {
    static constexpr const char* kName = "B stages";
  };
  struct RawSlots : smem::Buffer<std::size_t(kRawSlots) * kRawSlotBytes, 16> {
    static constexpr const char* kName = "raw line slots";
  };
  struct GenericBarriers : smem::Buffer<(2 * kGenericStages + kRawSlots) * 8 + kOtherBarrierBytes, 16> {
    static constexpr const char* kName = "barriers";
  };
  using GenericPlan =
      smem::Plan<smem::Buffers<GenericStagesA, GenericStagesB, RawSlots, GenericBarriers>,
                 smem::Seq<smem::Step<smem::Overwrite<GenericBarriers>>,
                           smem::Loop<smem::Parallel<
                               smem::Loop<smem::Step<smem::Read<GenericBarriers, RawSlots>,
                                                     smem::Write<RawSlots, GenericStagesA, GenericStagesB>>>,
                               smem::Loop<smem::Step<smem::Read<GenericBarriers, GenericStagesA,
                                                                GenericStagesB>>>>>>>;
};
}  // namespace detail

template <class ElementA_, class LayoutA_, class ElementB_, class LayoutB_, class ElementC_, class LayoutC_,
          class TileShape_ = GemmShape<128, 256, 64>, class Schedule_ = schedule::AutoSm90,
          class ClusterShape_ = ClusterShape<1, 1>, int kStages_ = 0>
struct WgmmaConfig
    : detail::GenericPathPlan<Sw128OperandTile<TileShape_::kM, TileShape_::kK, 2, LayoutA_::kIsRowMajor>,
                              Sw128OperandTile<TileShape_::kN, TileShape_::kK, 2, !LayoutB_::kIsRowMajor>,
                              TileShape_::kM, TileShape_::kN, TileShape_::kK, LayoutA_::kIsRowMajor,
                              !LayoutB_::kIsRowMajor, Sm90> {
  using Family = WgmmaFamily;
  using Arch = Sm90;
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using ElementC = ElementC_;  // C and D share a type and a layout
  using ElementAccumulator = float;
  using LayoutA = LayoutA_;
  using LayoutB = LayoutB_;
  using LayoutC = LayoutC_;
  using TileShape = TileShape_;
  using Cluster = ClusterShape_;
  static constexpr int kBlockM = TileShape::kM;
  static constexpr int kBlockN = TileShape::kN;
  static constexpr int kBlockK = TileShape::kK;
  using Schedule = schedule::ResolveSm90Schedule<Schedule_, kBlockM, kBlockN>;
  static constexpr bool kPingpong = Schedule::kPingpong;

  // A is K-major when row-major; B (K x N) is K-major when column-major.
  static constexpr bool kKMajorA = LayoutA::kIsRowMajor;
  static constexpr bool kKMajorB = !LayoutB::kIsRowMajor;
  static constexpr int kElementBytes = 2;
  static constexpr int kOutputBytes = int(sizeof(ElementC));

  // Warpgroups: one producer, two consumers.
  static constexpr int kThreads = 3 * 128;
  static constexpr int kWarpgroupRows = Schedule::template kWarpgroupRows<kBlockM>;
  static constexpr int kWgmmaRowBlocks = kWarpgroupRows / 64;  // m64 blocks per warpgroup
  using Atom = mma::WgmmaAtom<(kBlockN <= 256 ? kBlockN : 256)>;
  static constexpr int kAccumulators = kWgmmaRowBlocks * Atom::kAccumulators;  // per consumer thread

  static_assert(is_wgmma_operand<ElementA> && std::is_same_v<ElementA, ElementB>,
                "Tessera WgmmaConfig: A and B must both be half_t or both bfloat16_t");
  static_assert(is_wgmma_output<ElementC>, "Tessera WgmmaConfig: C/D must be float, half_t or bfloat16_t");
  static_assert(is_matrix_layout<LayoutA> && is_matrix_layout<LayoutB> && is_matrix_layout<LayoutC>,
                "Tessera WgmmaConfig: layouts must be tessera::RowMajor or tessera::ColumnMajor");
  static_assert(kBlockK == 64,
                "Tessera WgmmaConfig: the K tile must be 64 (one 128-byte swizzled line of 16-bit "
                "elements per row, what TMA and wgmma exchange)");
  static_assert(kBlockN == 64 || kBlockN == 128 || kBlockN == 192 || kBlockN == 256,
                "Tessera WgmmaConfig: the N tile must be 64, 128, 192 or 256 (one wgmma m64nNk16 spans it)");
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
  static_assert(Cluster::kM >= 1 && Cluster::kN >= 1 && Cluster::kSize <= 4,
                "Tessera WgmmaConfig: clusters of 1 to 4 CTAs (e.g. 1x1, 2x1, 1x2, 2x2) are supported");
  // A multicast operand is split between the CTAs that share it: each loads a slice.
  static constexpr int kSliceRowsA = kBlockM / Cluster::kN;
  static constexpr int kSliceRowsB = kBlockN / Cluster::kM;
  static_assert(kSliceRowsA % (kKMajorA ? 8 : 64) == 0 && kSliceRowsB % (kKMajorB ? 8 : 64) == 0,
                "Tessera WgmmaConfig: the cluster splits a shared tile into slices that are not whole "
                "swizzle atoms (8 rows K-major, 64 columns MN-major): use a smaller cluster or a larger tile");

  // ---- shared memory -------------------------------------------------------------------
  using TileA = Sw128OperandTile<kBlockM, kBlockK, kElementBytes, kKMajorA>;
  using TileB = Sw128OperandTile<kBlockN, kBlockK, kElementBytes, kKMajorB>;
  static constexpr int kStageBytes = TileA::kBytes + TileB::kBytes;
  // Epilogue staging: per consumer warpgroup two boxes of 64 lines x 128 bytes (a row of
  // a row-major D or a column of a column-major one), one being filled while the TMA
  // store of the other drains.
  static constexpr int kStagingBoxBytes = 64 * 128;
  static constexpr int kStagingBytes = 2 * 2 * kStagingBoxBytes;
  static constexpr int kStages =
      kStages_ > 0 ? kStages_
                   : detail::stages_that_fit<kStageBytes, kStagingBytes + detail::wgmma_barrier_bytes(8)>();
  static_assert(kStages >= 2, "Tessera WgmmaConfig: the pipeline needs at least 2 stages");

  struct StagesA : smem::Buffer<std::size_t(kStages) * TileA::kBytes, 1024> {
    static constexpr const char* kName = "A stages";
  };
  struct StagesB : smem::Buffer<std::size_t(kStages) * TileB::kBytes, 1024> {
    static constexpr const char* kName = "B stages";
  };
  struct Staging : smem::Buffer<kStagingBytes, 1024> {
    static constexpr const char* kName = "D staging";
  };
  struct Barriers : smem::Buffer<detail::wgmma_barrier_bytes(kStages), 16> {
    static constexpr const char* kName = "barriers";
  };
  // Persistent and warp-specialised: the producer refills stages while the consumers
  // stage the previous tile's output, so nothing may share bytes.
  using Producer = smem::Loop<smem::Step<smem::Read<Barriers>, smem::Write<StagesA, StagesB>>>;
  using Consumer = smem::Seq<smem::Loop<smem::Step<smem::Read<Barriers, StagesA, StagesB>>>,
                             smem::Step<smem::Overwrite<Staging>>, smem::Step<smem::Read<Staging>>>;
  using Plan = smem::Plan<smem::Buffers<StagesA, StagesB, Staging, Barriers>,
                          smem::Seq<smem::Step<smem::Overwrite<Barriers>>,
                                    smem::Loop<smem::Parallel<Producer, Consumer>>>>;
  static_assert(sizeof(smem::AssertFits<Arch, Plan>) > 0, "");
  // The generic path's shared memory: detail::GenericPathPlan, the base.
  static_assert(sizeof(smem::AssertFits<Arch, typename WgmmaConfig::GenericPlan>) > 0, "");
};

}  // namespace tessera::gemm
