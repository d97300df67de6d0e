// gfx950's 32x32x64 MFMA with fp8 operands takes two 16-byte read steps; four clusters slice
// a 128-deep K tile (4 read steps) finer than that. Refused, naming why.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Schedule = schedule::PingPongFourClusters;
#else
using Schedule = schedule::PingPongTwoClusters;
#endif
using Config = gemm::MfmaConfig<Gfx950, float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 128, 128>>, gemm::option::Schedule<Schedule>>;
static_assert(sizeof(Config) > 0, "");
