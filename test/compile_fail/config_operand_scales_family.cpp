// Only the families with low-precision operands read option::OperandScales; the FMA family
// refuses it rather than ignore it.
#include "tessera/gemm/fma/config.hpp"
#include "tessera/gemm/operand_scales.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::OperandScales<gemm::operand_scale::PerTensor>;
#else
using Extra = gemm::option::OutputElement<float>;
#endif
using Config = gemm::FmaConfig<Sm90, float, RowMajor, float, ColumnMajor, float, RowMajor, float,
                               GemmShape<128, 256, 16>, GemmShape<8, 8, 1>, 2, 1, Extra>;
static_assert(sizeof(Config) > 0, "");
