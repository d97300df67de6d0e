// The low-precision MFMA instructions Tessera uses, one wrapper, plus host-visible traits:
//
//   gfx942   v_mfma_f32_32x32x16_<a>_<b>     A, B: 8 bytes a lane, C: 16 floats   a, b in {fp8, bf8}
//            v_mfma_f32_16x16x32_<a>_<b>     A, B: 8 bytes a lane, C: 4 floats    (the fnuz formats)
//   gfx950   v_mfma_f32_32x32x64_f8f6f4      A, B: 32 values a lane each: 8 VGPRs (fp8/bf8), 6 (fp6/bf6)
//            v_mfma_f32_16x16x128_f8f6f4     or 4 (fp4); C: 16 (32x32) or 4 floats (the OCP formats)
//            v_mfma_scale_f32_*_f8f6f4       the same with one e8m0 scale per 32 values of K
//                                            for A and for B (MXFP8, MXFP6, MXFP4)
//
// Formats. The f8f6f4 instructions take each operand's format as an immediate (CBSZ for A,
// BLGP for B): 0 fp8 = e4m3, 1 bf8 = e5m2, 2 fp6 e2m3, 3 bf6 e3m2, 4 fp4 e2m1, all OCP; the
// two operands' formats are independent (any mix). The gfx942 instructions name theirs in
// the opcode and read e4m3fnuz / e5m2fnuz (AMD's matrix instruction calculator, CDNA3:
// "FP8 (AMD 4-bit exponent ...)").
//
// Operand registers (gfx950), lane l = M g + t holding row t of A (column t of B) and K
// group g = l / M of the instruction (value_k below says which K each unit holds):
//   8-bit  32 bytes: bytes 0..15 are K = 16 g .. +15, bytes 16..31 K = K/2 + 16 g .. +15
//          (two runs half of K apart);
//   fp6    6 VGPRs: the lane's 32 values are the ONE run K = 32 g .. 32 g + 31, value i in
//          bits [6 i, 6 i + 6) of the 192 bits the six registers hold (register 0 bits 31:0
//          first, fields crossing register boundaries low bits first);
//   fp4    4 VGPRs: K = 32 g .. 32 g + 31, two values a byte, the lower K in the low nibble.
// Sources for fp6 (both ran these instructions on gfx950): Composable Kernel's MX MFMA test
// (test/mx_mfma_op/mx_mfma_op.hpp at e55b154, load_A_row_major's "Register Mapping for FP6":
// Reg 0-2 hold K = 32 g .. 32 g + 15, Reg 3-5 K = 32 g + 16 .. + 31; one chunk of 32 for
// packed types; the operand is CK's f6x32_pk_t, value i at bit 6 i: data_type.hpp, f6_pk_t)
// with its MXFP6/MXBF6 tests at random per-block scales (mx_mfma_op.cpp at ea4206f); and
// HipKittens' fp6 GEMM (HazyResearch/HipKittens, branch fp6_experimental,
// fp6_dwordx3/kernels/gemm/fp6fp32/16x16x128_utils.cpp: lane group lane / 16 reads the 24
// bytes of K = 32 g .. 32 g + 31 of a densely packed row, two ds_read_b96; the host packs
// value k at bit 6 k). benchmark/notes/lowp_amd_sm100.md (fact 7) records them and the
// earlier CK revision that loaded fp6 like fp8.
//
// Operands travel as raw 32-bit words, the form in which they come from LDS; the lane
// layouts live in mma/ (mfma_atom.hpp) and, independently, in the wave emulator.
//
// Scales (the v_mfma_scale forms): each lane gives one 32-bit register per operand, of
// which the instruction reads the byte named by its op_sel (kOpselA, kOpselB: 0..3); the
// byte is an e8m0 exponent, the scale of the 32 values of K of one row of A (column of B)
// that the instruction's lane layout assigns to that lane (mma/mfma_atom.hpp says which).
// The unscaled forms apply no scale (the ISA: ABID[0] = 0 forces 1.0); clang selects them
// for the scale builtin when both scale operands are the constant 0.
#pragma once
#include <cstdint>

#include "tessera/arch/amd/mfma.hpp"
#include "tessera/core/macros.hpp"

namespace tessera {
namespace amd {

// An operand format code of the f8f6f4 instructions (CBSZ / BLGP), reused for gfx942's
// fp8/bf8 (there the fnuz variants).
enum class MfmaFormat : std::uint32_t { kFp8 = 0, kBf8 = 1, kFp6 = 2, kBf6 = 3, kFp4 = 4 };

TESSERA_HOST_DEVICE constexpr int mfma_format_bits(MfmaFormat f) {
  return f == MfmaFormat::kFp4 ? 4 : (f == MfmaFormat::kFp6 || f == MfmaFormat::kBf6) ? 6 : 8;
}
TESSERA_HOST_DEVICE constexpr bool mfma_format_is_6bit(MfmaFormat f) { return mfma_format_bits(f) == 6; }
// Values of K one storage unit holds: a unit is a byte of an 8-bit or fp4 operand (fp4: two
// values) and, for fp6, one value: the kernels keep fp6 in LDS one value a byte slot
// (memory/mfma_tile_copy.hpp), although memory and registers hold it packed.
TESSERA_HOST_DEVICE constexpr int mfma_values_per_unit(MfmaFormat f) { return f == MfmaFormat::kFp4 ? 2 : 1; }

// The instruction a wave-level call names, packed into 32 bits for the emulator's hook
// (and decoded there): M, K, both formats, scaled or not, the scale bytes selected.
struct MfmaLowpCode {
  int m = 0, k = 0;
  MfmaFormat a = MfmaFormat::kFp8, b = MfmaFormat::kFp8;
  bool scaled = false;
  int opsel_a = 0, opsel_b = 0;

  TESSERA_HOST_DEVICE constexpr std::uint32_t encode() const {
    return std::uint32_t(m) | std::uint32_t(k) << 8 | std::uint32_t(a) << 16 | std::uint32_t(b) << 19 |
           std::uint32_t(scaled ? 1 : 0) << 22 | std::uint32_t(opsel_a) << 23 | std::uint32_t(opsel_b) << 25;
  }
  TESSERA_HOST_DEVICE static constexpr MfmaLowpCode decode(std::uint32_t v) {
    MfmaLowpCode c;
    c.m = int(v & 0xffu);
    c.k = int((v >> 8) & 0xffu);
    c.a = MfmaFormat((v >> 16) & 7u);
    c.b = MfmaFormat((v >> 19) & 7u);
    c.scaled = ((v >> 22) & 1u) != 0;
    c.opsel_a = int((v >> 23) & 3u);
    c.opsel_b = int((v >> 25) & 3u);
    return c;
  }
  // gfx950's f8f6f4 forms (K 64 or 128) rather than gfx942's fp8 forms (K 16 or 32).
  TESSERA_HOST_DEVICE constexpr bool f8f6f4() const { return (m == 32 && k == 64) || (m == 16 && k == 128); }
};

// Traits of one low-precision instruction. Storage: operands are counted in units (bytes;
// fp6: values) of kStorageBytes = 1 byte, kValuesPerUnit values of K each (fp4: 2), the
// unit of the GEMM's K tiles; registers hold kOperandWordsA (B) words a lane.
template <int M, int N, int K, MfmaFormat A, MfmaFormat B, bool kScaled_ = false>
struct MfmaLowpShape {
  static constexpr int kM = M, kN = N, kK = K;
  static constexpr MfmaFormat kFormatA = A, kFormatB = B;
  static constexpr bool kScaled = kScaled_;
  static constexpr int kWaveSize = 64;
  static constexpr bool kF8F6F4 = (M == 32 && K == 64) || (M == 16 && K == 128);
  static constexpr bool kGfx950Only = kF8F6F4;
  static constexpr int kStorageBytes = 1;
  static constexpr int kValuesPerUnit = mfma_values_per_unit(A);
  static constexpr int kValuesPerLane = M * K / kWaveSize;  // of each operand
  // Storage units of A (and of B, when the formats share a width) per lane, in K order as
  // the lane layout assigns them; accumulators per lane.
  static constexpr int kOperandElements = kValuesPerLane / kValuesPerUnit;
  static constexpr int kUnitsB = kValuesPerLane / mfma_values_per_unit(B);
  static constexpr int kOperandWordsA = kValuesPerLane * mfma_format_bits(A) / 32;
  static constexpr int kOperandWordsB = kValuesPerLane * mfma_format_bits(B) / 32;
  static constexpr int kAccumulators = M * N / kWaveSize;
  static constexpr int kKGroups = kWaveSize / M;
  // Issue passes (4 cycles each). gfx942: 32x32x16 8, 16x16x32 4 (AMD's matrix instruction
  // calculator, CDNA3: 32 and 16 cycles). gfx950 f8f6f4: twice that when either operand is
  // 8-bit (AMD's CDNA4 ISA guide, its MFMA cycle table; AMD's "Matrix Core Programming on
  // CDNA3 and CDNA4" blog post: 16 or 32 cycles for 16x16x128, "larger cycle count if either
  // matrix A or B is FP8", the same for fp6 and fp4); cross-check from the published peaks:
  // MI355X ~5.0 PFLOP/s dense MXFP8 / (256 CUs x 4 SIMDs x 2.4 GHz) = 2048 FLOP per
  // SIMD-cycle, a 32x32x64 is 131072 FLOP = 64 cycles; MXFP6 and MXFP4 ~10 PFLOP/s: 32 cycles.
  static constexpr bool kAny8Bit = mfma_format_bits(A) == 8 || mfma_format_bits(B) == 8;
  static constexpr int kPasses = (M == 32 ? 8 : 4) * (kF8F6F4 && kAny8Bit ? 2 : 1);
  static constexpr int kCycles = 4 * kPasses;
  static constexpr long kFlops = 2L * M * N * K;
  static constexpr std::uint32_t kCode = MfmaLowpCode{M, K, A, B, kScaled_, 0, 0}.encode();

  // The K value (of the instruction's K) that storage unit e of a lane in lane group g holds
  // (g = lane / M) for an operand of format f (fp4: the unit's first value, its low nibble).
  //   gfx942, fp6, fp4   one run: kValuesPerLane consecutive values from the group's start;
  //   f8f6f4, 8-bit      two runs of 16, the second half of K apart (Composable Kernel,
  //                      test/mx_mfma_op/mx_mfma_op.hpp, load_A_row_major's register map;
  //                      Triton, chooseScaledMfmaScaleLayout: "2 16-consecutive elements
  //                      blocks"; CK's scale probe scale_mapping_32x32x64.txt, run on gfx950:
  //                      bytes 16..31 take the next block's scale).
  TESSERA_HOST_DEVICE static constexpr int value_k(MfmaFormat f, int g, int e) {
    if (kF8F6F4 && mfma_format_bits(f) == 8) return (e / 16) * (K / 2) + 16 * g + e % 16;
    return g * kValuesPerLane + e * mfma_values_per_unit(f);
  }
  TESSERA_HOST_DEVICE static constexpr int operand_k(int g, int e) { return value_k(A, g, e); }
  TESSERA_HOST_DEVICE static constexpr int operand_k_b(int g, int e) { return value_k(B, g, e); }
  // The lane whose scale byte scales row i of A (column j of B) for values [32 b, 32 b + 32)
  // of the instruction's K: lane M b + i, whatever the operand format (Composable Kernel,
  // mx_mfma_op.hpp, load_mx_B_col_major: thread t reads the scale of column t % N, block
  // t / N; Triton, chooseScaledMfmaScaleLayout: lane bits 0..log2(M)-1 pick the row, the
  // rest the K block).
  TESSERA_HOST_DEVICE static constexpr int scale_lane(int row, int block) { return M * block + row; }

  static_assert(M == N && (M == 32 || M == 16), "Tessera MFMA: 32x32 and 16x16 outputs only");
  static_assert((M == 32 && (K == 16 || K == 64)) || (M == 16 && (K == 32 || K == 128)),
                "Tessera MFMA: the low-precision instructions wrapped are gfx942's 32x32x16 and 16x16x32 "
                "(fp8/bf8) and gfx950's 32x32x64 and 16x16x128 (f8f6f4)");
  static_assert(kF8F6F4 || (mfma_format_bits(A) == 8 && mfma_format_bits(B) == 8 && !kScaled_),
                "Tessera MFMA: gfx942's 32x32x16 and 16x16x32 take fp8 or bf8 operands and no scales");
};

}  // namespace amd
}  // namespace tessera

#if defined(__clang__) && (defined(__HIP__) || defined(TESSERA_AMD_EMULATION))

namespace tessera {
namespace amd {

template <int N>
using U32Vec = std::uint32_t __attribute__((ext_vector_type(N)));

// A lane's operand registers: 8, 6 or 4 words (gfx942: 2).
template <class Shape>
using MfmaLowpOperandA = U32Vec<Shape::kOperandWordsA>;
template <class Shape>
using MfmaLowpOperandB = U32Vec<Shape::kOperandWordsB>;

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_AMD_DEVICE_PASS)
namespace emulation {
// Implemented by the wave emulator: `code` is MfmaLowpCode::encode() (the opsel fields
// included); a, b the lane's operand words (Shape::kOperandWordsA / B), c its accumulators
// (16 or 4), d receives the result; scale_a, scale_b the lane's scale registers.
void mfma_lowp(std::uint32_t code, const std::uint32_t* a, const std::uint32_t* b, const float* c, float* d,
               std::uint32_t scale_a, std::uint32_t scale_b);
}  // namespace emulation
#endif

// acc + A * B (the scaled forms: acc + (A scaled) * (B scaled)) for this wave's registers.
// kOpselA / kOpselB: the byte of scale_a / scale_b each lane's scale is in (scaled forms).
template <class Shape, int kOpselA = 0, int kOpselB = 0>
TESSERA_DEVICE TESSERA_FORCEINLINE MfmaAccumulator<Shape> mfma_lowp(MfmaLowpOperandA<Shape> a,
                                                                   MfmaLowpOperandB<Shape> b,
                                                                   MfmaAccumulator<Shape> c,
                                                                   std::uint32_t scale_a = 0u,
                                                                   std::uint32_t scale_b = 0u) {
  static_assert(kOpselA >= 0 && kOpselA < 4 && kOpselB >= 0 && kOpselB < 4, "Tessera MFMA: op_sel picks byte 0..3");
#if defined(TESSERA_AMD_DEVICE_PASS)
  constexpr int kA = int(Shape::kFormatA), kB = int(Shape::kFormatB);
  if constexpr (!Shape::kF8F6F4) {
#if defined(__gfx942__)
    const long la = __builtin_bit_cast(long, a), lb = __builtin_bit_cast(long, b);
    constexpr bool k32 = Shape::kM == 32;
    if constexpr (kA == 0 && kB == 0) {
      if constexpr (k32) return __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(la, lb, c, 0, 0, 0);
      else return __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(la, lb, c, 0, 0, 0);
    } else if constexpr (kA == 0) {
      if constexpr (k32) return __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(la, lb, c, 0, 0, 0);
      else return __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(la, lb, c, 0, 0, 0);
    } else if constexpr (kB == 0) {
      if constexpr (k32) return __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(la, lb, c, 0, 0, 0);
      else return __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(la, lb, c, 0, 0, 0);
    } else {
      if constexpr (k32) return __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(la, lb, c, 0, 0, 0);
      else return __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(la, lb, c, 0, 0, 0);
    }
#else
    static_assert(sizeof(Shape) == 0,
                  "Tessera MFMA: the 32x32x16 / 16x16x32 fp8 MFMAs are used on gfx942 (fnuz formats); "
                  "gfx950 reads OCP fp8 through the f8f6f4 instructions");
    return c;
#endif
  } else {
#if defined(__gfx950__)
    // The builtins take 8 words an operand; an fp6 (fp4) operand fills the first 6 (4), the
    // rest zero, and clang-22 passes only those registers (v[0:5] for fp6).
    using I8 = int __attribute__((ext_vector_type(8)));
    I8 wa{}, wb{};
    for (int i = 0; i < Shape::kOperandWordsA; ++i) wa[i] = int(a[i]);
    for (int i = 0; i < Shape::kOperandWordsB; ++i) wb[i] = int(b[i]);
    const int sa = Shape::kScaled ? int(scale_a) : 0, sb = Shape::kScaled ? int(scale_b) : 0;
    if constexpr (Shape::kM == 32) {
      return __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(wa, wb, c, kA, kB, kOpselA, sa, kOpselB, sb);
    } else {
      return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(wa, wb, c, kA, kB, kOpselA, sa, kOpselB, sb);
    }
#else
    static_assert(sizeof(Shape) == 0, "Tessera MFMA: the f8f6f4 MFMAs exist only on gfx950 (CDNA4)");
    return c;
#endif
  }
#elif defined(TESSERA_AMD_EMULATION)
  std::uint32_t wa[Shape::kOperandWordsA], wb[Shape::kOperandWordsB];
  float fc[Shape::kAccumulators], fd[Shape::kAccumulators];
  for (int i = 0; i < Shape::kOperandWordsA; ++i) wa[i] = a[i];
  for (int i = 0; i < Shape::kOperandWordsB; ++i) wb[i] = b[i];
  for (int i = 0; i < Shape::kAccumulators; ++i) fc[i] = c[i];
  constexpr MfmaLowpCode kCode{Shape::kM, Shape::kK, Shape::kFormatA, Shape::kFormatB, Shape::kScaled, kOpselA, kOpselB};
  emulation::mfma_lowp(kCode.encode(), wa, wb, fc, fd, scale_a, scale_b);
  MfmaAccumulator<Shape> d;
  for (int i = 0; i < Shape::kAccumulators; ++i) d[i] = fd[i];
  return d;
#else
  (void)a;
  (void)b;
  (void)scale_a;
  (void)scale_b;
  return c;  // clang's HIP host pass: never executed
#endif
}

}  // namespace amd
}  // namespace tessera

#endif
