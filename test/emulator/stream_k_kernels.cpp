// The MFMA configurations with scheduler::StreamK<> through the host API, for the emulator (an
// instrumented translation unit: see emulated_gemm.hpp and stream_k_configs.hpp).
#define EMU_TEST_DEFINE_GEMM 1
#define EMU_TEST_MFMA_FAMILY 1
#include "emulated_gemm.hpp"
#include "stream_k_configs.hpp"

namespace emu_test {
EMU_TEST_STREAM_K_CONFIGS(EMU_TEST_INSTANTIATE)
}  // namespace emu_test
