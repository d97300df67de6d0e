// The low-precision MFMA instructions the emulator's instruction tests run
// (test_mfma_lowp.cpp): every gfx942 fp8/bf8 combination at 32x32x16, two at 16x16x32, and
// gfx950's f8f6f4 forms at both sizes, unscaled and scaled, with 8-bit, fp6 (e2m3 "F6",
// e3m2 "B6") and fp4 operands, and mixes of the three widths in both orders.
#pragma once
#include "tessera/arch/amd/mfma_lowp.hpp"

namespace emu_test {
namespace lowp {
using tessera::amd::MfmaFormat;
using tessera::amd::MfmaLowpShape;
constexpr MfmaFormat kF = MfmaFormat::kFp8, kB = MfmaFormat::kBf8, k4 = MfmaFormat::kFp4, k6 = MfmaFormat::kFp6,
                     kB6 = MfmaFormat::kBf6;
using G942x32FF = MfmaLowpShape<32, 32, 16, kF, kF>;
using G942x32FB = MfmaLowpShape<32, 32, 16, kF, kB>;
using G942x32BF = MfmaLowpShape<32, 32, 16, kB, kF>;
using G942x32BB = MfmaLowpShape<32, 32, 16, kB, kB>;
using G942x16FF = MfmaLowpShape<16, 16, 32, kF, kF>;
using G942x16BF = MfmaLowpShape<16, 16, 32, kB, kF>;
using G950x32FF = MfmaLowpShape<32, 32, 64, kF, kF>;
using G950x32FBScaled = MfmaLowpShape<32, 32, 64, kF, kB, true>;
using G950x32BBScaled = MfmaLowpShape<32, 32, 64, kB, kB, true>;
using G950x32F4 = MfmaLowpShape<32, 32, 64, k4, k4>;
using G950x32F4Scaled = MfmaLowpShape<32, 32, 64, k4, k4, true>;
using G950x16FFScaled = MfmaLowpShape<16, 16, 128, kF, kF, true>;
using G950x16BF = MfmaLowpShape<16, 16, 128, kB, kF>;
using G950x16F4 = MfmaLowpShape<16, 16, 128, k4, k4>;
using G950x16F4Scaled = MfmaLowpShape<16, 16, 128, k4, k4, true>;
using G950x32F6F6 = MfmaLowpShape<32, 32, 64, k6, k6>;
using G950x32F6B6Scaled = MfmaLowpShape<32, 32, 64, k6, kB6, true>;
using G950x16B6B6Scaled = MfmaLowpShape<16, 16, 128, kB6, kB6, true>;
using G950x16F6F6 = MfmaLowpShape<16, 16, 128, k6, k6>;
using G950x32F6FScaled = MfmaLowpShape<32, 32, 64, k6, kF, true>;
using G950x16BB6Scaled = MfmaLowpShape<16, 16, 128, kB, kB6, true>;
using G950x32B6F = MfmaLowpShape<32, 32, 64, kB6, kF>;
using G950x32F64Scaled = MfmaLowpShape<32, 32, 64, k6, k4, true>;
using G950x16F4B6 = MfmaLowpShape<16, 16, 128, k4, kB6>;
using G950x32F4FScaled = MfmaLowpShape<32, 32, 64, k4, kF, true>;
}  // namespace lowp
}  // namespace emu_test

#define EMU_TEST_LOWP_SHAPES(X)                                                                         \
  X(lowp::G942x32FF) X(lowp::G942x32FB) X(lowp::G942x32BF) X(lowp::G942x32BB) X(lowp::G942x16FF)          \
  X(lowp::G942x16BF) X(lowp::G950x32FF) X(lowp::G950x32FBScaled) X(lowp::G950x32BBScaled) X(lowp::G950x32F4) \
  X(lowp::G950x32F4Scaled) X(lowp::G950x16FFScaled) X(lowp::G950x16BF) X(lowp::G950x16F4)                 \
  X(lowp::G950x16F4Scaled) X(lowp::G950x32F6F6) X(lowp::G950x32F6B6Scaled) X(lowp::G950x16B6B6Scaled)     \
  X(lowp::G950x16F6F6) X(lowp::G950x32F6FScaled) X(lowp::G950x16BB6Scaled) X(lowp::G950x32B6F)            \
  X(lowp::G950x32F64Scaled) X(lowp::G950x16F4B6) X(lowp::G950x32F4FScaled)
