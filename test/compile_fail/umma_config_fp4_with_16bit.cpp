// One tcgen05.mma kind reads both operands: fp4 A with a 16-bit B has none.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using EB = half_t;
#else
using EB = float4_e2m1x2_t;
#endif
using Config = gemm::UmmaConfig<float4_e2m1x2_t, RowMajor, EB, ColumnMajor, half_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 128>>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
