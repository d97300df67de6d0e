// The benchmark's private E4M3 conversions (fp8_e4m3.hpp) against the format's definition:
// decoding checked on values worked out by hand, encoding against a brute-force encoder
// that picks the nearest of the 253 finite non-negative values (ties to the even code,
// saturation at 448) on every midpoint, its neighbours and random values of every scale.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "fp8_e4m3.hpp"

using bench_fp8::e4m3_is_nan;
using bench_fp8::e4m3_to_float;
using bench_fp8::float_to_e4m3;

namespace {

// The finite non-negative E4M3 values in code order (codes 0x00 .. 0x7e), from the
// definition: value = 2^(e-7) * (1 + m/8) for e > 0, 2^-6 * m/8 for e = 0.
std::vector<double> finite_magnitudes() {
  std::vector<double> v;
  for (int code = 0; code < 0x7f; ++code) {
    const int e = code >> 3, m = code & 7;
    v.push_back(e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7));
  }
  return v;
}

// Nearest value by exhaustive search; on a tie the even code (even mantissa) wins;
// anything beyond 448 saturates to it; NaN stays NaN.
std::uint8_t brute_force_encode(float x) {
  static const std::vector<double> mags = finite_magnitudes();
  if (std::isnan(x)) return 0x7f;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const double a = std::fabs(double(x));
  int best = 0;
  for (int code = 1; code < int(mags.size()); ++code) {
    const double d = std::fabs(mags[code] - a), d_best = std::fabs(mags[best] - a);
    if (d < d_best || (d == d_best && code % 2 == 0)) best = code;
  }
  return sign | std::uint8_t(best);
}

}  // namespace

TEST_CASE("E4M3 decoding: values worked out from the definition") {
  CHECK(e4m3_to_float(0x00) == 0.0f);
  CHECK(std::signbit(e4m3_to_float(0x80)));
  CHECK(e4m3_to_float(0x80) == 0.0f);
  CHECK(e4m3_to_float(0x01) == 0x1p-9f);          // smallest subnormal
  CHECK(e4m3_to_float(0x07) == 7 * 0x1p-9f);      // largest subnormal
  CHECK(e4m3_to_float(0x08) == 0x1p-6f);          // smallest normal
  CHECK(e4m3_to_float(0x38) == 1.0f);             // exponent field 7 = 2^0
  CHECK(e4m3_to_float(0x3c) == 1.5f);
  CHECK(e4m3_to_float(0x40) == 2.0f);
  CHECK(e4m3_to_float(0x7e) == 448.0f);           // largest finite
  CHECK(e4m3_to_float(0xfe) == -448.0f);
  CHECK(e4m3_to_float(0xb8) == -1.0f);
  CHECK(std::isnan(e4m3_to_float(0x7f)));
  CHECK(std::isnan(e4m3_to_float(0xff)));
  CHECK(e4m3_is_nan(0x7f));
  CHECK(e4m3_is_nan(0xff));
  CHECK_FALSE(e4m3_is_nan(0x7e));
  // Every finite code: the value the definition gives, sign included.
  const std::vector<double> mags = finite_magnitudes();
  for (int code = 0; code < 0x7f; ++code) {
    INFO("code " << code);
    CHECK(double(e4m3_to_float(std::uint8_t(code))) == mags[code]);
    CHECK(double(e4m3_to_float(std::uint8_t(code | 0x80))) == -mags[code]);
  }
}

TEST_CASE("E4M3 encoding: every finite code round-trips") {
  for (int code = 0; code < 256; ++code) {
    if (e4m3_is_nan(std::uint8_t(code))) continue;
    INFO("code " << code);
    CHECK(int(float_to_e4m3(e4m3_to_float(std::uint8_t(code)))) == code);
  }
}

TEST_CASE("E4M3 encoding: ties to even, neighbours of ties, saturation, NaN") {
  const std::vector<double> mags = finite_magnitudes();
  std::vector<float> probes;
  for (std::size_t i = 0; i + 1 < mags.size(); ++i) {
    const float mid = float((mags[i] + mags[i + 1]) / 2);  // exact in float
    probes.push_back(mid);
    probes.push_back(std::nextafter(mid, 0.0f));
    probes.push_back(std::nextafter(mid, 1e9f));
  }
  for (float big : {448.0f, 449.0f, 464.0f, 479.0f, 480.0f, 1e6f, std::numeric_limits<float>::infinity()}) {
    probes.push_back(big);
  }
  for (float tiny : {0x1p-10f, std::nextafter(0x1p-10f, 1.0f), 0x1p-11f, 1e-30f, 0.0f}) probes.push_back(tiny);
  for (float p : probes) {
    for (float x : {p, -p}) {
      INFO("x = " << x);
      CHECK(int(float_to_e4m3(x)) == int(brute_force_encode(x)));
    }
  }
  // Hand-checked cases: 1.0625 lies halfway between 1 (mantissa 0) and 1.125 (mantissa 1).
  CHECK(float_to_e4m3(1.0625f) == 0x38);
  CHECK(float_to_e4m3(1.1875f) == 0x3a);  // halfway between 1.125 (m=1) and 1.25 (m=2): even m=2
  CHECK(float_to_e4m3(0x1p-10f) == 0x00);  // halfway between 0 and 2^-9: even code 0
  CHECK(float_to_e4m3(3 * 0x1p-10f) == 0x02);  // halfway between 2^-9 and 2*2^-9: even code 2
  CHECK(float_to_e4m3(500.0f) == 0x7e);
  CHECK(float_to_e4m3(-std::numeric_limits<float>::infinity()) == 0xfe);
  CHECK(e4m3_is_nan(float_to_e4m3(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("E4M3 encoding: random values of every scale match the brute-force encoder") {
  std::mt19937_64 gen(20261125);
  std::uniform_real_distribution<double> exponent(-12.0, 10.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 200000; ++i) {
    const float x = float((unit(gen) < 0.5 ? -1.0 : 1.0) * std::exp2(exponent(gen)));
    INFO("x = " << x);
    REQUIRE(int(float_to_e4m3(x)) == int(brute_force_encode(x)));
  }
}
