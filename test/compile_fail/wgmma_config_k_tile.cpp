// The K tile is one 128-byte swizzled line of 16-bit elements: 64, not 32.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<half_t, RowMajor, half_t, ColumnMajor, float, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 32>>>;
#else
using Config = gemm::WgmmaConfig<half_t, RowMajor, half_t, ColumnMajor, float, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
