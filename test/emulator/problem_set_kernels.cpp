// The MFMA configurations of problem_set_configs.hpp through the host API, for the emulator (an
// instrumented translation unit: see emulated_gemm.hpp).
#define EMU_TEST_DEFINE_GEMM 1
#define EMU_TEST_MFMA_FAMILY 1
#include "emulated_gemm.hpp"
#include "problem_set_configs.hpp"

namespace emu_test {
EMU_TEST_PROBLEM_SET_CONFIGS(EMU_TEST_INSTANTIATE)
}  // namespace emu_test
