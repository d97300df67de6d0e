// The wgmma atom m64nNk16 (sm_90a) as data: which accumulator of which thread of the
// warpgroup holds which element of the 64 x N output block. Host-visible, so the maps are
// tested on the host (test/unit/test_wgmma_host.cpp) and the epilogue uses the same ones.
//
// PTX ISA, "Matrix fragments for wgmma.mma_async .m64nNk16", accumulator D (f32): warp w
// of the warpgroup owns rows 16w..16w+15; within a warp, lane l owns rows l/4 and l/4 + 8
// of that band and, in every 8-column group j, the columns 8j + 2(l%4) and 8j + 2(l%4) + 1.
// Accumulator i of a thread is element (row, col) with
//   row = 16 w + l / 4 + 8 ((i / 2) % 2),   col = 8 (i / 4) + 2 (l % 4) + (i % 2).
#pragma once

#include "tessera/core/macros.hpp"

namespace tessera::mma {

template <int N>
struct WgmmaAtom {
  static_assert(N % 16 == 0 && N >= 16 && N <= 256, "Tessera wgmma: N must be a multiple of 16 up to 256");
  static constexpr int kM = 64;
  static constexpr int kN = N;
  static constexpr int kK = 16;
  static constexpr int kThreads = 128;
  static constexpr int kAccumulators = kM * N / kThreads;  // per thread

  struct Coord {
    int row, col;
  };
  // The element accumulator i of warpgroup thread t holds.
  TESSERA_HOST_DEVICE static constexpr Coord element(int t, int i) {
    const int warp = t / 32, lane = t % 32;
    return {16 * warp + lane / 4 + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * (lane % 4) + (i % 2)};
  }
};

}  // namespace tessera::mma
