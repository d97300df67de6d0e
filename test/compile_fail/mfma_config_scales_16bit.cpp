// Operand scales are for fp8 and fp4 operands: a bf16 configuration with them is refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Scales = gemm::operand_scale::PerTensor;
#else
using Scales = gemm::operand_scale::None;
#endif
using Config = gemm::MfmaConfig<Gfx950, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                GemmShape<128, 128, 64>, schedule::Auto<>, 2, amd::Mfma32x32x16Bf16,
                                gemm::option::OperandScales<Scales>>;
static_assert(sizeof(Config) > 0, "");
