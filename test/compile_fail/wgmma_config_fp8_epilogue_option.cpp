// fp8 configurations apply their scales in their own epilogue: option::Epilogue is refused.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 128>>, option::Epilogue<LinearCombination>>;
#else
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 128>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
