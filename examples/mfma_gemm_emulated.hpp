// The emulated MFMA example's one kernel entry (mfma_gemm_emulated_kernel.cpp defines it), so
// that the program around it stays plain host code.
#pragma once
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"

namespace examples::emulated {
using MfmaArgs = tessera::gemm::Arguments<tessera::bfloat16_t, tessera::bfloat16_t, float>;
// Gemm<FourClusters<Gfx942>>::run of the example (bf16 A row-major x bf16 B column-major -> fp32).
tessera::Status run_mfma_gemm(const MfmaArgs& args);
}  // namespace examples::emulated
