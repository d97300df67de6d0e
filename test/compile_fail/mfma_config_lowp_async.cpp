// The async (direct-to-LDS) schedule takes 16-bit operands only.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Element = float8_e4m3_t;
#else
using Element = bfloat16_t;
#endif
using Config = gemm::MfmaConfig<Gfx950, Element, RowMajor, Element, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, 64>>,
                                gemm::option::Schedule<schedule::PingPongAsync>, gemm::option::Stages<3>>;
static_assert(sizeof(Config) > 0, "");
