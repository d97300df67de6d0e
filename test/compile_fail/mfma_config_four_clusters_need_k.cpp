// Four clusters slice the dot in 4 along K: with 32x32 MFMAs one 16-byte read covers 16
// values of K, so BlockTile K 32 has only 2 read steps to slice. Refused, naming why.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr int kK = 32;
#else
constexpr int kK = 64;
#endif
using Config = gemm::MfmaConfig<Gfx942, half_t, RowMajor, half_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, kK>>,
                                gemm::option::Schedule<schedule::PingPongFourClusters>>;
static_assert(sizeof(Config) > 0, "");
