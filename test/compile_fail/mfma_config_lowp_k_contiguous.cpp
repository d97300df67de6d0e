// fp8 operands are copied into LDS without a transpose: a column-major A is refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using LayoutA = ColumnMajor;
#else
using LayoutA = RowMajor;
#endif
using Config = gemm::MfmaConfig<Gfx942, float8_e4m3fnuz_t, LayoutA, float8_e4m3fnuz_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>>;
static_assert(sizeof(Config) > 0, "");
