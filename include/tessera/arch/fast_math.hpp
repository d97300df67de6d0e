// The elementary functions the fused epilogues need (2^x, tanh, erf, a reciprocal), written so
// that each target's kernels reach them without a math library: NVIDIA device code uses the
// special-function unit's approximations (ex2.approx, tanh.approx, rcp.approx) and libdevice's
// erff; AMD device code (built with -nogpulib: no ocml) uses v_exp_f32 and the formulas below;
// host code (the wave emulator, tests) the same formulas on <cmath>'s exp2.
//
// Accuracy, worst relative error (PTX ISA for the NVIDIA instructions):
//   exp2        NVIDIA ex2.approx.ftz: 2 ulp; AMD v_exp_f32: 1 ulp; host: exact
//   tanh        NVIDIA tanh.approx.f32: 2^-10.987; elsewhere below 2^-21 (the small-|x| series
//               below |x| = 1/8, 1 - 2 / (e^2|x| + 1) above)
//   erf         NVIDIA libdevice erff: 2 ulp; elsewhere 1.5e-7 absolute (Abramowitz and
//               Stegun 7.1.26)
//   reciprocal  NVIDIA rcp.approx.ftz: 1 ulp; elsewhere exact
// Epilogues (gemm/epilogue/activations.hpp) state what these give their results.
#pragma once
#include <cmath>

#include "tessera/core/macros.hpp"

namespace tessera::fast_math {

TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float exp2(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#elif defined(TESSERA_AMD_DEVICE_PASS)
  return __builtin_amdgcn_exp2f(x);
#else
  return std::exp2(x);
#endif
}

TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float reciprocal(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return 1.0f / x;
#endif
}

// e^x.
TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float exp(float x) { return exp2(x * 1.4426950408889634f); }

TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float tanh(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  const float a = __builtin_fabsf(x);
  float t;
  if (a < 0.125f) {  // a - a^3/3 + 2a^5/15 - 17a^7/315: below 2^-21 relative here
    const float a2 = a * a;
    t = a * (1.0f + a2 * (-1.0f / 3.0f + a2 * (2.0f / 15.0f - a2 * (17.0f / 315.0f))));
  } else {
    t = 1.0f - 2.0f / (exp2(2.8853900817779268f * a) + 1.0f);  // 2 log2(e) |x|; 1 once e^2|x| overflows
  }
  return __builtin_copysignf(t, x);
#endif
}

TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float erf(float x) {
#if defined(__CUDA_ARCH__)
  return erff(x);
#else
  const float a = __builtin_fabsf(x);
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  const float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
  return __builtin_copysignf(1.0f - poly * exp(-a * a), x);
#endif
}

}  // namespace tessera::fast_math
