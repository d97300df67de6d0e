// The MFMA GEMM configurations the emulator runs: every configuration Tessera ships
// (examples/mfma_configs.hpp), for gfx942 and gfx950, and the gfx950 async one. Each is run
// through Gemm<Config>::run, which picks the 16-byte kernel or its unaligned (element
// gather) variant at launch, so both kernels of every configuration are emulated.
#pragma once
#include "emulated_gemm.hpp"
#include "mfma_configs.hpp"
#include "tessera/arch/arch.hpp"

namespace emu_test {
namespace mfma = ::examples::mfma;
using ::tessera::Gfx942;
using ::tessera::Gfx950;
}  // namespace emu_test

// X(config) for every shipped configuration of one target (emulated_gemm.hpp: the helpers).
#define EMU_TEST_MFMA_GFX942_CONFIGS(X) \
  X((mfma::Baseline<Gfx942>))           \
  X((mfma::OneCluster<Gfx942>))         \
  X((mfma::OneCluster16<Gfx942>))       \
  X((mfma::TwoClusters<Gfx942>))        \
  X((mfma::FourClusters<Gfx942>))

#define EMU_TEST_MFMA_GFX950_CONFIGS(X) \
  X((mfma::Baseline<Gfx950>))           \
  X((mfma::OneCluster<Gfx950>))         \
  X((mfma::OneCluster16<Gfx950>))       \
  X((mfma::TwoClusters<Gfx950>))        \
  X((mfma::FourClusters<Gfx950>))       \
  X((mfma::Async))
