// One cluster pairs waves of two workgroups on a CU, so the plan must fit twice in the
// CU's LDS: 192x128x64 needs 40 KiB, over half of gfx942's 64 KiB (its registers fit).
// The config is valid; the plan's check refuses it.
#include "tessera/gemm/mfma/smem_plan.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Tile = GemmShape<192, 128, 64>;
#else
using Tile = GemmShape<128, 128, 64>;
#endif
using Config = gemm::MfmaConfig<Gfx942, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<Tile>,
                                gemm::option::Schedule<schedule::PingPongOneCluster>>;
static_assert(gemm::MfmaSmemPlan<Config>::Plan::kTotalBytes > 0, "");  // instantiates the plan
