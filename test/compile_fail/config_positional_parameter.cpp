// The parameters after the element types and layouts are options: the former positional
// spelling (a bare tile shape) is refused with a message that says so.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Tile = GemmShape<128, 128, 64>;
#else
using Tile = gemm::option::Tile<GemmShape<128, 128, 64>>;
#endif
using Config = gemm::MfmaConfig<Gfx942, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor, Tile>;
static_assert(sizeof(Config) > 0, "");
