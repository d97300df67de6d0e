// MFMA kernels for the emulator's tests (defined in mfma_kernels.cpp, an instrumented
// translation unit), for every instruction arch/amd/mfma.hpp wraps.
#pragma once
#include <cstdint>

#include "tessera/core/status.hpp"

namespace emu_test {

// One wave, one instruction: D = A * B + C with row-major M x K A, K x N B, M x N C and D
// (A and B as raw 16-bit words), each lane's operands placed as mfma_lane_map.hpp says.
template <class Shape>
tessera::Status run_mfma_once(const std::uint16_t* a, const std::uint16_t* b, const float* c, float* d);

// A small MFMA GEMM kernel, shaped like the ping-pong family's main loop: 2 waves; per
// K step of Shape::kK, wave 0 loads the A tile and wave 1 the B tile straight into LDS
// (direct-to-LDS buffer loads, 16 bytes a lane where the operand allows, else 4), two LDS
// stages with the next step's loads in flight while this one computes, s_waitcnt vmcnt
// naming exactly the loads the step needs, bare s_barriers (the one before a stage is
// refilled after an lgkmcnt(0) wait: the loads are not ordered with the stage's reads). Both waves then compute the
// whole M x N tile, wave w into d + w * M * N (row-major), so each depends on the other's
// loads. A is M x K row-major with only `a_rows` rows (the descriptor's num_records ends
// there: the rows past it read 0); bt is B^T, N x K row-major.
struct TileGemmArgs {
  const std::uint16_t* a;
  int a_rows;
  const std::uint16_t* bt;
  int k;
  float* d;
};
template <class Shape>
tessera::Status run_tile_gemm(const TileGemmArgs& args);

}  // namespace emu_test
