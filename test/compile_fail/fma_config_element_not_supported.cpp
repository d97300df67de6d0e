// Operands are float, half_t or bfloat16_t (4 or 2 bytes, converted to float on the way
// into shared memory); an int (or double) operand is refused by the config, before any
// loader sees it.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using ElementA = int;
#else
using ElementA = half_t;
#endif
using Config = gemm::FmaConfig<Sm90, ElementA, RowMajor, float, RowMajor, float, RowMajor>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
