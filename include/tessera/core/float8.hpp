// The 8-bit floating-point element types: OCP FP8 (e4m3, e5m2; Hopper, Blackwell, gfx950)
// and the "fnuz" variants gfx942 computes with. Layout S.EEEE.MMM / S.EEEEE.MM.
//
// | type              | bias | max   | min subnormal | inf        | NaN                 | zeros  |
// |-------------------|------|-------|---------------|------------|---------------------|--------|
// | float8_e4m3_t     | 7    | 448   | 2^-9          | none       | S.1111.111          | +0, -0 |
// | float8_e5m2_t     | 15   | 57344 | 2^-16         | S.11111.00 | S.11111.{01,10,11}  | +0, -0 |
// | float8_e4m3fnuz_t | 8    | 240   | 2^-10         | none       | 0x80 only           | +0     |
// | float8_e5m2fnuz_t | 16   | 57344 | 2^-17         | none       | 0x80 only           | +0     |
//
// Conversions from float round to nearest even. The default (`T(x)`, `T::from_float(x)`)
// saturates as the hardware that uses the format does when asked to saturate:
//   - e4m3, e5m2: Saturation::kSatFinite, PTX `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`:
//     +-inf and everything rounding past max give +-max (448, 57344), NaN gives 0x7f (the
//     PTX ISA says "NaN"; 0x7f, sign dropped, is CUDA 13's cuda_fp8.hpp host model). On
//     sm_89+ device code this *is* the instruction; test/gpu/test_numeric_types.cu compares
//     the instruction with the host functions bit for bit. PTX has no non-saturating form.
//   - fnuz: Saturation::kClampFinite, gfx942's saturating conversion (finite inputs clamped
//     to +-max before v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32): +-inf and NaN give 0x80, -0
//     and anything rounding to zero give 0x00.
// Saturation::kNone is the OCP spec's non-saturating mode and what v_cvt_pk_* does with
// MODE.FP16_OVFL = 0: overflow gives NaN (e4m3, fnuz) or +-inf (e5m2). gfx950 converts to
// the OCP formats with the same instructions (kClampFinite or kNone then).
// Sources: OCP 8-bit Floating Point Specification (OFP8) rev 1.0; PTX ISA, cvt; AMD's
// behaviour as Triton (third_party/amd .../ElementwiseOpToLLVM.cpp, adjustModeRegister:
// FP16_OVFL selects "non-saturation/saturation mode"), MLIR (ArithToAMDGPU.cpp,
// clampInput: unclamped out-of-range values "overflow ... to NaN") and Composable Kernel
// (amd_ck_fp8.hpp) describe it. Not checked on AMD hardware: whether a value between max
// and max + half an ulp rounds to max without saturation (IEEE rounding, assumed here, says
// it does; CK's host model says NaN), and the sign of a NaN result (CK: kept).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/narrow_float.hpp"

namespace tessera {

struct e4m3_format : narrow_format<4, 3, 7, true, NonFinite::kNanAllOnes, Saturation::kSatFinite> {
  static constexpr const char* kName = "e4m3";
};

struct e5m2_format : narrow_format<5, 2, 15, true, NonFinite::kIeee, Saturation::kSatFinite> {
  static constexpr const char* kName = "e5m2";
};

struct e4m3fnuz_format
    : narrow_format<4, 3, 8, true, NonFinite::kNanNegativeZero, Saturation::kClampFinite> {
  static constexpr const char* kName = "e4m3fnuz";
};

struct e5m2fnuz_format
    : narrow_format<5, 2, 16, true, NonFinite::kNanNegativeZero, Saturation::kClampFinite> {
  static constexpr const char* kName = "e5m2fnuz";
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
// `cvt.rn.satfinite.<f8>x2.f32 d, a, b` packs a into the high byte and b into the low one;
// converting x twice leaves it in both. Back: f8x2 -> f16x2 (exact), then f16 -> f32.
#define TESSERA_NV_FP8_CONVERSION(FORMAT, PTX_TYPE)                                          \
  template <>                                                                                \
  struct nv_conversion<FORMAT> {                                                             \
    static constexpr bool kAvailable = true;                                                 \
    TESSERA_DEVICE TESSERA_FORCEINLINE static std::uint8_t satfinite(float x) {              \
      unsigned short pair;                                                                   \
      asm("cvt.rn.satfinite." PTX_TYPE "x2.f32 %0, %1, %1;" : "=h"(pair) : "f"(x));          \
      return std::uint8_t(pair);                                                             \
    }                                                                                        \
    TESSERA_DEVICE TESSERA_FORCEINLINE static float to_float(std::uint8_t code) {            \
      unsigned int halves;                                                                   \
      asm("cvt.rn.f16x2." PTX_TYPE "x2 %0, %1;" : "=r"(halves) : "h"((unsigned short)code)); \
      float f;                                                                               \
      asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"((unsigned short)halves));                    \
      return f;                                                                              \
    }                                                                                        \
  };
TESSERA_NV_FP8_CONVERSION(e4m3_format, "e4m3")
TESSERA_NV_FP8_CONVERSION(e5m2_format, "e5m2")
#undef TESSERA_NV_FP8_CONVERSION
#endif

using float8_e4m3_t = narrow_float<e4m3_format>;
using float8_e5m2_t = narrow_float<e5m2_format>;
using float8_e4m3fnuz_t = narrow_float<e4m3fnuz_format>;
using float8_e5m2fnuz_t = narrow_float<e5m2fnuz_format>;

static_assert(sizeof(float8_e4m3_t) == 1 && sizeof(float8_e5m2fnuz_t) == 1,
              "an 8-bit float is one byte");

// The OCP formats NVIDIA's tensor cores take (e4m3, e5m2).
template <class T>
constexpr bool is_ocp_float8 = std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t>;

}  // namespace tessera
