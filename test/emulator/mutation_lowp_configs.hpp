// Which shipped low-precision MFMA configurations each low-precision mutant runs (one
// EMU_TEST_MUTANT_LOWP_* define per build; test/emulator/CMakeLists.txt): the configurations
// whose code the mutation breaks, every schedule of them. mutation_lowp_gemm.cpp passes only
// when the emulated suite's checks catch the break in every one (a wrong result or a report).
#pragma once
#include "mfma_lowp_gemm_configs.hpp"

// Every MX-scaled configuration: one per schedule, both sizes, fp8 and fp4.
#define EMU_TEST_LOWP_MX_CONFIGS(X)                                                                 \
  X((lowp_gemm::Mxfp8Baseline950)) X((lowp_gemm::Mxfp8OneCluster16x950)) X((lowp_gemm::Mxfp8TwoClusters950)) \
  X((lowp_gemm::Mxfp4TwoClusters950)) X((lowp_gemm::Mxfp4OneCluster16x950))

// Every configuration with an fp6 operand: MXFP6 x MXFP6, MXFP6 x MXFP8, fp8 x bf6 (unscaled).
#define EMU_TEST_LOWP_FP6_CONFIGS(X)                                                                  \
  X((lowp_gemm::Mxfp6TwoClusters950)) X((lowp_gemm::Mxfp6Fp8OneCluster16x950)) X((lowp_gemm::Fp8Bf6Baseline950))

#if defined(EMU_TEST_MUTANT_LOWP_SCALE_BLOCK)
#define EMU_TEST_MUTANT_WHAT "MX: each instruction reads the scale of the next 32-value block (op_sel + 1)"
#define EMU_TEST_MUTANT_LOWP_CONFIGS(X) EMU_TEST_LOWP_MX_CONFIGS(X)
#elif defined(EMU_TEST_MUTANT_LOWP_SCALE_MASK)
#define EMU_TEST_MUTANT_WHAT "MX: the partial K tile's scale blocks past K not zeroed (the rows' NaN padding reaches D)"
#define EMU_TEST_MUTANT_LOWP_CONFIGS(X) X((lowp_gemm::Mxfp8Baseline950)) X((lowp_gemm::Mxfp4TwoClusters950))
#elif defined(EMU_TEST_MUTANT_LOWP_SCALE_K_OFFSET)
#define EMU_TEST_MUTANT_WHAT "MX: the main loop's scale loads without the K tile's offset (each reads the first tile's scales)"
#define EMU_TEST_MUTANT_LOWP_CONFIGS(X) \
  EMU_TEST_LOWP_MX_CONFIGS(X) X((lowp_gemm::Mxfp6TwoClusters950)) X((lowp_gemm::Mxfp6Fp8OneCluster16x950))
#elif defined(EMU_TEST_MUTANT_LOWP_FP8_HALVES)
#define EMU_TEST_MUTANT_WHAT "gfx942 fp8: both MFMAs of a 16-byte read take its first 8 bytes"
#define EMU_TEST_MUTANT_LOWP_CONFIGS(X)                                                               \
  X((lowp_gemm::Fp8Baseline942)) X((lowp_gemm::Fp8OneCluster942)) X((lowp_gemm::Fp8OneCluster16x942)) \
  X((lowp_gemm::Fp8TwoClusters942)) X((lowp_gemm::Fp8FourClusters942))
#elif defined(EMU_TEST_MUTANT_LOWP_FP6_PLACEMENT)
#define EMU_TEST_MUTANT_WHAT "fp6: chunks stored in place, so the reads give a lane fp8's K (16 g, K/2 + 16 g), not its run"
#define EMU_TEST_MUTANT_LOWP_CONFIGS(X) EMU_TEST_LOWP_FP6_CONFIGS(X)
#elif defined(EMU_TEST_MUTANT_LOWP_FP6_MASK)
#define EMU_TEST_MUTANT_WHAT "fp6: the partial K tile masked by whole bytes (padding values past K stay)"
// Only where both operands are fp6: a mix's other operand is masked right, and its zeros
// past K hide the leak (as they would on the hardware: either mask suffices).
#define EMU_TEST_MUTANT_LOWP_CONFIGS(X) X((lowp_gemm::Mxfp6TwoClusters950))
#elif defined(EMU_TEST_MUTANT_LOWP_LAST_BYTES)
#define EMU_TEST_MUTANT_WHAT "8-bit and fp6 copy: the prologue loads two of an operand's three last bytes"
#define EMU_TEST_MUTANT_LOWP_CONFIGS(X)                                                      \
  X((lowp_gemm::Fp8TwoClusters942)) X((lowp_gemm::Mxfp8Baseline950)) X((lowp_gemm::Mxfp6TwoClusters950))
#else
#error "mutation_lowp_configs.hpp: build with one EMU_TEST_MUTANT_LOWP_* define"
#endif
