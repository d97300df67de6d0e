// Block scales are applied by the block-scaled kinds, whose operands are fp8 / fp6 / fp4:
// 16-bit operands have none.
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using E = bfloat16_t;
constexpr int kK = 64;
#else
using E = float8_e5m2_t;
constexpr int kK = 128;
#endif
using Config = gemm::UmmaConfig<E, RowMajor, E, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, kK>>, gemm::option::Scales<gemm::scale::Mx>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
