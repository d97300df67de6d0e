// A bias of integers makes no sense to the epilogue (it works in float): refused by type.
#include "tessera/gemm/epilogue/vector_epilogues.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Bias = gemm::ColumnBias<int>;
#else
using Bias = gemm::ColumnBias<bfloat16_t>;
#endif
static_assert(sizeof(Bias) > 0, "");  // completes the class: its static_asserts run
