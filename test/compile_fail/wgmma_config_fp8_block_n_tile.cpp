// Block scales: an N tile of 192 would straddle two 128-column scale blocks.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 192, 128>>, option::Scales<scale::Blockwise>>;
#else
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 192, 128>>, option::Scales<scale::PerTensor>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
