// An fp8 D is staged in boxes of 64 rows x 128 one-byte columns: row-major only.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float8_e4m3_t, ColumnMajor,
                           option::Tile<GemmShape<128, 128, 128>>>;
#else
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float8_e4m3_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 128>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
