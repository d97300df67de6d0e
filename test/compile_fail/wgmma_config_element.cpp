// wgmma takes f16 or bf16 operands here: fp32 A and B are refused.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::WgmmaConfig<float, RowMajor, float, ColumnMajor, float, RowMajor>;
#else
using Config = gemm::WgmmaConfig<half_t, RowMajor, half_t, ColumnMajor, float, RowMajor>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
