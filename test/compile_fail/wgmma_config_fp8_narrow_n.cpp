// fp8 block scales need an N tile of 64 or 128 (each tile under one B scale block); the narrow
// 16 and 32 tiles take the other scale modes (the transposed small-M tiles).
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Tile = GemmShape<128, 32, 128>;
#else
using Tile = GemmShape<128, 64, 128>;
#endif
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<Tile>, option::Scales<scale::Blockwise>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
