// The host half of one GEMM check, shared by the GPU suite (test/gpu/gemm_case.hpp) and the
// wave emulator's (test/emulator/emulated_gemm_case.hpp), which differ only in where the
// kernel runs and how its buffers get there:
//   CaseShape     the case: sizes, leading-dimension padding and rounding, alpha, beta,
//                 C == D, operands one element off alignment, a split-K workspace;
//   HostCase      its host operands (fresh random A, B, C; D poisoned, or D = C in place),
//                 the leading dimensions, the Arguments over any copy of them, and the
//                 float64 reference;
//   check_output  what the output buffer that came back (off + D + a poisoned guard) says:
//                 the comparison with the reference (over the whole matrix, and each element
//                 against its own bound), writes into D's padding, and whether the element
//                 before an offset D and the guard after it are intact;
//   CHECK_CASE_OUTCOME  what both suites require of that (Catch2 checks).
// Host-only: no GPU, no GPU compiler.
#pragma once
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reference_gemm.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::test {

struct CaseShape {
  std::int64_t M, N, K;
  std::int64_t pad = 0;          // added to every leading dimension
  float alpha = 1.0f, beta = 0.0f;
  bool in_place = false;         // C and D are the same buffer
  bool offset_pointers = false;  // operands start one element into their allocation
  bool workspace = false;        // pass workspace_size() bytes: split-K (FMA) or the packed path (TMA families)
  bool must_split = false;       // and require that a split was chosen
  std::int64_t ld_multiple = 1;  // round every leading dimension up to a multiple of this
                                 // (8: 16-byte lines of 16-bit elements whatever K, M, N)
  gemm::SplitRequest split{};    // the call's request to a K-splitting scheduler (Arguments::split)
};

// The leading dimension of a case: the layout's minimum plus `pad`, rounded up.
inline std::int64_t case_ld(const CaseShape& s, std::int64_t min_ld, std::int64_t pad) {
  const std::int64_t m = s.ld_multiple > 0 ? s.ld_multiple : 1;
  return (min_ld + pad + m - 1) / m * m;
}

// "M=.. N=.. K=.. pad=.. ..." and the operand types and layouts, for INFO().
template <class Config>
std::string describe_case(const CaseShape& s, std::uint64_t seed) {
  std::ostringstream o;
  o << "M=" << s.M << " N=" << s.N << " K=" << s.K << " pad=" << s.pad << " ld_multiple=" << s.ld_multiple
    << " alpha=" << s.alpha << " beta=" << s.beta << " in_place=" << s.in_place << " offset=" << s.offset_pointers
    << " workspace=" << s.workspace << " seed=" << seed << " A=" << type_name<typename Config::ElementA>::value
    << "/" << Config::LayoutA::kName << " B=" << type_name<typename Config::ElementB>::value << "/"
    << Config::LayoutB::kName << " C=" << type_name<typename Config::ElementC>::value << "/"
    << Config::LayoutC::kName;
  return o.str();
}

// A case of a configuration with its own epilogue (gemm/epilogue/epilogue.hpp): the epilogue's
// arguments, and what D should be from the float64 product A * B and C(m, n), written in the
// test independently of the library's epilogue code. Without `expected`, D = alpha A B + beta C.
// An element's magnitude (what its bound scales with, reference_gemm.hpp's ElementBound) is
// then reference_gemm.hpp's epilogue_magnitude of `expected`; `approximation` is the epilogue's
// own error beyond float rounding per unit of that magnitude (an activation's hardware
// approximation), added to each element's bound. `expected` is called last with the
// element's own values (a test may record what it computes).
template <class Config>
struct EpilogueCase {
  using Expected = std::function<double(double ab, double c, std::int64_t m, std::int64_t n)>;
  typename Config::Epilogue::Arguments arguments{};
  Expected expected;
  double approximation = 0.0;
};

// What the output buffer that came back says.
struct CaseOutcome {
  CompareResult compare;            // against the float64 reference (M x N > 0 only)
  double tolerance = 0.0;           // whole matrix (relative Frobenius)
  ElementBound bound;               // each element
  std::int64_t padding_writes = 0;  // elements of D's leading-dimension padding changed
  bool outside_intact = true;       // the element before an offset D, and the guard after D
};

// What an output allocation that came back says (D's, or C's in place; `off` elements
// into it, `guard` poisoned elements after it): the comparison with the reference (a
// Reference laid out like D: values and magnitudes), writes into D's padding, and whether
// the element before an offset D and the guard after it are intact.
template <class LC, class ED, class MakeReference>
CaseOutcome output_outcome(const CaseShape& shape, std::int64_t off, std::int64_t ldd, const std::vector<ED>& out,
                           std::size_t guard, MakeReference reference, double tol, const ElementBound& bound) {
  CaseOutcome r;
  const std::size_t size = out.size() - guard;
  if (shape.M > 0 && shape.N > 0) {
    const Reference ref = reference();
    r.compare = compare<LC>(shape.M, shape.N, out.data() + off, ldd, ref.value.data(), ldd, ref.magnitude.data(), bound);
  }
  r.tolerance = tol;
  r.bound = bound;
  if (!shape.in_place) {
    const std::vector<ED> whole(out.begin() + off, out.begin() + std::ptrdiff_t(size));
    r.padding_writes = count_padding_writes<LC>(shape.M, shape.N, whole, ldd);
    if (off) r.outside_intact = is_poison(out[0]);
  }
  for (std::size_t g = size; g < out.size(); ++g) r.outside_intact = r.outside_intact && is_poison(out[g]);
  return r;
}

template <class Config>
struct HostCase {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using ED = typename Config::ElementD;
  using LA = typename Config::LayoutA;
  using LB = typename Config::LayoutB;
  using LC = typename Config::LayoutC;
  using Args = gemm::Arguments<EA, EB, EC, ED, typename Config::Epilogue::Arguments>;

  CaseShape shape;
  EpilogueCase<Config> epilogue;
  std::int64_t lda, ldb, ldc, ldd;  // ldd == ldc in place
  std::int64_t off;                 // elements each operand starts into its allocation
  std::vector<EA> a;
  std::vector<EB> b;
  std::vector<EC> c;
  std::vector<ED> d;  // poisoned, or a copy of c in place (the kernel then writes c's copy)

  HostCase(const CaseShape& s, std::uint64_t seed, EpilogueCase<Config> e = {})
      : shape(s),
        epilogue(std::move(e)),
        lda(case_ld(s, LA::min_ld(s.M, s.K), s.pad)),
        ldb(case_ld(s, LB::min_ld(s.K, s.N), s.pad)),
        ldc(case_ld(s, LC::min_ld(s.M, s.N), s.pad)),
        ldd(s.in_place ? ldc : case_ld(s, LC::min_ld(s.M, s.N), 2 * s.pad)),
        off(s.offset_pointers ? 1 : 0),
        a(alloc(matrix_span<LA>(s.M, s.K, lda))),
        b(alloc(matrix_span<LB>(s.K, s.N, ldb))),
        c(alloc(matrix_span<LC>(s.M, s.N, ldc))),
        d(alloc(matrix_span<LC>(s.M, s.N, ldd))) {
    fill_random(a, seed);
    fill_random(b, seed + 1);
    fill_random(c, seed + 2);
    poison(d);
    if constexpr (std::is_same_v<EC, ED>) {
      if (s.in_place) d = c;
    } else {
      REQUIRE_FALSE(s.in_place);  // C == D needs one element type
    }
  }

  // Elements of an operand's allocation: the offset, then the matrix (at least one).
  std::size_t alloc(std::int64_t span) const { return std::size_t(off + (span > 0 ? span : 1)); }

  // The Arguments over copies of a, b, c, d that start where the host vectors start (the
  // offset is added here); D is C's copy in place.
  Args arguments(const EA* A, const EB* B, const EC* C, ED* D) const {
    ED* out = D;
    if constexpr (std::is_same_v<EC, ED>) {
      if (shape.in_place) out = const_cast<ED*>(C);
    }
    Args args{shape.M, shape.N, shape.K, A + off, lda, B + off, ldb, C + off, ldc, out + off, ldd,
              shape.alpha, shape.beta, epilogue.arguments};
    args.split = shape.split;
    return args;
  }

  // The float64 D and each element's magnitude, laid out like D.
  Reference reference() const {
    using Plain = gemm::Arguments<EA, EB, EC>;
    if (!epilogue.expected) {
      return reference_with_magnitude<LA, LB, LC>(Plain{shape.M, shape.N, shape.K, a.data() + off, lda,
                                                        b.data() + off, ldb, c.data() + off, ldc, nullptr, ldd,
                                                        shape.alpha, shape.beta});
    }
    Reference ref = reference_with_magnitude<LA, LB, LC>(
        Plain{shape.M, shape.N, shape.K, a.data() + off, lda, b.data() + off, ldb, nullptr, ldc, nullptr, ldd, 1.0f,
              0.0f});
    const double per_magnitude = element_bound<EA, ED>(shape.K).per_magnitude;
    for (std::int64_t m = 0; m < shape.M; ++m) {
      for (std::int64_t n = 0; n < shape.N; ++n) {
        const std::size_t at = std::size_t(LC::offset(m, n, ldd));
        const double cv = to_double(c[std::size_t(off + LC::offset(m, n, ldc))]);
        ref.magnitude[at] = epilogue_magnitude(ref.value[at], ref.magnitude[at], cv, per_magnitude,
                                               [&](double ab, double c_mn) { return epilogue.expected(ab, c_mn, m, n); });
        ref.value[at] = epilogue.expected(ref.value[at], cv, m, n);
      }
    }
    return ref;
  }

  ElementBound bound() const {
    ElementBound b = element_bound<EA, ED>(shape.K);
    b.per_magnitude += epilogue.approximation;
    return b;
  }

  // `out`: the output allocation as it came back (C's in place, else D's), `guard`
  // poisoned elements after it included.
  CaseOutcome check_output(const std::vector<ED>& out, std::size_t guard) const {
    return output_outcome<LC>(shape, off, ldd, out, guard, [this] { return reference(); }, tolerance<EA, ED>(shape.K),
                              bound());
  }
};

}  // namespace tessera::test

// Right result (over the whole matrix, and every element within its own bound), every
// element written and finite, nothing written outside the matrix. A macro, so that a failure
// names the caller's line; the worst element (row, column, output, reference, bound) is in
// the message.
#define CHECK_CASE_OUTCOME(shape, outcome)                      \
  do {                                                          \
    if ((shape).M > 0 && (shape).N > 0) {                       \
      INFO((outcome).compare.describe());                       \
      CHECK((outcome).compare.unwritten == 0);                  \
      CHECK((outcome).compare.nan == 0);                        \
      CHECK((outcome).compare.rel_fro <= (outcome).tolerance);  \
      CHECK((outcome).compare.element_checked);                 \
      CHECK((outcome).compare.beyond_bound == 0);               \
    }                                                           \
    CHECK((outcome).padding_writes == 0);                       \
    CHECK((outcome).outside_intact);                            \
  } while (0)
