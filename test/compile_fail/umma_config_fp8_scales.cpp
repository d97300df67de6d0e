// The tcgen05 family issues no block-scaled kind and applies no operand scales: it refuses
// option::OperandScales rather than ignore it (fp8 there is unscaled .kind::f8f6f4).
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma_config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::OperandScales<gemm::operand_scale::Mx>;
#else
using Extra = gemm::option::OutputElement<float>;
#endif
using Config = gemm::UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                                GemmShape<128, 256, 128>, gemm::OneCta, gemm::ClusterShape<1, 1>, 2, 0, Extra>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
