// Which AMD target the current compiler pass generates code for, as a test on an arch tag.
//
//   if constexpr (amd::generates_code_for<Gfx950>()) { ... }
//
// A HIP program carries device code for every --offload-arch it was built with, and a
// Dispatch<ConfigGfx942, ConfigGfx950> instantiates both configurations' kernels in every
// device pass. A kernel that uses instructions of its own target only (gfx950's K-doubled
// MFMAs) must compile to an empty body in the other passes; it never runs there (Gemm::run
// refuses a device of another architecture). True in the host pass and when emulated.
#pragma once
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::amd {

template <class Arch>
TESSERA_HOST_DEVICE constexpr bool generates_code_for() {
#if defined(TESSERA_AMD_DEVICE_PASS)
#if defined(__gfx950__)
  return std::is_same_v<Arch, Gfx950>;
#elif defined(__gfx942__)
  return std::is_same_v<Arch, Gfx942>;
#else
  return false;
#endif
#else
  return true;
#endif
}

}  // namespace tessera::amd
