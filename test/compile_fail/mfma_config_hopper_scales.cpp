// A scale mode of the wgmma family's fp8 scaling (block floats per 1x128 / 128x128) on an MFMA
// fp8 configuration: refused, not ignored (the MFMA family takes scale::None, PerTensor, Mx).
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/gemm/scale_mode.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::Scales<gemm::scale::Blockwise>;
#else
using Extra = gemm::option::Scales<gemm::scale::PerTensor>;
#endif
using Config = gemm::MfmaConfig<Gfx942, float8_e4m3fnuz_t, RowMajor, float8_e4m3fnuz_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>,
                                gemm::option::Instruction<amd::MfmaLowpShape<32, 32, 16, amd::MfmaFormat::kFp8, amd::MfmaFormat::kFp8>>, Extra>;
static_assert(sizeof(Config) > 0, "");
