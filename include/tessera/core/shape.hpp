// Compile-time shapes: tile extents known to the compiler.
#pragma once
#include <cstddef>

#include "tessera/core/macros.hpp"

namespace tessera {

// Shape<4, 8> is a 4x8 extent; rank, per-mode extent and total size are constants.
template <int... Extents>
struct Shape {
  static constexpr int kRank = sizeof...(Extents);
  static constexpr int kSize = (1 * ... * Extents);
  static_assert(((Extents > 0) && ...), "Tessera: every extent of a Shape must be positive");

  template <int I>
  TESSERA_HOST_DEVICE static constexpr int get() {
    static_assert(I >= 0 && I < kRank, "Tessera: Shape mode index out of range");
    constexpr int values[] = {Extents...};
    return values[I];
  }
};

// The three GEMM extents of a tile: M rows of C, N columns of C, K reduction depth.
template <int M, int N, int K>
struct GemmShape : Shape<M, N, K> {
  static constexpr int kM = M;
  static constexpr int kN = N;
  static constexpr int kK = K;
  static constexpr int kMN = M * N;
};

}  // namespace tessera
