// The MFMA instructions as wave-level operations: the 64 lanes' operand registers are
// gathered, the instruction's documented lane layout turns them into the A (M x K),
// B (K x N) and C (M x N) matrices, D = A * B + C is computed, and D is scattered back
// into the lanes' accumulator registers.
//
// Lane layouts. The model is written in the terms of Composable Kernel's description of
// each instruction (ROCm/composable_kernel, include/ck/tensor_operation/gpu/warp/
// xdlops_gemm.hpp, mfma_type<...>): the wave is cut into num_input_blks = 64 / M blocks of
// M lanes (num_threads_per_blk); lane = blk * M + t holds k_per_blk consecutive K
// elements of row t of A (column t of B), starting at k = blk * k_per_blk; the result
// holds group_size = 4 consecutive rows per register group, groups of 4 * num_input_blks
// rows apart. For the instructions wrapped in arch/amd/mfma.hpp:
//   32x32x8  f16/bf16: blocks of 32 lanes, 4 K elements per lane (gfx942, gfx950)
//   16x16x16 f16/bf16: blocks of 16 lanes, 4 K elements per lane (gfx942, gfx950)
//   32x32x16 f16/bf16: blocks of 32 lanes, 8 K elements per lane (gfx950)
//   16x16x32 f16/bf16: blocks of 16 lanes, 8 K elements per lane (gfx950)
// that is, with kpl the K elements per lane: A[i][k] in lane
// M*(k/kpl) + i, element k%kpl (B[k][j] likewise with j); C[i][j] in register
// 4*(i/(4*64/M)) + i%4 of lane M*((i/4)%(64/M)) + j. The tests check
// these functions against the layouts AMD's own kernels use (the ROCm "Matrix Core
// Programming on CDNA3 and CDNA4" examples), written there in a different form.
//
// Arithmetic. Products of two f16 or two bf16 values are exact in fp32 (11 x 11 and
// 8 x 8 significand bits fit in 24), so the only rounding is in the sums. The model adds,
// for each D[i][j], C[i][j] first and then the K products in increasing k, rounding to
// fp32 (nearest even) after every addition. Subnormals: kept (IEEE), or, with
// HardwareChoices::mfma_denormals == kFlush, A, B and C inputs and D outputs that are
// subnormal become zero of the same sign (what AMD documents for MI200's MFMA_F16/BF16;
// undocumented for gfx942/gfx950, hence a choice). The hardware's adder order and internal
// width are not published: its results may differ from this model's in the last bits of a
// sum (a few ulp per instruction), so tests compare against the float64 reference with a
// tolerance, never bit for bit.
#include <cmath>
#include <cstring>

#include "state.hpp"
#include "tessera/arch/amd/mfma.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera::amd::emulation {

MfmaSlot mfma_a_slot(int m, int k_dim, int i, int k) {
  const int per_lane = m * k_dim / 64;
  MfmaSlot s{m * (k / per_lane) + i, k % per_lane};
#if defined(TESSERA_EMULATOR_MUTANT_MFMA_LANE_SWAP)
  // Mutation check: two lanes of A's map exchanged; the layout tests must notice.
  if (s.lane == 0 || s.lane == 1) s.lane ^= 1;
#endif
  return s;
}

MfmaSlot mfma_b_slot(int n, int k_dim, int k, int j) {
  const int per_lane = n * k_dim / 64;
  return MfmaSlot{n * (k / per_lane) + j, k % per_lane};
}

MfmaSlot mfma_c_slot(int m, int /*n*/, int i, int j) {
  const int blocks = 64 / m;  // num_input_blks
  return MfmaSlot{m * ((i / 4) % blocks) + j, 4 * (i / (4 * blocks)) + i % 4};
}

namespace detail {

namespace {

// Shape codes carried in PendingCall::a.
std::uint32_t shape_code(int m, int k, bool bf16) { return std::uint32_t(m) << 16 | std::uint32_t(k) << 1 | (bf16 ? 1u : 0u); }

float element_value(std::uint16_t bits, bool bf16) {
  return bf16 ? bits_to_float(std::uint32_t(bits) << 16) : half_t::to_float(bits);
}

// x, or a zero of x's sign when x is subnormal and the flush is chosen. Subnormal f16 and
// bf16 inputs are subnormal in their own format: f16's (below 2^-14) are normal fp32
// numbers, so the test is on the 16-bit exponent field.
float flush_input(float x, std::uint16_t bits, bool bf16, bool flush) {
  const std::uint16_t exponent = bf16 ? std::uint16_t(bits & 0x7f80u) : std::uint16_t(bits & 0x7c00u);
  return flush && exponent == 0 ? std::copysign(0.0f, x) : x;
}
float flush_fp32(float x, bool flush) {
  return flush && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

}  // namespace

void report_mfma_misuse(const Wave& w, std::uintptr_t pc, const std::string& detail) {
  Report r{ReportKind::kMisuse};
  r.workgroup = emu().wg.id;
  r.wave = w.id;
  r.pc = pc;
  r.detail = detail;
  report(r);
}

bool mfma_wave_is_full(Wave& w) {
  Workgroup& wg = emu().wg;
  int active = 0;
  for (int i = 0; i < w.lanes; ++i) active += wg.lanes[std::size_t(w.first_lane + i)].ended ? 0 : 1;
  if (active == kWaveSize) return true;
  report_mfma_misuse(w, wg.lanes[std::size_t(w.first_lane)].call.pc,
                     "an MFMA reached by " + std::to_string(active) +
                         " lanes: it reads all 64 lanes' registers, so every lane of the wave must be live");
  wg.aborted = true;
  return false;
}

void resolve_mfma(Wave& w) {
  Workgroup& wg = emu().wg;
  const Lane& lane0 = wg.lanes[std::size_t(w.first_lane)];
  const std::uint32_t code = lane0.call.a;
  const int m = int(code >> 16), k_dim = int((code >> 1) & 0x7fff);
  const bool bf16 = (code & 1u) != 0;
  const int n = m;
  if (!mfma_wave_is_full(w)) return;
  if ((k_dim == 2 * (m == 32 ? 8 : 16)) && !target_is_gfx950()) {
    report_mfma_misuse(w, lane0.call.pc,
                       "v_mfma_f32_" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k_dim) +
                           " exists only on gfx950; the emulator runs gfx942");
  }
  record(w, TraceKind::kMfma, lane0.call.pc, std::uint32_t(m), std::uint32_t(k_dim), bf16 ? 1u : 0u);

  const bool flush = emu().options.hardware.mfma_denormals == Denormals::kFlush;
  float a[32][32], b[32][32], c[32][32];
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < k_dim; ++k) {
      const MfmaSlot s = mfma_a_slot(m, k_dim, i, k);
      const std::uint16_t bits = wg.lanes[std::size_t(w.first_lane + s.lane)].mfma_a[s.index];
      a[i][k] = flush_input(element_value(bits, bf16), bits, bf16, flush);
    }
  }
  for (int k = 0; k < k_dim; ++k) {
    for (int j = 0; j < n; ++j) {
      const MfmaSlot s = mfma_b_slot(n, k_dim, k, j);
      const std::uint16_t bits = wg.lanes[std::size_t(w.first_lane + s.lane)].mfma_b[s.index];
      b[k][j] = flush_input(element_value(bits, bf16), bits, bf16, flush);
    }
  }
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      const MfmaSlot s = mfma_c_slot(m, n, i, j);
      c[i][j] = flush_fp32(wg.lanes[std::size_t(w.first_lane + s.lane)].mfma_c[s.index], flush);
    }
  }
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float acc = c[i][j];
      for (int k = 0; k < k_dim; ++k) {
        const float product = a[i][k] * b[k][j];  // exact (see the top of this file)
        acc = acc + product;
      }
      const MfmaSlot s = mfma_c_slot(m, n, i, j);
      wg.lanes[std::size_t(w.first_lane + s.lane)].mfma_c[s.index] = flush_fp32(acc, flush);
    }
  }
}

}  // namespace detail

using namespace detail;

template <class Shape>
MfmaAccumulator<Shape> mfma(MfmaOperand<Shape> a, MfmaOperand<Shape> b, MfmaAccumulator<Shape> c) {
  Lane& l = current_lane("MFMA");
  for (int i = 0; i < Shape::kOperandElements; ++i) {
    l.mfma_a[i] = a[i];
    l.mfma_b[i] = b[i];
  }
  for (int i = 0; i < Shape::kAccumulators; ++i) l.mfma_c[i] = c[i];
  stop_at(l, Call::kMfma, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)),
          shape_code(Shape::kM, Shape::kK, Shape::kType == MfmaType::kBf16));
  MfmaAccumulator<Shape> d;
  for (int i = 0; i < Shape::kAccumulators; ++i) d[i] = l.mfma_c[i];
  return d;
}

#define TESSERA_EMU_MFMA(Shape) \
  template MfmaAccumulator<Shape> mfma<Shape>(MfmaOperand<Shape>, MfmaOperand<Shape>, MfmaAccumulator<Shape>);
TESSERA_EMU_MFMA(Mfma32x32x8F16)
TESSERA_EMU_MFMA(Mfma32x32x8Bf16)
TESSERA_EMU_MFMA(Mfma16x16x16F16)
TESSERA_EMU_MFMA(Mfma16x16x16Bf16)
TESSERA_EMU_MFMA(Mfma32x32x16F16)
TESSERA_EMU_MFMA(Mfma32x32x16Bf16)
TESSERA_EMU_MFMA(Mfma16x16x32F16)
TESSERA_EMU_MFMA(Mfma16x16x32Bf16)

}  // namespace tessera::amd::emulation
