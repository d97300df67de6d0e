// The MFMA configurations of one schedule mutant (test/emulator/CMakeLists.txt,
// tessera_schedule_mutant), built against the mutated copy of schedule/amd_pingpong.hpp
// that comes first on the include path: the configurations mutation_mfma_configs.hpp
// names (mutation_mfma_gemm.cpp runs them).
#define EMU_TEST_DEFINE_GEMM 1
#define EMU_TEST_MFMA_FAMILY 1
#include "emulated_gemm.hpp"
#include "mfma_gemm_configs.hpp"
#include "mutation_mfma_configs.hpp"

namespace emu_test {
EMU_TEST_MUTANT_MFMA_CONFIGS(EMU_TEST_INSTANTIATE)
}  // namespace emu_test
