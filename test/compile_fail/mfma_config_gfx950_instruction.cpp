// 32x32x16 MFMAs exist only on gfx950.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Instruction = amd::Mfma32x32x16F16;
#else
using Instruction = amd::Mfma32x32x8F16;
#endif
using Config = gemm::MfmaConfig<Gfx942, half_t, RowMajor, half_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, 64>>, gemm::option::Instruction<Instruction>>;
static_assert(sizeof(Config) > 0, "");
