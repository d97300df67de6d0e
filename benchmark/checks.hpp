// The GEMM problem tessera_bench measures (the classic and LLM suites, and the dense
// comparison point of the grouped suite) and the checks before timing: a shape and
// element types, device inputs shared by every implementation of that shape, the
// reference answer over the whole matrix (the vendor BLAS, else the naive kernel), a
// few rows in float64 on the host, and the check of each implementation's output
// against both. judge_output is the verdict every suite's problem uses.
#pragma once

#include "bench_harness.hpp"
#include "bench_host.hpp"
#include "bench_registry.hpp"
#include "naive_gemm.hpp"
#include "stream_floor.hpp"
#include "vendor_blas.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
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

// ---- the verdict on one output ---------------------------------------------------------------

// Rows of an output computed in float64 on the host (rows.size() x N, row-major).
struct SampledRows {
  std::vector<std::int64_t> rows;
  std::vector<double> values;
};

// First, middle, last and one random row of M, without repeats.
std::vector<std::int64_t> sample_rows(std::int64_t M, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::int64_t> rows = {0, M / 2, M - 1, std::int64_t(gen() % std::uint64_t(M))};
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

// One call of `impl` on a D made ready by the caller (poisoned, or holding C), then D on
// the host: what every problem's check judges.
template <class P, class T>
Error launch_and_fetch(P& p, const Impl<P>& impl, ImplSlot& slot, const DeviceBuffer<T>& D, std::vector<T>& out) {
  BENCH_TRY(impl.launch(p, slot));
  BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
  return D.to_host(out);
}

// An output (M x N through LC with leading dimension ld) judged: within `tol` of float64
// on the sampled rows, and within 2 tol of the full-matrix reference (both err, in
// different directions), every element written and finite. Several matrices (a batch, a
// grouped GEMM's experts) are judged as one tall row-major matrix.
template <class LC, class EC, class TRef>
Error judge_output(std::int64_t M, std::int64_t N, const std::vector<EC>& out, std::int64_t ld,
                   const std::vector<TRef>& full_ref, const std::string& full_ref_name, const SampledRows& sampled,
                   double tol) {
  std::vector<EC> picked(sampled.rows.size() * std::size_t(N));
  for (std::size_t r = 0; r < sampled.rows.size(); ++r)
    for (std::int64_t j = 0; j < N; ++j)
      picked[r * std::size_t(N) + std::size_t(j)] = out[std::size_t(LC::offset(sampled.rows[r], j, ld))];
  const auto rows = tessera::test::compare<tessera::RowMajor>(std::int64_t(sampled.rows.size()), N, picked.data(), N,
                                                              sampled.values.data(), N);
  char tolbuf[64];
  std::snprintf(tolbuf, sizeof tolbuf, "%.2e", tol);
  if (!rows.passed(tol)) {
    return std::string("CHECK FAILED vs float64 on sampled rows (tol ") + tolbuf + "): " + rows.describe();
  }
  const auto full = tessera::test::compare<LC>(M, N, out.data(), ld, full_ref.data(), ld);
  if (!full.passed(2.0 * tol)) {
    return "CHECK FAILED vs " + full_ref_name + " (tol 2x" + tolbuf + "): " + full.describe();
  }
  return {};
}

// D = alpha A B with the weights layout every suite but the classic one uses: A row-major
// M x K, B = W[N][K] (K-major), D row-major (C == D, read only when beta != 0), tight
// leading dimensions. Run it with run_blas<RowMajor, ColumnMajor, RowMajor>.
template <class EA, class EB, class EC>
tessera::gemm::Arguments<EA, EB, EC> weights_layout_args(std::int64_t M, std::int64_t N, std::int64_t K, const EA* A,
                                                         const EB* B, EC* D, float alpha = 1.0f) {
  tessera::gemm::Arguments<EA, EB, EC> a;
  a.M = M, a.N = N, a.K = K;
  a.A = A, a.lda = K;
  a.B = B, a.ldb = K;
  a.C = D, a.ldc = N;
  a.D = D, a.ldd = N;
  a.alpha = alpha;
  return a;
}

// ---- type names ----------------------------------------------------------------------------------

template <class T> struct TypeName;
template <> struct TypeName<float> { static constexpr const char* value = "fp32"; };
template <> struct TypeName<tessera::half_t> { static constexpr const char* value = "fp16"; };
template <> struct TypeName<tessera::bfloat16_t> { static constexpr const char* value = "bf16"; };

// The classic suite's group names: "fp32", "fp16" (fp32 out), "bf16_bf16out"; layouts
// other than all-row-major add "_rcr"-style letters (A, B, C).
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

// ---- one GEMM problem ----------------------------------------------------------------------------

struct GemmSpec {
  std::string group;  // the benchmark name's first component (it says the types)
  std::string label;  // its third: the shape, or the problem this one stands beside
  std::int64_t M = 0, N = 0, K = 0;
  float alpha = 1.0f;
  float beta = 0.0f;   // != 0: D = alpha A B + beta D in place (C == D), as BLAS computes it
  bool floor = false;  // a decode shape: the streaming read of B is measured beside it
  bool float64_rows = true;  // false (the sweep, for time): judged against the full-matrix reference alone
  std::string shape() const { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
  std::string key() const {
    return group + "/" + label + "/" + shape() + "/alpha=" + std::to_string(alpha) + "/beta=" + std::to_string(beta) +
           (floor ? "/floor" : "");
  }
};

// The implementation every output is compared with over the whole matrix.
template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_reference(const tessera::gemm::Arguments<EA, EB, EC>& a) {
  if constexpr (TESSERA_BENCH_HAS_BLAS) {
    return run_blas<LA, LB, LC>(a);
  } else {
    return run_naive<LA, LB, LC>(a);
  }
}

template <class EA_, class EB_, class EC_, class LA_, class LB_, class LC_>
struct GemmProblem : ProblemBase {
  using EA = EA_;
  using EB = EB_;
  using EC = EC_;
  using LA = LA_;
  using LB = LB_;
  using LC = LC_;
  using Spec = GemmSpec;
  using Args = tessera::gemm::Arguments<EA, EB, EC>;

  GemmSpec spec;
  std::int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  DeviceBuffer<EA> A;
  DeviceBuffer<EB> B;
  DeviceBuffer<EC> C, D, D_ref;  // C: the values D starts from when beta != 0
  std::vector<EC> ref_host;      // the reference's D (kReferenceName)
  SampledRows sampled;           // float64
  double floor_seconds = 0.0;    // decode: the streaming read of B, median (0: none)
  Error floor_error;
#if defined(TESSERA_CUDA)
  StreamFloor floor;
#endif

  explicit GemmProblem(const GemmSpec& s) : spec(s) {}

  bool in_place() const { return spec.beta != 0.0f; }
  Args args() const {
    Args a;
    a.M = spec.M, a.N = spec.N, a.K = spec.K;
    a.A = A.ptr, a.lda = lda;
    a.B = B.ptr, a.ldb = ldb;
    a.C = in_place() ? D.ptr : C.ptr, a.ldc = in_place() ? ldd : ldc;
    a.D = D.ptr, a.ldd = ldd;
    a.alpha = spec.alpha, a.beta = spec.beta;
    return a;
  }
  double weight_bytes() const { return double(B.count) * sizeof(EB); }

  // D as an implementation must find it: poisoned (every element must be written), or
  // holding C when D = alpha A B + beta D (an element left alone then keeps C, which
  // differs from the answer by alpha A B).
  Error prepare_output() {
    if (in_place()) return D.copy_from(C);
    return fill_poison(D);
  }

  Error build();

  // In place, D grows by alpha A B a call: each repetition starts again from C (101
  // calls at the suite's deepest K, |A B| < ~400, stay below fp16's largest value).
  Error before_repetition() override { return in_place() ? D.copy_from(C) : Error{}; }

  // Runs `impl` once on a prepared D and judges the output; the floor was checked when
  // the problem was built.
  Error check(const Impl<GemmProblem>& impl, ImplSlot& slot) {
    if (impl.is_floor) return floor_seconds > 0.0 ? Error{} : floor_error;
    BENCH_TRY(prepare_output());
    std::vector<EC> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    return judge_output<LC>(spec.M, spec.N, out, ldd, ref_host, kReferenceName, sampled,
                            tessera::test::tolerance<EA, EC>(spec.K));
  }

  double flops(const Impl<GemmProblem>& impl) const { return impl.is_floor ? 0.0 : spec.flops(); }
  // A, B and D once, and C when it is read; the floor reads B only.
  double bytes(const Impl<GemmProblem>& impl) const {
    if (impl.is_floor) return weight_bytes();
    const double mn = double(spec.M) * double(spec.N);
    return double(spec.M) * double(spec.K) * sizeof(EA) + weight_bytes() + (in_place() ? 2.0 : 1.0) * mn * sizeof(EC);
  }
  // Decode shapes: the weights' bandwidth and the fraction of the floor's it reaches.
  void add_counters(benchmark::State& state, const Impl<GemmProblem>&, double seconds) const {
    if (!spec.floor) return;
    state.counters["weights_GB/s"] = benchmark::Counter(weight_bytes() / seconds / 1e9);
    if (floor_seconds > 0.0) state.counters["floor_fraction"] = benchmark::Counter(floor_seconds / seconds);
  }
  std::string label(const Impl<GemmProblem>& impl) const {
    if (impl.is_floor) return "streaming read of B (" + std::to_string(B.count * sizeof(EB) >> 20) + " MiB)";
    std::string l = std::string(TypeName<EA>::value) + "->" + TypeName<EC>::value + " ld=" + std::to_string(lda) +
                    "," + std::to_string(ldb) + "," + std::to_string(ldd);
    if (in_place()) l += " beta=" + std::to_string(spec.beta) + " (C == D)";
    return l;
  }
};

template <class EA, class EB, class EC, class LA, class LB, class LC>
Error GemmProblem<EA, EB, EC, LA, LB, LC>::build() {
  const GemmSpec& s = spec;
  lda = LA::min_ld(s.M, s.K);
  ldb = LB::min_ld(s.K, s.N);
  ldc = LC::min_ld(s.M, s.N);
  ldd = ldc;
  BENCH_TRY(A.allocate(std::size_t(tessera::matrix_span<LA>(s.M, s.K, lda))));
  BENCH_TRY(B.allocate(std::size_t(tessera::matrix_span<LB>(s.K, s.N, ldb))));
  BENCH_TRY(C.allocate(std::size_t(tessera::matrix_span<LC>(s.M, s.N, ldc))));
  BENCH_TRY(D.allocate(std::size_t(tessera::matrix_span<LC>(s.M, s.N, ldd))));
  BENCH_TRY(D_ref.allocate(D.count));
  BENCH_TRY(fill_random(A, next_seed()));
  BENCH_TRY(fill_random(B, next_seed()));
  BENCH_TRY(fill_random(C, next_seed()));

  // The reference's answer (the vendor BLAS, else the naive kernel), computed into its
  // own buffer, is what every implementation's full output is compared with.
  auto a = args();
  a.D = D_ref.ptr;
  if (in_place()) {
    a.C = D_ref.ptr;
    BENCH_TRY(D_ref.copy_from(C));
  } else {
    BENCH_TRY(fill_poison(D_ref));
  }
  BENCH_TRY(run_reference<LA, LB, LC>(a));
  BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
  BENCH_TRY(D_ref.to_host(ref_host));
  std::int64_t unwritten = 0;
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j) unwritten += tessera::test::is_poison(ref_host[std::size_t(LC::offset(i, j, ldd))]);
  if (unwritten > 0) {
    return std::string(kReferenceName) + " reference left " + std::to_string(unwritten) + " of " + s.shape() +
           " elements unwritten: the harness's " + kReferenceName + " call is wrong";
  }

  // A few rows in float64 on the host. They keep the reference honest too (and the
  // transposition trick in vendor_blas.hpp).
  std::vector<EA> a_host;
  std::vector<EB> b_host;
  std::vector<EC> c_host;
  if (s.float64_rows || s.floor) {
    BENCH_TRY(A.to_host(a_host));
    BENCH_TRY(B.to_host(b_host));
    if (in_place()) BENCH_TRY(C.to_host(c_host));
  }
  if (s.float64_rows) sampled.rows = sample_rows(s.M, next_seed());
  sampled.values.assign(sampled.rows.size() * std::size_t(s.N), 0.0);
  parallel_for(sampled.rows.size(), [&](std::size_t r) {
    // Row i of A alone is a 1 x K matrix at A + offset(i, 0) with the same ld; row i of
    // C is gathered into a contiguous 1 x N one.
    const std::int64_t i = sampled.rows[r];
    std::vector<EC> c_row;
    if (in_place()) {
      for (std::int64_t j = 0; j < s.N; ++j) c_row.push_back(c_host[std::size_t(LC::offset(i, j, ldc))]);
    }
    tessera::test::reference_gemm<LA, LB, tessera::RowMajor>(
        1, s.N, s.K, a_host.data() + LA::offset(i, 0, lda), lda, b_host.data(), ldb,
        in_place() ? c_row.data() : static_cast<const EC*>(nullptr), s.N, sampled.values.data() + r * std::size_t(s.N),
        s.N, double(s.alpha), double(s.beta));
  });

  // Decode: the floor, checked (it read every byte) and then timed, median of 30.
  if (s.floor) {
#if defined(TESSERA_CUDA)
    floor_error = floor.measure(B.ptr, b_host.data(), B.count * sizeof(EB), floor_seconds);
#else
    floor_error = "the streaming-read floor is built for CUDA only";
#endif
  }
  return {};
}

}  // namespace
