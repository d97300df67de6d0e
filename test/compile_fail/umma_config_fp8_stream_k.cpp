// tcgen05 fp8 operands are walked data-parallel only: scheduler::StreamK<> is refused for them
// (16-bit operands take it).
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Element = float8_e4m3_t;
using Tile = GemmShape<128, 256, 128>;
#else
using Element = bfloat16_t;
using Tile = GemmShape<128, 256, 64>;
#endif
using Config = gemm::UmmaConfig<Element, RowMajor, Element, ColumnMajor, float, RowMajor, gemm::option::Tile<Tile>, gemm::option::Scheduler<gemm::scheduler::StreamK<>>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
