// A 256x256 Cooperative tile gives each consumer thread 256 accumulators: more than its registers hold.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                 gemm::option::Tile<GemmShape<256, 256, 64>>, gemm::option::Schedule<Cooperative>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                 gemm::option::Tile<GemmShape<256, 128, 64>>, gemm::option::Schedule<Cooperative>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
