// A CTA pair with a 128-row MMA tile: a pair's MMA here is 256 rows (128 per CTA).
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::CtaPair;
using gemm::OneCta;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::CtaGroup<CtaPair>>;
#else
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, 64>>, gemm::option::CtaGroup<CtaPair>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
