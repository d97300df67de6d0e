// The low-precision MFMA configurations of one mutant (test/emulator/CMakeLists.txt,
// tessera_lowp_mutant), built against the mutated copy of one library header that comes
// first on the include path: the configurations mutation_lowp_configs.hpp names.
#define EMU_TEST_DEFINE_GEMM 1
#define EMU_TEST_MFMA_FAMILY 1
#include "emulated_gemm.hpp"
#include "mutation_lowp_configs.hpp"

namespace emu_test {
EMU_TEST_MUTANT_LOWP_CONFIGS(EMU_TEST_INSTANTIATE)
}  // namespace emu_test
