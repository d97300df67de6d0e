// Shared-memory tiles in the 128-byte swizzled layout that the Hopper TMA writes
// (CU_TENSOR_MAP_SWIZZLE_128B) and wgmma reads: byte offsets of elements, so that code
// writing a tile with ordinary stores (the realigning producer, the epilogue's staging)
// produces exactly the bytes the TMA would.
//
// The pattern: within each 1024-byte block (8 "rows" of 128 bytes), the 16-byte chunk c
// of row r sits at chunk c ^ r: Swizzle<3, 4, 3> on byte offsets. Tiles start on a
// 1024-byte boundary, as the hardware computes the pattern from address bits.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/layout/swizzle.hpp"

namespace tessera {

using Swizzle128B = Swizzle<3, 4, 3>;  // on byte offsets

// An operand tile of kOuter x kDepth elements (outer: M rows of A or N columns of B;
// depth: K) of kElementBytes each, as one wgmma operand:
//   kKMajor  (K contiguous in memory): kOuter lines of kDepth elements; kDepth * size must
//            be 128 bytes (one swizzle row per line);
//   !kKMajor (M/N contiguous): for each 64-element chunk of the outer extent (128 bytes),
//            kDepth lines of 128 bytes, one per k; chunks one after the other.
// In both, a line is 128 bytes: line(strided index) and byte(contiguous index).
template <int kOuter, int kDepth, int kElementBytes_, bool kKMajor>
struct Sw128OperandTile {
  static constexpr int kElementBytes = kElementBytes_;
  static constexpr int kLineElements = 128 / kElementBytes;
  static_assert(!kKMajor || kDepth == kLineElements,
                "Tessera: a K-major 128-byte-swizzled tile needs K depth = 128 bytes of elements "
                "(64 for 16-bit types)");
  static_assert(kKMajor || kOuter % kLineElements == 0,
                "Tessera: an MN-major 128-byte-swizzled tile needs M/N extents in whole 128-byte chunks");
  static_assert(kDepth % 8 == 0 && kOuter % 8 == 0, "Tessera: swizzled tiles come in 8-line atoms");
  static constexpr int kBytes = kOuter * kDepth * kElementBytes;
  // Bytes between 64-element chunks of M/N in the MN-major form (the descriptor's LBO).
  static constexpr int kChunkBytes = kDepth * 128;

  // Byte offset of element (outer, k).
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset(int outer, int k) {
    const int linear = kKMajor ? outer * 128 + k * kElementBytes
                               : (outer / kLineElements) * kChunkBytes + k * 128 +
                                     (outer % kLineElements) * kElementBytes;
    return Swizzle128B::apply(std::uint32_t(linear));
  }
  // Byte offset of the 16-byte chunk that starts at element (outer, k) (k, or outer for
  // MN-major, a multiple of 16 / kElementBytes).
  TESSERA_HOST_DEVICE static constexpr std::uint32_t chunk_offset(int outer, int k) { return offset(outer, k); }
};

// The epilogue's staging box: kLines lines of 128 bytes (one row of a row-major output, or
// one column of a column-major one), as a TMA store with 128-byte swizzle reads it.
template <int kLines, int kElementBytes>
struct Sw128StagingTile {
  static constexpr int kLineElements = 128 / kElementBytes;
  static constexpr int kBytes = kLines * 128;
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset(int line, int element) {
    return Swizzle128B::apply(std::uint32_t(line * 128 + element * kElementBytes));
  }
};

}  // namespace tessera
