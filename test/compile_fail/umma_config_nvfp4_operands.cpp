// NVFP4 scales (ue4m3 per 16 values) are applied by .kind::mxf4nvf4, whose operands are both
// fp4: an fp8 operand has no such MMA.
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using EA = float8_e4m3_t;
constexpr int kK = 128;
#else
using EA = float4_e2m1x2_t;
constexpr int kK = 256;
#endif
using Config = gemm::UmmaConfig<EA, RowMajor, float4_e2m1x2_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, kK>>,
                                gemm::option::Scales<gemm::scale::Nvfp4>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
