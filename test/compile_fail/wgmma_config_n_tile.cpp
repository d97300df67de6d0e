// wgmma's N spans the tile: 96 columns is no m64nNk16 the family issues.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 96, 64>>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 128, 64>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
