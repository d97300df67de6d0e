// Five of the shipped low-precision MFMA configurations through the host API, for the
// emulator (an instrumented translation unit: test/emulator/emulated_gemm.hpp), run by
// test_lowp_bench_data.cpp on the benchmark's own inputs: fnuz fp8 with per-tensor scales
// (gfx942), MXFP8 with fp16 column-major D, MXFP4, MXFP6 e2m3 x MXFP8 e4m3, and e5m2 x
// bf6 e3m2 with per-tensor scales (gfx950).
#define EMU_TEST_DEFINE_GEMM 1
#define EMU_TEST_MFMA_FAMILY 1
#include "emulated_gemm.hpp"
#include "mfma_lowp_configs.hpp"

namespace emu_test {
template struct EmulatedGemm<::examples::mfma_lowp::Fp8OneCluster942>;
template struct EmulatedGemm<::examples::mfma_lowp::Mxfp8OneCluster16x950>;
template struct EmulatedGemm<::examples::mfma_lowp::Mxfp4OneCluster16x950>;
template struct EmulatedGemm<::examples::mfma_lowp::Mxfp6Fp8OneCluster16x950>;
template struct EmulatedGemm<::examples::mfma_lowp::Fp8Bf6Baseline950>;
}  // namespace emu_test
