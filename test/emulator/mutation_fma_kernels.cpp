// One FMA configuration through the host API, for the mutation check that removes a
// barrier from the FMA kernel: built with a mutated copy of fma_gemm_kernel.hpp ahead of
// the library's on the include path (test/emulator/CMakeLists.txt).
#define EMU_TEST_DEFINE_GEMM 1
#include "emulated_gemm.hpp"
#include "fma_configs.hpp"

namespace emu_test {
template struct EmulatedGemm<Gfx942Fma<float, float, float, RowMajor, RowMajor, RowMajor>>;
}  // namespace emu_test
