// The order in which a GEMM kernel visits its K tiles when the partial tile goes first.
//
// K splits into n_full whole tiles of BK and, when K % BK != 0, one partial tile (the
// last BK-aligned tile, K % BK deep). A kernel whose prologue loads the first tile with
// masking (elements past K zeroed) and whose main loop loads whole tiles with none visits
// the partial tile FIRST: position 0 is the partial tile (if any), then whole tiles 0, 1, ...
// The main loop's loads run ahead of its compute (one or two positions), so they also ask
// for positions past the last; those repeat the last whole tile (a valid address, never read
// back), which keeps the loop free of branches. Summation order changes, the result does not
// (beyond fp32 rounding).
//
// The cursor form is what the kernel runs: after the load of position p it moves by
// step(p) (0 or 1 whole tiles); position 0 -> 1 is a jump (from the partial tile back to
// whole tile 0). Host-visible; test/unit/test_mfma_schedule.cpp walks every K.
#pragma once

#include "tessera/core/macros.hpp"

namespace tessera::gemm {

struct PartialFirstKOrder {
  int n_full;    // whole K tiles
  int has_tail;  // 1 when K % BK != 0

  TESSERA_HOST_DEVICE static constexpr PartialFirstKOrder make(int k, int bk) {
    return {k / bk, k % bk != 0 ? 1 : 0};
  }
  // Positions the main loop computes.
  TESSERA_HOST_DEVICE constexpr int tiles() const { return n_full + has_tail; }
  // K tile index (in units of BK) of position 0: the partial tile, or whole tile 0.
  TESSERA_HOST_DEVICE constexpr int first_tile() const { return has_tail * n_full; }
  // Whole tile index of position `pos` >= 1 (and of 0 when there is no partial tile);
  // positions past the end repeat the last whole tile (tile 0 when there is none).
  TESSERA_HOST_DEVICE constexpr int full_index(int pos) const {
    const int j = pos - has_tail;
    const int last = n_full > 0 ? n_full - 1 : 0;
    return j < 0 ? 0 : (j > last ? last : j);
  }
  // K tile index of any position.
  TESSERA_HOST_DEVICE constexpr int tile_at(int pos) const { return pos == 0 ? first_tile() : full_index(pos); }
  // After the load of position pos >= 1, does the cursor move one whole tile on?
  // full_index(pos + 1) - full_index(pos), as one unsigned compare.
  TESSERA_HOST_DEVICE constexpr bool step(int pos) const {
    return unsigned(pos - has_tail) < unsigned(n_full > 0 ? n_full - 1 : 0);
  }
  // Valid K values in position 0's tile (bk when it is whole).
  TESSERA_HOST_DEVICE constexpr int first_tile_depth(int k, int bk) const {
    return k - first_tile() * bk < bk ? k - first_tile() * bk : bk;
  }
};

}  // namespace tessera::gemm
