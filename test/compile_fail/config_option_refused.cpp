// A family refuses, naming it, an option it does not read (another family's): the wgmma family
// chooses its instruction from the tile, option::Instruction is the MFMA family's.
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::Instruction<int>;
#else
using Extra = gemm::option::Stages<4>;
#endif
using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, Extra>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
