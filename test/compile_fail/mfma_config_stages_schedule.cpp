// Three stages are the async schedule's (direct-to-LDS); the four-cluster schedule keeps
// the next tile in registers and runs two. Asking for both is refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr int kStages = 3;
#else
constexpr int kStages = 2;
#endif
using Config = gemm::MfmaConfig<Gfx950, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, 64>>,
                                gemm::option::Schedule<schedule::PingPongFourClusters>, gemm::option::Stages<kStages>>;
static_assert(sizeof(Config) > 0, "");
