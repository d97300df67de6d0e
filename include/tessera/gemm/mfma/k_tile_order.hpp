// The order in which a GEMM kernel visits its K tiles: the LAST tile first.
//
// K splits into ceil(K / BK) tiles; the last one is partial (K % BK deep) when K % BK != 0.
// Position 0 is that last tile, whole or partial, then whole tiles 0, 1, ..., n_rest - 1.
// Why the last tile goes first:
//  - it is the only tile whose elements past K must be zeroed (the partial one), so the
//    prologue, which loads position 0 range-checked and masked, is the only place with
//    edge code, and the main loop's tiles are all whole and unmasked;
//  - it is the only tile that holds the operands' last K line, whose last dword may hold
//    the operand's last element and two bytes past its end: whether the hardware's range
//    check returns such a straddling dword whole or as zero is chip-dependent, so the
//    prologue's load handles that dword on its own (memory/mfma_tile_copy.hpp), and no
//    main-loop load of a row inside M (column inside N) can meet it. (Found by the wave
//    emulator: the first version put the last tile first only when it was partial, and a
//    whole last tile of an M- or N-contiguous operand with an odd M or N read that dword
//    in the main loop.) Rows past M can meet it through a leading dimension shorter than
//    the tile; what they read never reaches D (memory/mfma_tile_copy.hpp says why).
// The main loop's loads run ahead of its compute (one or two positions), so they also ask
// for positions past the last; those repeat the last tile of the loop (a valid address,
// never read back), which keeps the loop free of branches. Summation order changes, the
// result does not (beyond fp32 rounding).
//
// The cursor form is what the kernel runs: after the load of position p it moves by
// step(p) (0 or 1 tiles); position 0 -> 1 is a jump (from the last tile back to tile 0).
// Host-computed and passed in (a kernel-side "K % BK != 0 ? 1 : 0" costs scalar registers:
// benchmark/notes/mfma.md); test/unit/test_mfma_schedule.cpp walks every K.
#pragma once

#include "tessera/core/macros.hpp"

namespace tessera::gemm {

struct LastFirstKOrder {
  int n_rest;  // whole tiles after position 0 (tiles 0 .. n_rest - 1): what the loop loads
  int first;   // 1 when there is a position 0 (K > 0), else 0

  TESSERA_HOST_DEVICE static constexpr LastFirstKOrder make(int k, int bk) {
    return k > 0 ? LastFirstKOrder{(k + bk - 1) / bk - 1, 1} : LastFirstKOrder{0, 0};
  }
  // Positions the main loop computes.
  TESSERA_HOST_DEVICE constexpr int tiles() const { return n_rest + first; }
  // K tile index (in units of BK) of position 0: the last tile.
  TESSERA_HOST_DEVICE constexpr int first_tile() const { return first * n_rest; }
  // Tile index of position `pos` >= 1; positions past the end repeat tile n_rest - 1
  // (tile 0 when there is none).
  TESSERA_HOST_DEVICE constexpr int full_index(int pos) const {
    const int j = pos - first;
    const int last = n_rest > 0 ? n_rest - 1 : 0;
    return j < 0 ? 0 : (j > last ? last : j);
  }
  // K tile index of any position.
  TESSERA_HOST_DEVICE constexpr int tile_at(int pos) const { return pos == 0 ? first_tile() : full_index(pos); }
  // After the load of position pos >= 1, does the cursor move one tile on?
  // full_index(pos + 1) - full_index(pos), as one unsigned compare.
  TESSERA_HOST_DEVICE constexpr bool step(int pos) const {
    return unsigned(pos - first) < unsigned(n_rest > 0 ? n_rest - 1 : 0);
  }
  // Valid K values in position 0's tile (bk when it is whole).
  TESSERA_HOST_DEVICE constexpr int first_tile_depth(int k, int bk) const {
    return k - first_tile() * bk < bk ? k - first_tile() * bk : bk;
  }
};

}  // namespace tessera::gemm
