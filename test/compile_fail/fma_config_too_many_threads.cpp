// A 256x256 block tile of 4x8 thread tiles needs 64 x 32 = 2048 threads; a block may
// have 1024. The K extent (32) keeps each operand tile splittable over 2048 threads, so
// only the thread limit fires.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using ThreadTile = GemmShape<4, 8, 1>;
#else
using ThreadTile = GemmShape<8, 8, 1>;  // 1024 threads
#endif
using Config = gemm::FmaConfig<Gfx942, float, RowMajor, float, RowMajor, float, RowMajor,
                               gemm::option::Tile<GemmShape<256, 256, 32>>, gemm::option::ThreadTile<ThreadTile>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
