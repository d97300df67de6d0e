// The 6-bit floating-point element types of the OCP Microscaling (MX) spec v1.0: e2m3
// (S.EE.MMM, bias 1, max 7.5, min subnormal 0.125) and e3m2 (S.EEE.MM, bias 3, max 28, min
// subnormal 0.0625). Every code is finite: no inf, no NaN; +0 and -0 exist.
//
// One value per byte, in bits 5:0, bits 7:6 zero: the layout PTX's
// cvt.rn.satfinite.{e2m3x2,e3m2x2}.f32 writes (each byte padded with two zero MSBs).
// Dense packing (four values in three bytes) is a storage layout for kernels to choose.
//
// Conversions from float round to nearest even and saturate (the PTX syntax has
// .satfinite mandatory for these types; the MX spec clamps to the largest normal): +-inf
// and anything rounding past max give +-max. NaN gives +max with the default
// Saturation::kSatFinite (the NVIDIA instruction, per CUDA 13's cuda_fp6.hpp host model)
// and max with the NaN's sign with kClampFinite (Composable Kernel's model of gfx950's
// v_cvt_scalef32_* conversions). Nothing here has run on a GPU that has these instructions
// (sm_100a, gfx950): the software path is used everywhere.
#pragma once
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

}  // namespace tessera
