// What every configuration declares the same way: its family and target, the element types
// and layouts of A, B, C and D, and the options after its own parameters (options.hpp:
// D's element type, the epilogue, the tile scheduler). A family's configuration derives from
// ConfigBase and adds its own choices and checks:
//
//   template <class EA, class LA, ..., class... Options>
//   struct MyConfig : ConfigBase<MyFamily, Sm90, EA, LA, EB, LB, EC, LC, scheduler::DataParallel, Options...> {
//     ...
//   };
//
// Host-includable.
#pragma once
#include <type_traits>

#include "tessera/gemm/options.hpp"

namespace tessera::gemm {

// Whether a family reads option::OperandScales (its configuration says how); the others
// refuse it rather than ignore it.
template <class Family>
struct TakesOperandScales : std::false_type {};

template <class Family_, class Arch_, class ElementA_, class LayoutA_, class ElementB_, class LayoutB_, class ElementC_,
          class LayoutC_, class DefaultScheduler, class... Options_>
struct ConfigBase {
  using Family = Family_;
  using Arch = Arch_;
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using ElementC = ElementC_;  // C and D share a layout
  using Options = ConfigOptions<ElementC_, DefaultScheduler, Options_...>;
  using ElementD = typename Options::ElementD;
  using Epilogue = typename Options::Epilogue;
  using Scheduler = typename Options::Scheduler;
  using ElementAccumulator = float;
  using LayoutA = LayoutA_;
  using LayoutB = LayoutB_;
  using LayoutC = LayoutC_;
  static_assert(TakesOperandScales<Family_>::value || !Options::kOperandScalesGiven,
                "Tessera configuration: this kernel family takes no option::OperandScales (its operands are "
                "not low-precision)");
};

}  // namespace tessera::gemm
