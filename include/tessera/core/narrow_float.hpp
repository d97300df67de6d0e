// Narrow floating-point formats (8, 6 and 4 bits) as storage types. One template,
// narrow_float<Format>, carries the bits and converts to and from float; a Format names
// the encoding (exponent and mantissa widths, bias, sign, which codes are inf or NaN).
// float8.hpp, float6.hpp, float4.hpp and scale_factor.hpp define the formats and name the
// types. As with half_t, arithmetic happens in float: these types only convert and carry.
//
// float -> narrow rounds to nearest, ties to even, exactly as the conversion instructions
// do (NVIDIA cvt.rn, AMD v_cvt_pk_*); Saturation says what happens past the range. The
// conversions work on float bits and are constexpr; narrow -> float is exact (every
// finite code is a float).
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera {

// What a float -> narrow conversion gives for values beyond the largest finite one. The
// modes differ only there and in the sign bit of a NaN result.
enum class Saturation : std::uint8_t {
  // PTX `cvt.rn.satfinite` (sm_89+): a value rounding past the largest finite value, and
  // +-inf, give +-max; NaN gives the format's NaN with the sign bit clear (formats without
  // NaN: +max). PTX ISA, cvt, ".satfinite".
  kSatFinite,
  // AMD's saturating conversion: finite inputs are clamped to +-max before
  // v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (what Composable Kernel, HIP's fp8 header and
  // MLIR's ArithToAMDGPU emit; MODE.FP16_OVFL = 1 saturates in hardware the same way);
  // +-inf and NaN are converted as with kNone. A NaN keeps its sign (formats without NaN:
  // +-max by sign).
  kClampFinite,
  // No saturation (the OCP FP8 spec's non-saturating mode; v_cvt_pk_* with
  // MODE.FP16_OVFL = 0, the default): a value rounding past max, and +-inf, become +-inf
  // where the format has infinities, else NaN. Formats with neither (fp6, fp4) saturate
  // anyway, as kClampFinite.
  kNone,
};

// Which codes of a format are not finite numbers.
enum class NonFinite : std::uint8_t {
  kIeee,             // all-ones exponent: inf with a zero mantissa, NaN otherwise (e5m2)
  kNanAllOnes,       // the all-ones magnitude is the only NaN (per sign); no inf (e4m3)
  kNanNegativeZero,  // the negative-zero code 0x80 is the only NaN; no inf, no -0 (fnuz)
  kNone,             // every code is a finite number (fp6, fp4)
};

// A format's definition, for the format structs to derive from (each adds its kName):
// exponent and mantissa widths, exponent bias, whether a sign bit exists, which codes are
// not finite, and the saturation its conversions use unless told otherwise.
template <int ExponentBits, int MantissaBits, int Bias, bool Signed, NonFinite Specials,
          Saturation DefaultSaturation>
struct narrow_format {
  static constexpr int kExponentBits = ExponentBits;
  static constexpr int kMantissaBits = MantissaBits;
  static constexpr int kBias = Bias;
  static constexpr bool kSigned = Signed;
  static constexpr NonFinite kNonFinite = Specials;
  static constexpr Saturation kDefaultSaturation = DefaultSaturation;
};

// A hardware conversion a format may offer in device code (float8.hpp specialises it for
// e4m3 and e5m2 on sm_89+); the software path is used wherever it is absent.
template <class Format>
struct nv_conversion {
  static constexpr bool kAvailable = false;
};

namespace detail {

// The constants of a format's encoding, derived from its definition.
template <class Format>
struct narrow_encoding {
  static constexpr int kExponentBits = Format::kExponentBits;
  static constexpr int kMantissaBits = Format::kMantissaBits;
  static constexpr std::uint32_t kMagnitudeMask = (1u << (kExponentBits + kMantissaBits)) - 1u;
  static constexpr std::uint32_t kSignBit = Format::kSigned ? kMagnitudeMask + 1u : 0u;
  static constexpr std::uint32_t kMantissaMask = (1u << kMantissaBits) - 1u;
  static constexpr std::uint32_t kInfMagnitude = ((1u << kExponentBits) - 1u) << kMantissaBits;
  // Largest finite magnitude code: below inf for IEEE-like formats, below the all-ones
  // NaN for e4m3, the all-ones code where no magnitude is reserved.
  static constexpr std::uint32_t kMaxFinite =
      Format::kNonFinite == NonFinite::kIeee         ? kInfMagnitude - 1u
      : Format::kNonFinite == NonFinite::kNanAllOnes ? kMagnitudeMask - 1u
                                                     : kMagnitudeMask;
  static_assert(kExponentBits >= 1 && kMantissaBits >= 1 && kExponentBits + kMantissaBits <= 7,
                "a narrow float has 1-7 bits of magnitude and fits in one byte with its sign");

  TESSERA_HOST_DEVICE static constexpr bool is_nan(std::uint32_t code) {
    const std::uint32_t magnitude = code & kMagnitudeMask;
    switch (Format::kNonFinite) {
      case NonFinite::kIeee:
        return magnitude > kInfMagnitude;
      case NonFinite::kNanAllOnes:
        return magnitude == kMagnitudeMask;
      case NonFinite::kNanNegativeZero:
        return code == kSignBit;
      case NonFinite::kNone:
        return false;
    }
    return false;
  }
  TESSERA_HOST_DEVICE static constexpr bool is_inf(std::uint32_t code) {
    return Format::kNonFinite == NonFinite::kIeee && (code & kMagnitudeMask) == kInfMagnitude;
  }
  // The code of a NaN result with the given sign bit (formats without NaN: max by sign).
  TESSERA_HOST_DEVICE static constexpr std::uint32_t nan_code(std::uint32_t sign) {
    return Format::kNonFinite == NonFinite::kNanNegativeZero ? kSignBit
           : Format::kNonFinite == NonFinite::kNone          ? sign | kMaxFinite
                                                             : sign | kMagnitudeMask;
  }
  // The code of an unsaturated overflow: inf if the format has one, else NaN.
  TESSERA_HOST_DEVICE static constexpr std::uint32_t overflow_code(std::uint32_t sign) {
    return Format::kNonFinite == NonFinite::kIeee ? sign | kInfMagnitude : nan_code(sign);
  }
};

// Rounds a finite float magnitude (its bits, sign clear) to nearest even at the format's
// precision, with an unbounded exponent: the result is the magnitude code it rounds to,
// which exceeds kMaxFinite when the value rounds past the format's range.
template <class Format>
TESSERA_HOST_DEVICE constexpr std::uint32_t round_to_magnitude(std::uint32_t abs) {
  constexpr int kMantissaBits = Format::kMantissaBits;
  constexpr int kMinNormalExponent = 1 - Format::kBias;
  const int biased = int(abs >> 23);
  // A float subnormal has exponent -126 and no implicit bit.
  const int exponent = (biased == 0 ? 1 : biased) - 127;
  const std::uint32_t significand = (abs & 0x7fffffu) | (biased == 0 ? 0u : 0x800000u);
  // Low bits of the 24-bit significand that the format drops; below its normal range the
  // format's quantum stays 2^(min normal exponent - mantissa bits).
  int shift =
      23 - kMantissaBits + (exponent < kMinNormalExponent ? kMinNormalExponent - exponent : 0);
  if (shift > 31) shift = 31;  // far below the smallest subnormal: 0 either way, shift defined
  std::uint32_t kept = significand >> shift;
  const std::uint32_t rest = significand & ((1u << shift) - 1u);
  const std::uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u))) ++kept;
  // kept holds the implicit bit for normals, so exponent field (e + bias - 1) plus kept
  // composes the code, a carry out of the mantissa stepping the exponent; subnormals have
  // field 0 and no implicit bit.
  const int field_base =
      (exponent < kMinNormalExponent ? kMinNormalExponent : exponent) + Format::kBias - 1;
  return (std::uint32_t(field_base) << kMantissaBits) + kept;
}

// float bits -> code, rounding to nearest even, the range handled as `saturation` says.
template <class Format>
TESSERA_HOST_DEVICE constexpr std::uint8_t encode_narrow(std::uint32_t f, Saturation saturation) {
  using E = narrow_encoding<Format>;
  const bool negative = (f >> 31) != 0u;
  const std::uint32_t abs = f & 0x7fffffffu;
  const std::uint32_t sign = negative ? E::kSignBit : 0u;
  if (abs > 0x7f800000u) {
    return std::uint8_t(E::nan_code(saturation == Saturation::kSatFinite ? 0u : sign));
  }
  if (!Format::kSigned && negative) return 0;  // an unsigned format's floor: 0 (-0, -inf too)
  const bool infinite = abs == 0x7f800000u;
  const std::uint32_t magnitude = infinite ? E::kMaxFinite + 1u : round_to_magnitude<Format>(abs);
  if (magnitude <= E::kMaxFinite) {
    if (magnitude == 0u && Format::kNonFinite == NonFinite::kNanNegativeZero) return 0;  // no -0
    return std::uint8_t(sign | magnitude);
  }
  const bool saturate =
      saturation == Saturation::kSatFinite || (saturation == Saturation::kClampFinite && !infinite);
  return std::uint8_t(saturate ? sign | E::kMaxFinite : E::overflow_code(sign));
}

// code -> float bits, exact. NaN decodes to the quiet NaN 0x7fc00000 (no payload kept).
template <class Format>
TESSERA_HOST_DEVICE constexpr std::uint32_t decode_narrow(std::uint8_t code) {
  using E = narrow_encoding<Format>;
  constexpr int kMantissaBits = Format::kMantissaBits;
  if (E::is_nan(code)) return 0x7fc00000u;
  const std::uint32_t sign = (code & E::kSignBit) ? 0x80000000u : 0u;
  if (E::is_inf(code)) return sign | 0x7f800000u;
  const std::uint32_t magnitude = code & E::kMagnitudeMask;
  int exponent = int(magnitude >> kMantissaBits) - Format::kBias;
  std::uint32_t mantissa = magnitude & E::kMantissaMask;
  if ((magnitude >> kMantissaBits) == 0u) {
    if (mantissa == 0u) return sign;
    // Subnormal: mantissa * 2^(1 - bias - M); normalise so the leading bit is implicit.
    exponent = 1 - Format::kBias;
    while ((mantissa & (1u << kMantissaBits)) == 0u) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= E::kMantissaMask;
  }
  return sign | (std::uint32_t(exponent + 127) << 23) | (mantissa << (23 - kMantissaBits));
}

}  // namespace detail

// A value of a narrow format in one byte, the code in its low bits (a sign bit above the
// magnitude where the format has one; unused high bits are zero).
template <class Format>
struct narrow_float {
  using format = Format;
  std::uint8_t bits;

  narrow_float() = default;
  // The format's default conversion (Format::kDefaultSaturation; float8.hpp lists them).
  TESSERA_HOST_DEVICE explicit narrow_float(float f) : bits(from_float(f).bits) {}

  TESSERA_HOST_DEVICE static constexpr narrow_float from_bits(std::uint8_t b) {
    narrow_float x{};
    x.bits = b;
    return x;
  }
  TESSERA_HOST_DEVICE static constexpr narrow_float from_float_bits(
      std::uint32_t f, Saturation saturation = Format::kDefaultSaturation) {
    return from_bits(detail::encode_narrow<Format>(f, saturation));
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static narrow_float from_float(
      float f, Saturation saturation = Format::kDefaultSaturation) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    if constexpr (nv_conversion<Format>::kAvailable) {
      if (saturation == Saturation::kSatFinite)
        return from_bits(nv_conversion<Format>::satfinite(f));
    }
#endif
    return from_float_bits(float_to_bits(f), saturation);
  }

  TESSERA_HOST_DEVICE constexpr std::uint32_t to_float_bits() const {
    return detail::decode_narrow<Format>(bits);
  }
  // Exact; a NaN's payload bits may differ between the device instruction and the host.
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE operator float() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    if constexpr (nv_conversion<Format>::kAvailable) return nv_conversion<Format>::to_float(bits);
#endif
    return bits_to_float(to_float_bits());
  }

  TESSERA_HOST_DEVICE constexpr bool is_nan() const {
    return detail::narrow_encoding<Format>::is_nan(bits);
  }
  TESSERA_HOST_DEVICE constexpr bool is_inf() const {
    return detail::narrow_encoding<Format>::is_inf(bits);
  }
  // The largest finite value, positive.
  TESSERA_HOST_DEVICE static constexpr narrow_float max_finite() {
    return from_bits(std::uint8_t(detail::narrow_encoding<Format>::kMaxFinite));
  }
};

template <class Format>
struct type_name<narrow_float<Format>> {
  static constexpr const char* value = Format::kName;
};

}  // namespace tessera
