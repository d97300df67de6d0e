// One f8f6f4 MFMA reads A and B with one width here (both 8-bit, or both fp4).
#include "tessera/arch/amd/mfma_lowp.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr amd::MfmaFormat kB = amd::MfmaFormat::kFp4;
#else
constexpr amd::MfmaFormat kB = amd::MfmaFormat::kBf8;
#endif
using Shape = amd::MfmaLowpShape<32, 32, 64, amd::MfmaFormat::kFp8, kB, true>;
static_assert(sizeof(Shape) > 0, "");
