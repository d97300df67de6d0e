// fp6 operands exist only in gfx950's f8f6f4 MFMAs: a packed fp6 GEMM on gfx942 is refused;
// the same configuration on gfx950 is the control.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Arch = Gfx942;
#else
using Arch = Gfx950;
#endif
using Config = gemm::MfmaConfig<Arch, float6_e2m3x4_t, RowMajor, float6_e2m3x4_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>,
                                gemm::option::Instruction<amd::MfmaLowpShape<32, 32, 64, amd::MfmaFormat::kFp6, amd::MfmaFormat::kFp6>>>;
static_assert(sizeof(Config) > 0, "");
