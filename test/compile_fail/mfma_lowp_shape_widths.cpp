// The f8f6f4 instructions take any mix of formats, but the GEMM's MFMA atom shares one LDS
// tile geometry between A and B: both fp4 (two values a byte), or both 8-bit or fp6 (one
// value a byte slot). An fp8 x fp4 atom is refused; fp8 x fp6 is the control.
#include "tessera/arch/amd/mfma_lowp.hpp"
#include "tessera/mma/mfma_atom.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr amd::MfmaFormat kB = amd::MfmaFormat::kFp4;
#else
constexpr amd::MfmaFormat kB = amd::MfmaFormat::kBf6;
#endif
using Atom = mma::MfmaAtom<amd::MfmaLowpShape<32, 32, 64, amd::MfmaFormat::kFp8, kB, true>>;
static_assert(Atom::kReadsPerInstruction == 2, "");
