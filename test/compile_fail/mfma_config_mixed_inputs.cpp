// One MFMA instruction reads A and B of one type: half_t A with bfloat16_t B is refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using ElementB = bfloat16_t;
#else
using ElementB = half_t;
#endif
using Config = gemm::MfmaConfig<Gfx942, half_t, RowMajor, ElementB, ColumnMajor, float, RowMajor>;
static_assert(sizeof(Config) > 0, "");
