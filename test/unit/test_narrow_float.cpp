// The 8-, 6- and 4-bit float types against the reference written from the formats'
// definitions (test/support/narrow_float_reference.hpp): every code decoded, and float
// inputs at, around and between every pair of neighbouring values converted in every
// saturation mode, plus the format-defining cases spelled out.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "narrow_float_reference.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/scale_factor.hpp"

using namespace tessera;

namespace {

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Every code of the format: exact value, sign of zero, NaN and inf classification. An
// unsigned format's bit 7 is not part of it: the code reads as if that bit were clear.
template <class T>
void check_every_code_decodes(const reference::Format& f) {
  const unsigned width_codes = f.has_sign ? f.codes() : 256u;
  for (unsigned c = 0; c < width_codes; ++c) {
    const unsigned code = f.has_sign ? c : (c & 0x7fu);
    const double want = f.decode(code);
    const T x = T::from_bits(std::uint8_t(c));
    const float got = float(x);
    INFO(f.name << " code 0x" << std::hex << c << " decodes to " << got << ", reference " << want);
    REQUIRE(x.to_float_bits() == bits_of(got));
    REQUIRE(x.is_nan() == std::isnan(want));
    REQUIRE(x.is_inf() == std::isinf(want));
    if (std::isnan(want)) {
      REQUIRE(std::isnan(got));
    } else {
      REQUIRE(double(got) == want);
      REQUIRE(std::signbit(got) == std::signbit(want));
    }
  }
}

// Converts every probing input with the library (the float path and the constexpr bits
// path) and with the reference; reports how many differ and the first few.
template <class T>
void check_conversions(const reference::Format& f, Saturation saturation, reference::Mode mode) {
  const reference::Encoder encoder(f);
  const std::vector<float> inputs =
      reference::probing_inputs(f, 20000, 0x5eed0000u + unsigned(mode));
  std::size_t mismatches = 0;
  std::string first;
  for (float x : inputs) {
    const unsigned want = encoder.encode(x, mode);
    const unsigned got = T::from_float(x, saturation).bits;
    const unsigned got_bits_path = T::from_float_bits(bits_of(x), saturation).bits;
    if (got != want || got_bits_path != want) {
      if (++mismatches <= 5) {
        char line[160];
        std::snprintf(line, sizeof line, "  x = %a (0x%08x): want 0x%02x, got 0x%02x / 0x%02x\n",
                      double(x), bits_of(x), want, got, got_bits_path);
        first += line;
      }
    }
  }
  INFO(f.name << " mode " << int(mode) << ": " << mismatches << " of " << inputs.size()
              << " inputs differ\n"
              << first);
  CHECK(mismatches == 0);
  CHECK(inputs.size() > 40000);
}

template <class T>
void check_all_modes(const reference::Format& f) {
  check_every_code_decodes<T>(f);
  check_conversions<T>(f, Saturation::kSatFinite, reference::Mode::kSatFinite);
  check_conversions<T>(f, Saturation::kClampFinite, reference::Mode::kClampFinite);
  check_conversions<T>(f, Saturation::kNone, reference::Mode::kNone);
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

}  // namespace

TEST_CASE("float8_e4m3_t: every code, every rounding decision, every mode", "[numeric][fp8]") {
  check_all_modes<float8_e4m3_t>(reference::kE4M3);
}
TEST_CASE("float8_e5m2_t: every code, every rounding decision, every mode", "[numeric][fp8]") {
  check_all_modes<float8_e5m2_t>(reference::kE5M2);
}
TEST_CASE("float8_e4m3fnuz_t: every code, every rounding decision, every mode", "[numeric][fp8]") {
  check_all_modes<float8_e4m3fnuz_t>(reference::kE4M3Fnuz);
}
TEST_CASE("float8_e5m2fnuz_t: every code, every rounding decision, every mode", "[numeric][fp8]") {
  check_all_modes<float8_e5m2fnuz_t>(reference::kE5M2Fnuz);
}
TEST_CASE("float6_e2m3_t and float6_e3m2_t: every code, every rounding decision", "[numeric][mx]") {
  check_all_modes<float6_e2m3_t>(reference::kE2M3);
  check_all_modes<float6_e3m2_t>(reference::kE3M2);
}
TEST_CASE("float4_e2m1_t: every code, every rounding decision", "[numeric][mx]") {
  check_all_modes<float4_e2m1_t>(reference::kE2M1);
}
TEST_CASE("float8_ue4m3_t (NVFP4 scale): every code, every rounding decision", "[numeric][scale]") {
  check_all_modes<float8_ue4m3_t>(reference::kUE4M3);
  // Its non-negative codes are float8_e4m3_t's.
  for (unsigned c = 0; c < 0x80; ++c) {
    REQUIRE(float8_ue4m3_t::from_bits(std::uint8_t(c)).to_float_bits() ==
            float8_e4m3_t::from_bits(std::uint8_t(c)).to_float_bits());
  }
}

// The cases that define each format and mode, written out (values from the OCP specs).
TEST_CASE("The defining cases of each format and mode", "[numeric][fp8]") {
  using S = Saturation;
  // e4m3: max 448 = S.1111.110; 464 is halfway to the NaN code: ties to 448 (even).
  CHECK(float8_e4m3_t(448.f).bits == 0x7e);
  CHECK(float8_e4m3_t(464.f).bits == 0x7e);
  CHECK(float8_e4m3_t::from_float(464.f, S::kNone).bits == 0x7e);
  CHECK(float8_e4m3_t::from_float(465.f, S::kNone).bits == 0x7f);
  CHECK(float8_e4m3_t::from_float(-465.f, S::kNone).bits == 0xff);
  CHECK(float8_e4m3_t(kInf).bits == 0x7e);
  CHECK(float8_e4m3_t(-kInf).bits == 0xfe);
  CHECK(float8_e4m3_t::from_float(-kInf, S::kClampFinite).bits == 0xff);
  CHECK(float8_e4m3_t::from_float(-1e6f, S::kClampFinite).bits == 0xfe);
  CHECK(float8_e4m3_t(-kNan).bits == 0x7f);
  CHECK(float8_e4m3_t::from_float(-kNan, S::kClampFinite).bits == 0xff);
  CHECK(float8_e4m3_t(-0.f).bits == 0x80);
  CHECK(float8_e4m3_t(std::ldexp(1.f, -10)).bits == 0x00);  // half the smallest subnormal
  CHECK(float8_e4m3_t(std::nextafter(std::ldexp(1.f, -10), 1.f)).bits == 0x01);
  CHECK(float8_e4m3_t(-std::ldexp(3.f, -10)).bits == 0x82);  // 1.5 quanta: ties to 2
  // e5m2: max 57344 = S.11110.11 (odd), so 61440, halfway to inf, rounds up to inf.
  CHECK(float8_e5m2_t::from_float(61440.f, S::kNone).bits == 0x7c);
  CHECK(float8_e5m2_t::from_float(std::nextafter(61440.f, 0.f), S::kNone).bits == 0x7b);
  CHECK(float8_e5m2_t(61440.f).bits == 0x7b);
  CHECK(float8_e5m2_t(-kInf).bits == 0xfb);
  CHECK(float8_e5m2_t::from_float(-kInf, S::kClampFinite).bits == 0xfc);
  CHECK(float8_e5m2_t::from_float(-1e6f, S::kClampFinite).bits == 0xfb);
  CHECK(float8_e5m2_t(kNan).bits == 0x7f);
  CHECK(float(float8_e5m2_t::from_bits(0x7c)) == kInf);
  // fnuz: one zero, one NaN (0x80); max 240 (e4m3fnuz) and 57344 (e5m2fnuz).
  CHECK(float8_e4m3fnuz_t(-0.f).bits == 0x00);
  CHECK(float8_e4m3fnuz_t(-std::ldexp(1.f, -12)).bits == 0x00);  // rounds to zero: not NaN
  CHECK(float8_e4m3fnuz_t(240.f).bits == 0x7f);
  CHECK(float8_e4m3fnuz_t(-1e6f).bits == 0xff);
  CHECK(float8_e4m3fnuz_t(kInf).bits == 0x80);
  CHECK(float8_e4m3fnuz_t(kNan).bits == 0x80);
  CHECK(float8_e4m3fnuz_t::from_float(248.f, S::kNone).bits == 0x80);  // ties past 240 (odd)
  CHECK(float8_e4m3fnuz_t::from_float(std::nextafter(248.f, 0.f), S::kNone).bits == 0x7f);
  CHECK(float8_e4m3fnuz_t::from_float(kInf, S::kSatFinite).bits == 0x7f);
  CHECK(float(float8_e5m2fnuz_t::from_bits(0x7f)) == 57344.f);
  CHECK(std::isnan(float(float8_e5m2fnuz_t::from_bits(0x80))));
  // MX: no NaN or inf; saturation always; NaN -> +max (NVIDIA) or max with its sign (AMD).
  CHECK(float4_e2m1_t(kInf).bits == 0x7);
  CHECK(float4_e2m1_t::from_float(-kInf, S::kNone).bits == 0xf);
  CHECK(float4_e2m1_t(-kNan).bits == 0x7);
  CHECK(float4_e2m1_t::from_float(-kNan, S::kClampFinite).bits == 0xf);
  CHECK(float4_e2m1_t(5.f).bits == 0x6);   // halfway 4 | 6: ties to 4 (even)
  CHECK(float4_e2m1_t(2.5f).bits == 0x4);  // halfway 2 | 3: ties to 2
  CHECK(float4_e2m1_t(0.25f).bits == 0x0);
  CHECK(float4_e2m1_t(-0.75f).bits == 0xa);  // halfway 0.5 | 1: ties to 1 (S.01.0)
  CHECK(float(float6_e2m3_t::max_finite()) == 7.5f);
  CHECK(float(float6_e3m2_t::max_finite()) == 28.f);
  CHECK(float(float6_e3m2_t::from_bits(0x01)) == 0.0625f);
  // ue4m3: no sign; negatives give 0.
  CHECK(float8_ue4m3_t(-3.f).bits == 0x00);
  CHECK(float8_ue4m3_t(-kInf).bits == 0x00);
  CHECK(float8_ue4m3_t(kInf).bits == 0x7e);
  CHECK(float8_ue4m3_t(kNan).bits == 0x7f);
  CHECK(float(float8_ue4m3_t::from_bits(0xb8)) == 1.f);  // bit 7 ignored
}

TEST_CASE("Conversions are constant expressions", "[numeric]") {
  static_assert(float8_e4m3_t::from_float_bits(0x43e00000u /* 448 */).bits == 0x7e, "");
  static_assert(float8_e4m3_t::from_bits(0x38).to_float_bits() == 0x3f800000u /* 1 */, "");
  static_assert(float8_e5m2_t::from_float_bits(0x7f800000u, Saturation::kNone).bits == 0x7c, "");
  static_assert(float8_e4m3fnuz_t::from_float_bits(0x80000000u /* -0 */).bits == 0x00, "");
  static_assert(float4_e2m1_t::from_float_bits(0x40c00000u /* 6 */).bits == 0x7, "");
  static_assert(float6_e2m3_t::max_finite().to_float_bits() == 0x40f00000u /* 7.5 */, "");
  static_assert(
      float4_e2m1x2_t::pack(float4_e2m1_t::from_bits(1), float4_e2m1_t::from_bits(2))[1].bits == 2,
      "");
  CHECK(float_of(float8_e5m2fnuz_t::from_bits(0x01).to_float_bits()) == std::ldexp(1.f, -17));
}

TEST_CASE("float4_e2m1x2_t packs element 0 in the low nibble", "[numeric][mx]") {
  for (unsigned b = 0; b < 256; ++b) {
    const auto pair = float4_e2m1x2_t::from_bits(std::uint8_t(b));
    REQUIRE(pair[0].bits == (b & 0xfu));
    REQUIRE(pair[1].bits == (b >> 4));
    REQUIRE(float4_e2m1x2_t::pack(pair[0], pair[1]).bits == b);
  }
  const auto pair = float4_e2m1x2_t::pack(float4_e2m1_t(1.5f), float4_e2m1_t(-6.f));
  CHECK(pair.bits == 0xf3);
  CHECK(float(pair[0]) == 1.5f);
  CHECK(float(pair[1]) == -6.f);
}

TEST_CASE("float6_e2m3x4_t / e3m2x4_t pack value i in bits [6i, 6i + 6) of three bytes", "[numeric][mx]") {
  // Every code in every position, the other three positions holding other codes.
  for (int i = 0; i < 4; ++i) {
    for (unsigned c = 0; c < 64; ++c) {
      float6_e2m3_t v[4];
      for (int j = 0; j < 4; ++j) v[j] = float6_e2m3_t::from_bits(std::uint8_t(j == i ? c : (c * 7 + 13 * j + 5) % 64));
      const auto g = float6_e2m3x4_t::pack(v[0], v[1], v[2], v[3]);
      REQUIRE(((g.bits24() >> (6 * i)) & 0x3fu) == c);
      for (int j = 0; j < 4; ++j) REQUIRE(g[j].bits == v[j].bits);
    }
  }
  // Worked by hand as Composable Kernel's f6_pk_t::pack places them (value i at bit 6i):
  // codes 1, 2, 3, 4 -> 1 | 2 << 6 | 3 << 12 | 4 << 18 = 0x103081: bytes 0x81, 0x30, 0x10.
  const auto g = float6_e3m2x4_t::pack(float6_e3m2_t::from_bits(1), float6_e3m2_t::from_bits(2),
                                       float6_e3m2_t::from_bits(3), float6_e3m2_t::from_bits(4));
  CHECK((g.bytes[0] == 0x81 && g.bytes[1] == 0x30 && g.bytes[2] == 0x10));
  CHECK(float(g[3]) == 0.25f);  // e3m2 code 4: 2^(1 - 3) * (1 + 0) = 0.25
  CHECK(std::string(type_name<float6_e2m3x4_t>::value) == "e2m3x4");
  CHECK(std::string(type_name<float6_e3m2x4_t>::value) == "e3m2x4");
}

TEST_CASE("float6_e2m3x4_t / float6_e3m2x4_t pack four values in three bytes, low bits first", "[numeric][mx]") {
  // Value i in bits 6i .. 6i + 5 of the little-endian bytes, written out bit by bit here as a
  // bit stream (value i's bit j is stream bit 6i + j, byte (6i + j) / 8, bit (6i + j) % 8).
  for (std::uint32_t word = 0; word < (1u << 24); word += 4093u) {
    const auto four = float6_e2m3x4_t::from_bits24(word);
    for (int i = 0; i < 4; ++i) {
      unsigned expected = 0;
      for (int j = 0; j < 6; ++j) {
        const int bit = 6 * i + j;
        expected |= ((four.bytes[bit / 8] >> (bit % 8)) & 1u) << j;
      }
      REQUIRE(four[i].bits == expected);
    }
    REQUIRE(float6_e2m3x4_t::pack(four[0], four[1], four[2], four[3]).bits24() == word);
  }
  // 1.5 (e3m2 0x0e), -28 (0x3f), 0.0625 (smallest subnormal, 0x01), 0: the word
  // 0x0e | 0x3f << 6 | 0x01 << 12 = 0x001fce, bytes 0xce, 0x1f, 0x00.
  const auto v = float6_e3m2x4_t::pack(float6_e3m2_t(1.5f), float6_e3m2_t(-28.f), float6_e3m2_t(0.0625f),
                                       float6_e3m2_t(0.f));
  CHECK(v.bytes[0] == 0xce);
  CHECK(v.bytes[1] == 0x1f);
  CHECK(v.bytes[2] == 0x00);
  CHECK(float(v[1]) == -28.f);
  STATIC_REQUIRE(sizeof(float6_e3m2x4_t) == 3 && alignof(float6_e3m2x4_t) == 1);
  STATIC_REQUIRE(values_per_element<float6_e3m2x4_t> == 4 && value_bits<float6_e3m2x4_t> == 6);
  STATIC_REQUIRE(values_per_element<float4_e2m1x2_t> == 2 && value_bits<float4_e2m1x2_t> == 4);
  STATIC_REQUIRE(values_per_element<float8_e4m3_t> == 1 && value_bits<float8_e4m3_t> == 8);
  CHECK(std::string(type_name<float6_e2m3x4_t>::value) == "e2m3x4");
}

TEST_CASE("The types plug into to_float / from_float and type_name", "[numeric]") {
  CHECK(to_float(float8_e4m3_t::from_bits(0x38)) == 1.f);
  CHECK(from_float<float8_e5m2_t>(-2.f).bits == 0xc0);
  CHECK(from_float<float4_e2m1_t>(3.f).bits == 0x5);
  CHECK(std::string(type_name<float8_e4m3_t>::value) == "e4m3");
  CHECK(std::string(type_name<float8_e5m2fnuz_t>::value) == "e5m2fnuz");
  CHECK(std::string(type_name<float6_e3m2_t>::value) == "e3m2");
  CHECK(std::string(type_name<float4_e2m1x2_t>::value) == "e2m1x2");
  CHECK(std::string(type_name<float8_ue4m3_t>::value) == "ue4m3");
  CHECK(std::string(type_name<float8_ue8m0_t>::value) == "ue8m0");
}
