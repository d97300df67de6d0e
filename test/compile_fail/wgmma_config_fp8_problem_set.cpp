// fp8 operands compute one GEMM per call: a batched or grouped scheduler is refused.
#include "tessera/gemm/scheduler/grouped.hpp"
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 128>>, option::Scheduler<scheduler::Grouped<group_layout::Contiguous>>>;
#else
using Config = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 128, 64>>, option::Scheduler<scheduler::Grouped<group_layout::Contiguous>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
