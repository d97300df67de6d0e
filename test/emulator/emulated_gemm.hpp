// Gemm<Config> of the public host API, called from the tests through a translation unit
// that is instrumented for the emulator (fma_kernels_*.cpp define and instantiate these),
// so that the tests themselves stay plain host code.
#pragma once
#include <cstddef>
#include <tuple>

#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"

namespace emu_test {

// The configuration lists (fma_configs.hpp, mfma_gemm_configs.hpp) are X-macros over
// parenthesised types (the types hold commas); this takes the parentheses off:
// Unparen<void (T)>::type is T.
template <class T>
struct Unparen;
template <class T>
struct Unparen<void(T)> {
  using type = T;
};
#define EMU_TEST_TUPLE_ITEM(C) , std::tuple<::emu_test::Unparen<void C>::type>{}
// std::tuple of a list's configurations (for Catch's TEMPLATE_LIST_TEST_CASE).
#define EMU_TEST_TUPLE(LIST) decltype(std::tuple_cat(std::tuple<>{} LIST(EMU_TEST_TUPLE_ITEM)))
// The explicit instantiations of a list, in the instrumented translation units.
#define EMU_TEST_INSTANTIATE(C) template struct ::emu_test::EmulatedGemm<::emu_test::Unparen<void C>::type>;

template <class Config>
struct EmulatedGemm {
  using Args = tessera::gemm::Arguments<typename Config::ElementA, typename Config::ElementB,
                                        typename Config::ElementC, typename Config::ElementD,
                                        typename Config::Epilogue::Arguments>;
  static tessera::Status run(const Args& args, void* workspace);
  static std::size_t workspace_size(const Args& args);
};

}  // namespace emu_test

// For the instrumented translation units: defines EmulatedGemm<Config> through the host API
// (the translation unit includes its family's header: fma/fma.hpp by default, or
// mfma/mfma.hpp with EMU_TEST_MFMA_FAMILY).
#if defined(EMU_TEST_DEFINE_GEMM)
#if defined(EMU_TEST_MFMA_FAMILY)
#include "tessera/gemm/mfma/mfma.hpp"
#else
#include "tessera/gemm/fma/fma.hpp"
#endif

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
