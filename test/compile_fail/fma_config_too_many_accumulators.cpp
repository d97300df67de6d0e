// 16x16 = 256 accumulators per thread: with the fragments on top they cannot stay in
// registers. 128 (8x16) is the limit; the 128x128x8 tile splits over either count.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using ThreadTile = GemmShape<16, 16, 1>;
#else
using ThreadTile = GemmShape<8, 16, 1>;
#endif
using Config = gemm::FmaConfig<Gfx942, float, RowMajor, float, RowMajor, float, RowMajor,
                               gemm::option::Tile<GemmShape<128, 128, 8>>, gemm::option::ThreadTile<ThreadTile>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
