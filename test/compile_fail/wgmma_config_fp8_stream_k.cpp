// fp8 operands compute one GEMM per call with scheduler::DataParallel: the stream-K fix-up
// applies no fp8 scales, so scheduler::StreamK<> is refused (16-bit operands take it).
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Element = float8_e4m3_t;
using Tile = GemmShape<128, 128, 128>;
#else
using Element = bfloat16_t;
using Tile = GemmShape<128, 128, 64>;
#endif
using Config = WgmmaConfig<Element, RowMajor, Element, ColumnMajor, bfloat16_t, RowMajor, option::Tile<Tile>, option::Scheduler<scheduler::StreamK<>>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
