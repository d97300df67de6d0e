// The Hopper tensor-core GEMM family: Gemm<WgmmaConfig<...>> (the host API is
// gemm/gemm.hpp's; this file supplies the family's launch, its checks and its path query).
//
//   using Config = tessera::gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor,
//                                             bfloat16_t, RowMajor>;
//   tessera::Status s = tessera::gemm::Gemm<Config>::run(args, nullptr, stream);
//   tessera::gemm::wgmma_path<Config>(args);   // which path these arguments take
//
// Two paths, chosen per call:
//   kTma      every operand TMA can describe (16-byte aligned base; pitch and contiguous
//             extent multiples of 16 bytes): TMA loads, multicast in clusters, TMA stores;
//   kGeneric  anything else (an odd leading dimension, an operand one element off a 16-byte
//             boundary): the same tensor-core main loop fed by realigning ordinary loads,
//             and bounds-checked stores. No alignment is required beyond the element's.
// Compile with nvcc for sm_90a (-gencode=arch=compute_90a,code=sm_90a).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/kernel/wgmma_gemm_kernel.hpp"
#include "tessera/gemm/wgmma_config.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/launch.hpp"

namespace tessera::gemm {

template <class Config>
struct KernelLauncher<WgmmaFamily, Config> {
  using EA = typename Config::ElementA;
  using EC = typename Config::ElementC;
  using Args = Arguments<EA, typename Config::ElementB, EC>;
  using LayoutA = typename Config::LayoutA;
  using LayoutB = typename Config::LayoutB;
  using LayoutC = typename Config::LayoutC;

  // The generic path takes any element-aligned operand.
  static OperandRequirements requirements() { return {}; }

  static Status check(const Args& a) {
    constexpr std::int64_t kLimit = std::int64_t(1) << 31;
    if (a.M >= kLimit || a.N >= kLimit || a.K >= kLimit) return Status::kErrorDimensionTooLarge;
    const auto walk = PersistentTileWalk::make(a.M, a.N, Config::kBlockM, Config::kBlockN, 1, 1, 1);
    if (walk.units() >= kLimit) return Status::kErrorGridTooLarge;
    return Status::kSuccess;
  }

  static std::size_t workspace_size(const Args&, const DeviceInfo&) { return 0; }

  // kTma when TMA can describe A, B, D and (if it is read) C.
  static WgmmaPath path(const Args& a) {
    const bool reads_c = a.beta != 0.0f;
    // Contiguous extents: K of a row-major A, M of a column-major one; N of a row-major B
    // (and D), K of a column-major B (M of a column-major D).
    const std::int64_t contiguous_a = LayoutA::kIsRowMajor ? a.K : a.M;
    const std::int64_t contiguous_b = LayoutB::kIsRowMajor ? a.N : a.K;
    const std::int64_t contiguous_c = LayoutC::kIsRowMajor ? a.N : a.M;
    const bool ok = nvidia::tma_describable(a.A, a.lda, contiguous_a, 2) &&
                    nvidia::tma_describable(a.B, a.ldb, contiguous_b, 2) &&
                    nvidia::tma_describable(a.D, a.ldd, contiguous_c, sizeof(EC)) &&
                    (!reads_c || nvidia::tma_describable(a.C, a.ldc, contiguous_c, sizeof(EC)));
    return ok ? WgmmaPath::kTma : WgmmaPath::kGeneric;
  }

  static Status launch(const Args& a, void*, Stream stream, const DeviceInfo& d) {
    WgmmaParams<Config> p{};
    p.a = a.A;
    p.b = a.B;
    p.c = a.C;
    p.d = a.D;
    p.lda = a.lda;
    p.ldb = a.ldb;
    p.ldc = a.ldc;
    p.ldd = a.ldd;
    p.span_a = matrix_span<LayoutA>(a.M, a.K, a.lda);
    p.span_b = matrix_span<typename Config::LayoutB>(a.K, a.N, a.ldb);
    p.M = a.M;
    p.N = a.N;
    p.K = a.K;
    p.alpha = a.alpha;
    p.beta = a.beta;
    if (path(a) == WgmmaPath::kTma) {
      const Status maps = make_maps(a, p);
      if (!ok(maps)) return maps;
      return launch_path<WgmmaPath::kTma>(p, stream, d);
    }
    return launch_path<WgmmaPath::kGeneric>(p, stream, d);
  }

 private:
  template <WgmmaPath kPath>
  static Status launch_path(WgmmaParams<Config>& p, Stream stream, const DeviceInfo& d) {
    using Kernel = WgmmaGemmKernel<Config, kPath>;
    using Cluster = typename Kernel::Cluster;
    constexpr auto kernel = wgmma_gemm_kernel<Config, kPath>;
    const std::size_t smem = Kernel::Plan::kTotalBytes;
    const Status attr = allow_dynamic_smem<kernel>(smem);
    if (!ok(attr)) return attr;
    int clusters = 0;
    const Status fit = resident_clusters<kPath, Cluster>(d, smem, &clusters);
    if (!ok(fit)) return fit;
    p.walk = PersistentTileWalk::make(p.M, p.N, Config::kBlockM, Config::kBlockN, Cluster::kM, Cluster::kN, 1);
    const std::int64_t units = p.walk.units();
    if (units < clusters) clusters = int(units);
    p.walk.clusters = clusters;
    LaunchShape shape;
    shape.grid_x = unsigned(clusters * Cluster::kSize);
    shape.block_x = Config::kThreads;
    shape.dynamic_smem_bytes = smem;
    shape.cluster_x = Cluster::kSize;
    return launch_kernel(kernel, shape, stream, p);
  }

  // Clusters that are resident at once (one CTA per SM: the plan fills shared memory),
  // asked of the runtime once per configuration, path and device.
  template <WgmmaPath kPath, class Cluster>
  static Status resident_clusters(const DeviceInfo& d, std::size_t smem, int* clusters) {
    if constexpr (Cluster::kSize == 1) {
      *clusters = d.multiprocessors;
      return Status::kSuccess;
    } else {
      static std::atomic<int> cached[64] = {};
      if (d.id >= 0 && d.id < 64 && cached[d.id].load(std::memory_order_relaxed) > 0) {
        *clusters = cached[d.id].load(std::memory_order_relaxed);
        return Status::kSuccess;
      }
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(unsigned(d.multiprocessors / Cluster::kSize * Cluster::kSize));
      config.blockDim = dim3(Config::kThreads);
      config.dynamicSmemBytes = smem;
      cudaLaunchAttribute attribute[1];
      attribute[0].id = cudaLaunchAttributeClusterDimension;
      attribute[0].val.clusterDim.x = Cluster::kSize;
      attribute[0].val.clusterDim.y = 1;
      attribute[0].val.clusterDim.z = 1;
      config.attrs = attribute;
      config.numAttrs = 1;
      int n = 0;
      TESSERA_RETURN_IF_CUDA_ERROR(cudaOccupancyMaxActiveClusters(&n, wgmma_gemm_kernel<Config, kPath>, &config));
      if (n <= 0) return Status::kErrorOutOfResources;
      if (d.id >= 0 && d.id < 64) cached[d.id].store(n, std::memory_order_relaxed);
      *clusters = n;
      return Status::kSuccess;
    }
  }

  template <class T>
  static constexpr CUtensorMapDataType tma_type() {
    if constexpr (std::is_same_v<T, float>) {
      return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    } else if constexpr (std::is_same_v<T, half_t>) {
      return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    } else {
      return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    }
  }

  // A and B in the boxes the producer asks for (sm90_producer_tma.hpp); D in epilogue
  // boxes of 64 lines x 128 bytes.
  static Status make_maps(const Args& a, WgmmaParams<Config>& p) {
    constexpr auto kSw = CU_TENSOR_MAP_SWIZZLE_128B;
    const CUtensorMapDataType in = tma_type<EA>();
    Status s = Config::kKMajorA
                   ? nvidia::make_tensor_map_2d(&p.map_a, a.A, in, 2, a.K, a.M, a.lda * 2, 64, Config::kSliceRowsA, kSw)
                   : nvidia::make_tensor_map_2d(&p.map_a, a.A, in, 2, a.M, a.K, a.lda * 2, 64, 64, kSw);
    if (!ok(s)) return s;
    s = Config::kKMajorB
            ? nvidia::make_tensor_map_2d(&p.map_b, a.B, in, 2, a.K, a.N, a.ldb * 2, 64, Config::kSliceRowsB, kSw)
            : nvidia::make_tensor_map_2d(&p.map_b, a.B, in, 2, a.N, a.K, a.ldb * 2, 64, 64, kSw);
    if (!ok(s)) return s;
    constexpr std::uint32_t kLine = 128 / sizeof(EC);
    return LayoutC::kIsRowMajor
               ? nvidia::make_tensor_map_2d(&p.map_d, a.D, tma_type<EC>(), sizeof(EC), a.N, a.M, a.ldd * sizeof(EC),
                                            kLine, 64, kSw)
               : nvidia::make_tensor_map_2d(&p.map_d, a.D, tma_type<EC>(), sizeof(EC), a.M, a.N, a.ldd * sizeof(EC),
                                            kLine, 64, kSw);
  }
};

// Which path Gemm<Config>::run takes for these arguments (tma: TMA loads and stores;
// generic: realigning loads and direct stores, for pointers or pitches TMA cannot take).
template <class Config>
WgmmaPath wgmma_path(const Arguments<typename Config::ElementA, typename Config::ElementB,
                                     typename Config::ElementC>& a) {
  return KernelLauncher<WgmmaFamily, Config>::path(a);
}

}  // namespace tessera::gemm
