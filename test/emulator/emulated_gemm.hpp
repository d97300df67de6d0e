// Gemm<Config> of the public host API, called from the tests through a translation unit
// that is instrumented for the emulator (fma_kernels_*.cpp define and instantiate these),
// so that the tests themselves stay plain host code.
#pragma once
#include <cstddef>

#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"

namespace emu_test {

template <class Config>
struct EmulatedGemm {
  using Args = tessera::gemm::Arguments<typename Config::ElementA, typename Config::ElementB,
                                        typename Config::ElementC>;
  static tessera::Status run(const Args& args, void* workspace);
  static std::size_t workspace_size(const Args& args);
};

}  // namespace emu_test

// For the instrumented translation units: defines EmulatedGemm<Config> through the host API.
#if defined(EMU_TEST_DEFINE_GEMM)
#include "tessera/gemm/fma_gemm.hpp"

namespace emu_test {
template <class Config>
tessera::Status EmulatedGemm<Config>::run(const Args& args, void* workspace) {
  return tessera::gemm::Gemm<Config>::run(args, workspace);
}
template <class Config>
std::size_t EmulatedGemm<Config>::workspace_size(const Args& args) {
  return tessera::gemm::Gemm<Config>::workspace_size(args);
}
}  // namespace emu_test
#endif
