// fp6 operands of the tcgen05 family are stored packed (float6_e2m3x4_t: four values in three
// bytes), as TMA's unpacking type reads them; Tessera's one-value-a-byte float6_e2m3_t is not
// an operand type there (TMA cannot load it into the layout the MMA reads).
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using EA = float6_e2m3_t;
#else
using EA = float6_e2m3x4_t;
#endif
using Config = gemm::UmmaConfig<EA, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 128>>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
