// What every configuration declares the same way: its family and target, the element types
// and layouts of A, B, C and D, and its options (options.hpp; those every family reads:
// D's element type, the epilogue, the tile scheduler). A family's configuration derives from
// ConfigBase and adds its own choices and checks:
//
//   template <class EA, class LA, ..., class... Options>   // Options: option::Tile<...>, ...
//   struct MyConfig : ConfigBase<MyFamily, Sm90, EA, LA, EB, LB, EC, LC, scheduler::DataParallel, Options...> {
//     ...
//   };
//
// Host-includable.
#pragma once
#include <type_traits>

#include "tessera/gemm/options.hpp"

namespace tessera::gemm {

// A family refuses an option it does not read rather than ignore it, naming both (a static
// assertion's message must be a literal): inside a configuration deriving from ConfigBase,
//   TESSERA_CONFIG_REFUSES("WgmmaConfig", Instruction);
#define TESSERA_CONFIG_REFUSES(config, option_name)                                 \
  static_assert(!Base::Options::template kGiven<option::kind::option_name>,          \
                "Tessera " config ": takes no option::" #option_name " (another family's option)")

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
};

}  // namespace tessera::gemm
