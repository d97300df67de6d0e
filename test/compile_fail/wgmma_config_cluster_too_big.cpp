// A cluster of 8 CTAs is refused (the family supports 1 to 4).
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::Schedule<Cooperative>,
                                 gemm::option::Cluster<4, 2>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::Schedule<Cooperative>,
                                 gemm::option::Cluster<2, 2>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
