// An independent reference for the narrow float types (core/narrow_float.hpp and the
// formats built on it), written from the formats' definitions rather than from the
// library's code: decoding is sign/exponent/mantissa arithmetic in double, encoding is an
// exhaustive search for the nearest finite value over every code, ties to the even code,
// with the range rules of each saturation mode spelled out case by case.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <vector>

namespace reference {

enum class Specials { kIeee, kOnlyAllOnesNan, kOnlyNegativeZeroNan, kAllFinite };
enum class Mode { kSatFinite, kClampFinite, kNone };

struct Format {
  const char* name;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_sign;
  Specials specials;

  int magnitude_bits() const { return exponent_bits + mantissa_bits; }
  unsigned codes() const { return 1u << (magnitude_bits() + (has_sign ? 1 : 0)); }
  unsigned sign_bit() const { return has_sign ? 1u << magnitude_bits() : 0u; }
  unsigned exponent_field(unsigned code) const {
    return (code >> mantissa_bits) & ((1u << exponent_bits) - 1u);
  }
  unsigned mantissa_field(unsigned code) const { return code & ((1u << mantissa_bits) - 1u); }
  bool negative(unsigned code) const { return (code & sign_bit()) != 0u; }

  bool is_nan(unsigned code) const {
    const unsigned all_exponent = (1u << exponent_bits) - 1u;
    switch (specials) {
      case Specials::kIeee:
        return exponent_field(code) == all_exponent && mantissa_field(code) != 0u;
      case Specials::kOnlyAllOnesNan:
        return exponent_field(code) == all_exponent &&
               mantissa_field(code) == (1u << mantissa_bits) - 1u;
      case Specials::kOnlyNegativeZeroNan:
        return code == sign_bit();
      case Specials::kAllFinite:
        return false;
    }
    return false;
  }
  bool is_inf(unsigned code) const {
    return specials == Specials::kIeee && exponent_field(code) == (1u << exponent_bits) - 1u &&
           mantissa_field(code) == 0u;
  }

  // The value of a code: (-1)^s * 2^(e - bias) * 1.m, or 2^(1 - bias) * 0.m when e = 0.
  double decode(unsigned code) const {
    if (is_nan(code)) return std::numeric_limits<double>::quiet_NaN();
    const double sign = negative(code) ? -1.0 : 1.0;
    if (is_inf(code)) return sign * std::numeric_limits<double>::infinity();
    const unsigned e = exponent_field(code);
    const double fraction = double(mantissa_field(code)) / double(1u << mantissa_bits);
    if (e == 0u) return sign * std::ldexp(fraction, 1 - bias);
    return sign * std::ldexp(1.0 + fraction, int(e) - bias);
  }

  // Non-negative finite values, ascending (zero once).
  std::vector<double> ladder() const {
    std::vector<double> values;
    for (unsigned c = 0; c < codes(); ++c) {
      if (negative(c) || is_nan(c) || is_inf(c)) continue;
      values.push_back(decode(c));
    }
    std::sort(values.begin(), values.end());
    return values;
  }
};

// float -> code from the definitions: the nearest finite value by exhaustive search (ties
// to the code with an even mantissa), then the range rules of `mode`.
class Encoder {
 public:
  explicit Encoder(const Format& f) : f_(f) {
    for (unsigned c = 0; c < f.codes(); ++c) {
      values_.push_back(f.decode(c));
      if (!f.negative(c) && std::isfinite(values_.back()) && values_.back() > max_) {
        max_ = values_.back();
        max_code_ = c;
      }
    }
    // What rounding past the range produces with an unbounded exponent: one quantum above
    // max, whose mantissa's last bit is the opposite of max's.
    beyond_max_ = max_ + std::ldexp(1.0, std::ilogb(max_) - f.mantissa_bits);
  }
  double max_finite() const { return max_; }
  double beyond_max() const { return beyond_max_; }

  unsigned encode(float input, Mode mode) const {
    const unsigned sign = std::signbit(input) ? f_.sign_bit() : 0u;
    const unsigned all_ones = (1u << f_.magnitude_bits()) - 1u;
    if (std::isnan(input)) {
      // PTX .satfinite drops the NaN's sign; AMD's conversions keep it.
      const unsigned nan_sign = mode == Mode::kSatFinite ? 0u : sign;
      switch (f_.specials) {
        case Specials::kIeee:
        case Specials::kOnlyAllOnesNan:
          return nan_sign | all_ones;
        case Specials::kOnlyNegativeZeroNan:
          return f_.sign_bit();
        case Specials::kAllFinite:
          return nan_sign | max_code_;
      }
    }
    if (!f_.has_sign && std::signbit(input)) return 0u;  // unsigned: nothing below zero
    const double x = double(input);
    // At or past the value beyond max the nearest candidate is that value (and double
    // cannot tell |x - max| from |x| for huge x).
    bool overflow = std::fabs(x) >= beyond_max_;
    if (!overflow) {
      double best_distance = std::numeric_limits<double>::infinity();
      bool best_even = false;
      unsigned best = 0;
      bool best_is_beyond = false;
      auto consider = [&](double value, bool even, bool beyond, unsigned code) {
        const double d = std::fabs(x - value);
        if (d < best_distance || (d == best_distance && even && !best_even)) {
          best_distance = d;
          best_even = even;
          best_is_beyond = beyond;
          best = code;
        }
      };
      for (unsigned c = 0; c < f_.codes(); ++c) {
        if (!std::isfinite(values_[c])) continue;
        if (f_.negative(c) != (sign != 0u) && values_[c] != 0.0) continue;  // the input's side
        consider(values_[c], (c & 1u) == 0u, false, c);
      }
      consider(std::copysign(beyond_max_, x), (max_code_ & 1u) != 0u, true, 0u);
      overflow = best_is_beyond;
      if (!overflow) {
        if (values_[best] != 0.0) return best;
        return f_.specials == Specials::kOnlyNegativeZeroNan ? 0u : sign;  // the input's zero
      }
    }
    const bool saturate = f_.specials == Specials::kAllFinite || mode == Mode::kSatFinite ||
                          (mode == Mode::kClampFinite && !std::isinf(x));
    if (saturate) return sign | max_code_;
    switch (f_.specials) {
      case Specials::kIeee:
        return sign | (((1u << f_.exponent_bits) - 1u) << f_.mantissa_bits);
      case Specials::kOnlyAllOnesNan:
        return sign | all_ones;
      case Specials::kOnlyNegativeZeroNan:
        return f_.sign_bit();
      case Specials::kAllFinite:
        break;
    }
    return sign | max_code_;
  }

 private:
  Format f_;
  std::vector<double> values_;
  double max_ = 0;
  unsigned max_code_ = 0;
  double beyond_max_ = 0;
};

// The formats, from their definitions (OCP OFP8 rev 1.0, OCP MX v1.0, gfx942's fnuz types).
inline const Format kE4M3{"e4m3", 4, 3, 7, true, Specials::kOnlyAllOnesNan};
inline const Format kE5M2{"e5m2", 5, 2, 15, true, Specials::kIeee};
inline const Format kE4M3Fnuz{"e4m3fnuz", 4, 3, 8, true, Specials::kOnlyNegativeZeroNan};
inline const Format kE5M2Fnuz{"e5m2fnuz", 5, 2, 16, true, Specials::kOnlyNegativeZeroNan};
inline const Format kE2M3{"e2m3", 2, 3, 1, true, Specials::kAllFinite};
inline const Format kE3M2{"e3m2", 3, 2, 3, true, Specials::kAllFinite};
inline const Format kE2M1{"e2m1", 2, 1, 1, true, Specials::kAllFinite};
inline const Format kUE4M3{"ue4m3", 4, 3, 7, false, Specials::kOnlyAllOnesNan};

// Float inputs that probe every rounding decision of a format: each value and its float
// neighbours, each midpoint between consecutive values (and past max) with its float
// neighbours, both signs; float specials and subnormals; then random bit patterns and
// random values across the format's range.
inline std::vector<float> probing_inputs(const Format& f, unsigned random_count, unsigned seed) {
  const Encoder encoder(f);
  std::vector<float> inputs;
  auto with_neighbours = [&](double v) {
    const float x = float(v);
    for (float s :
         {x, std::nextafter(x, 0.f), std::nextafter(x, std::numeric_limits<float>::infinity())}) {
      inputs.push_back(s);
      inputs.push_back(-s);
    }
  };
  std::vector<double> ladder = f.ladder();
  ladder.push_back(encoder.beyond_max());
  for (size_t i = 0; i < ladder.size(); ++i) {
    with_neighbours(ladder[i]);
    if (i + 1 < ladder.size()) with_neighbours((ladder[i] + ladder[i + 1]) / 2);
  }
  const float inf = std::numeric_limits<float>::infinity();
  for (float s : {0.f, inf, std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                  std::numeric_limits<float>::denorm_min(), 1e-30f, 2 * float(encoder.max_finite()),
                  std::nextafter(std::numeric_limits<float>::min(), 0.f)}) {
    inputs.push_back(s);
    inputs.push_back(-s);
  }
  for (std::uint32_t nan_bits : {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu,
                                 0xffffffffu, 0x7fa00000u}) {
    float n;
    std::memcpy(&n, &nan_bits, sizeof n);
    inputs.push_back(n);
  }
  std::uint32_t state = seed;
  auto next = [&state]() {
    state = state * 1664525u + 1013904223u;  // LCG: reproducible, no <random> distribution quirks
    return state;
  };
  for (unsigned i = 0; i < random_count; ++i) {
    std::uint32_t bits = next() ^ (next() >> 16);
    float r;
    std::memcpy(&r, &bits, sizeof r);
    inputs.push_back(r);
    const double unit = double(next()) / 4294967296.0;  // [0, 1)
    inputs.push_back(float((2 * unit - 1) * 1.25 * encoder.max_finite()));
  }
  return inputs;
}

// Inputs for a power-of-two scale (ue8m0): every power of two a float holds, its float
// neighbours and 1.5 times it, both signs, and the specials.
inline std::vector<float> power_of_two_inputs() {
  std::vector<float> inputs;
  const float inf = std::numeric_limits<float>::infinity();
  for (int e = -149; e <= 127; ++e) {
    const float p = std::ldexp(1.f, e);
    for (float x : {p, std::nextafter(p, 0.f), std::nextafter(p, inf), 1.5f * p}) {
      inputs.push_back(x);
      inputs.push_back(-x);
    }
  }
  for (float x : {0.f, inf, std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::quiet_NaN()}) {
    inputs.push_back(x);
    inputs.push_back(-x);
  }
  return inputs;
}

}  // namespace reference
