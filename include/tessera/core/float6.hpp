// The 6-bit floating-point element types of the OCP Microscaling (MX) spec v1.0: e2m3
// (S.EE.MMM, bias 1, max 7.5, min subnormal 0.125) and e3m2 (S.EEE.MM, bias 3, max 28, min
// subnormal 0.0625). Every code is finite: no inf, no NaN; +0 and -0 exist.
//
// One value per byte, in bits 5:0, bits 7:6 zero: the layout PTX's
// cvt.rn.satfinite.{e2m3x2,e3m2x2}.f32 writes (each byte padded with two zero MSBs).
//
// Operands of a GEMM are stored densely, four values in three bytes, as float6_e2m3x4_t /
// float6_e3m2x4_t: value i of a group in bits [6i, 6i + 6) of the group's 24 bits read
// little-endian (byte 0 holds bits 7:0), so that a row of K values is one bit stream in
// which value k occupies bits [6k, 6k + 6). This is the packing Composable Kernel's
// f6_pk_t (include/ck/utility/data_type.hpp: pack/unpack put value i at bit 6i of its
// 32-bit words) and HipKittens' fp6 GEMM (branch fp6_experimental, the host `pack`) hand
// to gfx950's f8f6f4 MFMAs, whose registers hold the same stream (arch/amd/mfma_lowp.hpp).
//
// Conversions from float round to nearest even and saturate (the PTX syntax has
// .satfinite mandatory for these types; the MX spec clamps to the largest normal): +-inf
// and anything rounding past max give +-max. NaN gives +max with the default
// Saturation::kSatFinite (the NVIDIA instruction, per CUDA 13's cuda_fp6.hpp host model)
// and max with the NaN's sign with kClampFinite (Composable Kernel's model of gfx950's
// v_cvt_scalef32_* conversions). Nothing here has run on a GPU that has these instructions
// (sm_100a, gfx950): the software path is used everywhere.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/narrow_float.hpp"

namespace tessera {

struct e2m3_format : narrow_format<2, 3, 1, true, NonFinite::kNone, Saturation::kSatFinite> {
  static constexpr const char* kName = "e2m3";
};

struct e3m2_format : narrow_format<3, 2, 3, true, NonFinite::kNone, Saturation::kSatFinite> {
  static constexpr const char* kName = "e3m2";
};

using float6_e2m3_t = narrow_float<e2m3_format>;
using float6_e3m2_t = narrow_float<e3m2_format>;

// Four fp6 values of one format in three bytes (see the top of this file).
template <class Element>
struct float6x4 {
  using element_type = Element;
  static constexpr int kValues = 4;     // values of K one group holds
  static constexpr int kValueBits = 6;  // bits each takes (numeric.hpp's packed_values reads both)
  std::uint8_t bytes[3];

  TESSERA_HOST_DEVICE static constexpr float6x4 from_bits24(std::uint32_t bits) {
    float6x4 g{};
    g.bytes[0] = std::uint8_t(bits & 0xffu);
    g.bytes[1] = std::uint8_t((bits >> 8) & 0xffu);
    g.bytes[2] = std::uint8_t((bits >> 16) & 0xffu);
    return g;
  }
  TESSERA_HOST_DEVICE constexpr std::uint32_t bits24() const {
    return std::uint32_t(bytes[0]) | std::uint32_t(bytes[1]) << 8 | std::uint32_t(bytes[2]) << 16;
  }
  TESSERA_HOST_DEVICE static constexpr float6x4 pack(Element e0, Element e1, Element e2, Element e3) {
    return from_bits24(std::uint32_t(e0.bits & 0x3fu) | std::uint32_t(e1.bits & 0x3fu) << 6 |
                       std::uint32_t(e2.bits & 0x3fu) << 12 | std::uint32_t(e3.bits & 0x3fu) << 18);
  }
  TESSERA_HOST_DEVICE constexpr Element operator[](int i) const {
    return Element::from_bits(std::uint8_t((bits24() >> (6 * (i & 3))) & 0x3fu));
  }
};

using float6_e2m3x4_t = float6x4<float6_e2m3_t>;
using float6_e3m2x4_t = float6x4<float6_e3m2_t>;

static_assert(sizeof(float6_e2m3x4_t) == 3 && alignof(float6_e2m3x4_t) == 1,
              "four e2m3 values share three bytes, aligned to one");
static_assert(sizeof(float6_e3m2x4_t) == 3 && alignof(float6_e3m2x4_t) == 1,
              "four e3m2 values share three bytes, aligned to one");

template <>
struct type_name<float6_e2m3x4_t> {
  static constexpr const char* value = "e2m3x4";
};
template <>
struct type_name<float6_e3m2x4_t> {
  static constexpr const char* value = "e3m2x4";
};

}  // namespace tessera
