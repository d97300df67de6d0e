// NVFP4 on fp4 x fp4 (.kind::mxf4nvf4) reads fp4 packed: its K tile is 256 values (one
// 128-byte line a row, 16 scale blocks of 16); 128 values would be half a line.
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr int kK = 128;
#else
constexpr int kK = 256;
#endif
using Config = gemm::UmmaConfig<float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 128, kK>>, gemm::option::CtaGroup<gemm::CtaPair>,
                                gemm::option::Scales<gemm::scale::Nvfp4>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
