// fp6 mixes with fp8 (both take one LDS byte slot a value) but not with fp4 (two values a
// byte): an fp6 x fp4 GEMM is refused; fp6 x fp8 is the control.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using ElementB = float4_e2m1x2_t;
constexpr amd::MfmaFormat kB = amd::MfmaFormat::kFp4;
#else
using ElementB = float8_e4m3_t;
constexpr amd::MfmaFormat kB = amd::MfmaFormat::kFp8;
#endif
using Config = gemm::MfmaConfig<Gfx950, float6_e2m3x4_t, RowMajor, ElementB, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>,
                                gemm::option::Instruction<amd::MfmaLowpShape<32, 32, 64, amd::MfmaFormat::kFp6, kB>>>;
static_assert(sizeof(Config) > 0, "");
