// The per-element check of the GPU and emulated suites (reference_gemm.hpp): the magnitude the
// float64 reference carries, the bound derived from it, and compare()'s verdict on hand-made
// outputs: right ones pass, one wrong element that the whole-matrix norm accepts is refused,
// and so is a NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "reference_gemm.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// A = [1 -2; 3 4], B = [1 -1; 2 0.5], C = [4 -8; 2 2], alpha = -2, beta = 0.5:
//   A B         = [1-4  -1-1; 3+8  -3+2]            = [-3 -2; 11 -1]
//   D           = -2 A B + C / 2                     = [6+2  4-4; -22+1  2+1] = [8 0; -21 3]
//   sum |a b|   = [1+4  1+1; 3+8  3+2]              = [5 2; 11 5]
//   magnitude   = 2 sum |a b| + |C / 2|              = [10+2  4+4; 22+1  10+1] = [12 8; 23 11]
template <class LB>
void check_magnitude_by_hand() {
  const std::vector<double> a = {1, -2, 3, 4};  // row-major
  std::vector<double> b(4);
  const double bm[2][2] = {{1, -1}, {2, 0.5}};
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) b[std::size_t(LB::offset(k, j, 2))] = bm[k][j];
  const std::vector<double> c = {4, -8, 2, 2};
  std::vector<double> d(4), magnitude(4);
  reference_gemm<RowMajor, LB, RowMajor>(2, 2, 2, a.data(), 2, b.data(), 2, c.data(), 2, d.data(), 2, -2.0, 0.5,
                                         magnitude.data());
  CHECK(d == std::vector<double>{8, 0, -21, 3});
  CHECK(magnitude == std::vector<double>{12, 8, 23, 11});
}

// A bf16 "kernel output": the reference rounded once to bf16 (what a correct kernel with no
// accumulation error writes), M x N row-major, with its reference and magnitudes.
struct Bf16Case {
  std::int64_t M = 32, N = 32, K = 64;
  std::vector<double> ref, magnitude;
  std::vector<bfloat16_t> out;
  Bf16Case() {
    std::vector<float> A(std::size_t(M * K)), B(std::size_t(K * N));
    fill_random(A, 11);
    fill_random(B, 12);
    const gemm::Arguments<float, float, float> args{M, N, K, A.data(), K, B.data(), N, nullptr, N, nullptr, N,
                                                    1.0f, 0.0f};
    const Reference r = reference_with_magnitude<RowMajor, RowMajor, RowMajor>(args);
    ref = r.value;
    magnitude = r.magnitude;
    for (double x : ref) out.push_back(bfloat16_t(float(x)));
  }
  CompareResult compare_now() const {
    return compare<RowMajor>(M, N, out.data(), N, ref.data(), N, magnitude.data(), element_bound<float, bfloat16_t>(K));
  }
};

}  // namespace

TEST_CASE("reference magnitude: |alpha| sum |a b| + |beta c|, worked by hand", "[reference][element]") {
  check_magnitude_by_hand<RowMajor>();     // the i-k-j loop
  check_magnitude_by_hand<ColumnMajor>();  // the dot-product loop
}

TEST_CASE("element bound: accumulation, output rounding and underflow terms", "[reference][element]") {
  const ElementBound f = element_bound<float, float>(256);
  CHECK(f.per_magnitude == (16.0 * 16.0 + 4.0) * 0x1p-24);
  CHECK(f.output == 0x1p-24);
  // 100 units of magnitude, reference 3: 260 * 100 u + u (3 + 260 * 100 u) + underflow.
  const double acc = 260.0 * 100.0 * 0x1p-24;
  CHECK(f(3.0, 100.0) == Approx(acc + 0x1p-24 * (3.0 + acc) + f.underflow));
  CHECK(f(-3.0, 100.0) == f(3.0, 100.0));
  CHECK(f.underflow > 0.0);  // a zero reference with zero magnitude still allows subnormal rounding
  CHECK(element_bound<bfloat16_t, bfloat16_t>(256).output == 0x1p-8);
  CHECK(element_bound<half_t, half_t>(0).per_magnitude == element_bound<half_t, half_t>(1).per_magnitude);
}

TEST_CASE("element check: a right output passes; one wrong element the norm accepts is refused; NaN refused",
          "[reference][element]") {
  Bf16Case c;
  const double tol = tolerance<float, bfloat16_t>(c.K);

  const CompareResult right = c.compare_now();
  INFO(right.describe());
  CHECK(right.element_checked);
  CHECK(right.beyond_bound == 0);
  CHECK(right.elements_passed());
  CHECK(right.rel_fro <= tol);
  CHECK(right.passed(tol));
  CHECK(right.worst_ratio > 0.0);  // bf16 rounding shows, within the bound
  CHECK(right.worst_ratio <= 1.0);

  // The smallest |reference| of the last row, off by 10 times its bound: far below the norm's
  // and the scaled maximum's resolution (both relative to the whole matrix).
  std::int64_t col = 0;
  for (std::int64_t j = 0; j < c.N; ++j) {
    if (std::fabs(c.ref[std::size_t(31 * c.N + j)]) < std::fabs(c.ref[std::size_t(31 * c.N + col)])) col = j;
  }
  Bf16Case wrong = c;
  const std::size_t at = std::size_t(31 * c.N + col);
  const double own_bound = element_bound<float, bfloat16_t>(c.K)(c.ref[at], c.magnitude[at]);
  wrong.out[at] = bfloat16_t(float(c.ref[at] + 10.0 * own_bound));
  const CompareResult one_off = wrong.compare_now();
  INFO(one_off.describe());
  CHECK(one_off.rel_fro <= tol);                        // the norm accepts it
  CHECK(one_off.max_abs_scaled <= 2.0 * tol);           // and so does the scaled maximum
  CHECK(one_off.beyond_bound == 1);                     // the element check does not
  CHECK_FALSE(one_off.elements_passed());
  CHECK_FALSE(one_off.passed(tol));
  CHECK(one_off.ratio_row == 31);                       // and names it
  CHECK(one_off.ratio_col == col);
  CHECK(one_off.ratio_ref == c.ref[at]);
  CHECK(one_off.ratio_out == double(float(wrong.out[at])));
  CHECK(one_off.ratio_bound == own_bound);
  CHECK(one_off.worst_ratio > 5.0);
  CHECK(one_off.describe().find("1 elements beyond their bound") != std::string::npos);

  Bf16Case nan = c;
  nan.out[5] = bfloat16_t(std::numeric_limits<float>::quiet_NaN());
  const CompareResult with_nan = nan.compare_now();
  CHECK(with_nan.nan == 1);
  CHECK_FALSE(with_nan.elements_passed());
  CHECK_FALSE(with_nan.passed(tol));
}
