// Dispatch<Configs...>: one binary, configurations for several targets, the one that
// matches the current device chosen at run time.
//
//   using Fp32 = Dispatch<FmaConfig<Sm90, ...>, FmaConfig<Sm100, ...>>;   // CUDA build
//   using Fp32 = Dispatch<FmaConfig<Gfx942, ...>, FmaConfig<Gfx950, ...>>; // HIP build
//   Status s = Fp32::run(args, workspace, stream);
//
// The first configuration (in the order given) whose Gemm<Config>::supports() the device
// is used; with none, every call returns kErrorWrongArchitecture. All configurations take
// the same Arguments (element types and layouts must agree).
#pragma once
#include <cstddef>
#include <type_traits>

#include "tessera/gemm/gemm.hpp"

namespace tessera::gemm {

template <class First, class... Rest>
struct Dispatch {
  using Args = typename Gemm<First>::Args;
  static_assert((std::is_same_v<Args, typename Gemm<Rest>::Args> && ...),
                "Tessera Dispatch: every configuration must take the same element types "
                "(A, B, C/D) so that one Arguments serves them all");
  static_assert(((std::is_same_v<typename First::LayoutA, typename Rest::LayoutA> &&
                  std::is_same_v<typename First::LayoutB, typename Rest::LayoutB> &&
                  std::is_same_v<typename First::LayoutC, typename Rest::LayoutC>) && ...),
                "Tessera Dispatch: every configuration must have the same A, B and C/D layouts");

  // The architecture name of the configuration chosen for the device `d`, or nullptr.
  static const char* chosen_arch(const DeviceInfo& d) {
    const char* name = nullptr;
    (void)((Gemm<First>::supports(d) && (name = First::Arch::kName, true)) ||
           ((Gemm<Rest>::supports(d) && (name = Rest::Arch::kName, true)) || ...));
    return name;
  }

  static Status can_implement(const Args& a) {
    return on_current_device(Status::kErrorWrongArchitecture,
                             [&](auto gemm) { return decltype(gemm)::can_implement(a); });
  }
  static std::size_t workspace_size(const Args& a) {
    return on_current_device(std::size_t(0),
                             [&](auto gemm) { return decltype(gemm)::workspace_size(a); });
  }
  static Status run(const Args& a, void* workspace = nullptr, Stream stream = nullptr) {
    return on_current_device(Status::kErrorWrongArchitecture, [&](auto gemm) {
      return decltype(gemm)::run(a, workspace, stream);
    });
  }

 private:
  // f(Gemm<C>{}) for the first C that supports the current device, else `none` (or the
  // device query's error, for Status results).
  template <class R, class F>
  static R on_current_device(R none, F&& f) {
    DeviceInfo d;
    const Status found = current_device(&d);
    if (!ok(found)) {
      if constexpr (std::is_same_v<R, Status>) return found;
      return none;
    }
    R result = none;
    (void)((Gemm<First>::supports(d) && (result = f(Gemm<First>{}), true)) ||
           ((Gemm<Rest>::supports(d) && (result = f(Gemm<Rest>{}), true)) || ...));
    return result;
  }
};

}  // namespace tessera::gemm
