// Loads one operand tile of a GEMM (A: kOuter = rows of M; B: kOuter = columns of N;
// both kDepth deep along K) from global memory into registers as float, then stores
// it into a shared-memory stage laid out [k][outer] (K-major), which is what an FMA
// or outer-product consumer reads as contiguous vectors along M or N.
//
// Canonical pointers (docs/architecture.md): the block keeps one uniform base pointer,
// advanced by a K step per tile, and each thread a 32-bit element offset computed once.
// Out-of-range elements read 0:
//   NVIDIA: predicated loads; 4-element vector loads where the operand is aligned and the
//           vector is wholly inside the matrix;
//   AMD:    raw buffer loads through a buffer resource whose num_records ends the
//           operand; an out-of-range lane gets an offset past num_records, which the
//           hardware answers with 0, so edge tiles take no branch.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/vector.hpp"

#if defined(TESSERA_AMD_TARGET)
#include "tessera/arch/amd/buffer.hpp"
#endif

namespace tessera {

template <class Element, class Layout, bool kIsA, int kOuter, int kDepth, int kThreads>
struct OperandTileLoader {
  // A row-major is contiguous along K; B row-major is contiguous along N (the outer
  // dimension); column-major swaps both.
  static constexpr bool kContiguousK = (kIsA == Layout::kIsRowMajor);
  static constexpr int kVec = 4;
  static constexpr int kVectors = kOuter * kDepth / kVec;
  static constexpr int kPerThread = kVectors / kThreads;
  // Row stride of the shared-memory stage, in floats. The 4-float pad keeps rows 16-byte
  // aligned and moves the K-contiguous (transposing) stores of lanes k and k+4 onto
  // different bank halves: 4 * (kOuter + 4) words apart is 16 banks apart when kOuter is
  // a multiple of 32 (test/unit/test_swizzle.cpp counts this).
  static constexpr int kSmemStride = kOuter + 4;
  static constexpr int kStageFloats = kDepth * kSmemStride;

  static_assert(kDepth % kVec == 0 && kOuter % kVec == 0,
                "Tessera: operand tiles are loaded in 4-element vectors: the tile's M/N and K "
                "extents must be multiples of 4");
  static_assert(kVectors % kThreads == 0,
                "Tessera: the operand tile must split evenly into 4-element vectors over the "
                "block's threads (tile_outer * tile_k / 4 must be a multiple of the thread count)");

  const Element* base;         // element (outer0, k0) of the current K tile
  std::int64_t k_step;         // elements between consecutive K tiles
  std::int64_t bytes_left;     // bytes from `base` to the end of the operand (AMD range)
  std::uint32_t offset[kPerThread];  // element offset of each vector's first element
  int outer[kPerThread];       // tile-local coordinates of each vector's first element
  int depth[kPerThread];
  int outer_limit;             // rows (A) / columns (B) left from this tile's origin
  bool vector_ok;              // base and ld allow 4-element aligned vector loads
  // The loaded elements as raw bits, converted to float only when stored to shared
  // memory: a conversion right after the load would make the thread wait for the load
  // there (slower for 16-bit operands: benchmark/notes/fma.md, section Versions). On NVIDIA a 16-bit
  // vector arrives as two packed words (half the registers). On AMD each 16-bit element
  // is its own load and keeps its own register: packing two would wait for both loads
  // right away (seen in the gfx942 assembly).
#if defined(TESSERA_AMD_TARGET)
  static constexpr bool kPacked = false;
#else
  static constexpr bool kPacked = sizeof(Element) == 2;
#endif
  static constexpr int kWords = kPacked ? kVec / 2 : kVec;
  std::uint32_t raw[kPerThread][kWords];

  // `origin` points at the operand's element (outer0, 0); extent_outer is M (A) or N (B);
  // `span_elems` counts elements from `origin` to one past the operand's last element.
  TESSERA_DEVICE void init(const Element* origin, std::int64_t ld, int extent_outer_left,
                           std::int64_t span_elems, bool aligned, int tid) {
    base = origin;
    k_step = kContiguousK ? kDepth : std::int64_t(kDepth) * ld;
    bytes_left = span_elems * std::int64_t(sizeof(Element));
    outer_limit = extent_outer_left;
    vector_ok = aligned;
    TESSERA_UNROLL
    for (int j = 0; j < kPerThread; ++j) {
      const int v = tid + j * kThreads;
      if (kContiguousK) {
        outer[j] = v / (kDepth / kVec);
        depth[j] = (v % (kDepth / kVec)) * kVec;
        offset[j] = std::uint32_t(std::int64_t(outer[j]) * ld + depth[j]);
      } else {
        depth[j] = v / (kOuter / kVec);
        outer[j] = (v % (kOuter / kVec)) * kVec;
        offset[j] = std::uint32_t(std::int64_t(depth[j]) * ld + outer[j]);
      }
    }
  }

  // Element i of vector j is inside the matrix, given K left from this tile's origin.
  TESSERA_DEVICE TESSERA_FORCEINLINE bool in_range(int j, int i, int k_left) const {
    return kContiguousK ? (outer[j] < outer_limit && depth[j] + i < k_left)
                        : (outer[j] + i < outer_limit && depth[j] < k_left);
  }

  // Issue this tile's global loads into registers; k_left = K - k0 of this tile.
  TESSERA_DEVICE TESSERA_FORCEINLINE void load(int k_left) {
#if defined(TESSERA_AMD_TARGET)
    // The descriptor is rebuilt from the advanced base each tile (scalar work): the
    // scalar offset of a buffer load is not range-checked, only the lane offset is.
    const std::int64_t range = bytes_left < kOutOfRange ? bytes_left : kOutOfRange;
    const amd::BufferResource rsrc = amd::make_buffer_resource(base, std::uint32_t(range));
    TESSERA_UNROLL
    for (int j = 0; j < kPerThread; ++j) {
      TESSERA_UNROLL
      for (int i = 0; i < kVec; ++i) {
        const std::uint32_t byte_offset =
            in_range(j, i, k_left) ? (offset[j] + i) * std::uint32_t(sizeof(Element)) : kOutOfRange;
        set_element(j, i, load_element_bits(rsrc, byte_offset));
      }
    }
#else
    TESSERA_UNROLL
    for (int j = 0; j < kPerThread; ++j) {
      const Element* p = base + offset[j];
      if (vector_ok && in_range(j, kVec - 1, k_left)) {  // the last element in range: all are
        load_vector(p, raw[j]);
      } else {
        TESSERA_UNROLL
        for (int i = 0; i < kWords; ++i) raw[j][i] = 0u;  // zero bits are +0 in every type
        TESSERA_UNROLL
        for (int i = 0; i < kVec; ++i) {
          if (in_range(j, i, k_left)) set_element(j, i, element_bits(p[i]));
        }
      }
    }
#endif
  }

  TESSERA_DEVICE TESSERA_FORCEINLINE void advance() {
    base += k_step;
    bytes_left -= k_step * std::int64_t(sizeof(Element));
  }

  // Write the registers into one shared-memory stage ([kDepth][kSmemStride] floats).
  TESSERA_DEVICE TESSERA_FORCEINLINE void store(float* stage) const {
    TESSERA_UNROLL
    for (int j = 0; j < kPerThread; ++j) {
      if (kContiguousK) {
        TESSERA_UNROLL
        for (int i = 0; i < kVec; ++i) stage[(depth[j] + i) * kSmemStride + outer[j]] = element(j, i);
      } else {
        Float4 v;
        v.x = element(j, 0);
        v.y = element(j, 1);
        v.z = element(j, 2);
        v.w = element(j, 3);
        *reinterpret_cast<Float4*>(&stage[depth[j] * kSmemStride + outer[j]]) = v;
      }
    }
  }

 private:
  // Element i of vector j, as float.
  TESSERA_DEVICE TESSERA_FORCEINLINE float element(int j, int i) const {
    if constexpr (sizeof(Element) == 4) {
      return bits_to_float(raw[j][i]);
    } else if constexpr (kPacked) {
      const std::uint32_t word = raw[j][i / 2];
      return to_float(Element::from_bits(std::uint16_t(i % 2 ? word >> 16 : word & 0xffffu)));
    } else {
      return to_float(Element::from_bits(std::uint16_t(raw[j][i])));
    }
  }
  // Sets element i of vector j from its bits (a packed word must have been zeroed).
  TESSERA_DEVICE TESSERA_FORCEINLINE void set_element(int j, int i, std::uint32_t bits) {
    if constexpr (kPacked) {
      raw[j][i / 2] |= i % 2 ? bits << 16 : bits;
    } else {
      raw[j][i] = bits;
    }
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE static std::uint32_t element_bits(const Element& e) {
    if constexpr (sizeof(Element) == 4) {
      return float_to_bits(e);
    } else {
      return e.bits;
    }
  }

#if defined(TESSERA_AMD_TARGET)
  // A lane offset the descriptor's range (clamped to this) always rejects: it reads 0.
  static constexpr std::uint32_t kOutOfRange = 0x80000000u;

  TESSERA_DEVICE TESSERA_FORCEINLINE static std::uint32_t load_element_bits(
      amd::BufferResource r, std::uint32_t byte_offset) {
    if constexpr (sizeof(Element) == 4) {
      return amd::buffer_load<4>(r, byte_offset);
    } else {
      return amd::buffer_load<2>(r, byte_offset);
    }
  }
#endif

#if !defined(TESSERA_AMD_TARGET)
  // kVec elements from a 4 * sizeof(Element)-aligned address, as raw (packed) words.
  TESSERA_DEVICE TESSERA_FORCEINLINE static void load_vector(const Element* p,
                                                             std::uint32_t (&out)[kWords]) {
    if constexpr (sizeof(Element) == 4) {
      const Float4 v = *reinterpret_cast<const Float4*>(p);
      out[0] = float_to_bits(v.x);
      out[1] = float_to_bits(v.y);
      out[2] = float_to_bits(v.z);
      out[3] = float_to_bits(v.w);
    } else {
      static_assert(sizeof(Element) == 2, "Tessera: operand elements are 4 or 2 bytes");
      const U32x2 v = *reinterpret_cast<const U32x2*>(p);
      out[0] = v.x;
      out[1] = v.y;
    }
  }
#endif
};

}  // namespace tessera
