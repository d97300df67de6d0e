// The FMA kernel accumulates with __builtin_fmaf: a double (or half) accumulator is refused.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Accumulator = double;
#else
using Accumulator = float;
#endif
using Config =
    gemm::FmaConfig<Sm90, float, RowMajor, float, RowMajor, float, RowMajor, gemm::option::Accumulator<Accumulator>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
