// Activation epilogues: a function of the value alone, composed after a LinearCombination and
// a bias (epilogue.hpp's Compose):
//
//   Relu       max(x, 0) (NaN stays NaN)
//   GeluErf    x/2 (1 + erf(x / sqrt 2))                        (PyTorch approximate='none')
//   GeluTanh   x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))    (approximate='tanh')
//   Silu       x / (1 + e^-x)
//   Clamp      min(max(x, lo), hi), bounds in the arguments (lo <= hi)
//
// They use arch/fast_math.hpp. What that gives the results, beyond float rounding: GeluTanh on
// NVIDIA GPUs carries tanh.approx's error, |x|/2 * 2^-10.987 * |tanh| at most (relative to the
// value, 2^-10.987 for x > 0: below bf16's half ulp, about four times fp16's); Silu a few ulps from
// ex2.approx and rcp.approx; GeluErf, Relu and Clamp are within one ulp of the formula.
#pragma once
#include "tessera/arch/fast_math.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"

namespace tessera::gemm {

// The part every argument-free activation shares: f applied to the value, nothing read.
template <class Activation>
struct ElementwiseActivation {
  using Arguments = NoEpilogueArguments;
  static Status can_implement(const Arguments&, const EpilogueProblem&) { return Status::kSuccess; }
  static Activation make(const Arguments&, const EpilogueProblem&) { return Activation{}; }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return false; }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float x, const Element&) const {
    return Activation::apply(x);
  }
};

struct Relu : ElementwiseActivation<Relu> {
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float apply(float x) { return x < 0.0f ? 0.0f : x; }
};

struct GeluErf : ElementwiseActivation<GeluErf> {
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float apply(float x) {
    return 0.5f * x * (1.0f + fast_math::erf(x * 0.70710678118654752f));
  }
};

struct GeluTanh : ElementwiseActivation<GeluTanh> {
  // sqrt(2/pi) (x + 0.044715 x^3) as x (c0 + c1 x^2), then h + h tanh (h = x/2): five
  // multiply-adds and one tanh per element (the epilogue's cost, benchmark/notes/grouped.md).
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float apply(float x) {
    const float inner = x * __builtin_fmaf(0.035677408136300125f, x * x, 0.79788456080286536f);
    const float half = 0.5f * x;
    return __builtin_fmaf(half, fast_math::tanh(inner), half);
  }
};

struct Silu : ElementwiseActivation<Silu> {
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float apply(float x) {
    return x * fast_math::reciprocal(1.0f + fast_math::exp(-x));
  }
};

struct Clamp {
  struct Arguments {
    float lo = -__builtin_huge_valf();
    float hi = __builtin_huge_valf();
  };
  float lo, hi;

  // NaN bounds compare false and are refused with the rest.
  static Status can_implement(const Arguments& a, const EpilogueProblem&) {
    return a.lo <= a.hi ? Status::kSuccess : Status::kErrorEpilogueArgument;
  }
  static Clamp make(const Arguments& a, const EpilogueProblem&) { return {a.lo, a.hi}; }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return false; }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float x, const Element&) const {
    return x < lo ? lo : (x > hi ? hi : x);
  }
};

}  // namespace tessera::gemm
