// The float64 reference every GPU test and the benchmark trust: checked here on cases
// small enough to work out by hand, then for consistency across layouts.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "reference_gemm.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// A logical rows x cols matrix stored through Layout with a padded leading dimension,
// the padding filled with NaN so that any read of it shows up in the result.
template <class Layout, class T = double>
struct Stored {
  std::int64_t rows, cols, ld;
  std::vector<T> buf;
  Stored(std::int64_t r, std::int64_t c, std::int64_t pad = 3)
      : rows(r), cols(c), ld(Layout::min_ld(r, c) + pad),
        buf(std::size_t(matrix_span<Layout>(r, c, Layout::min_ld(r, c) + pad)),
            T(std::nan(""))) {}
  Stored(const std::vector<std::vector<double>>& m, std::int64_t pad = 3)
      : Stored(std::int64_t(m.size()), std::int64_t(m[0].size()), pad) {
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) at(i, j) = T(m[i][j]);
  }
  T& at(std::int64_t i, std::int64_t j) { return buf[std::size_t(Layout::offset(i, j, ld))]; }
  T* data() { return buf.data(); }
};

// Worked by hand:
//   A (2x4) = [1 2 3 4; 5 6 7 8], B (4x3) = [1 0 2; 0 1 0; 1 1 1; 2 0 -1]
//   A*B = [1+0+3+8  0+2+3+0  2+0+3-4; 5+0+7+16  0+6+7+0  10+0+7-8] = [12 5 1; 28 13 9]
//   C = [1 1 1; 2 2 2], alpha = 2, beta = -1:
//   D = [24-1 10-1 2-1; 56-2 26-2 18-2] = [23 9 1; 54 24 16]
const std::vector<std::vector<double>> kA = {{1, 2, 3, 4}, {5, 6, 7, 8}};
const std::vector<std::vector<double>> kB = {{1, 0, 2}, {0, 1, 0}, {1, 1, 1}, {2, 0, -1}};
const std::vector<std::vector<double>> kC = {{1, 1, 1}, {2, 2, 2}};
const std::vector<std::vector<double>> kD = {{23, 9, 1}, {54, 24, 16}};

template <class LA, class LB, class LC>
void check_hand_case() {
  Stored<LA> a(kA);
  Stored<LB> b(kB);
  Stored<LC> c(kC);
  Stored<LC> d(2, 3, 5);  // a different ld from C on purpose
  reference_gemm<LA, LB, LC>(2, 3, 4, a.data(), a.ld, b.data(), b.ld, c.data(), c.ld, d.data(),
                             d.ld, 2.0, -1.0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) CHECK(d.at(i, j) == kD[i][j]);
  // D's padding is never written: it still holds NaN.
  for (std::int64_t idx = 0; idx < std::int64_t(d.buf.size()); ++idx) {
    const std::int64_t contiguous = LC::kIsRowMajor ? 3 : 2;
    if (idx % d.ld >= contiguous) CHECK(std::isnan(d.buf[std::size_t(idx)]));
  }
}

}  // namespace

TEST_CASE("reference: 2x3x4 worked by hand, every layout", "[reference]") {
  check_hand_case<RowMajor, RowMajor, RowMajor>();
  check_hand_case<RowMajor, RowMajor, ColumnMajor>();
  check_hand_case<RowMajor, ColumnMajor, RowMajor>();
  check_hand_case<RowMajor, ColumnMajor, ColumnMajor>();
  check_hand_case<ColumnMajor, RowMajor, RowMajor>();
  check_hand_case<ColumnMajor, RowMajor, ColumnMajor>();
  check_hand_case<ColumnMajor, ColumnMajor, RowMajor>();
  check_hand_case<ColumnMajor, ColumnMajor, ColumnMajor>();
}

TEST_CASE("reference: beta == 0 never reads C", "[reference]") {
  Stored<RowMajor> a(kA), b(kB), d(2, 3);
  std::vector<double> nan_c(64, std::nan(""));
  reference_gemm<RowMajor, RowMajor, RowMajor>(2, 3, 4, a.data(), a.ld, b.data(), b.ld,
                                               nan_c.data(), 3, d.data(), d.ld, 1.0, 0.0);
  CHECK(d.at(0, 0) == 12);
  CHECK(d.at(1, 2) == 9);
  const double* no_c = nullptr;  // a null C is fine too
  reference_gemm<RowMajor, RowMajor, RowMajor>(2, 3, 4, a.data(), a.ld, b.data(), b.ld, no_c, 0,
                                               d.data(), d.ld, -1.0, 0.0);
  CHECK(d.at(1, 0) == -28);
}

TEST_CASE("reference: in place (C == D) reads each C element before writing it", "[reference]") {
  Stored<ColumnMajor> a(kA), b(kB), cd(kC);
  reference_gemm<ColumnMajor, ColumnMajor, ColumnMajor>(2, 3, 4, a.data(), a.ld, b.data(), b.ld,
                                                        cd.data(), cd.ld, cd.data(), cd.ld, 2.0,
                                                        -1.0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) CHECK(cd.at(i, j) == kD[i][j]);
  // Different strides for the same buffer cannot be done element by element.
  CHECK_THROWS_AS((reference_gemm<ColumnMajor, ColumnMajor, ColumnMajor>(
                      2, 3, 4, a.data(), a.ld, b.data(), b.ld, cd.data(), cd.ld, cd.data(),
                      cd.ld + 1, 2.0, -1.0)),
                  std::invalid_argument);
}

TEST_CASE("reference: empty and K == 0 problems", "[reference]") {
  Stored<RowMajor> c(kC), d(2, 3);
  const double* none = nullptr;
  // K == 0: D = beta * C; A and B are never read.
  reference_gemm<RowMajor, RowMajor, RowMajor>(2, 3, 0, none, 1, none, 3, c.data(), c.ld,
                                               d.data(), d.ld, 5.0, 3.0);
  CHECK(d.at(0, 0) == 3);
  CHECK(d.at(1, 2) == 6);
  // M == 0 or N == 0: nothing is read or written.
  double* no_d = nullptr;
  reference_gemm<RowMajor, RowMajor, RowMajor>(0, 3, 4, none, 4, none, 3, none, 3, no_d, 3, 1.0,
                                               1.0);
  reference_gemm<RowMajor, RowMajor, RowMajor>(2, 0, 4, none, 4, none, 1, none, 1, no_d, 1, 1.0,
                                               1.0);
  CHECK_THROWS_AS((reference_gemm<RowMajor, RowMajor, RowMajor>(-1, 3, 4, none, 4, none, 3, none,
                                                                3, no_d, 3, 1.0, 0.0)),
                  std::invalid_argument);
}

TEST_CASE("reference: a row-major product is the column-major product of the transposes",
          "[reference]") {
  // The identity the benchmark relies on to call column-major cuBLAS for row-major data:
  // a row-major M x N buffer is a column-major N x M buffer holding the transpose, and
  // D^T = B^T * A^T. Same buffers, swapped roles, identical result.
  const std::int64_t M = 7, N = 5, K = 9, lda = K + 2, ldb = N + 1, ldd = N + 3;
  std::vector<float> A(std::size_t(M * lda)), B(std::size_t(K * ldb));
  fill_random(A, 11);
  fill_random(B, 12);
  std::vector<double> d_row(std::size_t(M * ldd)), d_col(std::size_t(M * ldd));
  const float* no_c = nullptr;
  reference_gemm<RowMajor, RowMajor, RowMajor>(M, N, K, A.data(), lda, B.data(), ldb, no_c, 1,
                                               d_row.data(), ldd, 1.0, 0.0);
  reference_gemm<ColumnMajor, ColumnMajor, ColumnMajor>(N, M, K, B.data(), ldb, A.data(), lda,
                                                        no_c, 1, d_col.data(), ldd, 1.0, 0.0);
  for (std::size_t idx = 0; idx < d_row.size(); ++idx) CHECK(d_row[idx] == Approx(d_col[idx]).epsilon(1e-14));

  // And a transposed operand stored column-major equals the row-major original.
  std::vector<float> At(std::size_t(K * M));  // A^T, column-major K x M, ld = K: same as row-major A with ld K
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t k = 0; k < K; ++k) At[std::size_t(ColumnMajor::offset(k, i, K))] = A[std::size_t(i * lda + k)];
  std::vector<double> d_t(std::size_t(M * ldd));
  reference_gemm<RowMajor, RowMajor, RowMajor>(M, N, K, At.data(), K, B.data(), ldb, no_c, 1,
                                               d_t.data(), ldd, 1.0, 0.0);
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) CHECK(d_t[std::size_t(i * ldd + j)] == d_row[std::size_t(i * ldd + j)]);
}

TEST_CASE("reference: every layout combination agrees on random data", "[reference]") {
  const std::int64_t M = 13, N = 11, K = 17;
  const auto seed = fresh_seed();
  INFO("seed " << seed);
  std::vector<std::vector<double>> a(M, std::vector<double>(K)), b(K, std::vector<double>(N)),
      c(M, std::vector<double>(N));
  std::vector<double> flat(std::size_t(M * K + K * N + M * N));
  fill_random(flat, seed);
  std::size_t n = 0;
  for (auto& row : a)
    for (auto& x : row) x = flat[n++];
  for (auto& row : b)
    for (auto& x : row) x = flat[n++];
  for (auto& row : c)
    for (auto& x : row) x = flat[n++];
  // Plain triple loop as the independent answer.
  std::vector<std::vector<double>> want(M, std::vector<double>(N));
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (std::int64_t k = 0; k < K; ++k) s += a[i][k] * b[k][j];
      want[i][j] = 0.75 * s - 1.5 * c[i][j];
    }
  auto run = [&](auto la, auto lb, auto lc) {
    using LA = decltype(la);
    using LB = decltype(lb);
    using LC = decltype(lc);
    Stored<LA> sa(a, 1);
    Stored<LB> sb(b, 2);
    Stored<LC> sc(c, 4), sd(M, N, 0);
    reference_gemm<LA, LB, LC>(M, N, K, sa.data(), sa.ld, sb.data(), sb.ld, sc.data(), sc.ld,
                               sd.data(), sd.ld, 0.75, -1.5);
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) CHECK(sd.at(i, j) == Approx(want[i][j]).epsilon(1e-13));
  };
  run(RowMajor{}, RowMajor{}, RowMajor{});
  run(ColumnMajor{}, RowMajor{}, ColumnMajor{});
  run(RowMajor{}, ColumnMajor{}, RowMajor{});
  run(ColumnMajor{}, ColumnMajor{}, RowMajor{});
}

TEST_CASE("reference: rows split over threads give the single loop's bits, in place and with magnitudes",
          "[reference]") {
  // Large enough for for_row_blocks to start threads where the machine has more than one
  // (M N K = 2^25: two blocks of 2^24 multiply-adds); the rows' blocks then start mid-way
  // through M, so a block that read or wrote another block's rows would show here.
  const std::int64_t M = 129, N = 1000, K = 260;
  const auto seed = fresh_seed();
  INFO("seed " << seed);
  std::vector<double> a(std::size_t(M * K)), b(std::size_t(K * N)), c(std::size_t(M * N));
  fill_random(a, seed);
  fill_random(b, seed + 1);
  fill_random(c, seed + 2);
  // The expected bits: the same sums in the same k order, in one plain loop.
  std::vector<double> want(c.size()), want_magnitude(c.size());
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      double sum = 0.0, abs_sum = 0.0;
      for (std::int64_t k = 0; k < K; ++k) {
        const double p = a[std::size_t(i * K + k)] * b[std::size_t(j * K + k)];
        sum += p;
        abs_sum += std::fabs(p);
      }
      const double bc = -0.5 * c[std::size_t(i * N + j)];
      want[std::size_t(i * N + j)] = 1.25 * sum + bc;
      want_magnitude[std::size_t(i * N + j)] = 1.25 * abs_sum + std::fabs(bc);
    }
  }
  std::vector<double> d = c, magnitude(c.size(), std::nan(""));  // in place: C == D
  reference_gemm<RowMajor, ColumnMajor, RowMajor>(M, N, K, a.data(), K, b.data(), K, d.data(), N, d.data(), N, 1.25,
                                                  -0.5, magnitude.data());
  std::int64_t differing = 0;
  for (std::size_t e = 0; e < d.size(); ++e) {
    differing += (d[e] != want[e]) + (magnitude[e] != want_magnitude[e]);
  }
  CHECK(differing == 0);
}

TEST_CASE("reference: 16-bit inputs are converted exactly, outputs rounded", "[reference]") {
  // 0.1 is not representable: the reference must use the rounded input, not 0.1.
  const half_t h(0.1f);
  const bfloat16_t bf(0.1f);
  REQUIRE(double(float(h)) != 0.1);
  const half_t ah[2] = {h, h};
  const bfloat16_t bb[2] = {bf, bf};
  double d = 0;
  const double* no_c = nullptr;
  reference_gemm<RowMajor, RowMajor, RowMajor>(1, 1, 2, ah, 2, bb, 1, no_c, 1, &d, 1, 1.0, 0.0);
  CHECK(d == 2.0 * double(float(h)) * double(float(bf)));
  // Typed output through Arguments, in place with beta.
  half_t a3[3] = {half_t(1.0f), half_t(2.0f), half_t(3.0f)};
  half_t b3[3] = {half_t(0.5f), half_t(0.25f), half_t(-1.0f)};
  half_t cd(10.0f);
  gemm::Arguments<half_t, half_t, half_t> args{1, 1, 3, a3, 3, b3, 1, &cd, 1, &cd, 1, 2.0f, 0.5f};
  reference_gemm<RowMajor, RowMajor, RowMajor>(args);  // 2*(0.5+0.5-3) + 0.5*10 = 1
  CHECK(float(cd) == 1.0f);
  const auto ref = reference_gemm_f64<RowMajor, RowMajor, RowMajor>(args);  // now C = 1
  CHECK(ref.size() == 1);
  CHECK(ref[0] == -3.5);
}

TEST_CASE("fill_random: in range, never zero, seeded", "[reference]") {
  std::vector<half_t> h(20000);
  std::vector<bfloat16_t> b(20000);
  std::vector<float> f(20000), f2(20000), f3(20000);
  // A narrow range around zero makes zeros likely after rounding if they were allowed.
  fill_random(h, 1, -1e-6, 1e-6);
  fill_random(b, 2, -1.0, 1.0);
  fill_random(f, 3);
  fill_random(f2, 3);
  fill_random(f3, 4);
  for (auto x : h) CHECK((float(x) != 0.0f && std::fabs(float(x)) <= 1.1e-6f));
  double sum = 0;
  for (auto x : b) {
    CHECK(float(x) != 0.0f);
    CHECK(std::fabs(float(x)) <= 1.0f);
    sum += float(x);
  }
  CHECK(std::fabs(sum / double(b.size())) < 0.05);  // roughly centred
  CHECK(f == f2);
  CHECK(f != f3);
  CHECK(fresh_seed() != fresh_seed());
}

TEST_CASE("poison: a NaN no computation produces, found by compare", "[reference]") {
  CHECK(std::isnan(poison_value<float>()));
  CHECK(std::isnan(poison_value<double>()));
  CHECK(std::isnan(float(poison_value<half_t>())));
  CHECK(std::isnan(float(poison_value<bfloat16_t>())));
  // Canonical NaNs (what GPUs and the host produce) are not the poison.
  CHECK_FALSE(is_poison(std::nanf("")));
  CHECK_FALSE(is_poison(half_t::from_bits(0x7fff)));
  CHECK_FALSE(is_poison(half_t::from_bits(0x7e00)));
  CHECK_FALSE(is_poison(bfloat16_t::from_bits(0x7fc0)));
  CHECK_FALSE(is_poison(bfloat16_t(std::nanf(""))));

  const std::int64_t M = 4, N = 5, ld = 7;  // row-major with padding
  std::vector<double> ref(std::size_t(M * ld), 0.0);
  std::vector<float> out(std::size_t(M * ld));
  poison(out);
  CHECK(count_padding_writes<RowMajor>(M, N, out, ld) == 0);
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      ref[std::size_t(i * ld + j)] = double(i + j + 1);
      out[std::size_t(i * ld + j)] = float(i + j + 1);
    }
  CompareResult r = compare<RowMajor>(M, N, out, ld, ref, ld);
  CHECK(r.count == 20);
  CHECK(r.rel_fro == 0.0);
  CHECK(r.passed(1e-7));
  out[3] = poison_value<float>();          // (0,3) never written
  out[std::size_t(2 * ld + 1)] = std::nanf("");  // (2,1) computed NaN
  out[std::size_t(1 * ld + 6)] = 1.0f;     // a write into the padding
  r = compare<RowMajor>(M, N, out, ld, ref, ld);
  CHECK(r.unwritten == 1);
  CHECK(r.nan == 1);
  CHECK_FALSE(r.passed(1.0));
  CHECK(count_padding_writes<RowMajor>(M, N, out, ld) == 1);
  CHECK(r.describe().find("unwritten=1") != std::string::npos);
}

TEST_CASE("compare: normwise and elementwise errors", "[reference]") {
  // ref = [3 4] (norm 5); out = [3 4.5]: ||diff|| = 0.5, rel 0.1; max abs 0.5, /4 = 0.125.
  const std::vector<double> ref = {3.0, 4.0};
  const std::vector<float> out = {3.0f, 4.5f};
  const CompareResult r = compare<ColumnMajor>(2, 1, out, 2, ref, 2);
  CHECK(r.rel_fro == Approx(0.1));
  CHECK(r.max_abs == Approx(0.5));
  CHECK(r.max_abs_scaled == Approx(0.125));
  CHECK(r.worst_row == 1);
  CHECK(r.worst_col == 0);
  CHECK(r.passed(0.1001));
  CHECK_FALSE(r.passed(0.09));
  // One wrong element among many: the norm hardly moves, the elementwise test catches it.
  std::vector<double> ones(100, 1.0);
  std::vector<float> one_off(100, 1.0f);
  one_off[42] = 1.5f;
  const CompareResult e = compare<RowMajor>(10, 10, one_off, 10, ones, 10);
  CHECK(e.rel_fro == Approx(0.05));
  CHECK(e.max_abs_scaled == Approx(0.5));
  CHECK(e.rel_fro <= 0.06);
  CHECK_FALSE(e.passed(0.06));
  // A typed reference (another kernel's output) works the same way.
  const std::vector<half_t> other = {half_t(3.0f), half_t(4.0f)};
  CHECK(compare<RowMajor>(1, 2, out, 2, other, 2).rel_fro == Approx(0.1));
}

TEST_CASE("tolerance: grows like sqrt(K), floors at the output rounding", "[reference]") {
  CHECK(tolerance<float, float>(4096) == Approx(16.0 * 64.0 * 0x1p-24 + 0x1p-24));
  CHECK(tolerance<float, float>(16384) > tolerance<float, float>(4096));
  CHECK(tolerance<float, float>(0) == tolerance<float, float>(1));
  CHECK(tolerance<half_t, half_t>(1) > 0x1p-11);
  CHECK(tolerance<bfloat16_t, bfloat16_t>(1) > 0x1p-8);
  CHECK(tolerance<bfloat16_t, float>(8192) < 2e-4);
  // Sanity of the scale: one skipped k at K = 16384 (error ~ 1/sqrt(K) = 7.8e-3) fails
  // even for bf16 outputs, and fp32 stays far under the 1e-3 rule of thumb.
  CHECK(tolerance<bfloat16_t, bfloat16_t>(16384) < 1.0 / std::sqrt(16384.0));
  CHECK(tolerance<float, float>(16384) < 1e-3);
}

TEST_CASE("reference + compare + tolerance: fp32 sums pass, a dropped term fails",
          "[reference]") {
  // Emulate a correct kernel (fp32 accumulation) and a buggy one (misses k = K-1) on
  // random data; the tolerance must separate them, and so must each element's own bound
  // (element_bound, from the magnitudes the reference carries).
  const std::int64_t M = 16, N = 16, K = 1031;
  const auto seed = fresh_seed();
  INFO("seed " << seed);
  std::vector<float> A(std::size_t(M * K)), B(std::size_t(K * N));
  fill_random(A, seed);
  fill_random(B, seed + 1);
  gemm::Arguments<float, float, float> args{M, N, K, A.data(), K, B.data(), N, nullptr, N, nullptr, N, 1.0f, 0.0f};
  const auto ref = reference_gemm_f64<RowMajor, RowMajor, RowMajor>(args);
  const Reference with_magnitude = reference_with_magnitude<RowMajor, RowMajor, RowMajor>(args);
  CHECK(with_magnitude.value == ref);  // the same sums, the magnitudes beside them
  std::vector<float> good(std::size_t(M * N)), bad(std::size_t(M * N));
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      float s = 0.0f, t = 0.0f;
      for (std::int64_t k = 0; k < K; ++k) {
        s = std::fma(A[std::size_t(i * K + k)], B[std::size_t(k * N + j)], s);
        if (k + 1 < K) t = s;
      }
      good[std::size_t(i * N + j)] = s;
      bad[std::size_t(i * N + j)] = t;
    }
  const double tol = tolerance<float, float>(K);
  const CompareResult g = compare<RowMajor>(M, N, good, N, ref, N);
  const CompareResult b = compare<RowMajor>(M, N, bad, N, ref, N);
  INFO(g.describe() << " | " << b.describe());
  CHECK(g.passed(tol));
  CHECK(g.rel_fro > 0.0);  // fp32 really did round
  CHECK_FALSE(b.passed(tol));
  const ElementBound bound = element_bound<float, float>(K);
  const double* magnitude = with_magnitude.magnitude.data();
  const CompareResult ge = compare<RowMajor>(M, N, good.data(), N, ref.data(), N, magnitude, bound);
  const CompareResult be = compare<RowMajor>(M, N, bad.data(), N, ref.data(), N, magnitude, bound);
  INFO(ge.describe() << " | " << be.describe());
  CHECK(ge.elements_passed());
  CHECK(ge.worst_ratio > 0.0);
  CHECK(be.beyond_bound > M * N / 2);  // |a b| of the last k against about 1 % of sum |a b|
}
