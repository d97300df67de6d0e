// Six stages of a 128x256x64 tile (288 KiB) and the staging cannot fit 227 KiB: the plan names its buffers.
#include "tessera/gemm/wgmma/smem_plan.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::Schedule<Cooperative>,
                                 gemm::option::Stages<6>>;
#else
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::Schedule<Cooperative>,
                                 gemm::option::Stages<4>>;
#endif
static_assert(sizeof(gemm::WgmmaSmemPlan<Config>) > 0, "");  // the plan of the configuration: its capacity checks run
