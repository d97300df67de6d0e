// ClusterSplitK<Tile, kSplits>: the Hopper tensor-core GEMM with K split across the CTAs of a
// thread-block cluster (scheduler::StreamK<scheduler::reduce::ClusterShared>, scheduler/stream_k.hpp), for problems with too
// few output tiles to fill the GPU: deep K (512 x 512 x 16384) and, computed transposed, small
// M (decode: gemm/select/small_m.hpp). Tile is a WgmmaConfig that gives the element types, layouts,
// tile, epilogue and output element; its Cooperative schedule's two consumer warpgroups each
// run half the tile's rows over this CTA's K slice, then the cluster sums its partial tiles
// through distributed shared memory and each CTA stores its share of D
// (wgmma/cluster_split_kernel.hpp). An fp8 tile (A row-major, B column-major) brings its scale
// mode, applied in the main loop as the wgmma kernel applies it, and its epilogue (D's scale and
// amax): the decode shapes' K split (gemm/select/small_m.hpp, WgmmaFp8SmallM).
//
//   using Tile = WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor,
//                            option::Tile<GemmShape<128, 128, 64>>>;
//   Gemm<ClusterSplitK<Tile>>::run(args);      // the split chosen per call (kSplits = 0)
//   Gemm<ClusterSplitK<Tile, 4>>::run(args);   // always clusters of 4 (fewer if K is shallower)
//
// TMA loads only: A or B that TMA cannot describe (tma.hpp: 16-byte aligned base, pitch and
// contiguous extent) is copied into the caller's workspace first (wgmma/cluster_split.hpp); other
// calls need no workspace. C and D may be anything (ordinary loads and stores). Host-includable
// (the plan and print_plans use it).
#pragma once
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/wgmma/cluster_sum_inbox.hpp"
#include "tessera/gemm/wgmma/config.hpp"

namespace tessera::gemm {

// The family tag: Gemm<ClusterSplitK<...>> launches through KernelLauncher<ClusterSplitFamily,
// Config> (tessera/gemm/wgmma/cluster_split.hpp).
struct ClusterSplitFamily {};

namespace detail {
// Stages that fit beside the barriers and `reserved` bytes (the cluster sum's inbox), at most
// kMax: more than the deepest K slice buys nothing.
template <int kStageBytes, class Arch, int kReserved, int kMax = 16>
constexpr int split_stages_that_fit() {
  const int room = int(Arch::kSmemBytesPerBlock) - 2 * kMax * 8 - 16 - kReserved;
  const int stages = room / kStageBytes;
  return stages > kMax ? kMax : stages;
}

}  // namespace detail

template <class Tile_, int kSplits_ = 0>
struct ClusterSplitK {
  using Family = ClusterSplitFamily;
  using Tile = Tile_;
  using Arch = Sm90;
  using ElementA = typename Tile::ElementA;
  using ElementB = typename Tile::ElementB;
  using ElementC = typename Tile::ElementC;
  using ElementD = typename Tile::ElementD;
  using ElementAccumulator = float;
  using LayoutA = typename Tile::LayoutA;
  using LayoutB = typename Tile::LayoutB;
  using LayoutC = typename Tile::LayoutC;
  using Epilogue = typename Tile::Epilogue;
  // fp8 operands: the tile's scale mode, applied in the main loop (wgmma/fp8_mainloop.hpp).
  static constexpr bool kFp8 = Tile::kFp8;
  using Scales = typename Tile::Scales;
  using Scheduler = scheduler::StreamK<scheduler::reduce::ClusterShared>;
  using TileShape = typename Tile::TileShape;
  using Cluster = ClusterShape<1, 1>;  // operand tiles are not shared: the cluster splits K
  static constexpr int kBlockM = Tile::kBlockM;
  static constexpr int kBlockN = Tile::kBlockN;
  static constexpr int kBlockK = Tile::kBlockK;
  static constexpr bool kKMajorA = Tile::kKMajorA;
  static constexpr bool kKMajorB = Tile::kKMajorB;
  static constexpr bool kPingpong = false;
  static constexpr bool kDependentLaunch = Tile::kDependentLaunch;  // option::DependentLaunch on the tile
  static constexpr int kThreads = Tile::kThreads;
  static constexpr int kWarpgroupRows = Tile::kWarpgroupRows;
  static constexpr int kWgmmaRowBlocks = Tile::kWgmmaRowBlocks;
  static constexpr int kAccumulators = Tile::kAccumulators;  // per consumer thread
  // 0: chosen per call (choose_cluster_splits); else at most this many CTAs per cluster.
  static constexpr int kSplits = kSplits_;

  using Operands = typename Tile::RealigningOperands;  // one CTA's tiles, no multicast
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  static constexpr int kSliceRowsA = kBlockM;
  static constexpr int kSliceRowsB = kBlockN;
  static constexpr int kStageBytes = Operands::kStageBytes;
  // The cluster sum's inbox: the parts of this CTA's share of the tile that the other CTAs
  // push (fp32), in shared memory of its own (a peer may push while the stages are in use).
  // 8 consumer warps, each thread's accumulators in float4 groups (cluster_sum_inbox.hpp).
  static constexpr int kInboxBytes = ClusterSumInbox::max_bytes(8 * (kAccumulators / 4), kMaxClusterSplits);
  static constexpr int kStages = detail::split_stages_that_fit<kStageBytes, Arch, kInboxBytes>();
  static constexpr int kStagingBytes = 0;  // D is stored from registers: no staging

  static_assert(!Tile::kPingpong,
                "Tessera ClusterSplitK: the tile configuration must use the Cooperative schedule (both consumer "
                "warpgroups on one tile, whose partial sums the cluster adds)");
  static_assert(Tile::Cluster::kSize == 1,
                "Tessera ClusterSplitK: the tile configuration must have no cluster of its own (option::Cluster<1, 1>): "
                "the cluster is the K split");
  static_assert(kSplits_ >= 0 && kSplits_ <= kMaxClusterSplits,
                "Tessera ClusterSplitK: the split must be 0 (chosen per call) or 1 to 16 CTAs per cluster");
  static_assert(kStages >= 2, "Tessera ClusterSplitK: the pipeline needs at least 2 stages");
  static_assert(!kFp8 || (kKMajorA && kKMajorB),
                "Tessera ClusterSplitK: fp8 wgmma reads both operands K-major: A row-major, B column-major");

};

}  // namespace tessera::gemm
