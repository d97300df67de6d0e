// Only the families that scale operands read option::Scales; the FMA family
// refuses it rather than ignore it.
#include "tessera/gemm/fma/config.hpp"
#include "tessera/gemm/operand_scales.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::Scales<gemm::scale::PerTensor>;
#else
using Extra = gemm::option::OutputElement<float>;
#endif
using Config = gemm::FmaConfig<Sm90, float, RowMajor, float, ColumnMajor, float, RowMajor,
                               gemm::option::Tile<GemmShape<128, 256, 16>>,
                               gemm::option::ThreadTile<GemmShape<8, 8, 1>>, Extra>;
static_assert(sizeof(Config) > 0, "");
