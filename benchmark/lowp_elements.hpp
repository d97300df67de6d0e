// What tessera_bench_hip's low-precision suite knows of each operand type: its format
// (decoded from the format's definition by test/support/narrow_float_reference.hpp, not by
// the library's types), the tag in benchmark names and hipBLASLt's name for it. Bits per
// value come from the library's packed-type traits (tessera::value_bits: 8; 4 for fp4, two a
// byte; 6 for fp6, four in three bytes: lowp_host_data.hpp packs both as one bit stream).
// Host only.
//
// hipDataType values (hip/library_types.h as in ROCm 7, the enum hipBLASLt's layouts take):
// HIP_R_8F_E4M3 = 28, HIP_R_8F_E5M2 = 29 (OCP), HIP_R_6F_E2M3 = 31, HIP_R_6F_E3M2 = 32 (OCP
// fp6, four values in three bytes), HIP_R_4F_E2M1 = 33 (two values a byte),
// HIP_R_8F_E4M3_FNUZ = 1000, HIP_R_8F_E5M2_FNUZ = 1001; HIP_R_32F = 0, HIP_R_16F = 2,
// HIP_R_16BF = 14. hipBLASLt's own header names the fp6 and fp4 codes too
// (library/include/hipblaslt-types.h: HIP_R_6F_E2M3_EXT = 31, HIP_R_6F_E3M2_EXT = 32,
// HIP_R_4F_E2M1_EXT = 33). Spelled as numbers because the HIP 5.2 headers this build uses
// predate the 8-, 6- and 4-bit names.
#pragma once

#include <cstdint>

#include "narrow_float_reference.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/numeric.hpp"

namespace {

template <class T>
struct LowpElement;

template <>
struct LowpElement<tessera::float8_e4m3fnuz_t> {
  static constexpr const char* kTag = "e4m3fnuz";
  static constexpr int kHipDataType = 1000;
  static const reference::Format& format() { return reference::kE4M3Fnuz; }
};
template <>
struct LowpElement<tessera::float8_e5m2fnuz_t> {
  static constexpr const char* kTag = "e5m2fnuz";
  static constexpr int kHipDataType = 1001;
  static const reference::Format& format() { return reference::kE5M2Fnuz; }
};
template <>
struct LowpElement<tessera::float8_e4m3_t> {
  static constexpr const char* kTag = "e4m3";
  static constexpr int kHipDataType = 28;
  static const reference::Format& format() { return reference::kE4M3; }
};
template <>
struct LowpElement<tessera::float8_e5m2_t> {
  static constexpr const char* kTag = "e5m2";
  static constexpr int kHipDataType = 29;
  static const reference::Format& format() { return reference::kE5M2; }
};
template <>
struct LowpElement<tessera::float4_e2m1x2_t> {  // the lower K in the low nibble
  static constexpr const char* kTag = "e2m1";
  static constexpr int kHipDataType = 33;
  static const reference::Format& format() { return reference::kE2M1; }
};
template <>
struct LowpElement<tessera::float6_e2m3x4_t> {  // value k of a row at bits [6 k, 6 k + 6)
  static constexpr const char* kTag = "e2m3";
  static constexpr int kHipDataType = 31;
  static const reference::Format& format() { return reference::kE2M3; }
};
template <>
struct LowpElement<tessera::float6_e3m2x4_t> {
  static constexpr const char* kTag = "e3m2";
  static constexpr int kHipDataType = 32;
  static const reference::Format& format() { return reference::kE3M2; }
};

// D's types (TypeName in checks.hpp names them in benchmark names).
template <class T>
struct HipOutputType;
template <>
struct HipOutputType<float> { static constexpr int value = 0; };
template <>
struct HipOutputType<tessera::half_t> { static constexpr int value = 2; };
template <>
struct HipOutputType<tessera::bfloat16_t> { static constexpr int value = 14; };

}  // namespace
