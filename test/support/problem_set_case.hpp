// The host half of a batched or grouped GEMM check (problem_set.hpp), shared by the GPU suite
// (test/gpu/test_many_gemms.cu) and the wave emulator's (test/emulator/): the operands of
// every problem (fresh random A, B, C; D poisoned), the sizes the device reads (possibly out
// of range), the rows each problem owns after the documented clamping (written here from the
// README's rules, not from the scheduler's code), the float64 reference of every problem, and
// the verdict on the output buffer that came back: every owned element right (the whole set
// within the Frobenius tolerance, each element within its own bound), every other
// element of D's allocation (rows no problem owns, padding, the guard) still poisoned.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reference_gemm.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/problem_set.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::test {

enum class SetLayout { kBatched, kContiguous, kMasked };

struct SetShape {
  SetLayout layout = SetLayout::kBatched;
  std::int64_t M = 0, N = 0, K = 0;  // M: A's rows (contiguous), each entry's or slab's (batched, masked)
  std::int64_t count = 1;            // batched: entries; grouped: set from `sizes`
  // Grouped: rows per group (contiguous: turned into end offsets; masked: the counts), as the
  // device reads them: out-of-range values test the clamping.
  std::vector<std::int32_t> sizes;
  bool ends_given = false;  // contiguous: `sizes` are the end offsets themselves
  float alpha = 1.0f, beta = 0.0f;
  bool shared_b = false;  // one B for every problem (stride 0)
  std::int64_t pad = 0;   // added to every leading dimension (then rounded to 8 elements)
};

// A grouped shape (`sizes`: rows per group, or the ends with ends_given) and a batched one.
inline SetShape grouped_shape(SetLayout layout, std::int64_t M, std::int64_t N, std::int64_t K,
                              std::vector<std::int32_t> sizes, float beta = 0.0f) {
  SetShape s;
  s.layout = layout;
  s.M = M;
  s.N = N;
  s.K = K;
  s.sizes = std::move(sizes);
  s.beta = beta;
  return s;
}
inline SetShape batched_shape(std::int64_t count, std::int64_t M, std::int64_t N, std::int64_t K, float beta = 0.0f,
                              bool shared_b = false) {
  SetShape s;
  s.layout = SetLayout::kBatched;
  s.count = count;
  s.M = M;
  s.N = N;
  s.K = K;
  s.beta = beta;
  s.shared_b = shared_b;
  return s;
}

inline const char* layout_name(SetLayout l) {
  return l == SetLayout::kBatched ? "batched" : l == SetLayout::kContiguous ? "contiguous" : "masked";
}

inline std::string describe_set(const SetShape& s, std::uint64_t seed) {
  std::ostringstream o;
  o << layout_name(s.layout) << " M=" << s.M << " N=" << s.N << " K=" << s.K << " alpha=" << s.alpha
    << " beta=" << s.beta << " shared_b=" << s.shared_b << " pad=" << s.pad << " seed=" << seed << " sizes=";
  for (std::int32_t v : s.sizes) o << v << ",";
  if (s.layout == SetLayout::kBatched) o << " count=" << s.count;
  return o.str();
}

// The device's int32 sizes for a grouped shape: contiguous end offsets or masked counts.
inline std::vector<std::int32_t> device_sizes(const SetShape& s) {
  if (s.layout != SetLayout::kContiguous || s.ends_given) return s.sizes;
  std::vector<std::int32_t> ends;
  std::int32_t end = 0;
  for (std::int32_t r : s.sizes) ends.push_back(end += r);
  return ends;
}

// (first row, rows) of every problem, clamped as the README says: contiguous, group g starts
// where g - 1 ended and ends at its end offset, but never before its start nor past M; masked,
// a count is taken into [0, M].
inline std::vector<std::pair<std::int64_t, std::int64_t>> owned_rows(const SetShape& s) {
  std::vector<std::pair<std::int64_t, std::int64_t>> rows;
  if (s.layout == SetLayout::kBatched) {
    rows.assign(std::size_t(s.count), {0, s.M});
  } else if (s.layout == SetLayout::kMasked) {
    for (std::int32_t c : s.sizes) rows.push_back({0, std::min<std::int64_t>(std::max<std::int64_t>(c, 0), s.M)});
  } else {
    std::int64_t start = 0;
    for (std::int32_t e : device_sizes(s)) {
      const std::int64_t end = std::min<std::int64_t>(std::max<std::int64_t>(e, start), s.M);
      rows.push_back({start, end - start});
      start = end;
    }
  }
  return rows;
}

inline bool sizes_in_range(const SetShape& s) {
  if (s.layout == SetLayout::kBatched) return true;
  std::int64_t previous = 0;
  for (std::int32_t v : device_sizes(s)) {
    if (s.layout == SetLayout::kMasked && (v < 0 || v > s.M)) return false;
    if (s.layout == SetLayout::kContiguous && (v < previous || v > s.M)) return false;
    if (s.layout == SetLayout::kContiguous) previous = v;
  }
  return true;
}

// What D should be, from the float64 product ab = (A B)(m, n) and C(m, n); problem and m as
// the epilogue sees them (m: the row as the problem's D is addressed). Default: alpha ab + beta c.
using SetExpected = std::function<double(double ab, double c, int problem, std::int64_t m, std::int64_t n)>;

struct SetOutcome {
  double rel_fro = 0.0;
  double tolerance = 0.0;
  std::int64_t checked = 0;            // owned elements compared
  std::int64_t unwritten = 0;          // owned elements still poisoned
  std::int64_t not_finite = 0;         // owned elements NaN or inf
  std::int64_t written_elsewhere = 0;  // elements no problem owns that changed
  std::int64_t beyond_bound = 0;       // owned elements off by more than their own bound
  std::string worst;                   // the largest error, and the largest error / bound
};

template <class Config>
struct HostSet {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using ED = typename Config::ElementD;
  using LA = typename Config::LayoutA;
  using LB = typename Config::LayoutB;
  using LC = typename Config::LayoutC;
  using Args = gemm::Arguments<EA, EB, EC, ED, typename Config::Epilogue::Arguments>;

  SetShape shape;
  std::int64_t count;
  std::int64_t lda, ldb, ldc, ldd;
  gemm::ProblemStrides strides;  // as the caller passes them (contiguous: only B's is used)
  std::vector<EA> a;
  std::vector<EB> b;
  std::vector<EC> c;
  std::vector<ED> d;  // poisoned
  std::vector<std::int32_t> sizes;
  std::vector<std::pair<std::int64_t, std::int64_t>> rows;

  static std::int64_t ld_of(std::int64_t min_ld, std::int64_t pad) { return (min_ld + pad + 7) / 8 * 8; }
  static std::int64_t round8(std::int64_t x) { return (x + 7) / 8 * 8; }

  HostSet(const SetShape& s, std::uint64_t seed)
      : shape(s),
        count(s.layout == SetLayout::kBatched ? s.count : std::int64_t(s.sizes.size())),
        lda(ld_of(LA::min_ld(s.M, s.K), s.pad)),
        ldb(ld_of(LB::min_ld(s.K, s.N), s.pad)),
        ldc(ld_of(LC::min_ld(s.M, s.N), s.pad)),
        ldd(ld_of(LC::min_ld(s.M, s.N), 2 * s.pad)),
        sizes(device_sizes(s)),
        rows(owned_rows(s)) {
    const bool by_rows = s.layout == SetLayout::kContiguous;  // A, C, D one matrix for all
    strides.a = by_rows ? 0 : round8(matrix_span<LA>(s.M, s.K, lda)) + 8;
    strides.b = s.shared_b ? 0 : round8(matrix_span<LB>(s.K, s.N, ldb)) + 8;
    strides.c = by_rows ? 0 : round8(matrix_span<LC>(s.M, s.N, ldc));
    strides.d = by_rows ? 0 : round8(matrix_span<LC>(s.M, s.N, ldd)) + 16;
    const std::int64_t layers = by_rows ? 1 : count;
    a.resize(alloc(layers, strides.a, matrix_span<LA>(s.M, s.K, lda)));
    b.resize(alloc(s.shared_b ? 1 : count, strides.b, matrix_span<LB>(s.K, s.N, ldb)));
    c.resize(alloc(layers, strides.c, matrix_span<LC>(s.M, s.N, ldc)));
    d.resize(alloc(layers, strides.d, matrix_span<LC>(s.M, s.N, ldd)));
    fill_random(a, seed);
    fill_random(b, seed + 1);
    fill_random(c, seed + 2);
    poison(d);
  }
  static std::size_t alloc(std::int64_t layers, std::int64_t stride, std::int64_t span) {
    const std::int64_t n = layers > 1 ? (layers - 1) * stride + span : span;
    return std::size_t(n > 0 ? n : 1);
  }

  // The arguments over device copies; `device_sizes`: the int32 sizes in device memory.
  Args arguments(const EA* A, const EB* B, const EC* C, ED* D, const std::int32_t* device_sizes,
                 std::int32_t* status, typename Config::Epilogue::Arguments epilogue = {}) const {
    Args args{shape.M, shape.N, shape.K, A, lda, B, ldb, C, ldc, D, ldd, shape.alpha, shape.beta, epilogue};
    args.problems.count = count;
    args.problems.stride_a = strides.a;
    args.problems.stride_b = strides.b;
    args.problems.stride_c = strides.c;
    args.problems.stride_d = strides.d;
    if (shape.layout == SetLayout::kContiguous) args.problems.group_ends = device_sizes;
    if (shape.layout == SetLayout::kMasked) args.problems.group_rows = device_sizes;
    args.problems.status = status;
    return args;
  }

  // Element offset of (m, n) of problem p in an operand (m: the row as addressed).
  std::int64_t at_d(std::int64_t p, std::int64_t m, std::int64_t n) const {
    return p * strides.d + LC::offset(m, n, ldd);
  }

  // `out`: D's allocation as it came back, `guard` poisoned elements after it included.
  // An element's bound scales with its magnitude: |alpha| sum_k |a_mk b_kn| + |beta c|, or,
  // with `expected`, reference_gemm.hpp's epilogue_magnitude of it (`expected` is called last
  // with the element's own values); `approximation`: an epilogue's own error beyond float
  // rounding per unit of magnitude (gemm_case_host.hpp's EpilogueCase), added to each bound.
  SetOutcome check(const std::vector<ED>& out, std::size_t guard, const SetExpected& expected = {},
                   double approximation = 0.0) const {
    SetOutcome r;
    r.tolerance = tolerance<EA, ED>(shape.K);
    ElementBound bound = element_bound<EA, ED>(shape.K);
    const double per_magnitude = bound.per_magnitude;
    bound.per_magnitude += approximation;
    std::vector<char> owned(out.size(), 0);
    double diff2 = 0.0, ref2 = 0.0, worst = -1.0, worst_ratio = -1.0;
    std::string worst_error, worst_relative;
    for (std::int64_t p = 0; p < count; ++p) {
      const auto [first, n_rows] = rows[std::size_t(p)];
      if (n_rows == 0) continue;
      using Plain = gemm::Arguments<EA, EB, EC>;
      const EA* pa = a.data() + p * strides.a + LA::offset(first, 0, lda);
      const EB* pb = b.data() + (shape.shared_b ? 0 : p * strides.b);
      const Reference ab = reference_with_magnitude<LA, LB, LC>(
          Plain{n_rows, shape.N, shape.K, pa, lda, pb, ldb, nullptr, ldc, nullptr, ldd, 1.0f, 0.0f});
      for (std::int64_t i = 0; i < n_rows; ++i) {
        const std::int64_t m = first + i;
        for (std::int64_t n = 0; n < shape.N; ++n) {
          const double cv = to_double(c[std::size_t(p * strides.c + LC::offset(m, n, ldc))]);
          const double prod = ab.value[std::size_t(LC::offset(i, n, ldd))];
          const double prod_magnitude = ab.magnitude[std::size_t(LC::offset(i, n, ldd))];
          const double magnitude =
              expected ? epilogue_magnitude(prod, prod_magnitude, cv, per_magnitude,
                                            [&](double x, double y) { return expected(x, y, int(p), m, n); })
                       : std::fabs(double(shape.alpha)) * prod_magnitude + std::fabs(double(shape.beta) * cv);
          const double want = expected ? expected(prod, cv, int(p), m, n)
                                       : double(shape.alpha) * prod + double(shape.beta) * cv;
          const std::size_t at = std::size_t(at_d(p, m, n));
          owned[at] = 1;
          ++r.checked;
          ref2 += want * want;
          if (is_poison(out[at])) {
            ++r.unwritten;
            continue;
          }
          const double got = to_double(out[at]);
          if (!std::isfinite(got)) {
            ++r.not_finite;
            continue;
          }
          diff2 += (got - want) * (got - want);
          const double error = std::fabs(got - want);
          const double b = bound(want, magnitude);
          if (!(error <= b)) ++r.beyond_bound;
          if (error > worst) {
            worst = error;
            std::ostringstream o;
            o << "largest error at problem " << p << " (" << m << ", " << n << "): got " << got << " want " << want;
            worst_error = o.str();
          }
          if (error / b > worst_ratio) {
            worst_ratio = error / b;
            std::ostringstream o;
            o << "largest error / bound " << worst_ratio << " at problem " << p << " (" << m << ", " << n
              << "): got " << got << " want " << want << " bound " << b;
            worst_relative = o.str();
          }
        }
      }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (!owned[i] && !is_poison(out[i])) ++r.written_elsewhere;
    }
    r.rel_fro = ref2 > 0.0 ? std::sqrt(diff2 / ref2) : (diff2 > 0.0 ? 1.0 : 0.0);
    r.worst = worst_error + "; " + worst_relative + "; beyond their bound: " + std::to_string(r.beyond_bound);
    (void)guard;  // the guard is part of `out` and owned by no problem
    return r;
  }
};

}  // namespace tessera::test

#define CHECK_SET_OUTCOME(outcome)                         \
  do {                                                     \
    INFO((outcome).worst);                                 \
    CHECK((outcome).unwritten == 0);                       \
    CHECK((outcome).not_finite == 0);                      \
    CHECK((outcome).written_elsewhere == 0);               \
    CHECK((outcome).rel_fro <= (outcome).tolerance);       \
    CHECK((outcome).beyond_bound == 0);                    \
  } while (0)
