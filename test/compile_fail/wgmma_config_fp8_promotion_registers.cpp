// Promoted accumulation doubles the accumulators: 64 x 256 per warpgroup does not fit (the fast one does).
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

#ifdef TESSERA_EXPECT_FAIL
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 256, 128>>, option::Scales<scale::PerTensor>>;
#else
using Config = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                           option::Tile<GemmShape<128, 256, 128>>, option::Scales<scale::Fast<scale::PerTensor>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
