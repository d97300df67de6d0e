// The async schedule's direct-to-LDS loads move 16 bytes per lane, which only gfx950 has
// (gfx942: 4 bytes). Asking for it on gfx942 names the reason.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Arch = Gfx942;
using Instruction = amd::Mfma32x32x8Bf16;
#else
using Arch = Gfx950;
using Instruction = amd::Mfma32x32x16Bf16;
#endif
using Config = gemm::MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, 32>>,
                                gemm::option::Schedule<schedule::PingPongAsync>, gemm::option::Stages<3>,
                                gemm::option::Instruction<Instruction>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
