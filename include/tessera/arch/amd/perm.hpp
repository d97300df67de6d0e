// v_perm_b32: four bytes picked from two 32-bit registers in one instruction, the cheapest
// way to regroup 16-bit values (e.g. to transpose an operand in registers).
//
//   byte_perm(hi, lo, selector): byte i of the result is byte s of the 8-byte value
//   hi:lo, where s is byte i of `selector` (0..3: bytes of lo, 4..7: bytes of hi; 0x0c
//   gives 0x00; the hardware's other selector values are not used here).
//
// The two selectors Tessera uses are named: the low (high) halves of two words, packed.
// Emulated or on the host the same function is computed in C++ (it is a pure function,
// so the emulator needs no hook for it).
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera {
namespace amd {

// lo16(lo) | lo16(hi) << 16, and hi16(lo) | hi16(hi) << 16.
constexpr std::uint32_t kPermLowHalves = 0x05040100u;
constexpr std::uint32_t kPermHighHalves = 0x07060302u;

TESSERA_HOST_DEVICE TESSERA_FORCEINLINE std::uint32_t byte_perm(std::uint32_t hi, std::uint32_t lo,
                                                               std::uint32_t selector) {
#if defined(TESSERA_AMD_DEVICE_PASS)
  return __builtin_amdgcn_perm(hi, lo, selector);
#else
  const std::uint64_t both = (std::uint64_t(hi) << 32) | lo;
  std::uint32_t out = 0;
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t s = (selector >> (8 * i)) & 0xffu;
    const std::uint32_t byte = s < 8 ? std::uint32_t(both >> (8 * s)) & 0xffu : 0u;
    out |= byte << (8 * i);
  }
  return out;
#endif
}

}  // namespace amd
}  // namespace tessera
