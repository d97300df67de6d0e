// MX block scales are applied by gfx950's v_mfma_scale instructions: gfx942 has none.
#include "tessera/gemm/mfma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Scales = gemm::scale::Mx;
#else
using Scales = gemm::scale::PerTensor;
#endif
using Config = gemm::MfmaConfig<Gfx942, float8_e4m3fnuz_t, RowMajor, float8_e4m3fnuz_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>,
                                gemm::option::Instruction<amd::MfmaLowpShape<32, 32, 16, amd::MfmaFormat::kFp8, amd::MfmaFormat::kFp8>>,
                                gemm::option::Scales<Scales>>;
static_assert(sizeof(Config) > 0, "");
