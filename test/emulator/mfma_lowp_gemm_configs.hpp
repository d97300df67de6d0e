// The low-precision MFMA GEMM configurations the emulator runs: every one Tessera ships
// (examples/mfma_lowp_configs.hpp), each through Gemm<Config>::run, which picks the
// 16-byte kernel or its unaligned (element gather) variant at launch.
#pragma once
#include "emulated_gemm.hpp"
#include "mfma_lowp_configs.hpp"

namespace emu_test {
namespace lowp_gemm = ::examples::mfma_lowp;
}  // namespace emu_test

#define EMU_TEST_MFMA_LOWP_GFX942_CONFIGS(X) \
  X((lowp_gemm::Fp8Baseline942))             \
  X((lowp_gemm::Fp8OneCluster942))           \
  X((lowp_gemm::Fp8OneCluster16x942))        \
  X((lowp_gemm::Fp8TwoClusters942))          \
  X((lowp_gemm::Fp8FourClusters942))

#define EMU_TEST_MFMA_LOWP_GFX950_CONFIGS(X) \
  X((lowp_gemm::Mxfp8Baseline950))           \
  X((lowp_gemm::Fp8OneCluster950))           \
  X((lowp_gemm::Mxfp8OneCluster16x950))      \
  X((lowp_gemm::Mxfp8TwoClusters950))        \
  X((lowp_gemm::Mxfp4TwoClusters950))        \
  X((lowp_gemm::Mxfp4OneCluster16x950))      \
  X((lowp_gemm::Mxfp6TwoClusters950))        \
  X((lowp_gemm::Mxfp6Fp8OneCluster16x950))   \
  X((lowp_gemm::Fp8Bf6Baseline950))
