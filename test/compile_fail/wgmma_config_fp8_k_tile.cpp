// fp8 operands: one wgmma step covers 32 of K, so a K tile of 48 cannot work.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 48>>>;
#else
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 128>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
