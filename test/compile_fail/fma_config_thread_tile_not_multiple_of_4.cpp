// A thread tile of 6 rows: each thread reads its rows as 16-byte vectors of 4 floats, so
// ThreadTile M and N must be multiples of 4. The block tile is chosen so that 6 divides
// it and every other FmaConfig check holds: only this one fires.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using ThreadTile = GemmShape<6, 8, 1>;
#else
using ThreadTile = GemmShape<12, 8, 1>;
#endif
using Config = gemm::FmaConfig<Gfx942, float, RowMajor, float, RowMajor, float, RowMajor,
                               gemm::option::Tile<GemmShape<96, 128, 32>>, gemm::option::ThreadTile<ThreadTile>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
