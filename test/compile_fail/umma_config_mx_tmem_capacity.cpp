// Block scales take tensor-memory columns beside the accumulators: two 256-column accumulators
// (all 512 columns) leave none for them; one accumulator buffer fits.
#include "tessera/gemm/umma/smem_plan.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr int kBuffers = 2;
#else
constexpr int kBuffers = 1;
#endif
using Config = gemm::UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 128>>,
                                gemm::option::AccumulatorBuffers<kBuffers>,
                                gemm::option::Scales<gemm::scale::Mx>>;
static_assert(sizeof(gemm::UmmaSmemPlan<Config>) > 0, "");  // plans shared and tensor memory
