// The FMA family's split-K rule: when a problem has too few output tiles to give every SM a
// block, the K dimension is cut into slices computed by separate blocks; each writes its
// partial tile (fp32) to a workspace, and a second kernel sums the slices in a fixed order and
// applies the epilogue (so results do not depend on timing). The rule is
// scheduler::reduce::SecondKernel's (scheduler/stream_k.hpp), which walks the slices.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera::gemm {

struct SplitK {
  int splits;             // K slices (1: no split)
  int k_tiles_per_split;  // K tiles each slice covers (the last may cover fewer)
};

// The split for `tiles` output tiles of `k_tiles` K tiles each on a GPU of `sms`
// multiprocessors (one block each): as many slices as fit in one wave of blocks, so
// only problems that leave at least half the SMs idle are split (a second, partial
// wave costs more than it gains: measured, benchmark/notes/fma.md), each slice at least
// `min_k_tiles` deep (shallower slices cost more in partial-tile traffic than they
// gain), at most `max_splits`. No slice is ever empty.
TESSERA_HOST_DEVICE constexpr SplitK choose_split_k(std::int64_t tiles, std::int64_t k_tiles,
                                                    int sms, int min_k_tiles = 8,
                                                    int max_splits = 32) {
  const SplitK none{1, int(k_tiles)};
  if (tiles <= 0 || k_tiles <= 0 || tiles >= sms) return none;
  std::int64_t splits = sms / tiles;                       // blocks within one wave
  const std::int64_t by_depth = k_tiles / min_k_tiles;     // slices deep enough
  if (splits > by_depth) splits = by_depth;
  if (splits > max_splits) splits = max_splits;
  if (splits <= 1) return none;
  const std::int64_t per_split = (k_tiles + splits - 1) / splits;
  return {int((k_tiles + per_split - 1) / per_split), int(per_split)};  // no empty slice
}

}  // namespace tessera::gemm
