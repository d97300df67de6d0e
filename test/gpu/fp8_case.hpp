// One GPU check of an fp8 GEMM (WgmmaConfig with fp8 A and B): random fp8 operands and
// scales of the configuration's scale mode, C, a poisoned D (or D = C in place), the call,
// then every element of D against a float64 reference of the dequantized inputs, within
// the element's own error bound (below), and nothing written outside M x N; amax of D
// against the reference's.
//
// The error bound of one element (benchmark/notes/fp8.md derives it): the tensor core sums
// each k32 step by aligning every addend to the largest one's exponent e and keeping 13 bits
// below it, so a step of n addends errs by less than (n + 2) 2^(e - 13) (tensor_core_error);
// summed over the steps of each 128-deep K tile (promoted; over all of K with
// Accumulation::kFast) and weighted by |scale|, that is E. With P the sum over K tiles of
// |scale| (|tile sum| + its error), nb the K tiles and u = 2^-24:
//   before D's scale:  e = |alpha| (E + (nb + 3) u P) + 3 u (|alpha acc| + |beta c|)
//   D:                 |d| e (1 + u_D) + u_D |d (alpha acc + beta c)| + the format's subnormal half-step
// A K tile skipped or scaled by its neighbour's scale errs by far more (the scales span
// powers of two), which the mutation check shows.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "gemm_case.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"

namespace tessera::test {

struct Fp8Case {
  std::int64_t M, N, K;
  std::int64_t pad = 0;  // added to every leading dimension (operands, D, block scales)
  float alpha = 1.0f, beta = 0.0f;
  bool in_place = false;        // C and D one buffer
  bool workspace = false;       // pass workspace_size() bytes (the packed path where TMA cannot describe an operand)
  int scale_exponents = 4;      // scales are 2^e (1 + j/8), e uniform in [-scale_exponents, scale_exponents]
  bool scale_d = false;         // pass a D scale also where D is not fp8 (an fp8 D always gets one)
  bool amax = true;             // ask for the amax of D
  bool report = false;          // print the bound's use (max |error| / bound) for the notes
  gemm::SplitRequest split{};   // the call's request to a K-splitting scheduler (scheduler::StreamK<>)
  cudaStream_t stream = nullptr;  // the stream the call runs on
};

// A random scale 2^e (1 + j/8).
inline float random_scale(std::mt19937_64& gen, int exponents) {
  std::uniform_int_distribution<int> e(-exponents, exponents), j(0, 7);
  return std::ldexp(1.0f + float(j(gen)) / 8.0f, e(gen));
}

// fn(row) for every row, on the host's cores.
template <class Fn>
void for_rows(std::int64_t rows, const Fn& fn) {
  const unsigned threads = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < threads; ++w) {
    pool.emplace_back([&, w] {
      for (std::int64_t r = w; r < rows; r += threads) fn(r);
    });
  }
  for (auto& t : pool) t.join();
}

// n random codes of an fp8 type, uniform in [-2, 2], never zero.
template <class T>
std::vector<T> random_fp8_codes(std::size_t n, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  std::vector<T> v(n);
  for (T& x : v) {
    do {
      x = T(float(dist(gen)));
    } while (float(x) == 0.0f);
  }
  return v;
}

// The most one k32 step of the tensor core can err by (benchmark/notes/fp8.md measured it
// through benchmark/fp8_precision.cu): every addend (the `count` products and, if any, the
// accumulator, at most `accumulator` in magnitude) is aligned to the largest addend's
// exponent e and keeps 13 bits below it (2^(e-13)), each losing less than that; two more
// such units cover the result's normalisation when the sum carries into a higher exponent.
inline double tensor_core_error(const double* products, std::int64_t count, bool with_accumulator,
                                double accumulator) {
  double largest = with_accumulator ? accumulator : 0.0;
  for (std::int64_t i = 0; i < count; ++i) largest = std::max(largest, std::fabs(products[i]));
  if (largest == 0.0) return 0.0;
  const double addends = double(count) + (with_accumulator ? 1.0 : 0.0) + 2.0;
  return addends * std::ldexp(1.0, std::ilogb(largest) - 13);
}

// One element's scaled sum over K in float64 and what the tensor core may err by in it.
struct Fp8Sum {
  double acc = 0.0;       // sum over the K blocks kb of scale(kb) * (A B)_kb
  double tc_error = 0.0;  // the tensor core's error, weighted by |scale|
  double promoted = 0.0;  // sum over K tiles of |scale| (|tile sum| + its error): what fp32 adds up
};

// `prod`: the K products a(m, k) b(k, n); `scale(kb)`: the product of A's and B's scales for
// the K block kb (the same for every kb but with block scales). kPromoted: each 128-deep K
// tile summed from zero by the tensor core (Accumulation::kPromoted), else one running sum.
template <bool kPromoted, class ScaleOf>
Fp8Sum fp8_sum(const double* prod, std::int64_t K, const ScaleOf& scale) {
  Fp8Sum r;
  const std::int64_t k_blocks = (K + gemm::scale::kBlock - 1) / gemm::scale::kBlock;
  double carried = 0.0, carried_error = 0.0;  // Accumulation::kFast: the tensor core's running sum
  for (std::int64_t kb = 0; kb < k_blocks; ++kb) {
    const std::int64_t k0 = kb * gemm::scale::kBlock, k1 = std::min(K, k0 + gemm::scale::kBlock);
    double part = 0.0, error = kPromoted ? 0.0 : carried_error;
    double running = kPromoted ? 0.0 : carried;
    for (std::int64_t k = k0; k < k1; ++k) part += prod[k];
    for (std::int64_t step = k0; step < k1; step += 32) {
      const bool with_accumulator = !kPromoted || step > k0;
      error += tensor_core_error(prod + step, std::min<std::int64_t>(32, k1 - step), with_accumulator,
                                 std::fabs(running) + error);
      for (std::int64_t k = step; k < std::min(k1, step + 32); ++k) running += prod[k];
    }
    carried = running;
    carried_error = error;
    const double sc = scale(kb);
    r.acc += sc * part;
    if (kPromoted) {
      r.tc_error += std::fabs(sc) * error;
      r.promoted += std::fabs(sc) * (std::fabs(part) + error);
    } else {  // one scale over all of K: the error is the running sum's at the end
      r.tc_error = std::fabs(sc) * error;
      r.promoted = std::fabs(sc) * (std::fabs(running) + error);
    }
  }
  return r;
}

// The bound of x = alpha acc + beta c before D's scale (`cv`: C's element, 0 without C).
inline double fp8_bound_before_d(const Fp8Sum& r, std::int64_t K, double alpha, double beta, double cv) {
  const double u = 0x1p-24;
  const std::int64_t k_blocks = (K + gemm::scale::kBlock - 1) / gemm::scale::kBlock;
  return std::fabs(alpha) * (r.tc_error + double(k_blocks + 3) * u * r.promoted) +
         3.0 * u * (std::fabs(alpha * r.acc) + std::fabs(beta * cv));
}

// The bound of D's element: `ref` = d_scale * (the value before D's scale), `before_d` that
// value's bound.
template <class ED>
double fp8_bound_of_d(double d_scale, double before_d, double ref) {
  const double u_d = unit_roundoff<ED>();
  return std::fabs(d_scale) * before_d * (1.0 + u_d) + u_d * std::fabs(ref) + subnormal_half_step<ED>();
}

// A fused epilogue after an fp8 GEMM's scales (option::Epilogue<Compose<LinearCombination, ...>>
// with fp8 operands): its arguments (Fp8EpilogueArguments::then) and, written in the test,
// what it makes of x = alpha acc + beta c (`f`; empty: x itself). The bound of f(x) is
// max |f(x +- e) - f(x)| (e: x's own bound) plus (approximation + 4 u) of |x| + |f(x)| +
// |f(x) - x| (the epilogue's float roundings of values no larger than that, e.g. a bias, and
// an activation's hardware approximation, activations.hpp). `record` (optional) is told every
// element's x and its bound (a test keeps the pre-activation to check an auxiliary output);
// called from several host threads, once per element.
template <class Then>
struct Fp8Epilogue {
  Then arguments{};
  std::function<double(double x, int problem, std::int64_t m, std::int64_t n)> f;
  double approximation = 0.0;
  std::function<void(int problem, std::int64_t m, std::int64_t n, double x, double bound)> record;

  // f(x) and its bound, from x and x's bound.
  std::pair<double, double> apply(double x, double bound, int problem, std::int64_t m, std::int64_t n) const {
    if (record) record(problem, m, n, x, bound);
    if (!f) return {x, bound};
    const double y = f(x, problem, m, n);
    const double moved = std::max(std::fabs(f(x + bound, problem, m, n) - y), std::fabs(f(x - bound, problem, m, n) - y));
    return {y, moved + (approximation + 4.0 * 0x1p-24) * (std::fabs(x) + std::fabs(y) + std::fabs(y - x))};
  }
};

// The `then` member of an fp8 configuration's epilogue arguments (Fp8EpilogueArguments), or
// NoEpilogueArguments where there is none (Fp8ScaleArguments: no option::Epilogue).
template <class A, class = void>
struct fp8_then {
  using type = gemm::NoEpilogueArguments;
  static void set(A&, const type&) {}
};
template <class A>
struct fp8_then<A, std::void_t<decltype(std::declval<A&>().then)>> {
  using type = std::remove_reference_t<decltype(std::declval<A&>().then)>;
  static void set(A& a, const type& t) { a.then = t; }
};
template <class Config>
using Fp8EpilogueOf = Fp8Epilogue<typename fp8_then<decltype(typename gemm::Gemm<Config>::Args{}.epilogue)>::type>;

template <class Config>
struct Fp8Host {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using ED = typename Config::ElementD;
  using Scales = typename Config::Scales;
  using Args = typename gemm::Gemm<Config>::Args;
  static constexpr gemm::scale::Kind kKind = Scales::kKind;

  Fp8Case s;
  Fp8EpilogueOf<Config> epilogue;
  std::int64_t lda, ldb, ldc, ldd, k_blocks, n_blocks, ld_sa = 0, ld_sb = 0;
  std::vector<EA> a;
  std::vector<EB> b;
  std::vector<EC> c;
  std::vector<ED> d;  // poisoned, or a copy of c in place
  std::vector<float> sa, sb, sd{1.0f}, amax{-1.0f};
  std::vector<double> dtemp, err_temp;  // alpha acc + beta c, and its bound, per element (row-major, N wide)
  double amax_ref = 0.0;

  Fp8Host(const Fp8Case& shape, std::uint64_t seed, Fp8EpilogueOf<Config> epi = {})
      : s(shape),
        epilogue(std::move(epi)),
        lda(std::max<std::int64_t>(shape.K, 1) + shape.pad),
        ldb(std::max<std::int64_t>(shape.K, 1) + shape.pad),
        ldc(shape.N + shape.pad),
        ldd(shape.in_place ? shape.N + shape.pad : shape.N + 2 * shape.pad),
        k_blocks((shape.K + gemm::scale::kBlock - 1) / gemm::scale::kBlock),
        n_blocks((shape.N + gemm::scale::kBlock - 1) / gemm::scale::kBlock) {
    // An fp16 C or D holds at most 65504: scales of at most 2^1 (1 + 7/8) keep the deepest
    // case's sums (a few hundred before scaling) well inside it.
    if (std::is_same_v<ED, half_t> || std::is_same_v<EC, half_t>) s.scale_exponents = std::min(s.scale_exponents, 1);
    std::mt19937_64 gen(seed);
    a = random_fp8_codes<EA>(std::size_t(std::max<std::int64_t>(1, s.M * lda)), gen);
    b = random_fp8_codes<EB>(std::size_t(std::max<std::int64_t>(1, s.N * ldb)), gen);
    c.resize(std::size_t(std::max<std::int64_t>(1, s.M * ldc)));
    fill_random(c, seed + 1);
    if (kKind == gemm::scale::Kind::kPerTensor) {
      sa = {random_scale(gen, s.scale_exponents)};
      sb = {random_scale(gen, s.scale_exponents)};
    } else if (kKind == gemm::scale::Kind::kPerRowColumn) {
      sa.resize(std::size_t(std::max<std::int64_t>(1, s.M)));
      sb.resize(std::size_t(std::max<std::int64_t>(1, s.N)));
    } else {
      ld_sa = s.M + s.pad;
      ld_sb = k_blocks + s.pad;
      sa.resize(std::size_t(std::max<std::int64_t>(1, ld_sa * (k_blocks - 1) + s.M)));
      sb.resize(std::size_t(std::max<std::int64_t>(1, ld_sb * (n_blocks - 1) + k_blocks)));
    }
    for (float& x : sa) x = random_scale(gen, s.scale_exponents);
    for (float& x : sb) x = random_scale(gen, s.scale_exponents);
    reference();
    if constexpr (is_ocp_float8<ED>) {
      // D's scale maps the largest |D| to about 0.8 of the format's largest finite value.
      const double top = double(float(ED::max_finite()));
      sd = {float(amax_ref > 0.0 ? std::ldexp(1.0, int(std::floor(std::log2(0.8 * top / amax_ref)))) : 1.0)};
    } else if (s.scale_d) {
      sd = {random_scale(gen, 2)};
    }
    d.resize(std::size_t(std::max<std::int64_t>(1, s.M * ldd)));
    poison(d);
    if constexpr (std::is_same_v<EC, ED>) {
      if (s.in_place) d = c;
    } else {
      REQUIRE_FALSE(s.in_place);
    }
  }

  double scale_of(std::int64_t m, std::int64_t n, std::int64_t kb) const {
    if (kKind == gemm::scale::Kind::kPerTensor) return double(sa[0]) * double(sb[0]);
    if (kKind == gemm::scale::Kind::kPerRowColumn) return double(sa[std::size_t(m)]) * double(sb[std::size_t(n)]);
    return double(sa[std::size_t(kb * ld_sa + m)]) * double(sb[std::size_t((n / gemm::scale::kBlock) * ld_sb + kb)]);
  }

  // alpha * sum_kb scale * (A B)_kb + beta * C in float64 (then the fused epilogue's f, if
  // any), and each element's bound before D's scale (the tensor core's error model:
  // tensor_core_error).
  void reference() {
    dtemp.assign(std::size_t(s.M * s.N), 0.0);
    err_temp.assign(std::size_t(s.M * s.N), 0.0);
    std::vector<double> amax_rows(std::size_t(std::max<std::int64_t>(1, s.M)), 0.0);
    for_rows(s.M, [&](std::int64_t m) {
      std::vector<double> arow(std::size_t(s.K)), prod(std::size_t(std::max<std::int64_t>(1, s.K)));
      for (std::int64_t k = 0; k < s.K; ++k) arow[std::size_t(k)] = to_double(a[std::size_t(m * lda + k)]);
      for (std::int64_t n = 0; n < s.N; ++n) {
        const EB* bcol = b.data() + n * ldb;
        for (std::int64_t k = 0; k < s.K; ++k) prod[std::size_t(k)] = arow[std::size_t(k)] * to_double(bcol[k]);
        const Fp8Sum r = fp8_sum<Scales::kPromoted>(prod.data(), s.K, [&](std::int64_t kb) { return scale_of(m, n, kb); });
        const double cv = s.beta != 0.0f ? to_double(c[std::size_t(m * ldc + n)]) : 0.0;
        const double x = double(s.alpha) * r.acc + double(s.beta) * cv;
        const auto [v, e] = epilogue.apply(x, fp8_bound_before_d(r, s.K, s.alpha, s.beta, cv), 0, m, n);
        dtemp[std::size_t(m * s.N + n)] = v;
        err_temp[std::size_t(m * s.N + n)] = e;
        amax_rows[std::size_t(m)] = std::max(amax_rows[std::size_t(m)], std::fabs(v));
      }
    });
    amax_ref = *std::max_element(amax_rows.begin(), amax_rows.end());
  }

  Args arguments(const EA* A, const EB* B, const EC* C, ED* D, const float* SA, const float* SB, const float* SD,
                 float* AMAX) const {
    ED* out = D;
    if constexpr (std::is_same_v<EC, ED>) {
      if (s.in_place) out = const_cast<ED*>(C);
    }
    const bool give_d = is_ocp_float8<ED> || s.scale_d;
    Args args{s.M, s.N, s.K, A, lda, B, ldb, C, ldc, out, ldd, s.alpha, s.beta};
    args.epilogue.a = {SA, ld_sa, std::int64_t(sa.size())};
    args.epilogue.b = {SB, ld_sb, std::int64_t(sb.size())};
    args.epilogue.scale_d = give_d ? SD : nullptr;
    args.epilogue.amax_d = s.amax ? AMAX : nullptr;
    fp8_then<decltype(args.epilogue)>::set(args.epilogue, epilogue.arguments);
    args.split = s.split;
    return args;
  }
};

// Runs the case and checks it. `path_check(args, workspace)` may require the path taken (or
// enqueue work on the case's stream just before the call);
// `epilogue`: a configuration's fused epilogue (option::Epilogue), its arguments and formula.
template <class Config, class PathCheck = NoArgsCheck>
void check_fp8(const Fp8Case& s, PathCheck&& path_check = {}, Fp8EpilogueOf<Config> epilogue = {}) {
  using H = Fp8Host<Config>;
  using ED = typename H::ED;
  using EC = typename H::EC;
  const std::uint64_t seed = fresh_seed();
  INFO(describe_case<Config>(CaseShape{s.M, s.N, s.K, s.pad, s.alpha, s.beta, s.in_place}, seed)
       << " D=" << type_name<ED>::value << " scales=" << H::Scales::kName << " span=2^+-" << s.scale_exponents
       << " workspace=" << s.workspace);
  const H host(s, seed, std::move(epilogue));
  DeviceBuffer<typename H::EA> da(host.a);
  DeviceBuffer<typename H::EB> db(host.b);
  DeviceBuffer<EC> dc(host.c);
  DeviceBuffer<ED> dd(host.d);
  DeviceBuffer<float> dsa(host.sa), dsb(host.sb), dsd(host.sd), damax(host.amax);
  const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr, dsa.ptr, dsb.ptr, dsd.ptr, damax.ptr);
  const std::size_t workspace_bytes = s.workspace ? gemm::Gemm<Config>::workspace_size(args) : 0;
  INFO("workspace bytes " << workspace_bytes);
  // The workspace between two 4 KiB guards, all 0xff bytes (NaN: what the kernel reads it must
  // have written first); the guards must come back as they went.
  constexpr std::size_t kWorkspaceGuard = 4096;
  void* workspace = nullptr;
  char* allocation = nullptr;
  if (workspace_bytes > 0) {
    REQUIRE_CUDA(cudaMalloc(&allocation, workspace_bytes + 2 * kWorkspaceGuard));
    REQUIRE_CUDA(cudaMemset(allocation, 0xff, workspace_bytes + 2 * kWorkspaceGuard));
    workspace = allocation + kWorkspaceGuard;
  }
  path_check(args, workspace);
  const Status st = gemm::Gemm<Config>::run(args, workspace, s.stream);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  if (allocation != nullptr) {
    std::vector<unsigned char> before(kWorkspaceGuard), after(kWorkspaceGuard);
    REQUIRE_CUDA(cudaMemcpy(before.data(), allocation, kWorkspaceGuard, cudaMemcpyDeviceToHost));
    REQUIRE_CUDA(cudaMemcpy(after.data(), allocation + kWorkspaceGuard + workspace_bytes, kWorkspaceGuard,
                            cudaMemcpyDeviceToHost));
    std::size_t guard_writes = 0;
    for (std::size_t i = 0; i < kWorkspaceGuard; ++i) guard_writes += (before[i] != 0xff) + (after[i] != 0xff);
    CHECK(guard_writes == 0);  // bytes around the workspace that changed
    REQUIRE_CUDA(cudaFree(allocation));
  }

  std::vector<ED> out;
  if constexpr (std::is_same_v<EC, ED>) {
    out = (s.in_place ? dc : dd).download_with_guard();
  } else {
    out = dd.download_with_guard();
  }
  const double d_scale = double(host.sd[0]);
  std::int64_t unwritten = 0, outside = 0, beyond = 0;
  double worst_ratio = 0.0, diff2 = 0.0, ref2 = 0.0, max_err_temp = 0.0;
  std::int64_t worst_m = -1, worst_n = -1;
  double worst_out = 0.0, worst_ref = 0.0;
  for (std::int64_t m = 0; m < s.M; ++m) {
    for (std::int64_t n = 0; n < s.N + (s.in_place ? s.pad : 2 * s.pad); ++n) {
      const ED o = out[std::size_t(m * host.ldd + n)];
      if (n >= s.N) {  // D's padding: untouched
        if (bits_of(o) != bits_of(host.d[std::size_t(m * host.ldd + n)])) ++outside;
        continue;
      }
      if (is_poison(o)) {
        ++unwritten;
        continue;
      }
      const double ref = d_scale * host.dtemp[std::size_t(m * s.N + n)];
      const double e_t = host.err_temp[std::size_t(m * s.N + n)];
      max_err_temp = std::max(max_err_temp, e_t);
      const double bound = fp8_bound_of_d<ED>(d_scale, e_t, ref);
      const double err = std::fabs(to_double(o) - ref);
      diff2 += err * err;
      ref2 += ref * ref;
      if (!(err <= bound)) ++beyond;  // NaN counts
      const double ratio = err / bound;
      if (!(ratio <= worst_ratio)) {
        worst_ratio = ratio;
        worst_m = m;
        worst_n = n;
        worst_out = to_double(o);
        worst_ref = ref;
      }
    }
  }
  std::int64_t guard_hits = 0;
  for (std::size_t g = out.size() - DeviceBuffer<ED>::kGuard; g < out.size(); ++g) guard_hits += !is_poison(out[g]);
  const double rel_fro = ref2 > 0.0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  INFO("max |error| / bound = " << worst_ratio << " at (" << worst_m << ", " << worst_n << "): out=" << worst_out
                                << " ref=" << worst_ref << "; rel_fro=" << rel_fro << "; beyond the bound: " << beyond
                                << ", unwritten: " << unwritten << ", padding written: " << outside
                                << ", guard written: " << guard_hits << "; d_scale=" << d_scale);
  if (s.report) {
    std::printf("fp8 bound report: M=%lld N=%lld K=%lld scales=%s span 2^+-%d D=%s: max |error|/bound = %.3g, "
                "rel_fro = %.3g\n",
                (long long)s.M, (long long)s.N, (long long)s.K, H::Scales::kName, s.scale_exponents,
                type_name<ED>::value, worst_ratio, rel_fro);
  }
  CHECK(unwritten == 0);
  CHECK(beyond == 0);
  CHECK(outside == 0);
  CHECK(guard_hits == 0);
  if (s.amax && s.M > 0 && s.N > 0) {
    const std::vector<float> amax = damax.download_with_guard();
    INFO("amax " << amax[0] << " vs float64 " << host.amax_ref << " (bound " << max_err_temp << ")");
    CHECK(std::fabs(double(amax[0]) - host.amax_ref) <= max_err_temp);
  }
}

// Runs `args` (a call that must be refused) and requires `want` and D still poisoned.
template <class Config>
void check_fp8_refused(const typename gemm::Gemm<Config>::Args& args, Status want, const DeviceBuffer<typename Config::ElementD>& d) {
  const Status got = gemm::Gemm<Config>::run(args);
  INFO("want " << status_name(want) << ", got " << status_name(got));
  CHECK(got == want);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  std::int64_t written = 0;
  for (const auto& x : d.download_with_guard()) written += !is_poison(x);
  CHECK(written == 0);
}

}  // namespace tessera::test
