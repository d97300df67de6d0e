// The MFMA (matrix fused multiply-add) instructions Tessera uses on CDNA3/CDNA4, one
// wrapper each, plus host-visible traits (shape, registers per lane).
//
//   gfx942 and gfx950: v_mfma_f32_32x32x8_{f16,bf16}    A, B: 4 elements/lane, C: 16 floats
//                      v_mfma_f32_16x16x16_{f16,bf16}   A, B: 4 elements/lane, C: 4 floats
//   gfx950 only:       v_mfma_f32_32x32x16_{f16,bf16}   A, B: 8 elements/lane, C: 16 floats
//                      v_mfma_f32_16x16x32_{f16,bf16}   A, B: 8 elements/lane, C: 4 floats
//
// An MFMA is a wave-collective operation: the 64 lanes together hold the A (M x K), B
// (K x N) and C (M x N) tiles, and which lane holds which element is the instruction's
// lane layout. That layout is NOT encoded here: it lives in mma/ (the atoms, tested on
// the host against a scalar model) and, independently, in the wave emulator's model of
// each instruction, so that a wrong map in one is caught by the other.
//
// Operands are carried as raw 16-bit words (the bits of half_t / bfloat16_t), the form
// in which they arrive from LDS; each wrapper bit-casts them to the type its builtin
// takes. The wrappers exist where clang compiles (device pass, or a host pass of clang
// that emulates AMD: TESSERA_AMD_EMULATION, provided by the emulator layer); the traits
// exist everywhere.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera {
namespace amd {

enum class MfmaType { kF16, kBf16 };

// Traits of v_mfma_f32_<M>x<N>x<K>_<type>. kOperandElements: 16-bit elements of A (and
// of B) per lane; kAccumulators: fp32 results per lane.
template <int M, int N, int K, MfmaType T>
struct MfmaShape {
  static constexpr int kM = M, kN = N, kK = K;
  static constexpr MfmaType kType = T;
  static constexpr int kWaveSize = 64;
  static constexpr int kOperandElements = M * K / kWaveSize;
  static constexpr int kAccumulators = M * N / kWaveSize;
  // Operands are 16-bit elements in storage (one value a unit); lane group g (lane / M)
  // holds K values g * kOperandElements .. + kOperandElements - 1, element e the e-th of
  // them, for A and for B alike.
  static constexpr int kStorageBytes = 2;
  static constexpr int kValuesPerUnit = 1;
  TESSERA_HOST_DEVICE static constexpr int operand_k(int g, int e) { return g * kOperandElements + e; }
  TESSERA_HOST_DEVICE static constexpr int operand_k_b(int g, int e) { return operand_k(g, e); }
  static constexpr int kUnitsB = kOperandElements;
  // gfx950 added the K-doubled forms; gfx942 has only K = 8 (32x32) and K = 16 (16x16).
  static constexpr bool kGfx950Only = (M == 32 && K == 16) || (M == 16 && K == 32);
  // Issue passes of the matrix core (4 cycles each): the instruction blocks the SIMD's
  // MFMA pipe for kCycles, while other instructions of this wave or others may issue.
  // Source: LLVM's AMDGPU scheduling model (SISchedule.td, SIDPGFX940FullSpeedModel,
  // used for gfx942 and gfx950): 32x32x8 and 32x32x16 are Write8PassMAI, 16x16x16 and
  // 16x16x32 Write4PassMAI. The vendors' dense f16 peaks agree (benchmark/notes/mfma.md,
  // section MFMA passes from the peaks): 512 FLOP per SIMD-cycle on MI300X, so a 32x32x8
  // (16384 FLOP) is 32 cycles = 8 passes; 1024 on MI355X, so a 32x32x16 (32768 FLOP) is 32
  // cycles. So on gfx950 the K-doubled forms run at twice the FLOP rate of the gfx942 forms,
  // which run there at half rate.
  static constexpr int kPasses = M == 32 ? 8 : 4;
  static constexpr int kCycles = 4 * kPasses;
  static constexpr long kFlops = 2L * M * N * K;
  static_assert(M == N && (M == 32 || M == 16), "Tessera MFMA: 32x32 and 16x16 outputs only");
  static_assert((M == 32 && (K == 8 || K == 16)) || (M == 16 && (K == 16 || K == 32)),
                "Tessera MFMA: the instructions wrapped are 32x32x8, 32x32x16, 16x16x16 and 16x16x32");
};

using Mfma32x32x8F16 = MfmaShape<32, 32, 8, MfmaType::kF16>;
using Mfma32x32x8Bf16 = MfmaShape<32, 32, 8, MfmaType::kBf16>;
using Mfma16x16x16F16 = MfmaShape<16, 16, 16, MfmaType::kF16>;
using Mfma16x16x16Bf16 = MfmaShape<16, 16, 16, MfmaType::kBf16>;
using Mfma32x32x16F16 = MfmaShape<32, 32, 16, MfmaType::kF16>;
using Mfma32x32x16Bf16 = MfmaShape<32, 32, 16, MfmaType::kBf16>;
using Mfma16x16x32F16 = MfmaShape<16, 16, 32, MfmaType::kF16>;
using Mfma16x16x32Bf16 = MfmaShape<16, 16, 32, MfmaType::kBf16>;

}  // namespace amd
}  // namespace tessera

#if defined(__clang__) && (defined(__HIP__) || defined(TESSERA_AMD_EMULATION))

namespace tessera {
namespace amd {

// Raw operand words and accumulator vectors (clang extended vectors: what the builtins
// take and return, element-indexable with v[i]).
template <int N>
using U16Vec = std::uint16_t __attribute__((ext_vector_type(N)));
template <int N>
using F32Vec = float __attribute__((ext_vector_type(N)));

template <class Shape>
using MfmaOperand = U16Vec<Shape::kOperandElements>;
template <class Shape>
using MfmaAccumulator = F32Vec<Shape::kAccumulators>;

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_AMD_DEVICE_PASS)
// Implemented by the wave emulator: the whole wave's operands are gathered and the
// instruction's documented lane layout applied there.
namespace emulation {
template <class Shape>
MfmaAccumulator<Shape> mfma(MfmaOperand<Shape> a, MfmaOperand<Shape> b, MfmaAccumulator<Shape> c);
}  // namespace emulation
#endif

// acc + A * B for this wave's A, B and accumulator registers.
template <class Shape>
TESSERA_DEVICE TESSERA_FORCEINLINE MfmaAccumulator<Shape> mfma(MfmaOperand<Shape> a,
                                                              MfmaOperand<Shape> b,
                                                              MfmaAccumulator<Shape> c) {
#if defined(TESSERA_AMD_DEVICE_PASS)
  using H4 = _Float16 __attribute__((ext_vector_type(4)));
  using S4 = short __attribute__((ext_vector_type(4)));
  constexpr bool kF16 = Shape::kType == MfmaType::kF16;
  if constexpr (Shape::kM == 32 && Shape::kK == 8) {
    if constexpr (kF16) {
      return __builtin_amdgcn_mfma_f32_32x32x8f16(__builtin_bit_cast(H4, a), __builtin_bit_cast(H4, b), c, 0, 0, 0);
    } else {
      return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(__builtin_bit_cast(S4, a), __builtin_bit_cast(S4, b), c, 0, 0, 0);
    }
  } else if constexpr (Shape::kM == 16 && Shape::kK == 16) {
    if constexpr (kF16) {
      return __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(H4, a), __builtin_bit_cast(H4, b), c, 0, 0, 0);
    } else {
      return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(S4, a), __builtin_bit_cast(S4, b), c, 0, 0, 0);
    }
  } else {
#if defined(__gfx950__)
    using H8 = _Float16 __attribute__((ext_vector_type(8)));
    using B8 = __bf16 __attribute__((ext_vector_type(8)));
    if constexpr (Shape::kM == 32) {
      if constexpr (kF16) {
        return __builtin_amdgcn_mfma_f32_32x32x16_f16(__builtin_bit_cast(H8, a), __builtin_bit_cast(H8, b), c, 0, 0, 0);
      } else {
        return __builtin_amdgcn_mfma_f32_32x32x16_bf16(__builtin_bit_cast(B8, a), __builtin_bit_cast(B8, b), c, 0, 0, 0);
      }
    } else {
      if constexpr (kF16) {
        return __builtin_amdgcn_mfma_f32_16x16x32_f16(__builtin_bit_cast(H8, a), __builtin_bit_cast(H8, b), c, 0, 0, 0);
      } else {
        return __builtin_amdgcn_mfma_f32_16x16x32_bf16(__builtin_bit_cast(B8, a), __builtin_bit_cast(B8, b), c, 0, 0, 0);
      }
    }
#else
    static_assert(!Shape::kGfx950Only,
                  "Tessera MFMA: 32x32x16 and 16x16x32 exist only on gfx950 (CDNA4); use 32x32x8 or "
                  "16x16x16 for gfx942");
    return c;
#endif
  }
#elif defined(TESSERA_AMD_EMULATION)
  return emulation::mfma<Shape>(a, b, c);
#else
  (void)a;
  (void)b;
  return c;  // clang's HIP host pass: never executed
#endif
}

}  // namespace amd
}  // namespace tessera

#endif
