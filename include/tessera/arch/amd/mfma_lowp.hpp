// The low-precision MFMA instructions Tessera uses, one wrapper, plus host-visible traits:
//
//   gfx942   v_mfma_f32_32x32x16_<a>_<b>     A, B: 8 bytes a lane, C: 16 floats   a, b in {fp8, bf8}
//            v_mfma_f32_16x16x32_<a>_<b>     A, B: 8 bytes a lane, C: 4 floats    (the fnuz formats)
//   gfx950   v_mfma_f32_32x32x64_f8f6f4      A, B: 32 bytes (fp8/bf8) or 16 (fp4) a lane, C: 16
//            v_mfma_f32_16x16x128_f8f6f4     the same, C: 4                        (the OCP formats)
//            v_mfma_scale_f32_*_f8f6f4       the same with one e8m0 scale per 32 values of K
//                                            for A and for B (MXFP8, MXFP4)
//
// Formats. The f8f6f4 instructions take each operand's format as an immediate (CBSZ for A,
// BLGP for B): 0 fp8 = e4m3, 1 bf8 = e5m2, 2 fp6 e2m3, 3 bf6 e3m2, 4 fp4 e2m1, all OCP; the
// gfx942 instructions name theirs in the opcode and read e4m3fnuz / e5m2fnuz (AMD's matrix
// instruction calculator, CDNA3: "FP8 (AMD 4-bit exponent ...)"). fp6 operands are not
// wrapped: the two sources for their lane layout disagree (benchmark/notes/lowp_amd_sm100.md).
//
// Operands travel as raw bytes (32-bit words), the form in which they come from LDS; the
// lane layouts live in mma/ (mfma_atom.hpp) and, independently, in the wave emulator.
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

// Traits of one low-precision instruction. Storage: operands are bytes (kStorageBytes = 1);
// an fp4 byte holds two values of K (kValuesPerByte = 2), element 2i in its low nibble.
template <int M, int N, int K, MfmaFormat A, MfmaFormat B, bool kScaled_ = false>
struct MfmaLowpShape {
  static constexpr int kM = M, kN = N, kK = K;
  static constexpr MfmaFormat kFormatA = A, kFormatB = B;
  static constexpr bool kScaled = kScaled_;
  static constexpr int kWaveSize = 64;
  static constexpr bool kF8F6F4 = (M == 32 && K == 64) || (M == 16 && K == 128);
  static constexpr bool kGfx950Only = kF8F6F4;
  static constexpr int kStorageBytes = 1;
  static constexpr int kValuesPerByte = 8 / mfma_format_bits(A);
  // Bytes of A (and of B: both operands have one width) per lane, in K order as the lane
  // layout assigns them; accumulators per lane.
  static constexpr int kOperandElements = M * K * mfma_format_bits(A) / 8 / kWaveSize;
  static constexpr int kOperandWords = kOperandElements / 4;
  static constexpr int kAccumulators = M * N / kWaveSize;
  static constexpr int kKGroups = kWaveSize / M;
  // Issue passes (4 cycles each). gfx942: 32x32x16 8, 16x16x32 4 (AMD's matrix instruction
  // calculator, CDNA3: 32 and 16 cycles). gfx950 f8f6f4: twice that when either operand is
  // 8-bit (AMD's CDNA4 ISA guide, its MFMA cycle table); cross-check from the published
  // peaks: MI355X ~5.0 PFLOP/s dense MXFP8 / (256 CUs x 4 SIMDs x 2.4 GHz) = 2048 FLOP per
  // SIMD-cycle, a 32x32x64 is 131072 FLOP = 64 cycles; MXFP4 ~10 PFLOP/s: 32 cycles.
  static constexpr bool kAny8Bit = mfma_format_bits(A) == 8 || mfma_format_bits(B) == 8;
  static constexpr int kPasses = (M == 32 ? 8 : 4) * (kF8F6F4 && kAny8Bit ? 2 : 1);
  static constexpr int kCycles = 4 * kPasses;
  static constexpr long kFlops = 2L * M * N * K;
  static constexpr std::uint32_t kCode = MfmaLowpCode{M, K, A, B, kScaled_, 0, 0}.encode();

  // The K value (of the instruction's K) that byte e of a lane in lane group g holds
  // (g = lane / M). gfx942 and fp4: 8 (16 fp4 values: 32) consecutive values from the
  // group's start. f8f6f4 with 8-bit operands: two runs of 16, the second half of K apart
  // (Composable Kernel, test/mx_mfma_op/mx_mfma_op.hpp, load_A_row_major's register map;
  // Triton, chooseScaledMfmaScaleLayout: "2 16-consecutive elements blocks"). fp4 byte e
  // holds values 2e and 2e + 1 of the lane's run.
  TESSERA_HOST_DEVICE static constexpr int operand_k(int g, int e) {
    if constexpr (kF8F6F4 && mfma_format_bits(A) == 8) {
      return (e / 16) * (K / 2) + 16 * g + e % 16;
    } else {
      return (g * kOperandElements + e) * kValuesPerByte;
    }
  }
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
  static_assert(A != MfmaFormat::kFp6 && A != MfmaFormat::kBf6 && B != MfmaFormat::kFp6 && B != MfmaFormat::kBf6,
                "Tessera MFMA: fp6 operands are not wrapped (their lane layout is not settled by the sources)");
  static_assert(mfma_format_bits(A) == mfma_format_bits(B),
                "Tessera MFMA: A and B must have the same width (both 8-bit or both fp4)");
};

}  // namespace amd
}  // namespace tessera

#if defined(__clang__) && (defined(__HIP__) || defined(TESSERA_AMD_EMULATION))

namespace tessera {
namespace amd {

template <int N>
using U32Vec = std::uint32_t __attribute__((ext_vector_type(N)));

template <class Shape>
using MfmaLowpOperand = U32Vec<Shape::kOperandWords>;

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_AMD_DEVICE_PASS)
namespace emulation {
// Implemented by the wave emulator: `code` is MfmaLowpCode::encode() (the opsel fields
// included); a, b the lane's operand words (Shape::kOperandWords each), c its accumulators
// (16 or 4), d receives the result; scale_a, scale_b the lane's scale registers.
void mfma_lowp(std::uint32_t code, const std::uint32_t* a, const std::uint32_t* b, const float* c, float* d,
               std::uint32_t scale_a, std::uint32_t scale_b);
}  // namespace emulation
#endif

// acc + A * B (the scaled forms: acc + (A scaled) * (B scaled)) for this wave's registers.
// kOpselA / kOpselB: the byte of scale_a / scale_b each lane's scale is in (scaled forms).
template <class Shape, int kOpselA = 0, int kOpselB = 0>
TESSERA_DEVICE TESSERA_FORCEINLINE MfmaAccumulator<Shape> mfma_lowp(MfmaLowpOperand<Shape> a,
                                                                   MfmaLowpOperand<Shape> b,
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
    using I8 = int __attribute__((ext_vector_type(8)));
    I8 wa{}, wb{};
    for (int i = 0; i < Shape::kOperandWords; ++i) {
      wa[i] = int(a[i]);
      wb[i] = int(b[i]);
    }
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
  std::uint32_t wa[Shape::kOperandWords], wb[Shape::kOperandWords];
  float fc[Shape::kAccumulators], fd[Shape::kAccumulators];
  for (int i = 0; i < Shape::kOperandWords; ++i) {
    wa[i] = a[i];
    wb[i] = b[i];
  }
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
