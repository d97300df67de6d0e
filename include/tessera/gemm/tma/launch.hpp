// The host side of a launch that the two TMA tensor-core families share (the Hopper wgmma
// family, wgmma/wgmma.hpp, and the Blackwell tcgen05 family, umma/umma.hpp): which path the
// arguments take, the kernel parameters, the tensor maps, and the persistent, cluster-aware
// grid. What differs per family (the shape of D's store boxes, the kernel) stays there.
//
// The tensor maps are planned first as plain numbers (TensorMapPlan: extents, pitch, box, in
// the operands' own element sizes), which the host tests check for 1-, 2- and 4-byte
// elements, then encoded (CUDA only).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/scheduler/persistent.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/gemm/tma/packing.hpp"
#include "tessera/gemm/tma/problem_set.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/device_cache.hpp"

#if defined(TESSERA_CUDA)
#include "tessera/gemm/tma/copy_lines_kernel.hpp"
#include "tessera/gemm/tma/params.hpp"
#include "tessera/runtime/launch.hpp"
#endif

namespace tessera::gemm::tma_launch {

template <class Config>
using Args = ConfigArguments<Config>;

// One 2-D tensor map as numbers: a row-major view [outer][inner] of a matrix (inner
// contiguous, pitch_bytes between outer lines), copied in boxes of box_inner x box_outer
// elements of element_bytes each, with or without the 128-byte swizzle. unpack_bits 4 or 6:
// the inner dimension counts packed 4- or 6-bit values, which TMA unpacks 16 at a time into
// 16-byte units of shared memory (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B;
// element_bytes is then the byte a value takes in shared memory).
struct TensorMapPlan {
  const void* base = nullptr;
  int element_bytes = 0;
  std::uint64_t inner = 0, outer = 0, pitch_bytes = 0;
  std::uint32_t box_inner = 0, box_outer = 0;
  bool swizzle_128b = true;
  MapLayers layers{};  // a batch's or group's layers (tma/problem_set.hpp); none: a 2-D map
  int unpack_bits = 0;
};

// An operand tile as the TMA producer asks for it (tma/producer.hpp), in 128-byte
// swizzled boxes: K-major, {K tile, slice rows} (a row of the tile is one 128-byte line);
// MN-major, {one 128-byte line of M/N, K tile}. kUnpackBits 4 or 6 (K-major only): T packs
// several values, K and ld count values, and TMA unpacks them to a byte each (the K tile of
// 128 values is the box's 128-byte line; cuda.h: boxDim[0] must be 128 for these types).
template <bool kKMajor, int kBlockK, int kSliceRows, class T, int kUnpackBits = 0>
TensorMapPlan operand_map_plan(const T* base, std::int64_t outer, std::int64_t K, std::int64_t ld) {
  if constexpr (kUnpackBits > 0) {
    static_assert(kKMajor && kBlockK == 128 && value_bits<T> == kUnpackBits,
                  "Tessera TMA: unpacked operands are K-major, 128 values of K a box");
    const std::uint64_t pitch = std::uint64_t(ld) * std::uint64_t(kUnpackBits) / 8;
    TensorMapPlan plan{base, 1, std::uint64_t(K), std::uint64_t(outer), pitch, std::uint32_t(kBlockK),
                       std::uint32_t(kSliceRows), true};
    plan.unpack_bits = kUnpackBits;
    return plan;
  }
  constexpr std::uint32_t kLine = 128 / sizeof(T);
  const std::uint64_t pitch = std::uint64_t(ld) * sizeof(T);
  if constexpr (kKMajor) {
    return {base, int(sizeof(T)), std::uint64_t(K), std::uint64_t(outer), pitch, std::uint32_t(kBlockK),
            std::uint32_t(kSliceRows), true};
  } else {
    return {base, int(sizeof(T)), std::uint64_t(outer), std::uint64_t(K), pitch, kLine, std::uint32_t(kBlockK),
            true};
  }
}

// What a configuration says about its operands beyond its types (the tcgen05 family's
// low-precision configurations): the bits TMA unpacks per operand (0: none), and whether TMA
// is the only way in (no realigning path, no packed copies of A or B).
template <class C, class = void>
struct OperandLoading {
  static constexpr int kUnpackBitsA = 0, kUnpackBitsB = 0;
  static constexpr bool kTmaOnly = false;
};
template <class C>
struct OperandLoading<C, std::void_t<decltype(C::kTmaOnly)>> {
  static constexpr int kUnpackBitsA = C::kUnpackBitsA, kUnpackBitsB = C::kUnpackBitsB;
  static constexpr bool kTmaOnly = C::kTmaOnly;
};

template <class Config>
TensorMapPlan map_a_plan(const Args<Config>& a) {
  return operand_map_plan<Config::kKMajorA, Config::kBlockK, Config::kSliceRowsA, typename Config::ElementA,
                          OperandLoading<Config>::kUnpackBitsA>(a.A, a.M, a.K, a.lda);
}
template <class Config>
TensorMapPlan map_b_plan(const Args<Config>& a) {
  return operand_map_plan<Config::kKMajorB, Config::kBlockK, Config::kSliceRowsB, typename Config::ElementB,
                          OperandLoading<Config>::kUnpackBitsB>(a.B, a.N, a.K, a.ldb);
}

// The boxes a family's epilogue stores D in: a row-major D in boxes of 128 bytes of a row x
// kRowMajorLines rows (128-byte swizzle), or, with kRowMajorInner > 0, of kRowMajorInner
// elements of a row (unswizzled: an N tile narrower than a 128-byte line); a column-major D in
// boxes of kColumnInner rows x kColumnOuter columns, swizzled or not. A value of 0 for
// kColumnInner means one 128-byte line (128 / element size), as for kColumnOuter.
template <std::uint32_t kRowMajorLines, std::uint32_t kColumnInner, std::uint32_t kColumnOuter, bool kColumnSwizzled,
          std::uint32_t kRowMajorInner = 0>
struct DStoreBoxes {
  template <class LayoutC, class T>
  static TensorMapPlan plan(T* base, std::int64_t M, std::int64_t N, std::int64_t ldd) {
    constexpr std::uint32_t kLine = 128 / sizeof(T);
    const std::uint64_t pitch = std::uint64_t(ldd) * sizeof(T);
    if constexpr (LayoutC::kIsRowMajor) {
      if constexpr (kRowMajorInner > 0 && kRowMajorInner < kLine) {
        return {base, int(sizeof(T)), std::uint64_t(N), std::uint64_t(M), pitch, kRowMajorInner, kRowMajorLines, false};
      }
      return {base, int(sizeof(T)), std::uint64_t(N), std::uint64_t(M), pitch, kLine, kRowMajorLines, true};
    } else {
      return {base,  int(sizeof(T)),
              std::uint64_t(M), std::uint64_t(N),
              pitch, kColumnInner == 0 ? kLine : kColumnInner,
              kColumnOuter == 0 ? kLine : kColumnOuter, kColumnSwizzled};
    }
  }
};

// The path of a call (tma/packing.hpp): kTma when TMA describes A, B and D as they are,
// else kPacked with a workspace, kRealigning without.
template <class Config>
TmaPath path(const Args<Config>& a, bool workspace_given) {
  return choose_path<typename Config::LayoutA, typename Config::LayoutB, typename Config::LayoutC>(a,
                                                                                                 workspace_given);
}

template <class Config>
PackingPlan plan_packing(const Args<Config>& a) {
  return packing_plan<typename Config::LayoutA, typename Config::LayoutB, typename Config::LayoutC>(a);
}

// The problem as the tile scheduler sees it (one CTA's tile, the cluster).
template <class C>
TileGrid tile_grid(const Args<C>& a) {
  return {a.M, a.N, a.K, C::kBlockM, C::kBlockN, C::kBlockK, C::Cluster::kM, C::Cluster::kN};
}

#if defined(TESSERA_CUDA)

template <class T>
constexpr CUtensorMapDataType data_type() {
  if constexpr (std::is_same_v<T, float>) {
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  } else if constexpr (std::is_same_v<T, half_t>) {
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  } else {
    static_assert(sizeof(T) == 1 || values_per_element<T> > 1,
                  "Tessera TMA: no tensor-map data type for this element type");
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;  // 8-bit floats: TMA moves bytes (packed types: see encode)
  }
}

// The map's data type: the element's, or the unpacking type of packed 4- or 6-bit values.
template <class T>
CUtensorMapDataType data_type(const TensorMapPlan& plan) {
  if (plan.unpack_bits == 4) return CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B;
  if (plan.unpack_bits == 6) return CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
  return data_type<T>();
}

template <class T>
Status encode(CUtensorMap* map, const TensorMapPlan& plan) {
  if (plan.layers.layers > 0) {
    return nvidia::make_tensor_map_3d(map, plan.base, data_type<T>(plan), plan.inner, plan.outer, plan.layers.layers,
                                      plan.pitch_bytes, plan.layers.pitch_bytes, plan.box_inner, plan.box_outer,
                                      plan.swizzle_128b ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE);
  }
  return nvidia::make_tensor_map_2d(map, plan.base, data_type<T>(plan), plan.element_bytes, plan.inner, plan.outer,
                                    plan.pitch_bytes, plan.box_inner, plan.box_outer,
                                    plan.swizzle_128b ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE);
}

// Every parameter but the tensor maps and the scheduler.
template <class Config>
void fill(TmaGemmParams<Config>& p, const Args<Config>& a) {
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
  p.epilogue = Config::Epilogue::make(a.epilogue, epilogue_problem(a));
  p.strides = problem_strides<typename Config::Scheduler>(a.problems);
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

// One operand into its place in the workspace (tma/packing.hpp; zeros in each line's padding),
// enqueued on `stream`; `to` and `to_ld` then name the copy. Nothing where the plan uses the
// operand in place.
template <class T>
Status copy_operand(const T* from, std::int64_t from_ld, const PackedOperand& place, unsigned char* workspace,
                    Stream stream, const T*& to, std::int64_t& to_ld) {
  if (!place.packed) return Status::kSuccess;
  T* copy = reinterpret_cast<T*>(workspace + place.offset);
  to = copy;
  to_ld = place.ld;
  return copy_lines(from, from_ld, copy, place.ld, place.source.lines, place.source.length, place.ld, stream);
}

// The persistent launch of configuration C (the configuration a path runs): as many clusters
// as are resident (no more than there are units of work), each walking its units
// (C::Scheduler), C::kThreads per CTA and the plan's shared memory. A scheduler with a fix-up
// (scheduler/stream_k.hpp) gets its part of the workspace, `fixup` (none: it runs data-parallel).
// `problems`: a batch's or group's (problem_set.hpp), for a scheduler that takes them.
template <auto kKernel, class C, class Cluster, std::size_t kSmemBytes, class Params>
Status persistent(Params& p, Stream stream, const DeviceInfo& d, const FixupSpace& fixup = {},
                  const ProblemSet& problems = {}) {
  const Status attr = allow_dynamic_smem<kKernel>(kSmemBytes);
  if (!ok(attr)) return attr;
  int clusters = 0;
  const Status fit = resident_clusters<kKernel, Cluster>(d, kSmemBytes, C::kThreads, &clusters);
  if (!ok(fit)) return fit;
  const TileGrid grid{p.M, p.N, p.K, C::kBlockM, C::kBlockN, C::kBlockK, Cluster::kM, Cluster::kN};
  const std::int64_t units = scheduler_units<typename C::Scheduler>(grid, problems);
  if (units == 0) return Status::kSuccess;
  if (units < clusters) clusters = int(units);
  p.scheduler = persistent_scheduler<typename C::Scheduler>(grid, problems, clusters, fixup);
  LaunchShape shape;
  shape.grid_x = unsigned(clusters * Cluster::kSize);
  shape.block_x = C::kThreads;
  shape.dynamic_smem_bytes = kSmemBytes;
  shape.cluster_x = Cluster::kSize;
  // option::DependentLaunch (a family that takes it waits for the previous grid in its kernel;
  // the others refuse it, so it is never given to them).
  shape.dependent = C::Options::kDependentLaunch;
  return launch_kernel(kKernel, shape, stream, p);
}

// The KernelLauncher (gemm.hpp) both families share. A family's specialisation derives from
// it and supplies, as public members:
//   using DBoxes = DStoreBoxes<...>;   the boxes its epilogue stores D in
//   template <TmaPath kPath> static Status launch_path(TmaGemmParams<Config>&, Stream, const DeviceInfo&,
//                                                      const FixupSpace&, const ProblemSet&);
// The workspace holds the packed path's copies (tma/packing.hpp), then, 256-byte aligned, the
// stream-K fix-up's partials (a scheduler with a fix-up only; the realigning path, taken only
// without a workspace, runs data-parallel). A batch or groups take no workspace.
template <class Config, class Family>
struct Launcher {
  using Params = TmaGemmParams<Config>;

  // The realigning path takes any element-aligned operand.
  static OperandRequirements requirements() { return {}; }

  // The family's refusals: 32-bit extents and tile counts (coordinates are 32-bit in the kernel).
  static Status check(const Args<Config>& a) {
    constexpr std::int64_t kLimit = std::int64_t(1) << 31;
    if (a.M >= kLimit || a.N >= kLimit || a.K >= kLimit) return Status::kErrorDimensionTooLarge;
    const TileGrid grid{a.M, a.N, a.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
    if (scheduler_units<typename Config::Scheduler>(grid, a.problems) >= kLimit) return Status::kErrorGridTooLarge;
    if constexpr (kProblemSet) {
      return check_tma_problem_set<typename Config::LayoutA, typename Config::LayoutB, typename Config::LayoutC,
                                   typename Config::Scheduler>(a);
    }
    return Status::kSuccess;
  }

  // The packed path's copies (tma/packing.hpp; 0 when TMA describes every operand) and the
  // fix-up's partials (0 when the plan would not split); none for a batch or groups.
  static std::size_t workspace_size(const Args<Config>& a, const DeviceInfo& d) {
    if constexpr (kProblemSet) {
      (void)a;
      (void)d;
      return 0;
    } else {
      const std::size_t fixup = fixup_bytes(a, d);
      const std::size_t packing = plan_packing<Config>(a).bytes;
      return fixup == 0 ? packing : fixup_offset(packing) + fixup;
    }
  }

  // The fix-up's bytes: enough for the plan on any number of resident clusters up to the
  // device's multiprocessors / cluster size.
  static std::size_t fixup_bytes(const Args<Config>& a, const DeviceInfo& d) {
    return fixup_workspace_bound<typename Config::Scheduler>(tile_grid<Config>(a),
                                                             d.multiprocessors / Config::Cluster::kSize, a.split);
  }
  static std::size_t fixup_offset(std::size_t packing_bytes) { return (packing_bytes + 255) / 256 * 256; }

  static TmaPath path(const Args<Config>& a, bool workspace_given) {
    return kProblemSet ? TmaPath::kTma : tma_launch::path<Config>(a, workspace_given);
  }

  static Status launch(const Args<Config>& a, void* workspace, Stream stream, const DeviceInfo& d) {
    if constexpr (kProblemSet) {
      return launch_problem_set(a, stream, d);
    } else {
      return launch_one(a, workspace, stream, d);
    }
  }

 private:
  static constexpr bool kProblemSet = takes_problem_set<typename Config::Scheduler>;

  // A batch or groups: TMA loads and stores on 3-D maps (tma/problem_set.hpp; check() has
  // refused what TMA cannot describe).
  static Status launch_problem_set(const Args<Config>& a, Stream stream, const DeviceInfo& d) {
    Params p{};
    fill(p, a);
    const std::int64_t count = a.problems.count;
    TensorMapPlan map_a = map_a_plan<Config>(a), map_b = map_b_plan<Config>(a);
    TensorMapPlan map_d = Family::DBoxes::template plan<typename Config::LayoutC>(a.D, a.M, a.N, a.ldd);
    map_a.layers = map_layers<typename Config::ElementA>(count, p.strides.a);
    map_b.layers = map_layers<typename Config::ElementB>(count, p.strides.b);
    map_d.layers = map_layers<typename Config::ElementD>(count, p.strides.d);
    Status s = encode<typename Config::ElementA>(&p.map_a, map_a);
    if (ok(s)) s = encode<typename Config::ElementB>(&p.map_b, map_b);
    if (ok(s)) s = encode<typename Config::ElementD>(&p.map_d, map_d);
    if (ok(s)) s = Family::template launch_path<TmaPath::kTma>(p, stream, d, FixupSpace{}, a.problems);
    return s;
  }

  static Status launch_one(const Args<Config>& a, void* workspace, Stream stream, const DeviceInfo& d) {
    Params p{};
    const PackingPlan plan = plan_packing<Config>(a);
    const TmaPath chosen = choose_path(plan, workspace != nullptr);
    const std::size_t fixup_size = workspace != nullptr ? fixup_bytes(a, d) : 0;
    const FixupSpace fixup = fixup_space(
        fixup_size > 0 ? static_cast<unsigned char*>(workspace) + fixup_offset(plan.bytes) : nullptr, fixup_size,
        a.split);
    if (chosen == TmaPath::kRealigning) {
      if constexpr (OperandLoading<Config>::kTmaOnly) {
        return Status::kErrorUnsupported;  // not reached: check() refuses what TMA cannot load
      } else {
        fill(p, a);
        return Family::template launch_path<TmaPath::kRealigning>(p, stream, d);
      }
    }
    // kTma, or kPacked (tma/packing.hpp): with a workspace, the TMA kernel on copies of the
    // operands TMA cannot describe (A and B copied on `stream` first, D's copy copied out
    // after); without one (only D misaligned), TMA loads and direct stores of D.
    Args<Config> tma = a;
    unsigned char* space = static_cast<unsigned char*>(workspace);
    if (chosen == TmaPath::kPacked && space != nullptr) {
      const Status s = pack_inputs(a, plan, space, stream, tma);
      if (!ok(s)) return s;
    }
    const bool store_direct = plan.d.packed && space == nullptr;
    fill(p, tma);
    Status s = encode<typename Config::ElementA>(&p.map_a, map_a_plan<Config>(tma));
    if (ok(s)) s = encode<typename Config::ElementB>(&p.map_b, map_b_plan<Config>(tma));
    if (!ok(s)) return s;
    if (store_direct) return Family::template launch_path<TmaPath::kPacked>(p, stream, d, fixup);
    s = encode<typename Config::ElementD>(
        &p.map_d, Family::DBoxes::template plan<typename Config::LayoutC>(tma.D, tma.M, tma.N, tma.ldd));
    if (ok(s)) s = Family::template launch_path<TmaPath::kTma>(p, stream, d, fixup);
    if (ok(s) && plan.d.packed) {
      s = copy_lines(tma.D, tma.ldd, a.D, a.ldd, plan.d.source.lines, plan.d.source.length, plan.d.source.length,
                     stream);
    }
    return s;
  }

  // Copies A and B where the plan says so and points `tma` (the TMA kernel's arguments) at
  // the copies, and D at its place if it is to be copied out. C stays the caller's.
  static Status pack_inputs(const Args<Config>& a, const PackingPlan& plan, unsigned char* workspace,
                            Stream stream, Args<Config>& tma) {
    Status s = Status::kSuccess;
    if constexpr (!OperandLoading<Config>::kTmaOnly) {  // (TMA-only: check() has seen A and B describable)
      s = copy_operand(a.A, a.lda, plan.a, workspace, stream, tma.A, tma.lda);
      if (ok(s)) s = copy_operand(a.B, a.ldb, plan.b, workspace, stream, tma.B, tma.ldb);
    }
    if (plan.d.packed) {  // written by the kernel, copied out after it
      tma.D = reinterpret_cast<typename Config::ElementD*>(workspace + plan.d.offset);
      tma.ldd = plan.d.ld;
    }
    return s;
  }

};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm::tma_launch

namespace tessera::gemm {

// Which path Gemm<Config>::run(args, workspace) takes on a TMA family (wgmma, umma; packing.hpp):
// kTma (TMA loads and stores), kPacked (operands TMA cannot describe copied into the workspace
// first: give it workspace_size(args) bytes), kRealigning (no workspace: realigning loads,
// direct stores).
template <class Config>
TmaPath tma_path(const ConfigArguments<Config>& a, const void* workspace = nullptr) {
  return KernelLauncher<typename Config::Family, Config>::path(a, workspace != nullptr);
}

}  // namespace tessera::gemm
