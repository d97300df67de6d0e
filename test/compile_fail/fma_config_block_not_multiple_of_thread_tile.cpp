// A block tile of 136 rows with 16-row thread tiles: 136 / 16 leaves 8 rows no thread
// computes. The other extents keep the thread count (64) and the operand split valid, so
// only this check fires.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using BlockTile = GemmShape<136, 64, 32>;
#else
using BlockTile = GemmShape<128, 64, 32>;
#endif
using Config = gemm::FmaConfig<Gfx942, float, RowMajor, float, RowMajor, float, RowMajor,
                               gemm::option::Tile<BlockTile>, gemm::option::ThreadTile<GemmShape<16, 8, 1>>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
