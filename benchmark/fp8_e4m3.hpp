// The benchmark's own OCP FP8 E4M3 ("e4m3fn") conversions, host only: the fp8 baselines
// make their inputs with them (tessera_bench's fp8 suite) and decode them for the float64
// reference. Private to benchmark/ on purpose, and replaceable: when the library has an
// fp8 type of its own, the suite should switch to it and this file go.
//
// E4M3 (OCP 8-bit floating point specification): 1 sign bit, 4 exponent bits (bias 7),
// 3 mantissa bits; no infinities; S.1111.111 is NaN (0x7f, 0xff); the largest finite
// magnitude is S.1111.110 = 1.75 * 2^8 = 448; exponent field 0 holds the subnormals
// m/8 * 2^-6 (the smallest is 2^-9). Every finite value has at most 4 significant bits.
//
// Encoding rounds to nearest, ties to even, and saturates to +-448 (what Hopper's
// cvt.rn.satfinite.e4m3x2.f32 does); NaN encodes as NaN. Checked against a brute-force
// encoder written from the definition in test_fp8_e4m3.cpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace bench_fp8 {

inline constexpr float kE4m3Max = 448.0f;

inline bool e4m3_is_nan(std::uint8_t code) { return (code & 0x7f) == 0x7f; }

inline float e4m3_to_float(std::uint8_t code) {
  const bool negative = (code & 0x80) != 0;
  const int exponent = (code >> 3) & 0xf;
  const int mantissa = code & 0x7;
  float magnitude;
  if (exponent == 0xf && mantissa == 0x7) {
    magnitude = std::numeric_limits<float>::quiet_NaN();
  } else if (exponent == 0) {
    magnitude = std::ldexp(float(mantissa), -9);  // m/8 * 2^-6
  } else {
    magnitude = std::ldexp(float(8 + mantissa), exponent - 10);  // (1 + m/8) * 2^(e-7)
  }
  return negative ? -magnitude : magnitude;
}

// Round to nearest even, saturating finite values and infinities to +-448.
inline std::uint8_t float_to_e4m3(float x) {
  if (std::isnan(x)) return 0x7f;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  const double a = std::fabs(double(x));
  if (a >= double(kE4m3Max)) return sign | 0x7e;
  // Subnormals and zero: the code is the number of 2^-9 steps, rounded to even. 8 steps
  // are the smallest normal, whose code is 8 as well.
  if (a < 0x1p-6) return sign | std::uint8_t(std::nearbyint(a * 0x1p9));
  int e2 = 0;
  (void)std::frexp(a, &e2);  // a = f * 2^e2, f in [0.5, 1)
  int exponent = e2 - 1;     // a in [2^exponent, 2^(exponent+1)), exponent in [-6, 8]
  // Significand in eighths: [8, 16) before rounding, 16 after rounding up. As a < 448,
  // rounding never goes past 448 = 14/8 * 2^8 (480 would be NaN's code).
  int significand = int(std::nearbyint(std::ldexp(a, 3 - exponent)));
  if (significand == 16) {
    significand = 8;
    ++exponent;
  }
  return sign | std::uint8_t(((exponent + 7) << 3) | (significand - 8));
}

}  // namespace bench_fp8
