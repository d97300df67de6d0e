// The cluster split-K kernel sums the partial tiles of both consumer warpgroups of one tile:
// its tile configuration must be Cooperative, not Pingpong (one tile per warpgroup).
#include "tessera/gemm/wgmma/cluster_split_config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Tile = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                               gemm::option::Tile<GemmShape<128, 128, 64>>,
                               gemm::option::Schedule<schedule::Pingpong>>;
#else
using Tile = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                               gemm::option::Tile<GemmShape<128, 128, 64>>,
                               gemm::option::Schedule<schedule::Cooperative>>;
#endif
static_assert(sizeof(gemm::ClusterSplitK<Tile>) > 0, "");  // completes the class: its static_asserts run
