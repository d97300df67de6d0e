// The fp8 small-M path (WgmmaFp8SmallM, D^T = B^T A^T) stores D from registers: an fp8 D (which
// needs the wgmma kernel's TMA epilogue, its scale and amax per 128 columns) is refused.
#include "tessera/gemm/select/small_m.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using D = float8_e4m3_t;
#else
using D = bfloat16_t;
#endif
using Config = WgmmaFp8SmallM<float8_e4m3_t, float8_e4m3_t, D, scale::Blockwise>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
