// What the low-precision MFMA tests (test_mfma_lowp.cpp) and their mutation checks
// (mutation_lowp_checks.cpp) share: random and edge-encoding cases of one instruction, the
// scalar model of its documented arithmetic written from the formats' definitions
// (test/support/narrow_float_reference.hpp), and one run on the emulator.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "mfma_lane_map.hpp"
#include "mfma_lowp_shapes.hpp"
#include "mfma_lowp_kernels.hpp"
#include "mfma_lowp_lane_map.hpp"
#include "narrow_float_reference.hpp"
#include "reference_gemm.hpp"
#include "tessera/emulator/emulator.hpp"

namespace emu_test {

namespace emu = tessera::amd::emulation;
namespace amd = tessera::amd;
using tessera::Status;

template <class S>
emu::Options lowp_options() {
  emu::Options o;
  o.target = S::kF8F6F4 ? emu::Target::kGfx950 : emu::Target::kGfx942;
  o.hardware.mfma_denormals = emu::Denormals::kKeep;
  return o;
}

// The format an operand code of the instruction is read in.
inline const reference::Format& format_of(amd::MfmaFormat f, bool f8f6f4) {
  if (!f8f6f4) return f == amd::MfmaFormat::kFp8 ? reference::kE4M3Fnuz : reference::kE5M2Fnuz;
  switch (f) {
    case amd::MfmaFormat::kFp8: return reference::kE4M3;
    case amd::MfmaFormat::kBf8: return reference::kE5M2;
    case amd::MfmaFormat::kFp6: return reference::kE2M3;
    case amd::MfmaFormat::kBf6: return reference::kE3M2;
    default: return reference::kE2M1;
  }
}

// Codes that test a format's edges: zeros, the smallest and largest subnormal, the smallest
// normal, the largest finite value (each with both signs where there are), and with
// `specials`, every NaN and inf code.
inline std::vector<std::uint8_t> edge_codes(const reference::Format& f, bool specials) {
  std::vector<std::uint8_t> out;
  const unsigned mant = (1u << f.mantissa_bits) - 1u;
  double max_finite = 0.0;
  unsigned max_code = 0;
  for (unsigned c = 0; c < f.codes(); ++c) {
    if (f.is_nan(c) || f.is_inf(c)) {
      if (specials) out.push_back(std::uint8_t(c));
      continue;
    }
    const unsigned magnitude = c & (f.sign_bit() - 1u);
    const bool subnormal_or_zero = f.exponent_field(c) == 0;
    const bool min_normal = f.exponent_field(c) == 1 && f.mantissa_field(c) == 0;
    if ((subnormal_or_zero && (magnitude == 0 || magnitude == 1 || magnitude == mant)) || min_normal) {
      out.push_back(std::uint8_t(c));
    }
    const double v = f.decode(c);
    if (v > max_finite) max_finite = v, max_code = c;
  }
  out.push_back(std::uint8_t(max_code));
  out.push_back(std::uint8_t(max_code | f.sign_bit()));
  return out;
}

struct LowpCase {
  int m, k;
  std::vector<std::uint8_t> a, b;      // codes, M x K and K x N row-major
  std::vector<std::uint8_t> sa, sb;    // scale codes: [row][block] of A, [col][block] of B
  std::vector<float> c;
  std::vector<std::uint32_t> reg_a, reg_b;  // the 64 lanes' scale registers
};

// Random codes (with `edges`: a quarter from edge_codes, specials included), random C, and
// scale codes near 127 (with `edges`: also 0, 1, 254 and, rarely, the NaN code 0xff).
template <class S>
LowpCase make_case(std::uint64_t seed, bool edges) {
  std::mt19937_64 rng(seed);
  const reference::Format& fa = format_of(S::kFormatA, S::kF8F6F4);
  const reference::Format& fb = format_of(S::kFormatB, S::kF8F6F4);
  const std::vector<std::uint8_t> ea = edge_codes(fa, true), eb = edge_codes(fb, true);
  auto code = [&](const reference::Format& f, const std::vector<std::uint8_t>& e) {
    if (edges && rng() % 4 == 0) return e[rng() % e.size()];
    for (;;) {
      const unsigned c = unsigned(rng() % f.codes());
      if (!f.is_nan(c) && !f.is_inf(c)) return std::uint8_t(c);
    }
  };
  LowpCase t;
  t.m = S::kM;
  t.k = S::kK;
  const int blocks = (S::kK + 31) / 32;
  t.a.resize(std::size_t(t.m * t.k));
  t.b.resize(std::size_t(t.k * t.m));
  for (auto& x : t.a) x = code(fa, ea);
  for (auto& x : t.b) x = code(fb, eb);
  t.c.resize(std::size_t(t.m * t.m));
  std::uniform_real_distribution<float> cd(-8.0f, 8.0f);
  for (auto& x : t.c) x = cd(rng);
  auto scale = [&]() -> std::uint8_t {
    if (edges) {
      const unsigned r = unsigned(rng() % 64);
      if (r == 0) return 0xff;
      if (r < 4) return std::uint8_t(r == 1 ? 0 : r == 2 ? 1 : 254);
    }
    return std::uint8_t(127 - 6 + int(rng() % 13));
  };
  t.sa.resize(std::size_t(t.m * blocks));
  t.sb.resize(std::size_t(t.m * blocks));
  for (auto& x : t.sa) x = scale();
  for (auto& x : t.sb) x = scale();
  // Lane l's registers hold its scale in the op_sel byte and noise elsewhere.
  t.reg_a.assign(64, 0u);
  t.reg_b.assign(64, 0u);
  for (int l = 0; l < 64 && S::kScaled; ++l) {
    const emu_test::ScaleIndex s = emu_test::mfma_lowp_scale_element<S>(l);
    const std::uint32_t na = std::uint32_t(rng()), nb = std::uint32_t(rng());
    t.reg_a[std::size_t(l)] = (na & ~(0xffu << 8 * emu_test::kLowpOpselA)) |
                              std::uint32_t(t.sa[std::size_t(s.row * blocks + s.block)]) << 8 * emu_test::kLowpOpselA;
    t.reg_b[std::size_t(l)] = (nb & ~(0xffu << 8 * emu_test::kLowpOpselB)) |
                              std::uint32_t(t.sb[std::size_t(s.row * blocks + s.block)]) << 8 * emu_test::kLowpOpselB;
  }
  return t;
}

// The documented arithmetic, written again: C first, then each product of two decoded
// values times 2^(sa - 127) 2^(sb - 127) (NaN for a scale code 0xff), rounded once to
// fp32, added in increasing k with fp32 rounding.
template <class S>
std::vector<float> scalar_model(const LowpCase& t) {
  const reference::Format& fa = format_of(S::kFormatA, S::kF8F6F4);
  const reference::Format& fb = format_of(S::kFormatB, S::kF8F6F4);
  const int blocks = S::kK / 32;
  std::vector<float> d(t.c.size());
  for (int i = 0; i < t.m; ++i) {
    for (int j = 0; j < t.m; ++j) {
      float acc = t.c[std::size_t(i * t.m + j)];
      for (int k = 0; k < t.k; ++k) {
        double p = fa.decode(t.a[std::size_t(i * t.k + k)]) * fb.decode(t.b[std::size_t(k * t.m + j)]);
        if (S::kScaled) {
          const unsigned ca = t.sa[std::size_t(i * blocks + k / 32)], cb = t.sb[std::size_t(j * blocks + k / 32)];
          p = (ca == 0xffu || cb == 0xffu) ? std::nan("") : p * std::pow(2.0, int(ca) - 127) * std::pow(2.0, int(cb) - 127);
        }
        acc += float(p);
      }
      d[std::size_t(i * t.m + j)] = acc;
    }
  }
  return d;
}

template <class S>
std::vector<float> run_instruction(const LowpCase& t, Status* status) {
  std::vector<float> d(t.c.size());
  tessera::test::poison(d);
  *status = emu_test::run_mfma_lowp_once<S>({t.a.data(), t.b.data(), t.c.data(), d.data(), t.reg_a.data(), t.reg_b.data()});
  return d;
}

inline bool same_bits(float x, float y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  std::uint32_t bx, by;
  std::memcpy(&bx, &x, 4);
  std::memcpy(&by, &y, 4);
  return bx == by;
}


// How many outputs differ from the model bit for bit (NaN matches any NaN).
inline std::size_t count_differences(const std::vector<float>& d, const std::vector<float>& want) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < d.size(); ++i) n += same_bits(d[i], want[i]) ? 0 : 1;
  return n;
}

}  // namespace emu_test
