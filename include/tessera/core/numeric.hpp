// half_t and bfloat16_t: 16-bit storage types with the same meaning under nvcc,
// clang-HIP and a plain host compiler. Arithmetic happens in float; these types only
// convert (round to nearest even) and carry bits, which is all a GEMM's operands need.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

#if defined(TESSERA_CUDA)
#include <cuda_fp16.h>
#endif

namespace tessera {

TESSERA_HOST_DEVICE TESSERA_FORCEINLINE std::uint32_t float_to_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
#endif
}

TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float bits_to_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  __builtin_memcpy(&f, &u, sizeof f);
  return f;
#endif
}

namespace detail {

// IEEE binary16 -> binary32, exact (every half is a float).
TESSERA_HOST_DEVICE constexpr std::uint32_t half_bits_to_float_bits(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return sign | 0x7f800000u | (mant << 13);  // inf / nan
  if (exp != 0) return sign | ((exp + 112u) << 23) | (mant << 13);
  if (mant == 0) return sign;  // signed zero
  // Subnormal half: normalise the mantissa into a float exponent.
  int e = -1;
  do {
    mant <<= 1;
    ++e;
  } while ((mant & 0x400u) == 0);
  return sign | (std::uint32_t(112 - e) << 23) | ((mant & 0x3ffu) << 13);
}

// binary32 -> binary16 with round-to-nearest-even, overflow to inf, NaN kept NaN.
TESSERA_HOST_DEVICE constexpr std::uint16_t float_bits_to_half_bits(std::uint32_t f) {
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan
    return std::uint16_t(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // rounds past 65504
  if (abs < 0x33000001u) return std::uint16_t(sign);  // below half the smallest subnormal
  const int exp = int(abs >> 23) - 127;
  std::uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
  int shift = 13;  // how many low bits of the 24-bit mantissa are dropped
  std::uint32_t half_exp = 0;
  if (exp < -14) {  // subnormal half
    shift = 13 + (-14 - exp);
    half_exp = 0;
  } else {
    shift = 13;
    half_exp = std::uint32_t(exp + 15);
    mant &= 0x7fffffu;
  }
  const std::uint32_t kept = mant >> shift;
  const std::uint32_t rest = mant & ((1u << shift) - 1u);
  const std::uint32_t halfway = 1u << (shift - 1);
  std::uint32_t result = (half_exp << 10) + kept;  // carry from mantissa into exponent is right
  if (rest > halfway || (rest == halfway && (kept & 1u))) ++result;
  return std::uint16_t(sign | result);
}

TESSERA_HOST_DEVICE constexpr std::uint16_t float_bits_to_bf16_bits(std::uint32_t f) {
  if ((f & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((f >> 16) | 0x40u);  // quiet NaN
  const std::uint32_t rounding = 0x7fffu + ((f >> 16) & 1u);
  return std::uint16_t((f + rounding) >> 16);
}

}  // namespace detail

struct half_t {
  std::uint16_t bits;

  half_t() = default;
  TESSERA_HOST_DEVICE explicit half_t(float f) : bits(from_float(f)) {}
  TESSERA_HOST_DEVICE static constexpr half_t from_bits(std::uint16_t b) {
    half_t h{};
    h.bits = b;
    return h;
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE operator float() const { return to_float(bits); }

  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float to_float(std::uint16_t b) {
#if defined(__CUDA_ARCH__)
    return __half2float(__ushort_as_half(b));
#elif defined(TESSERA_AMD_DEVICE_PASS)
    return float(__builtin_bit_cast(_Float16, b));
#else
    return bits_to_float(detail::half_bits_to_float_bits(b));
#endif
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static std::uint16_t from_float(float f) {
#if defined(__CUDA_ARCH__)
    return __half_as_ushort(__float2half_rn(f));
#elif defined(TESSERA_AMD_DEVICE_PASS)
    return __builtin_bit_cast(std::uint16_t, static_cast<_Float16>(f));
#else
    return detail::float_bits_to_half_bits(float_to_bits(f));
#endif
  }
};

struct bfloat16_t {
  std::uint16_t bits;

  bfloat16_t() = default;
  TESSERA_HOST_DEVICE explicit bfloat16_t(float f)
      : bits(detail::float_bits_to_bf16_bits(float_to_bits(f))) {}
  TESSERA_HOST_DEVICE static constexpr bfloat16_t from_bits(std::uint16_t b) {
    bfloat16_t h{};
    h.bits = b;
    return h;
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE operator float() const {
    return bits_to_float(std::uint32_t(bits) << 16);
  }
};

static_assert(sizeof(half_t) == 2 && alignof(half_t) == 2, "half_t must be 2 bytes");
static_assert(sizeof(bfloat16_t) == 2 && alignof(bfloat16_t) == 2, "bfloat16_t must be 2 bytes");

// Conversions used by kernels and references alike: T -> float, float -> T.
template <class T>
TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float to_float(T x) {
  return static_cast<float>(x);
}
template <class T>
TESSERA_HOST_DEVICE TESSERA_FORCEINLINE T from_float(float x) {
  return T(x);
}

// Values of K one storage element holds, and the bits each takes: 1 and 8 * sizeof(T) for
// ordinary types; a packed type says so with kValues and kValueBits (float4_e2m1x2_t: two
// 4-bit values; float6_e2m3x4_t: four 6-bit values in three bytes).
namespace detail {
template <class T, class = void>
struct packed_values {
  static constexpr int kValues = 1;
  static constexpr int kValueBits = 8 * int(sizeof(T));
};
template <class T>
struct packed_values<T, decltype(void(T::kValues + T::kValueBits))> {
  static constexpr int kValues = T::kValues;
  static constexpr int kValueBits = T::kValueBits;
};
}  // namespace detail
template <class T>
inline constexpr int values_per_element = detail::packed_values<T>::kValues;
template <class T>
inline constexpr int value_bits = detail::packed_values<T>::kValueBits;

// Human-readable type names for reports and benchmark labels.
template <class T> struct type_name;
template <> struct type_name<float> { static constexpr const char* value = "f32"; };
template <> struct type_name<double> { static constexpr const char* value = "f64"; };
template <> struct type_name<half_t> { static constexpr const char* value = "f16"; };
template <> struct type_name<bfloat16_t> { static constexpr const char* value = "bf16"; };

}  // namespace tessera
