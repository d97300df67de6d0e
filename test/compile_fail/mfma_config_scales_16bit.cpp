// Operand scales are for fp8 and fp4 operands: a bf16 configuration with them is refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Scales = gemm::scale::PerTensor;
#else
using Scales = gemm::scale::None;
#endif
using Config = gemm::MfmaConfig<Gfx950, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 64>>,
                                gemm::option::Instruction<amd::Mfma32x32x16Bf16>,
                                gemm::option::Scales<Scales>>;
static_assert(sizeof(Config) > 0, "");
