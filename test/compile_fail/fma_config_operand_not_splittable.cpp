// BlockTile 128x64x8 with 8x4 thread tiles is 16 x 16 = 256 threads, but the B tile
// (64 x 8) holds only 128 vectors of 4 elements: half the threads would load nothing, and
// the loader's per-thread count would be 0. K = 16 gives 256 vectors, one per thread.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using BlockTile = GemmShape<128, 64, 8>;
#else
using BlockTile = GemmShape<128, 64, 16>;
#endif
using Config = gemm::FmaConfig<Gfx942, float, RowMajor, float, RowMajor, float, RowMajor,
                               gemm::option::Tile<BlockTile>, gemm::option::ThreadTile<GemmShape<8, 4, 1>>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
