// gfx942's fp8 MFMAs read the fnuz formats: OCP e4m3 operands on gfx942 are refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Element = float8_e4m3_t;
#else
using Element = float8_e4m3fnuz_t;
#endif
using Config = gemm::MfmaConfig<Gfx942, Element, RowMajor, Element, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>>;
static_assert(sizeof(Config) > 0, "");
