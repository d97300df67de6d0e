// The wgmma family's kernel walks any tile scheduler whose partials, if any, are reduced in the
// launch (StreamK<> with the in-launch medium); StreamK<reduce::SecondKernel>, the FMA family's,
// needs a second launch the wgmma family does not make, and is refused.
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Scheduler = gemm::scheduler::StreamK<gemm::scheduler::reduce::SecondKernel>;
#else
using Scheduler = gemm::scheduler::StreamK<>;
#endif
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>,
                                 gemm::option::Scheduler<Scheduler>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
