// Cooperative splits the rows between two warpgroups of at least 64 rows: a 64-row tile cannot.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<64, 256, 64>>, gemm::option::Schedule<Cooperative>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::Schedule<Cooperative>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
