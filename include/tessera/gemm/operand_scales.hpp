// The scales of the MFMA and tcgen05 families' low-precision operands, read at run time:
// the arguments that carry them and the epilogue that checks and applies them. The modes
// (option::Scales<Mode>, gemm/scale_mode.hpp) these families take:
//
//   scale::None        D = epilogue(A B)                          (the default)
//   scale::PerTensor   D = epilogue(sa sb (A B)): one float for A, one for B, on the device; read
//                      once per wave and applied to the accumulators (MFMA)
//   scale::Mx          one e8m0 scale per 32 values of K for each row of A and each column of B,
//                      applied by the MMA instruction (gfx950 MFMA; sm_100a tcgen05)
//   scale::Nvfp4       one ue4m3 scale per 16 values of K (sm_100a .kind::mxf4nvf4, tcgen05)
//
// The scales travel in Arguments::epilogue, beside the epilogue's own arguments: a
// configuration with scales runs the epilogue ScaledOperands<Mode, E> (E: the option's
// epilogue, LinearCombination by default), whose Arguments are {scales, E's arguments}, the
// scales {a, b}, one ScaleTensor{data, ld, size} each (scale_mode.hpp says how they are laid out):
//
//   Gemm<Config>::Args args{M, N, K, A, lda, B, ldb, C, ldc, D, ldd, alpha, beta,
//                           {{{scale_a, ld_a, size_a}, {scale_b, ld_b, size_b}}, {}}};
//
// Block scale tensors: row r of A's (column r of B's) scales is data[r * ld + kb] for the
// K block kb = k / block, ld >= ceil(K / block) (0: exactly that), `size` the scales the
// allocation holds from `data` (at least (rows - 1) * ld + ceil(K / block)). This is the
// [M][K/32] and [N][K/32] layout Triton's dot_scaled and the OCP MX spec use (vendor
// libraries also offer pre-shuffled layouts; not these). Per tensor: data[0] (size not read).
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/core/float8.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/core/scale_factor.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/scale_mode.hpp"

namespace tessera::gemm {

namespace detail {
// Values of K one block scale of mode Mode covers (0: not a block mode).
template <class Mode>
constexpr int scale_block_values() {
  if constexpr (Mode::kBlock) {
    return Mode::kBlockValues;
  } else {
    return 0;
  }
}
}  // namespace detail

// What a configuration with scales of mode Mode is given: A's and B's scale tensors.
template <class Mode>
struct OperandScaleArguments {
  ScaleTensor<typename Mode::ScaleType> a;  // M rows (per tensor: one value)
  ScaleTensor<typename Mode::ScaleType> b;  // N rows, one per column of B (per tensor: one value)
};

// What the kernels read of them: per tensor the two pointers, in block modes the tensors.
struct OperandScalePointers {
  const float* a = nullptr;
  const float* b = nullptr;
};
template <class Mode>
using DeviceOperandScales = std::conditional_t<Mode::kPerTensor, OperandScalePointers, OperandScaleArguments<Mode>>;

// The leading dimension a block-scale tensor has for K (ld, or the smallest allowed).
template <class Mode, class T>
constexpr std::int64_t block_scale_ld(const ScaleTensor<T>& t, std::int64_t K) {
  return t.ld > 0 ? t.ld : ceil_div<std::int64_t>(K, Mode::kBlockValues);
}

// Whether a block-scale tensor of `rows` rows serves K: ld wide enough, size large enough.
template <class Mode, class T>
constexpr bool block_scales_fit(const ScaleTensor<T>& t, std::int64_t rows, std::int64_t K) {
  const std::int64_t blocks = ceil_div<std::int64_t>(K, Mode::kBlockValues);
  const std::int64_t ld = block_scale_ld<Mode>(t, K);
  return ld >= blocks && (rows == 0 || blocks == 0 || t.size >= (rows - 1) * ld + blocks);
}

// The epilogue of a configuration with operand scales: the scales' checks and device
// pointers, then the configuration's epilogue (Inner) on the scaled accumulator.
template <class Mode, class Inner>
struct ScaledOperands {
  static_assert(Mode::kPerTensor || Mode::kBlock, "Tessera ScaledOperands: the mode is scale::PerTensor, Mx or Nvfp4");
  struct Arguments {
    OperandScaleArguments<Mode> scales;
    typename Inner::Arguments epilogue;
  };
  using Scales = DeviceOperandScales<Mode>;

  Scales scales;        // the device pointers (block modes: the main loop reads them)
  std::int64_t ld_a = 0, ld_b = 0;  // block modes: the resolved leading dimensions
  float factor = 1.0f;  // per-tensor: sa * sb once resolve() has read them
  Inner inner;

  static Status can_implement(const Arguments& a, const EpilogueProblem& p) {
    const bool reads_ab = p.M > 0 && p.N > 0 && p.K > 0;
    if constexpr (Mode::kPerTensor) {
      if (reads_ab && (a.scales.a.data == nullptr || a.scales.b.data == nullptr)) {
        return Status::kErrorNullEpilogueOperand;
      }
    } else {
      if (reads_ab && a.scales.a.data == nullptr) return Status::kErrorNullBlockScalesA;
      if (reads_ab && a.scales.b.data == nullptr) return Status::kErrorNullBlockScalesB;
      if (reads_ab && !block_scales_fit<Mode>(a.scales.a, p.M, p.K)) return Status::kErrorBlockScalesATooSmall;
      if (reads_ab && !block_scales_fit<Mode>(a.scales.b, p.N, p.K)) return Status::kErrorBlockScalesBTooSmall;
    }
    return Inner::can_implement(a.epilogue, p);
  }
  static ScaledOperands make(const Arguments& a, const EpilogueProblem& p) {
    ScaledOperands s{{}, 0, 0, 1.0f, Inner::make(a.epilogue, p)};
    if constexpr (Mode::kPerTensor) {
      s.scales.a = a.scales.a.data;
      s.scales.b = a.scales.b.data;
    } else {
      s.scales.a = a.scales.a;
      s.scales.b = a.scales.b;
      s.ld_a = block_scale_ld<Mode>(a.scales.a, p.K);
      s.ld_b = block_scale_ld<Mode>(a.scales.b, p.K);
    }
    return s;
  }
  // Per-tensor: reads the two scales (device memory), once per thread before the epilogue.
  // (Null only where nothing is read: K == 0, when the accumulators are 0 whatever the factor.)
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE void resolve() {
    if constexpr (Mode::kPerTensor) {
      if (scales.a != nullptr && scales.b != nullptr) factor = *scales.a * *scales.b;
    }
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return inner.reads_c(); }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float acc, const Element& e) const {
    return inner(Mode::kPerTensor ? acc * factor : acc, e);
  }
};

// resolve() where the epilogue has one (ScaledOperands), nothing elsewhere: families call
// it on their copy of the epilogue before the first element.
template <class E, class = void>
struct HasResolve : std::false_type {};
template <class E>
struct HasResolve<E, std::void_t<decltype(std::declval<E&>().resolve())>> : std::true_type {};
template <class E>
TESSERA_HOST_DEVICE TESSERA_FORCEINLINE void resolve_epilogue(E& e) {
  if constexpr (HasResolve<E>::value) e.resolve();
}

}  // namespace tessera::gemm
