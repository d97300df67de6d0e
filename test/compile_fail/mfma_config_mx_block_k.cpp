// With MX scales a K tile holds 4 or 8 scale blocks (128 or 256 values of K): a 64-deep
// fp4 tile (2 blocks) is refused.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr int kK = 64;
#else
constexpr int kK = 128;
#endif
using Config = gemm::MfmaConfig<Gfx950, float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, kK>>,
                                gemm::option::Schedule<schedule::NoPingPong<4>>,
                                gemm::option::Instruction<amd::MfmaLowpShape<32, 32, 64, amd::MfmaFormat::kFp4, amd::MfmaFormat::kFp4>>,
                                gemm::option::Scales<gemm::scale::Mx>>;
static_assert(sizeof(Config) > 0, "");
