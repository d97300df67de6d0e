// The epilogue fills one staging box while the stores of the others drain (and, with C staged
// by TMA, releases a box one box late): it needs at least two per warpgroup.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>,
                                 gemm::option::StagingBoxes<1>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>,
                                 gemm::option::StagingBoxes<2>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
