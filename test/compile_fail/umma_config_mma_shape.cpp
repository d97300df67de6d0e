// A 64-row MMA tile on one CTA: tcgen05.mma's M = 64 keeps its accumulator in other TMEM lanes; not shipped.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::CtaPair;
using gemm::OneCta;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<64, 256, 64>>>;
#else
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
