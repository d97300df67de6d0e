// option::Scales means nothing for 16-bit operands.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 256, 64>>, option::Scales<scale::Blockwise>>;
#else
using Config = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 256, 64>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
