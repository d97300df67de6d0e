// No accumulator buffer at all.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::CtaPair;
using gemm::OneCta;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::AccumulatorBuffers<0>>;
#else
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::AccumulatorBuffers<1>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
