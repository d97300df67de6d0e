// Low-precision (fp8, fp4) operands are walked data-parallel only: scheduler::StreamK<> is
// refused for them (16-bit operands take it).
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Element = float8_e4m3_t;
#else
using Element = bfloat16_t;
#endif
using Config = gemm::MfmaConfig<Gfx950, Element, RowMajor, Element, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, 64>>,
                                gemm::option::Scheduler<gemm::scheduler::StreamK<>>>;
static_assert(sizeof(Config) > 0, "");
