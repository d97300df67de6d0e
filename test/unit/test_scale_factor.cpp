// float8_ue8m0_t (the MX scale) against a reference written from its definition: code c is
// 2^(c - 127), 0xff NaN; rounding down picks the largest power of two not above |x|,
// rounding up the smallest not below it, by search over every code. And the MX spec's
// shared-scale rule, floor(log2 amax) - emax, computed here with frexp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "narrow_float_reference.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/scale_factor.hpp"

using namespace tessera;

namespace {

double reference_value(unsigned code) {
  return code == 0xffu ? std::numeric_limits<double>::quiet_NaN()
                       : std::ldexp(1.0, int(code) - 127);
}

unsigned reference_encode(float input, ScaleRounding rounding, Saturation saturation) {
  if (std::isnan(input)) return 0xffu;
  const double x = std::fabs(double(input));
  const bool infinite = std::isinf(x);
  if (!infinite) {
    if (rounding == ScaleRounding::kDown) {
      unsigned best = 0;  // below 2^-127 (and zero): the smallest scale
      for (unsigned c = 0; c < 0xffu; ++c) {
        if (reference_value(c) <= x) best = c;
      }
      return best;
    }
    for (unsigned c = 0; c < 0xffu; ++c) {
      if (reference_value(c) >= x) return c;
    }
  }
  // Past 2^127, or inf.
  const bool saturate =
      saturation == Saturation::kSatFinite || (saturation == Saturation::kClampFinite && !infinite);
  return saturate ? 0xfeu : 0xffu;
}

std::vector<float> scale_inputs() {
  std::vector<float> inputs = reference::power_of_two_inputs();
  std::uint32_t state = 12345;
  for (int i = 0; i < 50000; ++i) {
    state = state * 1664525u + 1013904223u;
    float r;
    std::memcpy(&r, &state, sizeof r);
    inputs.push_back(r);
  }
  return inputs;
}

}  // namespace

TEST_CASE("float8_ue8m0_t decodes every code", "[numeric][scale]") {
  for (unsigned c = 0; c < 256; ++c) {
    const auto s = float8_ue8m0_t::from_bits(std::uint8_t(c));
    const double want = reference_value(c);
    INFO("code " << c);
    REQUIRE(s.is_nan() == std::isnan(want));
    if (std::isnan(want)) {
      REQUIRE(std::isnan(float(s)));
    } else {
      REQUIRE(double(float(s)) == want);
      REQUIRE(s.exponent() == int(c) - 127);
      REQUIRE(float8_ue8m0_t::from_exponent(int(c) - 127).bits == c);
    }
  }
  CHECK(float8_ue8m0_t::from_exponent(-200).bits == 0);
  CHECK(float8_ue8m0_t::from_exponent(200).bits == 0xfe);
}

TEST_CASE("float8_ue8m0_t rounds magnitudes down or up to powers of two", "[numeric][scale]") {
  const std::vector<float> inputs = scale_inputs();
  for (ScaleRounding rounding : {ScaleRounding::kDown, ScaleRounding::kUp}) {
    for (Saturation saturation :
         {Saturation::kSatFinite, Saturation::kClampFinite, Saturation::kNone}) {
      std::size_t mismatches = 0;
      std::string first;
      for (float x : inputs) {
        const unsigned want = reference_encode(x, rounding, saturation);
        const unsigned got = float8_ue8m0_t::from_float(x, rounding, saturation).bits;
        if (got != want && ++mismatches <= 5) {
          char line[128];
          std::snprintf(line, sizeof line, "  x = %a: want 0x%02x, got 0x%02x\n", double(x), want,
                        got);
          first += line;
        }
      }
      INFO("rounding " << int(rounding) << " saturation " << int(saturation) << ": " << mismatches
                       << " of " << inputs.size() << " differ\n"
                       << first);
      CHECK(mismatches == 0);
    }
  }
  // The default: round down, saturate. PTX .rz / .rp with .satfinite.
  CHECK(float8_ue8m0_t(3.f).bits == 128);
  CHECK(float8_ue8m0_t::from_float(3.f, ScaleRounding::kUp).bits == 129);
  CHECK(float8_ue8m0_t(-0.75f).bits == 126);
  CHECK(float8_ue8m0_t(0.f).bits == 0);
  CHECK(float8_ue8m0_t(std::numeric_limits<float>::infinity()).bits == 0xfe);
  CHECK(float8_ue8m0_t::from_float(std::numeric_limits<float>::infinity(), ScaleRounding::kDown,
                                   Saturation::kNone)
            .bits == 0xff);
  static_assert(float8_ue8m0_t::from_float_bits(0x3f800000u /* 1 */).bits == 127, "");
  static_assert(float8_ue8m0_t::from_float_bits(0x00400001u, ScaleRounding::kUp).bits == 1, "");
}

// MX v1.0: X = 2^(floor(log2 amax) - emax_elem), emax_elem the element format's largest
// normal exponent, written out here per format.
TEST_CASE("mx_shared_scale follows the MX spec's rule", "[numeric][scale][mx]") {
  auto check = [](auto format_tag, int element_emax, const char* name) {
    using Format = decltype(format_tag);
    std::uint32_t state = 777;
    for (int i = 0; i < 20000; ++i) {
      state = state * 1664525u + 1013904223u;
      float amax;
      const std::uint32_t bits = state & 0x7fffffffu;
      std::memcpy(&amax, &bits, sizeof amax);
      if (!std::isfinite(amax) || amax == 0.f) continue;
      int e2 = 0;
      std::frexp(double(amax), &e2);  // amax = f * 2^e2, f in [0.5, 1)
      int want = (e2 - 1) - element_emax;
      want = want < -127 ? -127 : want > 127 ? 127 : want;
      INFO(name << " amax " << amax);
      REQUIRE(mx_shared_scale<Format>(amax).exponent() == want);
    }
    CHECK(mx_shared_scale<Format>(std::numeric_limits<float>::quiet_NaN()).is_nan());
  };
  check(e4m3_format{}, 8, "e4m3");
  check(e5m2_format{}, 15, "e5m2");
  check(e2m3_format{}, 2, "e2m3");
  check(e3m2_format{}, 4, "e3m2");
  check(e2m1_format{}, 2, "e2m1");
  // A block whose amax is 100 in MXFP4: 2^(6 - 2) = 16, so 100 / 16 = 6.25 saturates to 6.
  CHECK(float(mx_shared_scale<e2m1_format>(100.f)) == 16.f);
}
