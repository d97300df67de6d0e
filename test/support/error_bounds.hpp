// How much error a correct kernel that accumulates in fp32 and rounds once to its output type
// may show against the float64 reference (reference_gemm.hpp), for the GPU and emulated suites:
//   tolerance           over the whole matrix (relative Frobenius norm)
//   element_bound       per element, from the element's magnitude (|alpha| sum_k |a_ik b_kj| +
//                       |beta c_ij|, which the reference carries)
//   epilogue_magnitude  that magnitude for an element a test's own epilogue function computes
// Header-only and host-only.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "tessera/core/float8.hpp"
#include "tessera/core/numeric.hpp"

namespace tessera::test {

// Unit roundoff (half an ulp of 1.0) of a storage type.
template <class T> constexpr double unit_roundoff();
template <> constexpr double unit_roundoff<double>() { return 0x1p-53; }
template <> constexpr double unit_roundoff<float>() { return 0x1p-24; }
template <> constexpr double unit_roundoff<half_t>() { return 0x1p-11; }
template <> constexpr double unit_roundoff<bfloat16_t>() { return 0x1p-8; }
template <> constexpr double unit_roundoff<float8_e4m3_t>() { return 0x1p-4; }
template <> constexpr double unit_roundoff<float8_e5m2_t>() { return 0x1p-3; }

// Largest relative Frobenius error ||out - ref|| / ||ref|| a correct kernel may show
// against the float64 reference, for kernels that accumulate in fp32 and round once to
// ElementC. The reference reads the same rounded inputs, so input rounding is not an
// error here. Derivation:
//  - Accumulation: K fp32 additions, each rounding by at most u = 2^-24 relative to
//    the running sum. With zero-mean random data the running sums are about the size
//    of the result and the errors are independent, so they add up like a random walk:
//    about sqrt(K/3) * u relative (Higham, "probabilistic rounding error analysis").
//    We allow 16 * sqrt(K) * u: room for fp32 inputs whose products round (non-fused
//    paths), tensor cores that truncate rather than round when they align addends,
//    and split-K orders; a real bug (a skipped k, a wrong tile) errs by >= 1/sqrt(K),
//    hundreds of times more.
//  - Output rounding: at most unit_roundoff<ElementC>() per element, hence at most that
//    in the Frobenius norm: 2^-24 for fp32, 2^-11 for fp16, 2^-8 for bf16 outputs.
// Examples: fp32 out, K = 4096: 6.1e-5; fp16 out: 5.5e-4; bf16 out: 4.0e-3.
// ElementA is a parameter so that input formats with their own error (tf32, fp8
// inputs scaled per block) can get their own rule; for fp32, fp16 and bf16 inputs the
// products are either exact in fp32 (16-bit) or covered by the factor above (fp32).
template <class ElementA>
constexpr bool kFp32ErrorModel = std::is_same_v<ElementA, float> || std::is_same_v<ElementA, half_t> ||
                                 std::is_same_v<ElementA, bfloat16_t> || std::is_same_v<ElementA, double>;

template <class ElementA, class ElementC>
double tolerance(std::int64_t K) {
  static_assert(kFp32ErrorModel<ElementA>, "tolerance<ElementA, ElementC>: no error model for this input type");
  const double k = double(K > 1 ? K : 1);
  return 16.0 * std::sqrt(k) * unit_roundoff<float>() + unit_roundoff<ElementC>();
}

// Half the smallest subnormal step of a storage type: the absolute rounding error of a value
// too small for its normal range.
template <class T> constexpr double subnormal_half_step();
template <> constexpr double subnormal_half_step<double>() { return 0x1p-1074; }  // at least half
template <> constexpr double subnormal_half_step<float>() { return 0x1p-150; }
template <> constexpr double subnormal_half_step<half_t>() { return 0x1p-25; }
template <> constexpr double subnormal_half_step<bfloat16_t>() { return 0x1p-134; }
template <> constexpr double subnormal_half_step<float8_e4m3_t>() { return 0x1p-10; }
template <> constexpr double subnormal_half_step<float8_e5m2_t>() { return 0x1p-17; }

// How far one element of a correct kernel's output may be from the float64 reference, given
// the element's reference value and magnitude (reference_gemm's `magnitude`: |alpha| sum_k
// |a_ik b_kj| + |beta c_ij|). The whole-matrix tolerance above averages over M x N elements, so
// a few wrong elements (one bad edge row of a large output) hide in it; this bound is each
// element's own. Derivation, for kernels that accumulate in fp32 and round once to D:
//  - Accumulation: every fp32 addition rounds by at most u = 2^-24 of its partial sum, and
//    every partial sum of any order (a loop, tensor-core steps, split-K partials added
//    later) is at most sum_k |a_ik b_kj| in magnitude: the error is below K u sum |ab|, the
//    worst case (Higham, "Accuracy and Stability", 3.1). Rounding errors that are
//    independent and of mean zero add up like a random walk instead: lambda sqrt(K) u sum |ab|
//    with probability at least 1 - 2K exp(-lambda^2 / 2) per element (Higham and Mary,
//    "A new approach to probabilistic rounding error analysis", 2019). We take lambda = 16,
//    the whole-matrix rule's factor: 1 - 2K e^-128 is certainty, and the room covers
//    tensor cores that truncate (errors of one sign, up to 2u each); for K <= 256 it is the
//    worst case anyway (16 sqrt(K) >= K).
//  - 4 u more of the magnitude: fp32 products that round (non-fused paths, one u of |ab|
//    each), alpha * acc, beta * c and their sum (three roundings of at most |alpha acc| +
//    |beta c|, both within the magnitude).
//  - Output rounding: u_D of the value rounded, which is at most |reference| + the above.
//  - Underflow: D's subnormal half step, and fp32's for each of the K + 4 operations.
// The inputs are the same rounded values for kernel and reference, so they add no error.
// A wrong element (a skipped or doubled k, another tile's value, a wrong row) errs by about
// |ab| or more, sqrt(K) / (16 K u) or more times this bound.
struct ElementBound {
  double per_magnitude = 0.0;  // accumulation and epilogue roundings, per unit of magnitude
  double output = 0.0;         // D's unit roundoff
  double underflow = 0.0;      // absolute
  double operator()(double reference, double magnitude) const {
    const double accumulation = per_magnitude * magnitude;
    return accumulation + output * (std::fabs(reference) + accumulation) + underflow;
  }
};

template <class ElementA, class ElementD>
ElementBound element_bound(std::int64_t K) {
  static_assert(kFp32ErrorModel<ElementA>, "element_bound<ElementA, ElementD>: no error model for this input type");
  const double k = double(K > 1 ? K : 1);
  return {(16.0 * std::sqrt(k) + 4.0) * unit_roundoff<float>(), unit_roundoff<ElementD>(),
          subnormal_half_step<ElementD>() + (k + 4.0) * subnormal_half_step<float>()};
}

// The magnitude of an element whose expected value is f(ab, c) (a test's epilogue, written as
// a function of the float64 product and C), for the same bound: the larger of
//  - the largest |f| over the four corners (+-sum_k |a_ik b_kj|, +-|c|): for the tests'
//    epilogues (sums and products of the accumulator, C, an index and constants of either
//    sign, then an activation or a clamp) it bounds every term the epilogue rounds, as
//    |alpha| sum |ab| + |beta c| does for alpha A B + beta C;
//  - how far f moves when the product moves by its own accumulation bound (per_magnitude
//    times sum |ab|, either way), over per_magnitude: so that the bound covers the
//    accumulation error as f passes it on (times a scale, cut off by a clamp, ...).
template <class F>
double epilogue_magnitude(double ab, double ab_magnitude, double c, double per_magnitude, const F& f) {
  double m = 0.0;
  for (const double sign_ab : {-1.0, 1.0}) {
    for (const double sign_c : {-1.0, 1.0}) m = std::max(m, std::fabs(f(sign_ab * ab_magnitude, sign_c * std::fabs(c))));
  }
  const double moved = per_magnitude * ab_magnitude, at = f(ab, c);
  for (const double sign : {-1.0, 1.0}) m = std::max(m, std::fabs(f(ab + sign * moved, c) - at) / per_magnitude);
  return m;
}

}  // namespace tessera::test
