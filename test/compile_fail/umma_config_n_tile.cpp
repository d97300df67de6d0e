// An N tile of 96: a valid MMA width, but the epilogue stores whole 128-byte lines of D.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::CtaPair;
using gemm::OneCta;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 96, 64>>>;
#else
using Config = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 64>>>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
