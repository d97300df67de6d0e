// One low-precision MFMA on one wave, for the emulator's tests (defined in
// mfma_lowp_kernels.cpp, an instrumented translation unit): D = A * B + C (scaled forms:
// with A's and B's scales) with row-major M x K A and K x N B given as one format code per
// value (a byte; fp4: the low nibble), M x N C and D, each lane's operands placed as
// mfma_lowp_lane_map.hpp says, and each lane's scale registers given whole (the instruction
// reads the byte its op_sel names: Shape's kOpselA / kOpselB here are 1 and 2).
#pragma once
#include <cstdint>

#include "tessera/core/status.hpp"

namespace emu_test {

struct LowpOnceArgs {
  const std::uint8_t* a;         // M x K codes
  const std::uint8_t* b;         // K x N codes
  const float* c;                // M x N
  float* d;                      // M x N
  const std::uint32_t* scale_a;  // 64 lane registers (scaled forms)
  const std::uint32_t* scale_b;
};

// The op_sel bytes the test kernel's scaled MFMAs read.
constexpr int kLowpOpselA = 1, kLowpOpselB = 2;

template <class Shape>
tessera::Status run_mfma_lowp_once(const LowpOnceArgs& args);

}  // namespace emu_test
