// The 4-bit floating-point element type of the OCP Microscaling (MX) spec v1.0: e2m1
// (S.EE.M, bias 1; values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives). Every code is
// finite: no inf, no NaN; +0 and -0 exist. Conversions from float round to nearest even
// and saturate, with float6.hpp's NaN rule (kSatFinite: +6, NVIDIA; kClampFinite: 6 with
// the NaN's sign, Composable Kernel's model of gfx950).
//
// float4_e2m1_t holds one value in bits 3:0 of a byte (bits 7:4 zero). Operands are stored
// two per byte as float4_e2m1x2_t: element 2i in bits 3:0, element 2i+1 in bits 7:4 (the
// lower-addressed element in the low nibble, as CUTLASS's sub-byte arrays store them).
// Note the order PTX's cvt.rn.satfinite.e2m1x2.f32 d, a, b writes: a in the high nibble,
// b in the low one, so packing (x0, x1) is cvt(d, x1, x0).
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/narrow_float.hpp"

namespace tessera {

struct e2m1_format : narrow_format<2, 1, 1, true, NonFinite::kNone, Saturation::kSatFinite> {
  static constexpr const char* kName = "e2m1";
};

using float4_e2m1_t = narrow_float<e2m1_format>;

// Two e2m1 values in one byte: element 0 in bits 3:0, element 1 in bits 7:4.
struct float4_e2m1x2_t {
  static constexpr int kValues = 2;     // values an element holds
  static constexpr int kValueBits = 4;  // bits each takes
  std::uint8_t bits;

  TESSERA_HOST_DEVICE static constexpr float4_e2m1x2_t from_bits(std::uint8_t b) {
    float4_e2m1x2_t x{};
    x.bits = b;
    return x;
  }
  TESSERA_HOST_DEVICE static constexpr float4_e2m1x2_t pack(float4_e2m1_t element0,
                                                            float4_e2m1_t element1) {
    return from_bits(std::uint8_t((element0.bits & 0xfu) | ((element1.bits & 0xfu) << 4)));
  }
  TESSERA_HOST_DEVICE constexpr float4_e2m1_t operator[](int i) const {
    return float4_e2m1_t::from_bits(std::uint8_t((bits >> (4 * (i & 1))) & 0xfu));
  }
};

static_assert(sizeof(float4_e2m1x2_t) == 1, "two e2m1 values share one byte");

template <>
struct type_name<float4_e2m1x2_t> {
  static constexpr const char* value = "e2m1x2";
};

}  // namespace tessera
