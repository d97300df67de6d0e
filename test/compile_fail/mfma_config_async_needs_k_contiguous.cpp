// A direct-to-LDS load writes lane i's bytes at LDS slot i, so it cannot transpose a
// row-major B (N-contiguous) into the K-contiguous layout the MFMA reads: refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using LayoutB = RowMajor;
#else
using LayoutB = ColumnMajor;
#endif
using Config = gemm::MfmaConfig<Gfx950, bfloat16_t, RowMajor, bfloat16_t, LayoutB, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, 32>>,
                                gemm::option::Schedule<schedule::PingPongAsync>, gemm::option::Stages<3>>;
static_assert(sizeof(Config) > 0, "");
