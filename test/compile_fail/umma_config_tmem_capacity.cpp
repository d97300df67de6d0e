// Three accumulator buffers of a 256-column N tile need 768 tensor-memory columns; the SM has
// 512. The TMEM plan's check names the target, both numbers and the buffers.
#include "tessera/gemm/umma/smem_plan.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::OneCta;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::AccumulatorBuffers<3>>;
#else
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>>;
#endif
static_assert(sizeof(gemm::UmmaSmemPlan<Config>) > 0, "");  // the plan of the configuration: its capacity checks run
