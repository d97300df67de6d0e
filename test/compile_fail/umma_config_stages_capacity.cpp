// Six stages of a 128x256x64 tile (288 KiB) cannot fit 227 KiB: the plan names its buffers.
#include "tessera/gemm/umma/smem_plan.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::CtaPair;
using gemm::OneCta;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::Stages<6>>;
#else
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::Stages<4>>;
#endif
static_assert(sizeof(gemm::UmmaSmemPlan<Config>) > 0, "");  // the plan of the configuration: its capacity checks run
