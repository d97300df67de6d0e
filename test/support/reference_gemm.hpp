// Host-side checking tools shared by the GPU tests and the benchmark:
//   reference_gemm  D = alpha*A*B + beta*C in float64 from the typed inputs
//   fill_random     fresh, never-zero random data of any element type
//   poison          a NaN with a payload no kernel produces, to spot unwritten outputs
//   compare         normwise and elementwise error of an output against a reference
//   tolerance       how much error a correct fp32-accumulating kernel may show, over the
//                   whole matrix and per element (error_bounds.hpp; per element from the
//                   magnitude the reference carries: |alpha| sum_k |a_ik b_kj| + |beta c_ij|)
// Header-only and host-only: it needs neither a GPU nor a GPU compiler.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "error_bounds.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::test {

// ---- element conversions --------------------------------------------------------------

// Every element type Tessera stores converts to float exactly, and float to double
// exactly, so the reference sees precisely the values the kernel was given.
inline double to_double(double x) { return x; }
inline double to_double(float x) { return double(x); }
inline double to_double(half_t x) { return double(float(x)); }
inline double to_double(bfloat16_t x) { return double(float(x)); }
template <class Format>
double to_double(narrow_float<Format> x) {
  return double(float(x));
}

// double -> T. For 16-bit types this rounds twice (double -> float -> T); the result
// can differ from a single rounding only on exact ties of the float, which is
// irrelevant for a reference whose typed output is only used for in-place chains.
template <class T>
T from_double(double x) {
  if constexpr (std::is_same_v<T, double>) {
    return x;
  } else if constexpr (std::is_same_v<T, float>) {
    return float(x);
  } else {
    return T(float(x));
  }
}

// ---- the reference --------------------------------------------------------------------

// Calls rows(first, last) over [0, M) in contiguous blocks, on up to the machine's hardware
// threads when the work (multiply-adds) is large enough to pay for starting them, else once.
template <class Rows>
void for_row_blocks(std::int64_t M, double work, const Rows& rows) {
  constexpr double kWorkPerThread = 1 << 24;
  const std::int64_t hardware = std::int64_t(std::thread::hardware_concurrency());
  std::int64_t threads = std::min<std::int64_t>({hardware > 0 ? hardware : 1, 32, M,
                                                 std::int64_t(work / kWorkPerThread) + 1});
  if (threads <= 1) {
    rows(std::int64_t(0), M);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(std::size_t(threads - 1));
  for (std::int64_t t = 1; t < threads; ++t) pool.emplace_back(rows, M * t / threads, M * (t + 1) / threads);
  rows(std::int64_t(0), M / threads);
  for (std::thread& th : pool) th.join();
}

// D = alpha * A * B + beta * C, accumulated in double. A is M x K, B is K x N, C and D
// are M x N; all four are addressed through their layout and leading dimension, so any
// ld >= the layout's minimum works (padding is never touched). ElementD may be double
// (an unrounded reference) or ElementC (a typed result).
// beta == 0 means C is not read at all (it may be null or hold NaNs), as in BLAS.
// C == D (in place) is allowed when ldc == ldd: each element of C is read before the
// same element of D is written, and no other element of D depends on it.
// `magnitude` (optional, laid out like D, not C) gets each element's |alpha| sum_k |a_ik b_kj|
// + |beta c_ij|, summed in the same loop over k: what element_bound scales with.
template <class LayoutA, class LayoutB, class LayoutC, class ElementA, class ElementB,
          class ElementC, class ElementD>
void reference_gemm(std::int64_t M, std::int64_t N, std::int64_t K, const ElementA* A,
                    std::int64_t lda, const ElementB* B, std::int64_t ldb, const ElementC* C,
                    std::int64_t ldc, ElementD* D, std::int64_t ldd, double alpha, double beta,
                    double* magnitude = nullptr) {
  if (M < 0 || N < 0 || K < 0) throw std::invalid_argument("reference_gemm: negative size");
  if (M == 0 || N == 0) return;
  if (static_cast<const void*>(C) == static_cast<const void*>(D) && beta != 0.0 && ldc != ldd) {
    // With different strides, writing D(i,j) can clobber a C element read later.
    throw std::invalid_argument("reference_gemm: in place (C == D) needs ldc == ldd");
  }
  // Rows are independent (row i of D reads row i of C only), so blocks of rows run on threads
  // of their own; each element's sum is formed in the same order whatever the split.
  const auto rows = [&](std::int64_t first, std::int64_t last) {
    std::vector<double> a_row(static_cast<std::size_t>(K > 0 ? K : 1));
    std::vector<double> acc(static_cast<std::size_t>(N));
    std::vector<double> mag(magnitude != nullptr ? static_cast<std::size_t>(N) : 0);
    for (std::int64_t i = first; i < last; ++i) {
      // Row i of A is converted once and reused for every column of the output.
      for (std::int64_t k = 0; k < K; ++k) a_row[k] = to_double(A[LayoutA::offset(i, k, lda)]);
      if constexpr (LayoutB::kIsRowMajor) {
        // Rows of B are contiguous: stream them (i-k-j order) so that large problems
        // sampled a few rows at a time (the benchmark's check) stay cache-friendly.
        std::fill(acc.begin(), acc.end(), 0.0);
        std::fill(mag.begin(), mag.end(), 0.0);
        for (std::int64_t k = 0; k < K; ++k) {
          const double a = a_row[k];
          const ElementB* b_row = B + LayoutB::offset(k, 0, ldb);
          if (magnitude == nullptr) {
            for (std::int64_t j = 0; j < N; ++j) acc[j] += a * to_double(b_row[j]);
          } else {
            for (std::int64_t j = 0; j < N; ++j) {
              const double p = a * to_double(b_row[j]);
              acc[j] += p;
              mag[j] += std::fabs(p);
            }
          }
        }
      } else {
        // Columns of B are contiguous: one dot product per output element.
        for (std::int64_t j = 0; j < N; ++j) {
          const ElementB* b_col = B + LayoutB::offset(0, j, ldb);
          double sum = 0.0, abs_sum = 0.0;
          if (magnitude == nullptr) {
            for (std::int64_t k = 0; k < K; ++k) sum += a_row[k] * to_double(b_col[k]);
          } else {
            for (std::int64_t k = 0; k < K; ++k) {
              const double p = a_row[k] * to_double(b_col[k]);
              sum += p;
              abs_sum += std::fabs(p);
            }
            mag[j] = abs_sum;
          }
          acc[j] = sum;
        }
      }
      for (std::int64_t j = 0; j < N; ++j) {
        double d = alpha * acc[j];
        double m = magnitude != nullptr ? std::fabs(alpha) * mag[j] : 0.0;
        if (beta != 0.0) {
          const double bc = beta * to_double(C[LayoutC::offset(i, j, ldc)]);
          d += bc;
          m += std::fabs(bc);
        }
        D[LayoutC::offset(i, j, ldd)] = from_double<ElementD>(d);
        if (magnitude != nullptr) magnitude[LayoutC::offset(i, j, ldd)] = m;
      }
    }
  };
  for_row_blocks(M, double(M) * double(N) * double(K > 0 ? K : 1), rows);
}

// The same over the library's Arguments, writing the typed result into args.D.
template <class LayoutA, class LayoutB, class LayoutC, class EA, class EB, class EC>
void reference_gemm(const gemm::Arguments<EA, EB, EC>& args) {
  reference_gemm<LayoutA, LayoutB, LayoutC>(args.M, args.N, args.K, args.A, args.lda, args.B,
                                            args.ldb, args.C, args.ldc, args.D, args.ldd,
                                            double(args.alpha), double(args.beta));
}

// The unrounded float64 result, laid out like D (LayoutC, ldd) so that it can be
// compared element by element with the kernel's output buffer. args.D is not touched.
template <class LayoutA, class LayoutB, class LayoutC, class EA, class EB, class EC>
std::vector<double> reference_gemm_f64(const gemm::Arguments<EA, EB, EC>& args) {
  std::vector<double> ref(std::size_t(matrix_span<LayoutC>(args.M, args.N, args.ldd)));
  reference_gemm<LayoutA, LayoutB, LayoutC>(args.M, args.N, args.K, args.A, args.lda, args.B,
                                            args.ldb, args.C, args.ldc, ref.data(), args.ldd,
                                            double(args.alpha), double(args.beta));
  return ref;
}

// The float64 result and each element's magnitude (|alpha| sum_k |a_ik b_kj| + |beta c_ij|),
// both laid out like D (LayoutC, ldd), in one pass over k. args.D is not touched.
struct Reference {
  std::vector<double> value, magnitude;
};
template <class LayoutA, class LayoutB, class LayoutC, class EA, class EB, class EC>
Reference reference_with_magnitude(const gemm::Arguments<EA, EB, EC>& args) {
  const std::size_t n = std::size_t(matrix_span<LayoutC>(args.M, args.N, args.ldd));
  Reference r{std::vector<double>(n), std::vector<double>(n)};
  reference_gemm<LayoutA, LayoutB, LayoutC>(args.M, args.N, args.K, args.A, args.lda, args.B, args.ldb, args.C,
                                            args.ldc, r.value.data(), args.ldd, double(args.alpha),
                                            double(args.beta), r.magnitude.data());
  return r;
}

// ---- random inputs ---------------------------------------------------------------------

// A seed that differs from run to run (every check should see fresh data), unless
// TESSERA_TEST_SEED is set, which replays a failure. Print the seed with any failure.
inline std::uint64_t fresh_seed() {
  static std::uint64_t counter = []() -> std::uint64_t {
    if (const char* s = std::getenv("TESSERA_TEST_SEED")) return std::strtoull(s, nullptr, 0);
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd();
  }();
  return counter++;
}

// Uniform values in [lo, hi), rounded to T, never exactly zero: a zero would hide an
// unwritten output or a skipped term. Deterministic for a given seed.
template <class T>
void fill_random(std::vector<T>& v, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (auto& x : v) {
    T t;
    do {
      t = from_double<T>(dist(gen));
    } while (to_double(t) == 0.0);
    x = t;
  }
}

// ---- poison ----------------------------------------------------------------------------

// Quiet NaNs with an unusual payload. GPUs produce canonical NaNs (0x7fffffff, 0x7fff),
// and host code 0x7fc00000 / 0xffc00000, so an element still holding exactly these bits
// was almost certainly never written, while other NaNs were computed.
inline std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline std::uint64_t bits_of(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline std::uint16_t bits_of(half_t x) { return x.bits; }
inline std::uint16_t bits_of(bfloat16_t x) { return x.bits; }
template <class Format>
std::uint8_t bits_of(narrow_float<Format> x) {
  return x.bits;
}

template <class T> T poison_value();
template <> inline float poison_value<float>() {
  const std::uint32_t u = 0x7fc0dead;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
template <> inline double poison_value<double>() {
  const std::uint64_t u = 0x7ff8deaddeaddeadull;
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}
template <> inline half_t poison_value<half_t>() { return half_t::from_bits(0x7e5a); }
template <> inline bfloat16_t poison_value<bfloat16_t>() { return bfloat16_t::from_bits(0x7fda); }
// fp8: negative NaNs (the device's conversions give +NaN, 0x7f, for a NaN input).
template <> inline float8_e4m3_t poison_value<float8_e4m3_t>() { return float8_e4m3_t::from_bits(0xff); }
template <> inline float8_e5m2_t poison_value<float8_e5m2_t>() { return float8_e5m2_t::from_bits(0xfd); }

template <class T>
bool is_poison(T x) {
  return bits_of(x) == bits_of(poison_value<T>());
}

template <class T>
void poison(std::vector<T>& v) {
  std::fill(v.begin(), v.end(), poison_value<T>());
}

// ---- comparison ------------------------------------------------------------------------

struct CompareResult {
  std::int64_t count = 0;      // elements compared (M * N)
  std::int64_t nan = 0;        // NaN or inf in the output where the reference is finite
  std::int64_t unwritten = 0;  // elements still holding the poison pattern
  double rel_fro = 0.0;        // ||out - ref||_F / ||ref||_F over written, finite elements
  double max_abs = 0.0;        // max |out - ref|
  double max_abs_scaled = 0.0; // max |out - ref| / max |ref|
  std::int64_t worst_row = -1, worst_col = -1;
  double worst_out = 0.0, worst_ref = 0.0;
  // Per element, when compare() was given magnitudes and an ElementBound: written, finite
  // elements whose error exceeds their own bound, and the element with the largest error /
  // bound (its row, column, output, reference and bound).
  bool element_checked = false;
  std::int64_t beyond_bound = 0;
  double worst_ratio = 0.0;
  std::int64_t ratio_row = -1, ratio_col = -1;
  double ratio_out = 0.0, ratio_ref = 0.0, ratio_bound = 0.0;

  // Every element within its own bound (when bounds were given), written and finite.
  bool elements_passed() const { return nan == 0 && unwritten == 0 && beyond_bound == 0; }

  // Normwise within tol, elementwise within 2 * tol of the largest reference entry (an
  // element's accumulation error can exceed the average; a wrong element exceeds both),
  // each element within its own bound when bounds were given, and every element written
  // and finite.
  bool passed(double tol) const {
    return elements_passed() && rel_fro <= tol && max_abs_scaled <= 2.0 * tol;
  }

  std::string describe() const {
    char buf[640];
    int n = std::snprintf(buf, sizeof buf,
                          "rel_fro=%.3e max_abs=%.3e (%.3e of max|ref|) worst at (%lld,%lld): "
                          "out=%.8g ref=%.8g; NaN/inf=%lld unwritten=%lld of %lld",
                          rel_fro, max_abs, max_abs_scaled, (long long)worst_row, (long long)worst_col,
                          worst_out, worst_ref, (long long)nan, (long long)unwritten, (long long)count);
    if (element_checked && n > 0 && std::size_t(n) < sizeof buf) {
      std::snprintf(buf + n, sizeof buf - std::size_t(n),
                    "; %lld elements beyond their bound, largest |out - ref| / bound %.3g at (%lld,%lld): "
                    "out=%.8g ref=%.8g bound=%.3g",
                    (long long)beyond_bound, worst_ratio, (long long)ratio_row, (long long)ratio_col, ratio_out,
                    ratio_ref, ratio_bound);
    }
    return buf;
  }
};

// Compares the M x N matrix `out` (layout Layout, leading dimension ld_out) against
// `ref` (same layout, ld_ref); elements of the leading-dimension padding are ignored.
// ref may be double (the float64 reference) or any element type (another kernel).
// Unwritten and non-finite elements are counted and left out of the error norms, so
// that one NaN does not hide how close the rest is.
// With `magnitude` (laid out like ref) each written, finite element is also held to
// bound(ref, magnitude) (ElementBound above).
template <class Layout, class TOut, class TRef>
CompareResult compare(std::int64_t M, std::int64_t N, const TOut* out, std::int64_t ld_out,
                      const TRef* ref, std::int64_t ld_ref, const double* magnitude = nullptr,
                      const ElementBound& bound = {}) {
  CompareResult r;
  r.element_checked = magnitude != nullptr;
  double diff2 = 0.0, ref2 = 0.0, ref_max = 0.0;
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      const TOut o = out[Layout::offset(i, j, ld_out)];
      const double x = to_double(ref[Layout::offset(i, j, ld_ref)]);
      ++r.count;
      ref2 += x * x;
      ref_max = std::max(ref_max, std::fabs(x));
      if (is_poison(o)) {
        ++r.unwritten;
        continue;
      }
      const double y = to_double(o);
      if (!std::isfinite(y) && std::isfinite(x)) {
        ++r.nan;
        continue;
      }
      const double e = std::fabs(y - x);
      if (e > r.max_abs || r.worst_row < 0) {
        r.max_abs = e;
        r.worst_row = i;
        r.worst_col = j;
        r.worst_out = y;
        r.worst_ref = x;
      }
      diff2 += (y - x) * (y - x);
      if (magnitude != nullptr) {
        const double b = bound(x, magnitude[Layout::offset(i, j, ld_ref)]);
        if (!(e <= b)) ++r.beyond_bound;
        const double ratio = e / b;  // b > 0: the underflow term
        if (ratio > r.worst_ratio || r.ratio_row < 0) {
          r.worst_ratio = ratio;
          r.ratio_row = i;
          r.ratio_col = j;
          r.ratio_out = y;
          r.ratio_ref = x;
          r.ratio_bound = b;
        }
      }
    }
  }
  if (ref2 > 0.0) {
    r.rel_fro = std::sqrt(diff2 / ref2);
  } else {
    r.rel_fro = diff2 > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  }
  if (ref_max > 0.0) {
    r.max_abs_scaled = r.max_abs / ref_max;
  } else {
    r.max_abs_scaled = r.max_abs > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  }
  return r;
}

template <class Layout, class TOut, class TRef>
CompareResult compare(std::int64_t M, std::int64_t N, const std::vector<TOut>& out,
                      std::int64_t ld_out, const std::vector<TRef>& ref, std::int64_t ld_ref) {
  const auto need_out = std::size_t(matrix_span<Layout>(M, N, ld_out));
  const auto need_ref = std::size_t(matrix_span<Layout>(M, N, ld_ref));
  if (out.size() < need_out || ref.size() < need_ref) {
    throw std::invalid_argument("compare: a buffer is smaller than its matrix");
  }
  return compare<Layout>(M, N, out.data(), ld_out, ref.data(), ld_ref);
}

// Elements of the leading-dimension padding (inside the buffer, outside the M x N
// matrix) that no longer hold the poison: a kernel wrote where it must not. Only
// meaningful when the whole buffer was poisoned before the run.
template <class Layout, class T>
std::int64_t count_padding_writes(std::int64_t M, std::int64_t N, const std::vector<T>& buf,
                                  std::int64_t ld) {
  const std::int64_t rows = Layout::kIsRowMajor ? M : N;  // strided extent
  const std::int64_t cols = Layout::kIsRowMajor ? N : M;  // contiguous extent
  std::int64_t written = 0;
  for (std::int64_t idx = 0; idx < std::int64_t(buf.size()); ++idx) {
    const std::int64_t line = idx / ld, pos = idx % ld;
    const bool inside = line < rows && pos < cols;
    if (!inside && !is_poison(buf[std::size_t(idx)])) ++written;
  }
  return written;
}

}  // namespace tessera::test
