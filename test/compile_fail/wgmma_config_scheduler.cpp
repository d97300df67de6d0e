// The wgmma family's kernel walks DataParallel's or StreamK's units (a fix-up follows only
// StreamK's); the FMA family's one-unit-per-block SplitKSlices is not one of them.
#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Scheduler = gemm::scheduler::SplitKSlices;
#else
using Scheduler = gemm::scheduler::StreamK<>;
#endif
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 GemmShape<128, 256, 64>, schedule::AutoSm90, gemm::ClusterShape<1, 1>, 0,
                                 gemm::option::Scheduler<Scheduler>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
