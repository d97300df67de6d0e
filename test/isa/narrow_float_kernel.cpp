// The narrow float types in device code, built for sm_90a and sm_100a (nvcc) and for gfx942
// and gfx950 (clang-22): every header compiles for both vendors, the conversions need no
// scratch or stack, and on NVIDIA the fp8 conversions are the instructions themselves
// (cvt.rn.satfinite.{e4m3,e5m2}x2.f32 and cvt.rn.f16x2.{e4m3,e5m2}x2), not the software
// path. The other conversions take the software path on every target: no fp6/fp4/ue8m0
// instruction has been checked on hardware (test/gpu/test_numeric_types.cu would, on
// compute capability 10.0). Checks at the bottom: prefixes PTX (both NVIDIA targets) and AMD.
#include <cstdint>

#include "tessera/arch/thread.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/scale_factor.hpp"

#if defined(TESSERA_CUDA) || defined(TESSERA_HIP)
using namespace tessera;

extern "C" TESSERA_GLOBAL void narrow_float_fp8_from_float(const float* in, std::uint8_t* e4m3,
                                                           std::uint8_t* e5m2) {
  const float x = in[tessera::thread_index()];
  e4m3[tessera::thread_index()] = float8_e4m3_t(x).bits;
  e5m2[tessera::thread_index()] = float8_e5m2_t(x).bits;
}

extern "C" TESSERA_GLOBAL void narrow_float_fp8_to_float(const std::uint8_t* e4m3,
                                                         const std::uint8_t* e5m2, float* out) {
  out[tessera::thread_index()] = float(float8_e4m3_t::from_bits(e4m3[tessera::thread_index()])) +
                                 float(float8_e5m2_t::from_bits(e5m2[tessera::thread_index()]));
}

// Every other type, both ways, through its software path.
extern "C" TESSERA_GLOBAL void narrow_float_software(const float* in, std::uint8_t* codes,
                                                     float* out) {
  const float x = in[tessera::thread_index()];
  std::uint8_t* c = codes + 8 * tessera::thread_index();
  c[0] = float8_e4m3fnuz_t(x).bits;
  c[1] = float8_e5m2fnuz_t::from_float(x, Saturation::kNone).bits;
  c[2] = float6_e2m3_t(x).bits;
  c[3] = float6_e3m2_t(x).bits;
  c[4] = float4_e2m1x2_t::pack(float4_e2m1_t(x), float4_e2m1_t(-x)).bits;
  c[5] = float8_ue8m0_t::from_float(x, ScaleRounding::kUp).bits;
  c[6] = float8_ue4m3_t(x).bits;
  c[7] = mx_shared_scale<e2m1_format>(x).bits;
  out[tessera::thread_index()] =
      float(float8_e4m3fnuz_t::from_bits(c[0])) + float(float8_e5m2fnuz_t::from_bits(c[1])) +
      float(float6_e2m3_t::from_bits(c[2])) + float(float6_e3m2_t::from_bits(c[3])) +
      float(float4_e2m1x2_t::from_bits(c[4])[1]) + float(float8_ue8m0_t::from_bits(c[5])) +
      float(float8_ue4m3_t::from_bits(c[6]));
}
#endif

// ---- checks (FileCheck) --------------------------------------------------------------------
// PTX-LABEL: .entry narrow_float_fp8_from_float(
// PTX:       cvt.rn.satfinite.e4m3x2.f32
// PTX:       cvt.rn.satfinite.e5m2x2.f32
// PTX:       ret;
// PTX-LABEL: .entry narrow_float_fp8_to_float(
// PTX:       cvt.rn.f16x2.e4m3x2
// PTX:       cvt.rn.f16x2.e5m2x2
// PTX:       ret;
// PTX-LABEL: .entry narrow_float_software(
// PTX-NOT:   .local
// PTX:       ret;
//
// AMD-LABEL: narrow_float_fp8_from_float:
// AMD:       s_endpgm
// AMD-LABEL: narrow_float_fp8_to_float:
// AMD:       s_endpgm
// AMD-LABEL: narrow_float_software:
// AMD:       s_endpgm
// AMD:       .private_segment_fixed_size: 0{{$}}
// AMD:       .private_segment_fixed_size: 0{{$}}
// AMD:       .private_segment_fixed_size: 0{{$}}
