// The 6-bit floating-point element types of the OCP Microscaling (MX) spec v1.0: e2m3
// (S.EE.MMM, bias 1, max 7.5, min subnormal 0.125) and e3m2 (S.EEE.MM, bias 3, max 28, min
// subnormal 0.0625). Every code is finite: no inf, no NaN; +0 and -0 exist.
//
// float6_e2m3_t / float6_e3m2_t hold one value per byte, in bits 5:0, bits 7:6 zero: the
// layout PTX's cvt.rn.satfinite.{e2m3x2,e3m2x2}.f32 writes (each byte padded with two zero
// MSBs). GEMM operands that a kernel reads packed (the tcgen05 family's fp6 operands) are
// stored densely as float6_e2m3x4_t / float6_e3m2x4_t: four values in three bytes, value i
// in bits 6i .. 6i + 5 of the little-endian 24-bit word (a little-endian bit stream: value i
// starts at bit 6i % 8 of byte 6i / 8 and spills into the next byte's low bits). That is
// how CUTLASS stores arrays of float_e2m3_t / float_e3m2_t (cute/container/array_subbyte.hpp,
// subbyte_reference) and what TMA's CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B reads ("16 x U6
// packed values", cuda.h of CUDA 13.0); benchmark/notes/lowp_amd_sm100.md cites both.
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

// Four fp6 values in three bytes: value i in bits 6i .. 6i + 5 of the little-endian 24-bit
// word bytes[0] | bytes[1] << 8 | bytes[2] << 16.
template <class Format>
struct float6x4 {
  using Value = narrow_float<Format>;
  static constexpr int kValues = 4;      // values an element holds
  static constexpr int kValueBits = 6;   // bits each takes
  std::uint8_t bytes[3];

  TESSERA_HOST_DEVICE static constexpr float6x4 from_word(std::uint32_t word) {
    float6x4 x{};
    x.bytes[0] = std::uint8_t(word & 0xffu);
    x.bytes[1] = std::uint8_t((word >> 8) & 0xffu);
    x.bytes[2] = std::uint8_t((word >> 16) & 0xffu);
    return x;
  }
  TESSERA_HOST_DEVICE constexpr std::uint32_t word() const {
    return std::uint32_t(bytes[0]) | (std::uint32_t(bytes[1]) << 8) | (std::uint32_t(bytes[2]) << 16);
  }
  TESSERA_HOST_DEVICE static constexpr float6x4 pack(Value v0, Value v1, Value v2, Value v3) {
    return from_word((v0.bits & 0x3fu) | (std::uint32_t(v1.bits & 0x3fu) << 6) |
                     (std::uint32_t(v2.bits & 0x3fu) << 12) | (std::uint32_t(v3.bits & 0x3fu) << 18));
  }
  TESSERA_HOST_DEVICE constexpr Value operator[](int i) const {
    return Value::from_bits(std::uint8_t((word() >> (6 * (i & 3))) & 0x3fu));
  }
};

using float6_e2m3x4_t = float6x4<e2m3_format>;
using float6_e3m2x4_t = float6x4<e3m2_format>;
static_assert(sizeof(float6_e2m3x4_t) == 3, "four e2m3 values take three bytes");

template <>
struct type_name<float6_e2m3x4_t> {
  static constexpr const char* value = "e2m3x4";
};
template <>
struct type_name<float6_e3m2x4_t> {
  static constexpr const char* value = "e3m2x4";
};

}  // namespace tessera
