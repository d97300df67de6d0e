// The shipped low-precision MFMA GEMM configurations for gfx942 through the host API, for the
// emulator (an instrumented translation unit: see emulated_gemm.hpp and mfma_lowp_gemm_configs.hpp).
#define EMU_TEST_DEFINE_GEMM 1
#define EMU_TEST_MFMA_FAMILY 1
#include "emulated_gemm.hpp"
#include "mfma_lowp_gemm_configs.hpp"

namespace emu_test {
EMU_TEST_MFMA_LOWP_GFX942_CONFIGS(EMU_TEST_INSTANTIATE)
}  // namespace emu_test
