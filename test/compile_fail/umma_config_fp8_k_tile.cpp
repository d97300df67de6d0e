// fp8 operands with the 16-bit types' K tile of 64: a stage row is 128 bytes, 128 fp8 values.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Tile = GemmShape<128, 256, 64>;
#else
using Tile = GemmShape<128, 256, 128>;
#endif
using Config = gemm::UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<Tile>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
