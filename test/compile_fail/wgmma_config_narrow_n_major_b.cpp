// An N tile below 64 is one 16- or 32-element slice of B per K step: an N-major (row-major) B
// tile comes in 64-element (128-byte) chunks of N, which such a tile cannot hold.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 16, 64>>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 16, 64>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
