// Two clusters read the whole K tile's operands before the first dot; at 256x256x64 that
// is 96 registers beside 128 accumulators and 32 for the next tile, past the 256 two waves
// per SIMD allow (the seed uses four clusters there). Refused, naming the fix.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Tile = GemmShape<256, 256, 64>;
#else
using Tile = GemmShape<256, 128, 64>;
#endif
using Config = gemm::MfmaConfig<Gfx942, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<Tile>,
                                gemm::option::Schedule<schedule::PingPongTwoClusters>>;
static_assert(sizeof(Config) > 0, "");
