// One tag per target, with the constants a kernel plans against.
#pragma once
#include <cstddef>
#include <type_traits>

#include "tessera/core/macros.hpp"

namespace tessera {

enum class Vendor { kNvidia, kAmd };

// Shared fields: the numbers differ, the meaning does not.
//   kWarpSize          threads that issue together (warp / wavefront)
//   kSmemBytesPerBlock the most shared memory (LDS) one block may use, opt-in included
//   kRegistersPerSm    32-bit registers per SM / CU (VGPRs+AGPRs on AMD, all SIMDs)
//   kMaxRegsPerThread  architectural per-thread register limit
//   kMaxThreadsPerBlock
//   kComputeCapability NVIDIA: the device's major * 10 + minor the code is built for
//                      (0 on AMD, where kName is the gfx target the device reports)
//   kForwardCompatible true when the code also runs on later NVIDIA generations (plain
//                      sm_80 code does; sm_90a / sm_100a code uses features that exist on
//                      exactly that chip)
struct Sm80 {
  static constexpr Vendor kVendor = Vendor::kNvidia;
  static constexpr const char* kName = "sm_80";
  static constexpr int kWarpSize = 32;
  static constexpr std::size_t kSmemBytesPerBlock = 163 * 1024;  // 166912, opt-in
  static constexpr int kRegistersPerSm = 65536;
  static constexpr int kMaxRegsPerThread = 255;
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr int kComputeCapability = 80;
  static constexpr bool kForwardCompatible = true;
};

struct Sm90 {
  static constexpr Vendor kVendor = Vendor::kNvidia;
  static constexpr const char* kName = "sm_90a";
  static constexpr int kWarpSize = 32;
  static constexpr std::size_t kSmemBytesPerBlock = 227 * 1024;  // 232448, opt-in
  static constexpr int kRegistersPerSm = 65536;
  static constexpr int kMaxRegsPerThread = 255;
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr int kComputeCapability = 90;
  static constexpr bool kForwardCompatible = false;
};

struct Sm100 {
  static constexpr Vendor kVendor = Vendor::kNvidia;
  static constexpr const char* kName = "sm_100a";
  static constexpr int kWarpSize = 32;
  static constexpr std::size_t kSmemBytesPerBlock = 227 * 1024;  // 232448, opt-in
  static constexpr int kRegistersPerSm = 65536;
  static constexpr int kMaxRegsPerThread = 255;
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr int kComputeCapability = 100;
  static constexpr bool kForwardCompatible = false;
  // Tensor memory (TMEM, the tcgen05 accumulators' home): 128 lanes x 512 columns of 32 bits
  // per SM, allocated by columns (PTX ISA, "Tensor Memory"). Only Sm100 has it.
  static constexpr int kTensorMemoryColumns = 512;
  static constexpr int kTensorMemoryLanes = 128;
};

// CDNA3 (MI300): 64 KiB LDS per workgroup in 32 banks of 4 bytes, wave64, 4 SIMDs x 512
// VGPRs x 64 lanes.
struct Gfx942 {
  static constexpr Vendor kVendor = Vendor::kAmd;
  static constexpr const char* kName = "gfx942";
  static constexpr int kWarpSize = 64;
  static constexpr std::size_t kSmemBytesPerBlock = 64 * 1024;
  static constexpr int kLdsBanks = 32;
  static constexpr int kRegistersPerSm = 4 * 512 * 64;
  static constexpr int kMaxRegsPerThread = 512;  // arch VGPRs + AGPRs at one wave per SIMD
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr int kComputeCapability = 0;
  static constexpr bool kForwardCompatible = false;
};

// CDNA4 (MI355): as gfx942 but with 160 KiB LDS per workgroup in 64 banks (Composable
// Kernel's get_n_lds_banks(gfx950_t)).
struct Gfx950 {
  static constexpr Vendor kVendor = Vendor::kAmd;
  static constexpr const char* kName = "gfx950";
  static constexpr int kWarpSize = 64;
  static constexpr std::size_t kSmemBytesPerBlock = 160 * 1024;
  static constexpr int kLdsBanks = 64;
  static constexpr int kRegistersPerSm = 4 * 512 * 64;
  static constexpr int kMaxRegsPerThread = 512;
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr int kComputeCapability = 0;
  static constexpr bool kForwardCompatible = false;
};

template <class Arch>
constexpr bool is_amd = Arch::kVendor == Vendor::kAmd;
template <class Arch>
constexpr bool is_nvidia = Arch::kVendor == Vendor::kNvidia;

}  // namespace tessera

namespace tessera {

// True when the current compilation pass generates code that a device of Arch runs: in a
// CUDA device pass for sm_90a, Sm90 (and forward-compatible Sm80) kernels; in a gfx950 pass,
// Gfx950 kernels; always in host passes and host builds (the emulator). A kernel entry
// compiles its body only where this holds, so that one binary can carry configurations
// for several targets (Dispatch) without compiling each for every target: that halves
// the device compile time, and lets a kernel use instructions only its own target has.
// The host API never launches a configuration on a device it was not built for.
template <class Arch>
TESSERA_HOST_DEVICE constexpr bool device_pass_targets() {
#if defined(__CUDA_ARCH__)
  if constexpr (!is_nvidia<Arch>) {
    return false;
  } else {
    constexpr int cc = __CUDA_ARCH__ / 10;
    return Arch::kForwardCompatible ? cc >= Arch::kComputeCapability : cc == Arch::kComputeCapability;
  }
#elif defined(TESSERA_AMD_DEVICE_PASS)
#if defined(__gfx942__)
  return std::is_same_v<Arch, Gfx942>;
#elif defined(__gfx950__)
  return std::is_same_v<Arch, Gfx950>;
#else
  return false;
#endif
#else
  return true;
#endif
}

}  // namespace tessera
