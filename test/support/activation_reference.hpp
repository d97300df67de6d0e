// The float64 definitions of the fused activations the GPU suites check against (independently
// of the library's code, gemm/epilogue/activations.hpp), the error the library's fast forms may
// add beyond float rounding, and a random epilogue vector (a bias, a scale per row or column).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "reference_gemm.hpp"

namespace tessera::test {

inline double gelu_erf(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
inline double gelu_tanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}
inline double silu(double x) { return x / (1.0 + std::exp(-x)); }

// GeluTanh's error beyond float rounding on the GPU, per unit of an element's magnitude:
// activations.hpp gives |x|/2 * 2^-10.987 at most, and the magnitude is at least |x|/2 (GELU at
// the largest |x| the checks try). SiLU's ex2.approx and rcp.approx: a few float ulps, taken as
// 2^-20.
constexpr double kTanhApproximation = 0x1p-10;
constexpr double kSiluApproximation = 0x1p-20;

template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  fill_random(v, seed, -1.0, 1.0);
  return v;
}

}  // namespace tessera::test
