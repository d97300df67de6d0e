// A 64-row tile with an M-contiguous A split between 2 CTAs gives 32-column slices, no whole swizzle atom.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<64, 256, 64>>, gemm::option::Schedule<Pingpong>,
                                 gemm::option::Cluster<1, 2>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<64, 256, 64>>, gemm::option::Schedule<Pingpong>,
                                 gemm::option::Cluster<2, 1>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
