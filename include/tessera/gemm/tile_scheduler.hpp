// Maps a linear block index to the output tile it computes. Blocks that run at the same
// time should share operand tiles in L2: consecutive blocks walk down a group of
// kGroupM tile rows before moving one tile column right (Triton's "grouped ordering").
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"

namespace tessera::gemm {

struct TileCoord {
  int m;  // tile row
  int n;  // tile column
};

template <int kGroupM = 8>
struct GroupedRasterScheduler {
  static_assert(kGroupM >= 1, "Tessera: GroupedRasterScheduler needs a group of at least one tile row");
  int tiles_m;
  int tiles_n;

  TESSERA_HOST_DEVICE static GroupedRasterScheduler make(std::int64_t M, std::int64_t N, int tile_m,
                                                         int tile_n) {
    return {int(ceil_div<std::int64_t>(M, tile_m)), int(ceil_div<std::int64_t>(N, tile_n))};
  }
  TESSERA_HOST_DEVICE std::int64_t num_tiles() const {
    return std::int64_t(tiles_m) * std::int64_t(tiles_n);
  }
  TESSERA_HOST_DEVICE TileCoord tile(int linear) const {
    const int tiles_per_group = kGroupM * tiles_n;
    const int group = linear / tiles_per_group;
    const int first_m = group * kGroupM;
    const int rows_in_group = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
    const int within = linear - group * tiles_per_group;
    return {first_m + within % rows_in_group, within / rows_in_group};
  }
};

}  // namespace tessera::gemm
