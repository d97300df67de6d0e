// OperandTiles: the declared contract between a TMA family's configuration and the collectives
// that fill and read its stages (tma/producer.hpp, tma/realigning_producer.hpp, the wgmma and tcgen05
// main loops). Everything those collectives know of the operands is here, checked once:
//
//   ElementA, ElementB      the operands' element types (their sizes set every byte count)
//   kKMajorA, kKMajorB      K contiguous in memory (A row-major, B column-major)
//   kBlockM, kBlockN, kBlockK   one CTA's tile: its rows of A, the MMA's N, the K tile
//   Cluster                 the CTAs that share operand tiles by multicast (ClusterShape)
//   kCtaPair                a tcgen05 CTA pair: the two CTAs of a 2x1 cluster each keep their
//                           half of the B tile where it lands instead of multicasting it
//   kStageBytesA/B          bytes one unit of K takes in a stage (default: the element's size)
//   kGlobalBitsA/B          bits one unit of K takes in global memory, as TMA reads it
//                           (default: the stage's); they differ where TMA unpacks: the tcgen05
//                           family's fp6 / fp4 operands arrive 6 or 4 bits a value and are
//                           staged a byte a value (mma/umma_lowp_atom.hpp)
//
// and what follows from them: the stage tiles in the 128-byte swizzle (TileA, TileB), the
// slice of a shared tile each CTA loads, the bytes of one stage in shared memory and the
// bytes its copies deliver (what the full barrier expects). K counts units: values, or
// storage elements where the MMA reads an element's values packed. Host-includable.
#pragma once
#include <cstddef>

#include "tessera/gemm/tma/cluster.hpp"
#include "tessera/layout/sm90_tile.hpp"

namespace tessera::gemm {

template <class ElementA_, class ElementB_, bool kKMajorA_, bool kKMajorB_, int kBlockM_, int kBlockN_, int kBlockK_,
          class Cluster_ = ClusterShape<1, 1>, bool kCtaPair_ = false, int kStageBytesA_ = int(sizeof(ElementA_)),
          int kStageBytesB_ = int(sizeof(ElementB_)), int kGlobalBitsA_ = 8 * kStageBytesA_,
          int kGlobalBitsB_ = 8 * kStageBytesB_>
struct OperandTiles {
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using Cluster = Cluster_;
  static constexpr bool kKMajorA = kKMajorA_, kKMajorB = kKMajorB_;
  static constexpr bool kCtaPair = kCtaPair_;
  static constexpr int kBlockM = kBlockM_, kBlockN = kBlockN_, kBlockK = kBlockK_;
  // Bytes a unit of K takes in a stage (the element's size unless staged unpacked).
  static constexpr int kElementBytesA = kStageBytesA_;
  static constexpr int kElementBytesB = kStageBytesB_;
  static constexpr int kGlobalBitsA = kGlobalBitsA_, kGlobalBitsB = kGlobalBitsB_;

  // A tile shared by CTAs of a cluster is loaded a slice per CTA: multicast to all of them,
  // or (a pair's B) kept where it lands.
  static constexpr int kSliceRowsA = kBlockM / Cluster::kN;
  static constexpr int kSliceRowsB = kBlockN / Cluster::kM;
  // B stages hold the whole N tile, or on a pair this CTA's half of it.
  static constexpr int kStageRowsB = kCtaPair ? kSliceRowsB : kBlockN;
  using TileA = Sw128OperandTile<kBlockM, kBlockK, kElementBytesA, kKMajorA>;
  using TileB = Sw128OperandTile<kStageRowsB, kBlockK, kElementBytesB, kKMajorB>;
  static constexpr int kStageBytes = TileA::kBytes + TileB::kBytes;
  // What one stage's copies deliver (the full barrier's transaction bytes): the stage's bytes,
  // or, where TMA unpacks sub-byte values, their packed global bytes (CUTLASS counts the same:
  // sm100_mma_warpspecialized.hpp, TmaTransactionBytes from sizeof_bits of the global type).
  static constexpr int kStageTxBytes =
      (kBlockM * kBlockK * kGlobalBitsA + kStageRowsB * kBlockK * kGlobalBitsB) / 8;

  static_assert(kElementBytesA == kElementBytesB,
                "Tessera TMA GEMM: A and B must have elements of the same size (one K tile is one "
                "128-byte swizzled line of each)");
  static_assert(kBlockK * kElementBytesA == 128,
                "Tessera TMA GEMM: the K tile must be 128 bytes of elements (64 for 16-bit types): one "
                "128-byte swizzled line per row, what TMA and the tensor cores exchange");
  static_assert(Cluster::kM >= 1 && Cluster::kN >= 1 && Cluster::kSize <= 4,
                "Tessera TMA GEMM: clusters of 1 to 4 CTAs (e.g. 1x1, 2x1, 1x2, 2x2) are supported");
  static_assert(kSliceRowsA % (kKMajorA ? 8 : TileA::kLineElements) == 0 &&
                    kSliceRowsB % (kKMajorB ? 8 : TileB::kLineElements) == 0,
                "Tessera TMA GEMM: the cluster splits a shared tile into slices that are not whole "
                "swizzle atoms (8 rows K-major, 128 bytes of columns MN-major): use a smaller cluster or "
                "a larger tile");
};

}  // namespace tessera::gemm
