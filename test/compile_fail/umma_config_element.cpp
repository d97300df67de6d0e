// fp32 operands: .kind::f16 takes half_t or bfloat16_t (tf32 is not shipped).
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::CtaPair;
using gemm::OneCta;

#ifdef TESSERA_EXPECT_FAIL
using Config = gemm::UmmaConfig<float, RowMajor, float, ColumnMajor, float, RowMajor>;
#else
using Config = gemm::UmmaConfig<half_t, RowMajor, half_t, ColumnMajor, float, RowMajor>;
#endif
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
