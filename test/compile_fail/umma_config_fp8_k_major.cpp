// fp8 operands with B N-major (row-major B): tcgen05 reads 8-bit operands K-major only.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using LayoutB = RowMajor;
#else
using LayoutB = ColumnMajor;
#endif
using Config = gemm::UmmaConfig<float8_e4m3_t, RowMajor, float8_e5m2_t, LayoutB, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 128>>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
