// Pingpong gives each warpgroup a whole tile: 256 rows do not fit one.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<256, 128, 64>>, gemm::option::Schedule<Pingpong>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 128, 64>>, gemm::option::Schedule<Pingpong>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
