// The FMA configurations the FMA mutation checks run through the host API (one; the
// split-K check also a column-major D): built with a mutated copy of a library header
// ahead of the library's on the include path (test/emulator/CMakeLists.txt).
#define EMU_TEST_DEFINE_GEMM 1
#include "emulated_gemm.hpp"
#include "fma_configs.hpp"

namespace emu_test {
template struct EmulatedGemm<Gfx942Fma<float, float, float, RowMajor, RowMajor, RowMajor>>;
#if defined(EMU_TEST_MUTANT_FMA_SPLIT_K_OFFSET)
template struct EmulatedGemm<Gfx942Fma<float, float, float, RowMajor, ColumnMajor, ColumnMajor>>;
#endif
}  // namespace emu_test
