// The Tensor Memory Accelerator (sm_90+): 2-D tile copies between global and shared
// memory described by a tensor map (CUtensorMap), completing on an mbarrier (loads) or in
// bulk groups (stores). Out-of-range parts of a box read as zeros and are not written,
// which is how a GEMM's edge tiles cost nothing extra.
//
// Host: make_tensor_map_2d() builds a map through the driver's cuTensorMapEncodeTiled,
// reached with cudaGetDriverEntryPointByVersion (no -lcuda needed: runtime/cuda_driver.hpp).
// Like most driver calls it needs a context current on the calling thread: Gemm::run binds
// one first (runtime/context.hpp); a failure returns the driver's reason as a Status
// (kErrorNoContext, kErrorInvalidValue, ...). The rules the driver enforces, which
// can_implement checks first: the base address 16-byte aligned, every stride a multiple of
// 16 bytes and below 2^40, extents at most 2^32, the box's inner extent times the element
// size at most the swizzle width (128 bytes here).
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"

#if defined(TESSERA_CUDA)
#include <cuda.h>  // CUtensorMap and its enums (types only: the driver is called through a pointer)
#include <cuda_runtime_api.h>

#include "tessera/runtime/cuda_driver.hpp"
#endif

namespace tessera::nvidia {

// The 16-byte rules TMA puts on a matrix of `lines` lines of `contiguous` elements, `ld`
// elements apart: the base address and the pitch are multiples of 16 bytes (the driver
// refuses the map otherwise), and so is the contiguous extent, because the copy engine
// bounds-checks the contiguous dimension in 16-byte units: a line that ends inside a
// 16-byte unit may be written past its end. CUTLASS's sm90 can_implement asks the same
// alignment of the contiguous extents; Tessera's GPU suite failed its guard-region check
// (writes past the matrix) on an H100 while this rule was missing, and passes with it.
// Loads were seen to zero-fill by element (a K tail whose 16-byte unit held NaN after the
// extent still multiplied zeros: the packed path's mutation experiment, H100), but the rule
// covers them too.
inline bool tma_describable(const void* base, std::int64_t ld, std::int64_t contiguous,
                            std::int64_t element_bytes) {
  return reinterpret_cast<std::uintptr_t>(base) % 16 == 0 && (ld * element_bytes) % 16 == 0 &&
         (contiguous * element_bytes) % 16 == 0 && ld * element_bytes < (std::int64_t(1) << 40);
}

#if defined(TESSERA_CUDA)

// ---- host: tensor maps ----------------------------------------------------------------

namespace detail {
// cuTensorMapEncodeTiled for a map of `rank` dimensions (boxes one element deep past the
// second), reached through the driver's entry point.
inline Status encode_tensor_map(CUtensorMap* map, const void* base, CUtensorMapDataType type, cuuint32_t rank,
                                const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                                CUtensorMapSwizzle swizzle) {
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                              const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static DriverFunction<Encode> encode_entry{"cuTensorMapEncodeTiled", 12000};
  Encode encode = nullptr;
  const Status found = encode_entry.get(&encode);
  if (!ok(found)) return found;
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUresult r = encode(map, type, rank, const_cast<void*>(base), dims, strides, box, element_strides,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return status_from_cu(r);
}
}  // namespace detail

// A row-major view [outer][inner] of a matrix (inner contiguous, `pitch_bytes` between
// outer lines), copied in boxes of box_inner x box_outer elements with the given swizzle.
inline Status make_tensor_map_2d(CUtensorMap* map, const void* base, CUtensorMapDataType type,
                                 int element_bytes, std::uint64_t inner, std::uint64_t outer,
                                 std::uint64_t pitch_bytes, std::uint32_t box_inner,
                                 std::uint32_t box_outer, CUtensorMapSwizzle swizzle) {
  (void)element_bytes;
  // The driver rejects an extent of 0: an empty operand still gets a valid (unused) map.
  const cuuint64_t dims[2] = {inner > 0 ? inner : 1, outer > 0 ? outer : 1};
  const cuuint64_t strides[1] = {pitch_bytes > 0 ? pitch_bytes : 16};
  const cuuint32_t box[2] = {box_inner, box_outer};
  return detail::encode_tensor_map(map, base, type, 2, dims, strides, box, swizzle);
}

// The same with a third dimension of `depth` layers, `depth_pitch_bytes` apart (a batch or
// the groups of a grouped GEMM: gemm/problem_set.hpp); boxes are one layer deep.
inline Status make_tensor_map_3d(CUtensorMap* map, const void* base, CUtensorMapDataType type, std::uint64_t inner,
                                 std::uint64_t outer, std::uint64_t depth, std::uint64_t pitch_bytes,
                                 std::uint64_t depth_pitch_bytes, std::uint32_t box_inner, std::uint32_t box_outer,
                                 CUtensorMapSwizzle swizzle) {
  const cuuint64_t dims[3] = {inner > 0 ? inner : 1, outer > 0 ? outer : 1, depth > 0 ? depth : 1};
  const cuuint64_t row = pitch_bytes > 0 ? pitch_bytes : 16;
  // One layer: its pitch is never used; the driver still wants one that spans the layer.
  const cuuint64_t strides[2] = {row, depth > 1 ? depth_pitch_bytes : row * dims[1]};
  const cuuint32_t box[3] = {box_inner, box_outer, 1};
  return detail::encode_tensor_map(map, base, type, 3, dims, strides, box, swizzle);
}

// ---- device: copies -------------------------------------------------------------------

// Prefetches the map (a kernel parameter) into the descriptor cache.
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_prefetch(const CUtensorMap* map) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
#endif
}

// Box at (inner, outer) -> shared memory at dst; completes `bar`'s transaction bytes.
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_load_2d(const CUtensorMap* map, std::uint64_t* bar, void* dst,
                                                    int inner, int outer) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
          smem_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_address(bar)), "r"(inner), "r"(outer)
      : "memory");
#endif
}

// The same box into the same offset of the shared memory of every CTA in `cta_mask`
// (bit i: cluster rank i), completing each one's barrier at that offset.
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_load_2d_multicast(const CUtensorMap* map, std::uint64_t* bar,
                                                              void* dst, int inner, int outer,
                                                              std::uint16_t cta_mask) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_address(bar)), "r"(inner), "r"(outer),
      "h"(cta_mask)
      : "memory");
#endif
}

// sm_100a, a CTA pair (tcgen05 cta_group::2): the box lands in this CTA's shared memory at
// dst and its bytes complete the barrier at shared::cluster address `cluster_bar`, which may
// be the peer CTA's (the pair's leader, whose MMA reads both CTAs' stages). PTX ISA,
// cp.async.bulk.tensor: with .cta_group::2 the mbarrier may be in either CTA of the pair.
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_load_2d_pair(const CUtensorMap* map, std::uint32_t cluster_bar, void* dst,
                                                         int inner, int outer) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(cluster_bar), "r"(inner), "r"(outer)
      : "memory");
#else
  (void)map;
  (void)cluster_bar;
  (void)dst;
  (void)inner;
  (void)outer;
#endif
}

// The 3-D forms of the three loads above: the box at (inner, outer) of layer `layer`.
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_load_3d(const CUtensorMap* map, std::uint64_t* bar, void* dst, int inner,
                                                    int outer, int layer) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], "
      "[%2];" ::"r"(smem_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_address(bar)), "r"(inner), "r"(outer), "r"(layer)
      : "memory");
#endif
}
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_load_3d_multicast(const CUtensorMap* map, std::uint64_t* bar, void* dst,
                                                              int inner, int outer, int layer,
                                                              std::uint16_t cta_mask) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(smem_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_address(bar)), "r"(inner), "r"(outer), "r"(layer),
      "h"(cta_mask)
      : "memory");
#endif
}
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_load_3d_pair(const CUtensorMap* map, std::uint32_t cluster_bar, void* dst,
                                                         int inner, int outer, int layer) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2"
      " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(smem_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(cluster_bar), "r"(inner), "r"(outer), "r"(layer)
      : "memory");
#else
  (void)map;
  (void)cluster_bar;
  (void)dst;
  (void)inner;
  (void)outer;
  (void)layer;
#endif
}

// Shared memory at src -> the box at (inner, outer); the part outside the tensor is not
// written. Completion is tracked by bulk groups (commit, then wait).
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_store_2d(const CUtensorMap* map, const void* src, int inner,
                                                     int outer) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(smem_address(src)), "r"(inner), "r"(outer)
               : "memory");
#endif
}

// The same into layer `layer` of a 3-D map.
TESSERA_DEVICE TESSERA_FORCEINLINE void tma_store_3d(const CUtensorMap* map, const void* src, int inner, int outer,
                                                     int layer) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(smem_address(src)), "r"(inner), "r"(outer), "r"(layer)
               : "memory");
#endif
}

TESSERA_DEVICE TESSERA_FORCEINLINE void bulk_commit_group() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

// Until at most N committed groups still read their shared-memory source (the staging
// buffer of an older group may then be overwritten).
template <int N>
TESSERA_DEVICE TESSERA_FORCEINLINE void bulk_wait_group_read() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
#endif
}

// Until at most N committed groups are incomplete (their writes done and visible).
template <int N>
TESSERA_DEVICE TESSERA_FORCEINLINE void bulk_wait_group() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
#endif
}

#endif  // TESSERA_CUDA

}  // namespace tessera::nvidia
