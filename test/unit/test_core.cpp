#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "tessera/core/math.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/status.hpp"

using namespace tessera;

TEST_CASE("Status values have distinct names and messages", "[core]") {
  CHECK(std::string(status_name(Status::kSuccess)) == "kSuccess");
  CHECK(std::string(status_name(Status::kErrorLeadingDimA)) == "kErrorLeadingDimA");
  CHECK(std::string(status_message(Status::kErrorNullB)).find("B is null") != std::string::npos);
  for (int i = 0; i <= int(Status::kErrorRuntime); ++i) {
    for (int j = i + 1; j <= int(Status::kErrorRuntime); ++j) {
      CHECK(std::string(status_name(Status(i))) != status_name(Status(j)));
      CHECK(std::string(status_message(Status(i))) != status_message(Status(j)));
    }
  }
  static_assert(ok(Status::kSuccess) && !ok(Status::kErrorNegativeSize), "ok()");
}

TEST_CASE("Shape and small math are constant expressions", "[core]") {
  using S = GemmShape<128, 64, 8>;
  static_assert(S::kM == 128 && S::kN == 64 && S::kK == 8 && S::kSize == 128 * 64 * 8, "");
  static_assert(S::get<1>() == 64, "");
  static_assert(ceil_div(7, 4) == 2 && round_up(7, 4) == 8 && is_pow2(64) && !is_pow2(48), "");
  static_assert(log2_floor(1) == 0 && log2_floor(1024) == 10 && log2_floor(1025) == 10, "");
}

// Reference conversion through the host's _Float16-free path: compare against an exact
// decode of every half bit pattern, and round trips of random floats.
static double decode_half(std::uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(double(mant), -24);
  if (exp == 31) return mant ? NAN : sign * INFINITY;
  return sign * std::ldexp(double(1024 + mant), exp - 25);
}

TEST_CASE("half_t decodes every bit pattern exactly", "[core][numeric]") {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const double want = decode_half(std::uint16_t(b));
    const float got = float(half_t::from_bits(std::uint16_t(b)));
    if (std::isnan(want)) {
      CHECK(std::isnan(got));
    } else {
      REQUIRE(double(got) == want);
    }
  }
}

TEST_CASE("half_t rounds to nearest even, bfloat16_t too", "[core][numeric]") {
  // Exhaustive over halves: the midpoint between two neighbours rounds to the even one.
  for (std::uint32_t b = 0; b < 0x7bff; ++b) {
    const double lo = decode_half(std::uint16_t(b)), hi = decode_half(std::uint16_t(b + 1));
    const float mid = float((lo + hi) / 2);  // exact in float: halves have 11 bits
    const std::uint16_t want = (b & 1) ? std::uint16_t(b + 1) : std::uint16_t(b);
    REQUIRE(half_t(mid).bits == want);
    REQUIRE(half_t(std::nextafter(mid, 0.f)).bits == b);
    REQUIRE(half_t(std::nextafter(mid, 1e9f)).bits == b + 1);
  }
  CHECK(half_t(70000.f).bits == 0x7c00);
  CHECK(half_t(-70000.f).bits == 0xfc00);
  CHECK(std::isnan(float(half_t(NAN))));
  CHECK(float(half_t(1.0f)) == 1.0f);

  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-1000.f, 1000.f);
  for (int i = 0; i < 100000; ++i) {
    const float f = dist(rng);
    const float b = float(bfloat16_t(f));
    REQUIRE(std::fabs(b - f) <= std::fabs(f) * (1.0f / 256));
    const float h = float(half_t(f));
    REQUIRE(std::fabs(h - f) <= std::fabs(f) * (1.0f / 2048));
  }
  CHECK(bfloat16_t(1.0f).bits == 0x3f80);
  CHECK(bfloat16_t(1.00390625f).bits == 0x3f80);  // 1 + 2^-8: tie, rounds to even
  CHECK(bfloat16_t(1.01171875f).bits == 0x3f82);  // 1 + 3*2^-8: tie, rounds up to even
  CHECK(std::isnan(float(bfloat16_t(NAN))));
}
