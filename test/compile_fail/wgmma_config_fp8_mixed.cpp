// One fp8 and one 16-bit operand: refused (wgmma takes fp8 with fp8).
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 128>>>;
#else
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e5m2_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 128>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
