// The MFMA example's GEMM (four-cluster ping-pong, gfx942) for the AMD wave emulator: the one
// translation unit that runs kernels, instrumented for it (see mfma_gemm_emulated.cpp).
#include "mfma_configs.hpp"
#include "mfma_gemm_emulated.hpp"
#include "tessera/gemm/mfma/mfma.hpp"

namespace examples::emulated {
tessera::Status run_mfma_gemm(const MfmaArgs& args) {
  return tessera::gemm::Gemm<mfma::FourClusters<tessera::Gfx942>>::run(args);
}
}  // namespace examples::emulated
