// The problem tessera_bench measures and its correctness checks before timing: a shape
// and element types, device inputs shared by every implementation of that shape, the
// reference answer over the whole matrix (the vendor BLAS, else the naive kernel), a
// few rows in float64 on the host, and the check of each implementation's output
// against both.
#pragma once

#include "bench_harness.hpp"
#include "naive_gemm.hpp"
#include "vendor_blas.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "reference_gemm.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace {

// What every implementation's whole output is compared with: the vendor BLAS where there
// is one, else the naive kernel (the float64 rows then remain the independent check).
constexpr const char* kReferenceName = TESSERA_BENCH_HAS_BLAS ? kBlasName : "naive kernel";

// ---- shapes, implementations, type names ----------------------------------------------

struct Shape {
  std::int64_t M, N, K;
  bool naive;  // the naive kernel is slow: only where it finishes in reasonable time
  std::string str() const {
    return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  }
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
};

enum class Kind { kTesseraFma, kTesseraWgmma, kTesseraMfma, kBlas, kBlasLt, kNaive };
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kTesseraFma: return "tessera_fma";
    case Kind::kTesseraWgmma: return "tessera_wgmma";
    case Kind::kTesseraMfma: return "tessera_mfma";
    case Kind::kBlas: return kBlasKindName;
    case Kind::kBlasLt: return "cublaslt";
    case Kind::kNaive: return "naive";
  }
  return "?";
}

template <class T> struct TypeName;
template <> struct TypeName<float> { static constexpr const char* value = "fp32"; };
template <> struct TypeName<tessera::half_t> { static constexpr const char* value = "fp16"; };
template <> struct TypeName<tessera::bfloat16_t> { static constexpr const char* value = "bf16"; };

// "fp32", "fp16" (fp32 out), "bf16_bf16out"; layouts other than all-row-major add
// "_rcr"-style letters (A, B, C). The plot script groups by this first name component.
template <class EA, class EC, class LA, class LB, class LC>
std::string type_tag() {
  std::string tag = TypeName<EA>::value;
  if (!std::is_same_v<EC, float>) tag += std::string("_") + TypeName<EC>::value + "out";
  if (!(LA::kIsRowMajor && LB::kIsRowMajor && LC::kIsRowMajor)) {
    tag += std::string("_") + (LA::kIsRowMajor ? 'r' : 'c') + (LB::kIsRowMajor ? 'r' : 'c') +
           (LC::kIsRowMajor ? 'r' : 'c');
  }
  return tag;
}

// ---- one problem: inputs, the reference answer, float64 rows ------------------------------

struct ProblemBase {
  std::string key;
  virtual ~ProblemBase() = default;
};

template <class EA, class EB, class EC, class LA, class LB, class LC>
struct Problem : ProblemBase {
  using Args = tessera::gemm::Arguments<EA, EB, EC>;
  Shape shape{};
  std::int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  float alpha = 1.0f, beta = 0.0f;  // the anchor numbers are for D = A * B
  DeviceBuffer<EA> A;
  DeviceBuffer<EB> B;
  DeviceBuffer<EC> C, D, D_ref;
  std::vector<EC> ref_host;                      // the reference's D (kReferenceName)
  std::vector<std::int64_t> rows;                // rows checked against float64
  std::vector<double> rows_ref;                  // rows.size() x N, row-major
  std::map<Kind, Error> verdict;                 // correctness, once per implementation
  std::map<Kind, std::unique_ptr<DeviceBuffer<char>>> workspace;

  Args args() const {
    Args a;
    a.M = shape.M, a.N = shape.N, a.K = shape.K;
    a.A = A.ptr, a.lda = lda;
    a.B = B.ptr, a.ldb = ldb;
    a.C = C.ptr, a.ldc = ldc;
    a.D = D.ptr, a.ldd = ldd;
    a.alpha = alpha, a.beta = beta;
    return a;
  }
  double bytes() const {
    const double mn = double(shape.M) * double(shape.N);
    return double(shape.M) * double(shape.K) * sizeof(EA) +
           double(shape.K) * double(shape.N) * sizeof(EB) + (beta != 0.0f ? mn * sizeof(EC) : 0.0) +
           mn * sizeof(EC);
  }
};

// Holds one problem at a time: the implementations of one shape and type run back to
// back and share inputs; a new shape frees the previous one's memory first.
std::unique_ptr<ProblemBase> g_problem;

// Runs implementation `kind` once on p, on g_dev.stream, without waiting. Defined in
// tessera_bench.cu, beside the Tessera runs it dispatches to.
template <class EA, class EB, class EC, class LA, class LB, class LC>
Error launch(Problem<EA, EB, EC, LA, LB, LC>& p, Kind kind);

// The implementation every output is compared with over the whole matrix.
template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_reference(const tessera::gemm::Arguments<EA, EB, EC>& a) {
  if constexpr (TESSERA_BENCH_HAS_BLAS) {
    return run_blas<LA, LB, LC>(a);
  } else {
    return run_naive<LA, LB, LC>(a);
  }
}

// ---- setting up a problem and checking outputs ---------------------------------------------

template <class EA, class EB, class EC, class LA, class LB, class LC>
Error make_problem(const Shape& s, Problem<EA, EB, EC, LA, LB, LC>*& out) {
  using P = Problem<EA, EB, EC, LA, LB, LC>;
  const std::string key = type_tag<EA, EC, LA, LB, LC>() + "/" + s.str();
  if (g_problem && g_problem->key == key) {
    out = static_cast<P*>(g_problem.get());
    return {};
  }
  g_problem.reset();  // free the previous shape's buffers before allocating
  auto p = std::make_unique<P>();
  p->key = key;
  p->shape = s;
  p->lda = LA::min_ld(s.M, s.K);
  p->ldb = LB::min_ld(s.K, s.N);
  p->ldc = LC::min_ld(s.M, s.N);
  p->ldd = p->ldc;
  BENCH_TRY(p->A.allocate(std::size_t(tessera::matrix_span<LA>(s.M, s.K, p->lda))));
  BENCH_TRY(p->B.allocate(std::size_t(tessera::matrix_span<LB>(s.K, s.N, p->ldb))));
  BENCH_TRY(p->C.allocate(std::size_t(tessera::matrix_span<LC>(s.M, s.N, p->ldc))));
  BENCH_TRY(p->D.allocate(std::size_t(tessera::matrix_span<LC>(s.M, s.N, p->ldd))));
  BENCH_TRY(p->D_ref.allocate(p->D.count));
  BENCH_TRY(fill_random(p->A, next_seed()));
  BENCH_TRY(fill_random(p->B, next_seed()));
  BENCH_TRY(fill_random(p->C, next_seed()));

  // The reference's answer (the vendor BLAS, else the naive kernel), computed into its
  // own buffer, is what every implementation's full output is compared with.
  auto a = p->args();
  a.D = p->D_ref.ptr;
  BENCH_TRY(fill_poison(p->D_ref));
  BENCH_TRY(run_reference<LA, LB, LC>(a));
  BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
  BENCH_TRY(p->D_ref.to_host(p->ref_host));
  std::int64_t unwritten = 0;
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j)
      unwritten += tessera::test::is_poison(p->ref_host[std::size_t(LC::offset(i, j, p->ldd))]);
  if (unwritten > 0) {
    return std::string(kReferenceName) + " reference left " + std::to_string(unwritten) + " of " + s.str() +
           " elements unwritten: the harness's " + kReferenceName + " call is wrong";
  }

  // A few rows in float64 on the host: first, last, middle and one random row. They
  // keep the reference honest too (and the transposition trick in vendor_blas.hpp).
  std::vector<EA> a_host;
  std::vector<EB> b_host;
  BENCH_TRY(p->A.to_host(a_host));
  BENCH_TRY(p->B.to_host(b_host));
  std::mt19937_64 gen(next_seed());
  p->rows = {0, s.M / 2, s.M - 1, std::int64_t(gen() % std::uint64_t(s.M))};
  std::sort(p->rows.begin(), p->rows.end());
  p->rows.erase(std::unique(p->rows.begin(), p->rows.end()), p->rows.end());
  p->rows_ref.assign(p->rows.size() * std::size_t(s.N), 0.0);
  std::vector<std::future<void>> work;
  for (std::size_t r = 0; r < p->rows.size(); ++r) {
    work.push_back(std::async(std::launch::async, [&, r] {
      // Row i of A alone is a 1 x K matrix at A + offset(i, 0) with the same ld.
      const std::int64_t i = p->rows[r];
      const EC* no_c = nullptr;
      tessera::test::reference_gemm<LA, LB, tessera::RowMajor>(
          1, s.N, s.K, a_host.data() + LA::offset(i, 0, p->lda), p->lda, b_host.data(), p->ldb,
          no_c, 1, p->rows_ref.data() + r * std::size_t(s.N), s.N, double(p->alpha), 0.0);
    }));
  }
  for (auto& w : work) w.get();

  out = p.get();
  g_problem = std::move(p);
  return {};
}

// Runs `kind` once on a poisoned D and checks the output: every element written and
// finite, within 2x the tolerance of the reference (both err, in different directions)
// over the whole matrix, and within the tolerance of float64 on the sampled rows.
template <class EA, class EB, class EC, class LA, class LB, class LC>
Error check(Problem<EA, EB, EC, LA, LB, LC>& p, Kind kind) {
  auto it = p.verdict.find(kind);
  if (it != p.verdict.end()) return it->second;
  Error verdict = [&]() -> Error {
    BENCH_TRY(fill_poison(p.D));
    BENCH_TRY(launch(p, kind));
    BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
    std::vector<EC> out;
    BENCH_TRY(p.D.to_host(out));
    const Shape& s = p.shape;
    const double tol = tessera::test::tolerance<EA, EC>(s.K);
    const auto full = tessera::test::compare<LC>(s.M, s.N, out.data(), p.ldd, p.ref_host.data(), p.ldd);
    std::vector<EC> sampled(p.rows.size() * std::size_t(s.N));
    for (std::size_t r = 0; r < p.rows.size(); ++r)
      for (std::int64_t j = 0; j < s.N; ++j)
        sampled[r * std::size_t(s.N) + std::size_t(j)] = out[std::size_t(LC::offset(p.rows[r], j, p.ldd))];
    const auto rows = tessera::test::compare<tessera::RowMajor>(std::int64_t(p.rows.size()), s.N, sampled.data(),
                                                                s.N, p.rows_ref.data(), s.N);
    char tolbuf[64];
    std::snprintf(tolbuf, sizeof tolbuf, "%.2e", tol);
    if (!rows.passed(tol)) {
      return std::string("CHECK FAILED vs float64 on sampled rows (tol ") + tolbuf + "): " + rows.describe();
    }
    if (!full.passed(2.0 * tol)) {
      return std::string("CHECK FAILED vs ") + kReferenceName + " (tol 2x" + tolbuf + "): " + full.describe();
    }
    return {};
  }();
  p.verdict[kind] = verdict;
  return verdict;
}

}  // namespace
