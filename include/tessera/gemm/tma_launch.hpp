// The host side of a launch that the two TMA tensor-core families share (the Hopper wgmma
// family, wgmma_gemm.hpp, and the Blackwell tcgen05 family, umma_gemm.hpp): which path the
// arguments take, the kernel parameters, the operand tensor maps, and the persistent,
// cluster-aware grid. What differs per family (the D tensor map, the kernel) stays there.
// CUDA only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"
#include "tessera/gemm/kernel/copy_lines_kernel.hpp"
#include "tessera/gemm/kernel/tma_gemm_params.hpp"
#include "tessera/gemm/tma_packing.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/device_cache.hpp"
#include "tessera/runtime/launch.hpp"

namespace tessera::gemm::tma_launch {

template <class Config>
using Args = Arguments<typename Config::ElementA, typename Config::ElementB, typename Config::ElementC>;

// The path of a call (tma_packing.hpp): kTma when TMA describes A, B and D as they are,
// else kPacked with a workspace, kGeneric without.
template <class Config>
WgmmaPath path(const Args<Config>& a, bool workspace_given) {
  return choose_path<typename Config::LayoutA, typename Config::LayoutB, typename Config::LayoutC>(a,
                                                                                                   workspace_given);
}

template <class Config>
PackingPlan plan_packing(const Args<Config>& a) {
  return packing_plan<typename Config::LayoutA, typename Config::LayoutB, typename Config::LayoutC>(a);
}

// Every parameter but the tensor maps and the walk.
template <class Config>
void fill(WgmmaParams<Config>& p, const Args<Config>& a) {
  p.a = a.A;
  p.b = a.B;
  p.c = a.C;
  p.d = a.D;
  p.lda = a.lda;
  p.ldb = a.ldb;
  p.ldc = a.ldc;
  p.ldd = a.ldd;
  p.span_a = matrix_span<typename Config::LayoutA>(a.M, a.K, a.lda);
  p.span_b = matrix_span<typename Config::LayoutB>(a.K, a.N, a.ldb);
  p.M = a.M;
  p.N = a.N;
  p.K = a.K;
  p.alpha = a.alpha;
  p.beta = a.beta;
}

template <class T>
constexpr CUtensorMapDataType data_type() {
  if constexpr (std::is_same_v<T, float>) {
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  } else if constexpr (std::is_same_v<T, half_t>) {
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  } else {
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  }
}

// A and B in the boxes the TMA producer asks for (sm90_producer_tma.hpp): {64 K, slice rows}
// K-major, {64 M/N, 64 K} MN-major, 128-byte swizzle.
template <class Config>
Status operand_maps(const Args<Config>& a, WgmmaParams<Config>& p) {
  constexpr auto kSw = CU_TENSOR_MAP_SWIZZLE_128B;
  const CUtensorMapDataType in = data_type<typename Config::ElementA>();
  const Status s =
      Config::kKMajorA
          ? nvidia::make_tensor_map_2d(&p.map_a, a.A, in, 2, a.K, a.M, a.lda * 2, 64, Config::kSliceRowsA, kSw)
          : nvidia::make_tensor_map_2d(&p.map_a, a.A, in, 2, a.M, a.K, a.lda * 2, 64, 64, kSw);
  if (!ok(s)) return s;
  return Config::kKMajorB
             ? nvidia::make_tensor_map_2d(&p.map_b, a.B, in, 2, a.K, a.N, a.ldb * 2, 64, Config::kSliceRowsB, kSw)
             : nvidia::make_tensor_map_2d(&p.map_b, a.B, in, 2, a.N, a.K, a.ldb * 2, 64, 64, kSw);
}

// Clusters that are resident at once (one CTA per SM: the plan fills shared memory), asked
// of the runtime once per kernel and device (runtime/device_cache.hpp: each device its own).
template <auto kKernel, class Cluster>
Status resident_clusters(const DeviceInfo& d, std::size_t smem, int threads, int* clusters) {
  if constexpr (Cluster::kSize == 1) {
    *clusters = d.multiprocessors;
    return Status::kSuccess;
  } else {
    static PerDeviceCache<int> cached;
    return cached.get(d.id, clusters, [&](int, int* n) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(unsigned(d.multiprocessors / Cluster::kSize * Cluster::kSize));
      config.blockDim = dim3(unsigned(threads));
      config.dynamicSmemBytes = smem;
      cudaLaunchAttribute attribute[1];
      attribute[0].id = cudaLaunchAttributeClusterDimension;
      attribute[0].val.clusterDim.x = Cluster::kSize;
      attribute[0].val.clusterDim.y = 1;
      attribute[0].val.clusterDim.z = 1;
      config.attrs = attribute;
      config.numAttrs = 1;
      TESSERA_RETURN_IF_CUDA_ERROR(cudaOccupancyMaxActiveClusters(n, kKernel, &config));
      return *n > 0 ? Status::kSuccess : Status::kErrorOutOfResources;
    });
  }
}

// The persistent launch: as many clusters as are resident (no more than there are cluster
// tiles), each walking its share of the tiles (PersistentTileWalk), kThreads per CTA and
// the plan's shared memory.
template <auto kKernel, class Cluster, int kBlockM, int kBlockN, int kThreads, std::size_t kSmemBytes, class Params>
Status persistent(Params& p, Stream stream, const DeviceInfo& d) {
  const Status attr = allow_dynamic_smem<kKernel>(kSmemBytes);
  if (!ok(attr)) return attr;
  int clusters = 0;
  const Status fit = resident_clusters<kKernel, Cluster>(d, kSmemBytes, kThreads, &clusters);
  if (!ok(fit)) return fit;
  p.walk = PersistentTileWalk::make(p.M, p.N, kBlockM, kBlockN, Cluster::kM, Cluster::kN, 1);
  const std::int64_t units = p.walk.units();
  if (units < clusters) clusters = int(units);
  p.walk.clusters = clusters;
  LaunchShape shape;
  shape.grid_x = unsigned(clusters * Cluster::kSize);
  shape.block_x = kThreads;
  shape.dynamic_smem_bytes = kSmemBytes;
  shape.cluster_x = Cluster::kSize;
  return launch_kernel(kKernel, shape, stream, p);
}

// The KernelLauncher (gemm.hpp) both families share. A family's specialisation derives from
// it and supplies, as public static members, its D tensor map and its persistent launch:
//   static Status make_map_d(const Args&, WgmmaParams<Config>&);
//   template <WgmmaPath kPath> static Status launch_path(WgmmaParams<Config>&, Stream, const DeviceInfo&);
template <class Config, class Family>
struct Launcher {
  using Params = WgmmaParams<Config>;

  // The generic path takes any element-aligned operand.
  static OperandRequirements requirements() { return {}; }

  // The family's refusals: 32-bit extents and tile counts (coordinates are 32-bit in the kernel).
  static Status check(const Args<Config>& a) {
    constexpr std::int64_t kLimit = std::int64_t(1) << 31;
    if (a.M >= kLimit || a.N >= kLimit || a.K >= kLimit) return Status::kErrorDimensionTooLarge;
    const auto walk = PersistentTileWalk::make(a.M, a.N, Config::kBlockM, Config::kBlockN, 1, 1, 1);
    if (walk.units() >= kLimit) return Status::kErrorGridTooLarge;
    return Status::kSuccess;
  }

  // The packed path's copies (tma_packing.hpp); 0 when TMA describes every operand.
  static std::size_t workspace_size(const Args<Config>& a, const DeviceInfo&) { return plan_packing<Config>(a).bytes; }

  static WgmmaPath path(const Args<Config>& a, bool workspace_given) {
    return tma_launch::path<Config>(a, workspace_given);
  }

  static Status launch(const Args<Config>& a, void* workspace, Stream stream, const DeviceInfo& d) {
    Params p{};
    const PackingPlan plan = plan_packing<Config>(a);
    const WgmmaPath chosen = choose_path(plan, workspace != nullptr);
    if (chosen == WgmmaPath::kGeneric) {
      fill(p, a);
      return Family::template launch_path<WgmmaPath::kGeneric>(p, stream, d);
    }
    // kTma, or kPacked (tma_packing.hpp): with a workspace, the TMA kernel on copies of the
    // operands TMA cannot describe (A and B copied on `stream` first, D's copy copied out
    // after); without one (only D misaligned), TMA loads and direct stores of D.
    Args<Config> tma = a;
    unsigned char* space = static_cast<unsigned char*>(workspace);
    if (chosen == WgmmaPath::kPacked && space != nullptr) {
      const Status s = pack_inputs(a, plan, space, stream, tma);
      if (!ok(s)) return s;
    }
    const bool store_direct = plan.d.packed && space == nullptr;
    fill(p, tma);
    Status s = operand_maps(tma, p);
    if (!ok(s)) return s;
    if (store_direct) return Family::template launch_path<WgmmaPath::kPacked>(p, stream, d);
    s = Family::make_map_d(tma, p);
    if (ok(s)) s = Family::template launch_path<WgmmaPath::kTma>(p, stream, d);
    if (ok(s) && plan.d.packed) {
      s = copy_lines(tma.D, tma.ldd, a.D, a.ldd, plan.d.source.lines, plan.d.source.length, plan.d.source.length,
                     stream);
    }
    return s;
  }

 private:
  // Copies A and B where the plan says so and points `tma` (the TMA kernel's arguments) at
  // the copies, and D at its place if it is to be copied out. C stays the caller's.
  static Status pack_inputs(const Args<Config>& a, const PackingPlan& plan, unsigned char* workspace,
                            Stream stream, Args<Config>& tma) {
    Status s = copy_operand(a.A, a.lda, plan.a, workspace, stream, tma.A, tma.lda);
    if (ok(s)) s = copy_operand(a.B, a.ldb, plan.b, workspace, stream, tma.B, tma.ldb);
    if (plan.d.packed) {  // written by the kernel, copied out after it
      tma.D = reinterpret_cast<typename Config::ElementC*>(workspace + plan.d.offset);
      tma.ldd = plan.d.ld;
    }
    return s;
  }

  // One operand into its place in the workspace (zeros in each line's padding); `to` and
  // `to_ld` then name the copy.
  template <class T>
  static Status copy_operand(const T* from, std::int64_t from_ld, const PackedOperand& place,
                             unsigned char* workspace, Stream stream, const T*& to, std::int64_t& to_ld) {
    if (!place.packed) return Status::kSuccess;
    T* copy = reinterpret_cast<T*>(workspace + place.offset);
    to = copy;
    to_ld = place.ld;
    return copy_lines(from, from_ld, copy, place.ld, place.source.lines, place.source.length, place.ld, stream);
  }
};

}  // namespace tessera::gemm::tma_launch
