// The 16-bit FMA configurations of fma_configs.hpp through the host API, for the emulator
// (an instrumented translation unit: see emulated_gemm.hpp).
#define EMU_TEST_DEFINE_GEMM 1
#include "emulated_gemm.hpp"
#include "fma_configs.hpp"

namespace emu_test {
EMU_TEST_FMA_16BIT_CONFIGS(EMU_TEST_INSTANTIATE)
}  // namespace emu_test
