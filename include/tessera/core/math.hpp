// Small integer helpers usable in constant expressions on host and device.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera {

template <class T>
TESSERA_HOST_DEVICE constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

template <class T>
TESSERA_HOST_DEVICE constexpr T round_up(T a, T multiple) {
  return ceil_div(a, multiple) * multiple;
}

template <class T>
TESSERA_HOST_DEVICE constexpr bool is_pow2(T x) {
  return x > 0 && (x & (x - 1)) == 0;
}

// floor(log2(x)) for x >= 1.
TESSERA_HOST_DEVICE constexpr int log2_floor(std::uint64_t x) {
  int r = 0;
  while (x > 1) {
    x >>= 1;
    ++r;
  }
  return r;
}

template <class T>
TESSERA_HOST_DEVICE constexpr T const_max(T a, T b) {
  return a < b ? b : a;
}

template <class T>
TESSERA_HOST_DEVICE constexpr T const_min(T a, T b) {
  return a < b ? a : b;
}

}  // namespace tessera
