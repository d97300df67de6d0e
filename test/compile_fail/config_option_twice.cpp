// Each option may be given once: two tiles are refused rather than one of them taken.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::Tile<GemmShape<128, 128, 64>>;
#else
using Extra = gemm::option::Stages<4>;
#endif
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>, Extra>;
static_assert(sizeof(Config) > 0, "");
