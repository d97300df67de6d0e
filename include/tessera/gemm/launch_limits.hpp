// The limits a one-tile-per-block kernel (FMA, MFMA) puts on a problem, checked before launch:
//  - 32-bit per-thread offsets from each block's tile origin: the tile's extent along an
//    operand's strided dimension, plus one line, times the leading dimension stays below
//    2^31 bytes (checking (extent + 1) * ld * size keeps it simple and safe);
//  - K counted in 32 bits, with room for one more K tile;
//  - the output tiles fit a 32-bit tile index.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/status.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

template <class LayoutA, class LayoutB, class Args>
Status tile_launch_limits(const Args& a, int block_m, int block_n, int block_k, std::size_t bytes_a,
                          std::size_t bytes_b) {
  auto fits = [](std::int64_t extent, std::int64_t ld, std::size_t size) {
    return (extent + 1) * ld * std::int64_t(size) < (std::int64_t(1) << 31);
  };
  const std::int64_t a_strided = LayoutA::kIsRowMajor ? block_m : block_k;
  const std::int64_t b_strided = LayoutB::kIsRowMajor ? block_k : block_n;
  if (!fits(a_strided, a.lda, bytes_a) || !fits(b_strided, a.ldb, bytes_b) ||
      a.K > std::int64_t(0x7fffffff) - block_k) {
    return Status::kErrorOffsetOverflow;
  }
  const TileGrid g{a.M, a.N, a.K, block_m, block_n, block_k};
  if (scheduler::DataParallel::units(g) > std::int64_t(0x7fffffff)) return Status::kErrorGridTooLarge;
  return Status::kSuccess;
}

}  // namespace tessera::gemm
