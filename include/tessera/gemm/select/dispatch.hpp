// Dispatch<Candidates...>: one call, several configurations; per call, the first candidate
// (in the order given) that accepts the arguments on the current device runs them.
//
//   using Fp32 = Dispatch<FmaConfig<Sm90, ...>, FmaConfig<Sm100, ...>>;   // by device
//   using Gemm = Dispatch<When<SmallM, SkinnyConfig>, BigTileConfig>;      // by arguments too
//   Status s = Gemm::run(args, workspace, stream);
//
// A candidate is a configuration (it accepts what Gemm<Config>::accepts: it runs on the device
// and can_implement takes the arguments) or When<Rule, Config>, which also asks the rule:
//   struct SmallM { template <class Args> static bool accepts(const Args& a, const DeviceInfo&)
//                   { return a.M <= 64; } };
// With no candidate accepting, can_implement and run return the Status the first candidate
// that runs on the device gives the arguments, kErrorUnsupported when it takes them but its
// rule does not, or kErrorWrongArchitecture when no candidate runs there; workspace_size is 0. All candidates take the same Arguments (element types and epilogue) and layouts.
#pragma once
#include <cstddef>
#include <type_traits>

#include "tessera/gemm/gemm.hpp"

namespace tessera::gemm {

// A candidate of Dispatch that also needs Rule::accepts(args, device) to hold.
template <class Rule, class Config>
struct When {
  using Candidate = Config;
};

namespace detail {
template <class C>
struct CandidateOf {
  using Config = C;
  template <class Args>
  static bool rule(const Args&, const DeviceInfo&) {
    return true;
  }
};
template <class Rule, class C>
struct CandidateOf<When<Rule, C>> {
  using Config = C;
  template <class Args>
  static bool rule(const Args& a, const DeviceInfo& d) {
    return Rule::accepts(a, d);
  }
};
}  // namespace detail

template <class First, class... Rest>
struct Dispatch {
  using FirstConfig = typename detail::CandidateOf<First>::Config;
  using Args = typename Gemm<FirstConfig>::Args;
  static_assert((std::is_same_v<Args, typename Gemm<typename detail::CandidateOf<Rest>::Config>::Args> && ...),
                "Tessera Dispatch: every configuration must take the same element types "
                "(A, B, C, D) and epilogue so that one Arguments serves them all");
  static_assert(((std::is_same_v<typename FirstConfig::LayoutA, typename detail::CandidateOf<Rest>::Config::LayoutA> &&
                  std::is_same_v<typename FirstConfig::LayoutB, typename detail::CandidateOf<Rest>::Config::LayoutB> &&
                  std::is_same_v<typename FirstConfig::LayoutC, typename detail::CandidateOf<Rest>::Config::LayoutC>) &&
                 ...),
                "Tessera Dispatch: every configuration must have the same A, B and C/D layouts");

  // Whether candidate `C` takes `a` on the device `d`.
  template <class C>
  static bool accepted_by(const Args& a, const DeviceInfo& d) {
    using Candidate = detail::CandidateOf<C>;
    return Gemm<typename Candidate::Config>::accepts(a, d) && Candidate::rule(a, d);
  }

  // The architecture name of the first configuration that runs on the device `d`, or nullptr.
  static const char* chosen_arch(const DeviceInfo& d) {
    const char* name = nullptr;
    (void)((runs<First>(d) && (name = detail::CandidateOf<First>::Config::Arch::kName, true)) ||
           ((runs<Rest>(d) && (name = detail::CandidateOf<Rest>::Config::Arch::kName, true)) || ...));
    return name;
  }

  static Status can_implement(const Args& a) {
    Status s = Status::kSuccess;
    return on_chosen(a, s, [&](auto gemm) { return decltype(gemm)::can_implement(a); }) ? s : refusal(a);
  }
  static std::size_t workspace_size(const Args& a) {
    std::size_t bytes = 0;
    (void)on_chosen(a, bytes, [&](auto gemm) { return decltype(gemm)::workspace_size(a); });
    return bytes;
  }
  static Status run(const Args& a, void* workspace = nullptr, Stream stream = nullptr) {
    Status s = Status::kSuccess;
    return on_chosen(a, s, [&](auto gemm) { return decltype(gemm)::run(a, workspace, stream); }) ? s : refusal(a);
  }

 private:
  template <class C>
  static bool runs(const DeviceInfo& d) {
    return Gemm<typename detail::CandidateOf<C>::Config>::supports(d);
  }

  // What a call that no candidate accepts returns (see the top of the file).
  static Status refusal(const Args& a) {
    DeviceInfo d;
    const Status found = current_device(&d);
    if (!ok(found)) return found;
    Status s = Status::kErrorWrongArchitecture;
    (void)((runs<First>(d) && (s = first_refusal<First>(a), true)) ||
           ((runs<Rest>(d) && (s = first_refusal<Rest>(a), true)) || ...));
    return s;
  }
  template <class C>
  static Status first_refusal(const Args& a) {
    const Status s = Gemm<typename detail::CandidateOf<C>::Config>::can_implement(a);
    return ok(s) ? Status::kErrorUnsupported : s;
  }

  // result = f(Gemm<C>{}) for the first candidate C that accepts `a` on the current device;
  // false when none does (or the device cannot be queried).
  template <class R, class F>
  static bool on_chosen(const Args& a, R& result, F&& f) {
    DeviceInfo d;
    if (!ok(current_device(&d))) return false;
    return (accepted_by<First>(a, d) && (result = f(Gemm<typename detail::CandidateOf<First>::Config>{}), true)) ||
           ((accepted_by<Rest>(a, d) && (result = f(Gemm<typename detail::CandidateOf<Rest>::Config>{}), true)) ||
            ...);
  }
};

}  // namespace tessera::gemm
