// The cluster split-K GEMM: Gemm<ClusterSplitK<Tile, kSplits>> (the host API is gemm/gemm.hpp's;
// the configuration is wgmma/cluster_split_config.hpp's). This file supplies the launch: the split
// (CTAs per cluster), the tensor maps of A and B, and a grid of tiles x splits CTAs in clusters
// of `splits`.
//
//   using Tile = WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, option::Tile<GemmShape<128, 128, 64>>>;
//   Gemm<ClusterSplitK<Tile>>::run(args, nullptr, stream);
//   cluster_splits<ClusterSplitK<Tile>>(args, device);  // the split a call takes
//
// The split, per call (kSplits = 0): the most CTAs per cluster (up to 16) such that the tiles
// times the split fit on the SMs in one wave, the clusters of that size are resident at once
// (cudaOccupancyMaxActiveClusters, asked once per device and size), and every K slice is at
// least 16 K tiles deep (scheduler/split_k.hpp); 1 (no cluster) when the tiles alone fill the GPU
// or K is too shallow.
// A configuration with kSplits > 0 takes that split, or less where K is too shallow for it.
//
// A or B that TMA cannot describe (base, pitch or contiguous extent off 16 bytes) is copied
// into the caller's workspace first (workspace_size(args) bytes; tma/packing.hpp's copies, with
// a 128-byte pitch), and the kernel runs on the copies; without a workspace such a call returns
// kErrorWorkspaceNull. Why copies and not a realigning producer: a K-split unit is a short,
// memory-bound slice, and one copy streams the operand at memory speed where a producer
// warpgroup's element loads could not keep up (tma/packing.hpp). D is written with element
// stores, so its alignment never matters.
// Compile with nvcc for sm_90a (-gencode=arch=compute_90a,code=sm_90a).
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/tma/launch.hpp"
#include "tessera/gemm/tma/packing.hpp"
#include "tessera/runtime/device.hpp"

#if defined(TESSERA_CUDA)
#include "tessera/gemm/wgmma/cluster_split_kernel.hpp"
#include "tessera/runtime/device_cache.hpp"
#include "tessera/runtime/launch.hpp"
#endif

namespace tessera::gemm {

namespace detail {
template <class Config>
TileGrid split_tile_grid(const ConfigArguments<Config>& a) {
  return {a.M, a.N, a.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
}

// The split for these arguments on a device of `sms` SMs, given how many clusters of each
// size are resident (resident(s)).
template <class Config, class Resident>
int cluster_splits_for(const ConfigArguments<Config>& a, int sms, Resident&& resident) {
  const TileGrid g = split_tile_grid<Config>(a);
  const std::int64_t tiles = scheduler::DataParallel::units(g);
  const int most = Config::kSplits > 0 ? Config::kSplits : kMaxClusterSplits;
  if (Config::kSplits > 0) {
    // A fixed split: as asked, unless K is shallower than one K tile per slice.
    const int k_tiles = g.k_tiles();
    return k_tiles < most ? (k_tiles > 1 ? k_tiles : 1) : most;
  }
  return choose_cluster_splits(tiles, g.k_tiles(), sms, resident, most);
}

// TMA describes a matrix of `lines` lines of `contiguous` elements `ld` apart (tma.hpp).
template <class Layout, class T>
bool tma_describes(const T* p, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return nvidia::tma_describable(p, ld, Layout::contiguous_extent(rows, cols), std::int64_t(sizeof(T)));
}

// The copies of A and B a call makes (none where TMA describes both, or where the problem is
// empty and reads no operand).
template <class Config>
PackingPlan split_input_plan(const ConfigArguments<Config>& a) {
  if (a.M <= 0 || a.N <= 0 || a.K <= 0) return {};
  return input_packing_plan<typename Config::LayoutA, typename Config::LayoutB, typename Config::LayoutC>(a);
}
}  // namespace detail

// Whether Gemm<ClusterSplitK<...>>::run(args) runs without a workspace: TMA describes A and B as
// they are (else they are copied into the workspace first, and a call without one returns
// kErrorWorkspaceNull).
template <class Config>
bool cluster_split_runs_without_workspace(const ConfigArguments<Config>& a) {
  return detail::split_input_plan<Config>(a).inputs_tma();
}

#if defined(TESSERA_CUDA)

template <class Config>
struct KernelLauncher<ClusterSplitFamily, Config> {
  using Args = ConfigArguments<Config>;
  using Params = TmaGemmParams<Config>;
  static constexpr auto kKernel = wgmma_cluster_split_kernel<Config>;
  using Plan = typename ClusterSplitSmemPlan<Config>::Plan;

  static OperandRequirements requirements() { return {}; }

  // 32-bit extents and tile counts (A or B that TMA cannot describe is copied: launch).
  static Status check(const Args& a) {
    constexpr std::int64_t kLimit = std::int64_t(1) << 31;
    if (a.M >= kLimit || a.N >= kLimit || a.K >= kLimit) return Status::kErrorDimensionTooLarge;
    if (scheduler::DataParallel::units(detail::split_tile_grid<Config>(a)) * kMaxClusterSplits >= kLimit) {
      return Status::kErrorGridTooLarge;
    }
    return Status::kSuccess;
  }

  // The copies of A and B that TMA cannot describe (0: none).
  static std::size_t workspace_size(const Args& a, const DeviceInfo&) { return detail::split_input_plan<Config>(a).bytes; }

  // The split a call takes on the device `d` (CTAs per cluster; 1: no cluster).
  static Status splits(const Args& a, const DeviceInfo& d, int* out) {
    Status s = allow_dynamic_smem<kKernel>(Plan::kTotalBytes);
    if (ok(s)) s = allow_large_clusters(d);
    if (!ok(s)) return s;
    *out = detail::cluster_splits_for<Config>(a, d.multiprocessors, [&](int size) {
      int clusters = 0;
      if (!ok(s)) return 0;
      s = resident_clusters(d, size, &clusters);
      return clusters;
    });
    // The slices the scheduler cuts for that split (fewer where K is shallower): the cluster.
    *out = Config::Scheduler::make(detail::split_tile_grid<Config>(a), *out, a.split).cluster_split();
    return s;
  }

  static Status launch(const Args& given, void* workspace, Stream stream, const DeviceInfo& d) {
    // A and B as the kernel reads them: the caller's, or their copies in the workspace.
    const PackingPlan plan = detail::split_input_plan<Config>(given);
    if (!plan.inputs_tma() && workspace == nullptr) return Status::kErrorWorkspaceNull;
    int split = 1;
    Status s = splits(given, d, &split);
    if (!ok(s)) return s;
    Args a = given;
    unsigned char* space = static_cast<unsigned char*>(workspace);
    s = tma_launch::copy_operand(given.A, given.lda, plan.a, space, stream, a.A, a.lda);
    if (ok(s)) s = tma_launch::copy_operand(given.B, given.ldb, plan.b, space, stream, a.B, a.ldb);
    if (!ok(s)) return s;
    if constexpr (Config::kFp8) TESSERA_RETURN_IF_CUDA_ERROR(Config::Epilogue::clear_amax(a.epilogue, stream));
    Params p{};
    tma_launch::fill<Config>(p, a);
    // K == 0 reads no operand (D = beta C): no tensor map describes an empty K, none is made.
    if (a.K > 0) s = tma_launch::encode<typename Config::ElementA>(&p.map_a, tma_launch::map_a_plan<Config>(a));
    if (ok(s) && a.K > 0) s = tma_launch::encode<typename Config::ElementB>(&p.map_b, tma_launch::map_b_plan<Config>(a));
    if (!ok(s)) return s;
    // Every tile in `split` slices, one CTA each, a tile's CTAs one cluster.
    p.scheduler = Config::Scheduler::make(detail::split_tile_grid<Config>(a), split, a.split);
    LaunchShape shape;
    shape.grid_x = unsigned(p.scheduler.workers);
    shape.block_x = Config::kThreads;
    shape.dynamic_smem_bytes = Plan::kTotalBytes;
    shape.cluster_x = unsigned(split);
    shape.dependent = Config::kDependentLaunch;  // the kernel waits for the previous grid itself
    return launch_kernel(kKernel, shape, stream, p);
  }

 private:
  // Clusters of more than 8 CTAs need the kernel's non-portable cluster-size opt-in, made once
  // per device (its primary context, as the shared-memory opt-in is).
  static Status allow_large_clusters(const DeviceInfo& d) {
    static PerDeviceCache<int> opted;
    int done = 0;
    return opted.get(d.id, &done, [](int, int* made) {
      TESSERA_RETURN_IF_CUDA_ERROR(cudaFuncSetAttribute(kKernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      *made = 1;
      return Status::kSuccess;
    });
  }

  // Clusters of `size` CTAs resident at once, asked once per device and size.
  static Status resident_clusters(const DeviceInfo& d, int size, int* clusters) {
    if (size == 1) {
      *clusters = d.multiprocessors;
      return Status::kSuccess;
    }
    static PerDeviceCache<int> cached[kMaxClusterSplits + 1];
    return cached[size].get(d.id, clusters, [&](int, int* n) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(unsigned(d.multiprocessors / size * size));
      config.blockDim = dim3(unsigned(Config::kThreads));
      config.dynamicSmemBytes = Plan::kTotalBytes;
      cudaLaunchAttribute attribute[1];
      attribute[0].id = cudaLaunchAttributeClusterDimension;
      attribute[0].val.clusterDim.x = unsigned(size);
      attribute[0].val.clusterDim.y = 1;
      attribute[0].val.clusterDim.z = 1;
      config.attrs = attribute;
      config.numAttrs = 1;
      TESSERA_RETURN_IF_CUDA_ERROR(cudaOccupancyMaxActiveClusters(n, kKernel, &config));
      return Status::kSuccess;
    });
  }
};

// The split (CTAs per cluster) Gemm<Config>::run(args) takes on the current device; 0 when the
// device cannot be queried.
template <class Config>
int cluster_splits(const ConfigArguments<Config>& a) {
  DeviceInfo d;
  if (!ok(current_device(&d))) return 0;
  int split = 0;
  return ok(KernelLauncher<ClusterSplitFamily, Config>::splits(a, d, &split)) ? split : 0;
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
