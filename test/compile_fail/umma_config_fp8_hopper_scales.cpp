// A scale mode of the wgmma family's fp8 scaling (per row/column floats, applied in software)
// on a tcgen05 fp8 configuration: refused, not ignored (the tcgen05 family takes scale::None,
// Mx and Nvfp4).
#include "tessera/gemm/scale_mode.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::Scales<gemm::scale::PerRowColumn>;
#else
using Extra = gemm::option::Scales<gemm::scale::None>;
#endif
using Config = gemm::UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 128>>, Extra>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
