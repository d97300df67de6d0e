// Block-scale factor types: float8_ue8m0_t, the MX spec's shared scale (MXFP8/6/4 on
// sm_100a `kind::mxf8f6f4` / `mxf4`, gfx950 `v_mfma_scale_*`), and float8_ue4m3_t, NVFP4's
// scale (`kind::mxf4nvf4`, one per 16 elements).
//
// ue8m0 (the OCP MX spec v1.0's E8M0): eight exponent bits, no sign, no mantissa; code c is
// 2^(c - 127) (2^-127 ... 2^127), 0xff is NaN; there is no zero and no inf. A float becomes
// a scale by rounding its magnitude to a power of two (the sign is ignored):
//   - ScaleRounding::kDown, floor(log2|x|): PTX `cvt.rz.satfinite.ue8m0x2.f32`, and the
//     MX spec's own rule (its conversion takes the shared exponent floor(log2(amax))
//     minus the element format's emax, see mx_shared_scale); Composable Kernel's e8m0 from float
//     takes the exponent bits the same way.
//   - ScaleRounding::kUp, ceil(log2|x|): PTX `cvt.rp.satfinite.ue8m0x2.f32`, for recipes
//     that must not let a scaled element overflow (amax / scale <= max).
// Magnitudes at or below 2^-127, zero included, give 2^-127 (code 0) either way. Past
// 2^127 and +-inf: 0xfe (2^127) under Saturation::kSatFinite, NaN without saturation; NaN
// gives NaN. These follow CUDA 13's cuda_fp8.hpp host model of the instructions
// (__nv_cvt_float_to_e8m0); the instructions exist on sm_100a only and have not run here.
//
// ue4m3: an unsigned e4m3, the same bits as float8_e4m3_t's non-negative codes (bias 7,
// max 448, NaN 0x7f, no inf); bit 7 is not part of the format: it is written 0 and ignored
// when read. A separate type from float8_e4m3_t because a scale has no sign: negative
// inputs (and -0, -inf) give 0, +inf gives 448 (kSatFinite), NaN gives 0x7f.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/narrow_float.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera {

struct ue4m3_format
    : narrow_format<4, 3, 7, false, NonFinite::kNanAllOnes, Saturation::kSatFinite> {
  static constexpr const char* kName = "ue4m3";
};

using float8_ue4m3_t = narrow_float<ue4m3_format>;

enum class ScaleRounding : std::uint8_t {
  kDown,  // floor(log2|x|): PTX .rz, the MX spec's rule
  kUp,    // ceil(log2|x|): PTX .rp
};

struct float8_ue8m0_t {
  std::uint8_t bits;  // 2^(bits - 127); 0xff is NaN

  static constexpr std::uint8_t kNan = 0xff;
  static constexpr std::uint8_t kMax = 0xfe;

  float8_ue8m0_t() = default;
  // Rounds down (the MX spec's rule), saturating.
  TESSERA_HOST_DEVICE explicit float8_ue8m0_t(float f) : bits(from_float(f).bits) {}

  TESSERA_HOST_DEVICE static constexpr float8_ue8m0_t from_bits(std::uint8_t b) {
    float8_ue8m0_t x{};
    x.bits = b;
    return x;
  }
  // 2^e for e in [-127, 127]; outside, the nearest end of that range.
  TESSERA_HOST_DEVICE static constexpr float8_ue8m0_t from_exponent(int e) {
    return from_bits(std::uint8_t(e < -127 ? 0 : e > 127 ? 254 : e + 127));
  }
  TESSERA_HOST_DEVICE static constexpr float8_ue8m0_t from_float_bits(
      std::uint32_t f, ScaleRounding rounding = ScaleRounding::kDown,
      Saturation saturation = Saturation::kSatFinite) {
    const std::uint32_t abs = f & 0x7fffffffu;
    if (abs > 0x7f800000u) return from_bits(kNan);
    const bool infinite = abs == 0x7f800000u;
    std::uint32_t field = abs >> 23;
    // Rounding up steps a magnitude that is not a power of two to the next one; below
    // 2^-127 (a float subnormal) only what exceeds 2^-127 goes up, to 2^-126.
    if (!infinite && rounding == ScaleRounding::kUp && (abs & 0x7fffffu) != 0u &&
        abs > 0x00400000u) {
      ++field;
    }
    if (field <= kMax) return from_bits(std::uint8_t(field));
    const bool saturate = saturation == Saturation::kSatFinite ||
                          (saturation == Saturation::kClampFinite && !infinite);
    return from_bits(saturate ? kMax : kNan);
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float8_ue8m0_t from_float(
      float f, ScaleRounding rounding = ScaleRounding::kDown,
      Saturation saturation = Saturation::kSatFinite) {
    return from_float_bits(float_to_bits(f), rounding, saturation);
  }

  TESSERA_HOST_DEVICE constexpr bool is_nan() const { return bits == kNan; }
  // log2 of the value; meaningless for NaN.
  TESSERA_HOST_DEVICE constexpr int exponent() const { return int(bits) - 127; }
  TESSERA_HOST_DEVICE constexpr std::uint32_t to_float_bits() const {
    return bits == kNan ? 0x7fc00000u
           : bits == 0  ? 0x00400000u /* 2^-127, a float subnormal */
                        : std::uint32_t(bits) << 23;
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE operator float() const {
    return bits_to_float(to_float_bits());
  }
};

static_assert(sizeof(float8_ue8m0_t) == 1 && sizeof(float8_ue4m3_t) == 1, "a scale is one byte");

template <>
struct type_name<float8_ue8m0_t> {
  static constexpr const char* value = "ue8m0";
};

// The MX spec's shared scale for a block whose largest magnitude is amax (OCP MX v1.0,
// conversion from FP32): 2^(floor(log2 amax) - emax), emax the largest exponent of the element
// format (e4m3: 8, e5m2: 15, e2m3: 2, e3m2: 4, e2m1: 2), clamped to 2^-127 ... 2^127; NaN for a NaN
// amax. Elements are then converted as float(x) / scale with saturation.
template <class ElementFormat>
TESSERA_HOST_DEVICE constexpr float8_ue8m0_t mx_shared_scale_from_bits(std::uint32_t amax) {
  using E = detail::narrow_encoding<ElementFormat>;
  constexpr int kElementMaxExponent =
      int(E::kMaxFinite >> ElementFormat::kMantissaBits) - ElementFormat::kBias;
  const float8_ue8m0_t floor_log2 = float8_ue8m0_t::from_float_bits(amax, ScaleRounding::kDown);
  if (floor_log2.is_nan()) return floor_log2;
  return float8_ue8m0_t::from_exponent(floor_log2.exponent() - kElementMaxExponent);
}
template <class ElementFormat>
TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float8_ue8m0_t mx_shared_scale(float amax) {
  return mx_shared_scale_from_bits<ElementFormat>(float_to_bits(amax));
}

}  // namespace tessera
