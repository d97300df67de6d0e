// One GPU check of many fp8 GEMMs in one launch (WgmmaConfig with fp8 A and B and a problem-set
// scheduler: scheduler::Grouped<Contiguous / Masked>, scheduler::StridedBatched): random fp8
// operands of every problem, random scales of the configuration's mode for every problem at
// their own strides (ScaleTensor::stride; the contiguous layout addresses A's scales by the
// rows of the whole A), C, a poisoned D and the group sizes in device memory (possibly out of
// range: problem_set_case.hpp's owned_rows says which rows each problem then owns), the call,
// then every element a problem owns against the float64 reference of the dequantized inputs
// within its own bound (fp8_case.hpp's fp8_sum, fp8_bound_before_d, fp8_bound_of_d: the same
// error model as one fp8 GEMM), every element no problem owns still poisoned (rows past the
// last group's end or a masked count, D's padding, the gaps between problems, the guard after
// D), amax over the owned elements only, and the status flag.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fp8_case.hpp"
#include "problem_set_case.hpp"

namespace tessera::test {

// int32 sizes (and a status flag) in device memory.
struct DeviceInt32s {
  std::int32_t* ptr = nullptr;
  std::size_t size = 0;
  explicit DeviceInt32s(const std::vector<std::int32_t>& host) : size(host.empty() ? 1 : host.size()) {
    REQUIRE_CUDA(cudaMalloc(&ptr, size * sizeof(std::int32_t)));
    REQUIRE_CUDA(cudaMemset(ptr, 0, size * sizeof(std::int32_t)));
    if (!host.empty()) {
      REQUIRE_CUDA(cudaMemcpy(ptr, host.data(), host.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
    }
  }
  ~DeviceInt32s() { cudaFree(ptr); }
  DeviceInt32s(const DeviceInt32s&) = delete;
  DeviceInt32s& operator=(const DeviceInt32s&) = delete;
  void upload(const std::vector<std::int32_t>& host) {
    REQUIRE(host.size() <= size);
    REQUIRE_CUDA(cudaMemcpy(ptr, host.data(), host.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  }
  std::int32_t first() const {
    std::int32_t v = 0;
    REQUIRE_CUDA(cudaMemcpy(&v, ptr, sizeof v, cudaMemcpyDeviceToHost));
    return v;
  }
};

// What a status flag holds before a call when the test does not say: an error an earlier call
// left, which run() must clear (problem_set.hpp).
constexpr std::int32_t kStaleGroupStatus = std::int32_t(Status::kErrorGroupRowsOutOfRange);

struct Fp8SetCase {
  SetShape set;                // layout, M, N, K, sizes, alpha, beta, shared B, padding
  int scale_exponents = 4;     // scales 2^e (1 + j/8), e uniform in [-scale_exponents, scale_exponents]
  bool shared_scale_a = false;  // masked / batched: one set of A's scales for every problem (stride 0)
  bool shared_scale_b = false;  // one set of B's scales for every problem (stride 0)
  bool scale_d = false;        // a D scale where D is not fp8 (an fp8 D always gets one)
  bool amax = true;            // ask for amax of D
  bool report = false;         // print the bound's use
  // Grouped: A's rows no group owns (past the last group's end, past a masked count) 64 times
  // larger, so that a tile that computes them (a group's last tile reads on into them) and
  // lets them into amax or D shows. Off where two cases must share their data (a graph replayed
  // with other sizes).
  bool loud_unowned_rows = true;
};

inline Fp8SetCase fp8_grouped(SetLayout layout, std::int64_t M, std::int64_t N, std::int64_t K,
                              std::vector<std::int32_t> sizes, float beta = 0.0f) {
  Fp8SetCase c;
  c.set = grouped_shape(layout, M, N, K, std::move(sizes), beta);
  return c;
}
inline Fp8SetCase fp8_batched(std::int64_t count, std::int64_t M, std::int64_t N, std::int64_t K, float beta = 0.0f,
                              bool shared_b = false) {
  Fp8SetCase c;
  c.set = batched_shape(count, M, N, K, beta, shared_b);
  c.shared_scale_b = shared_b;
  return c;
}

struct Fp8SetOutcome {
  std::int64_t checked = 0;            // owned elements compared
  std::int64_t unwritten = 0;          // owned elements still poisoned
  std::int64_t beyond_bound = 0;       // owned elements off by more than their bound (NaN included)
  std::int64_t written_elsewhere = 0;  // elements of D's allocation (and its guard) no problem owns that changed
  std::string worst;
};

#define CHECK_FP8_SET_OUTCOME(outcome)          \
  do {                                          \
    INFO((outcome).worst);                      \
    CHECK((outcome).unwritten == 0);            \
    CHECK((outcome).beyond_bound == 0);         \
    CHECK((outcome).written_elsewhere == 0);    \
  } while (0)

template <class Config>
struct Fp8SetHost {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using ED = typename Config::ElementD;
  using Scales = typename Config::Scales;
  using Args = typename gemm::Gemm<Config>::Args;
  static constexpr gemm::scale::Kind kKind = Scales::kKind;

  Fp8SetCase s;
  Fp8EpilogueOf<Config> epilogue;
  std::int64_t count, lda, ldb, ldc, ldd, k_blocks, n_blocks;
  gemm::ProblemStrides strides;  // as the caller passes them (contiguous: only B's is used)
  // Scales: one problem's extent, the leading dimension (block mode), the stride between problems.
  std::int64_t ld_sa = 0, ld_sb = 0, extent_sa = 1, extent_sb = 1, stride_sa = 0, stride_sb = 0;
  std::vector<EA> a;
  std::vector<EB> b;
  std::vector<EC> c;
  std::vector<ED> d;  // poisoned
  std::vector<float> sa, sb, sd{1.0f}, amax{-1.0f};
  std::vector<std::int32_t> sizes;                              // as the device reads them
  std::vector<std::pair<std::int64_t, std::int64_t>> rows;     // (first row, rows) each problem owns
  std::vector<double> want, bound;  // per element of D's allocation, before D's scale: NaN where no problem owns it
  double amax_ref = 0.0, amax_tolerance = 0.0;
  std::int64_t owned = 0;

  static std::int64_t round16(std::int64_t x) { return (x + 15) / 16 * 16; }
  static std::size_t alloc(std::int64_t layers, std::int64_t stride, std::int64_t span) {
    const std::int64_t n = layers > 1 ? (layers - 1) * stride + span : span;
    return std::size_t(n > 0 ? n : 1);
  }
  bool by_rows() const { return s.set.layout == SetLayout::kContiguous; }

  // Every leading dimension and stride a multiple of 16 elements (16 bytes at least: TMA).
  Fp8SetHost(const Fp8SetCase& shape, std::uint64_t seed, Fp8EpilogueOf<Config> epi = {})
      : s(shape),
        epilogue(std::move(epi)),
        count(shape.set.layout == SetLayout::kBatched ? shape.set.count : std::int64_t(shape.set.sizes.size())),
        lda(round16(std::max<std::int64_t>(shape.set.K, 1) + shape.set.pad)),
        ldb(round16(std::max<std::int64_t>(shape.set.K, 1) + shape.set.pad)),
        ldc(round16(shape.set.N + shape.set.pad)),
        ldd(round16(shape.set.N + 2 * shape.set.pad)),
        k_blocks((shape.set.K + gemm::scale::kBlock - 1) / gemm::scale::kBlock),
        n_blocks((shape.set.N + gemm::scale::kBlock - 1) / gemm::scale::kBlock),
        sizes(device_sizes(shape.set)),
        rows(owned_rows(shape.set)) {
    const SetShape& t = s.set;
    if (std::is_same_v<ED, half_t> || std::is_same_v<EC, half_t>) s.scale_exponents = std::min(s.scale_exponents, 1);
    strides.a = by_rows() ? 0 : round16(t.M * lda) + 16;
    strides.b = t.shared_b ? 0 : round16(t.N * ldb) + 16;
    strides.c = by_rows() ? 0 : round16(t.M * ldc);
    strides.d = by_rows() ? 0 : round16(t.M * ldd) + 16;
    const std::int64_t layers = by_rows() ? 1 : count;
    std::mt19937_64 gen(seed);
    a = random_fp8_codes<EA>(alloc(layers, strides.a, t.M * lda), gen);
    if (s.loud_unowned_rows && t.layout != SetLayout::kBatched) {
      std::vector<char> owned_row(std::size_t(layers * std::max<std::int64_t>(t.M, 1)), 0);
      for (std::int64_t g = 0; g < count; ++g) {
        const std::int64_t layer = by_rows() ? 0 : g;
        for (std::int64_t r = 0; r < rows[std::size_t(g)].second; ++r) {
          owned_row[std::size_t(layer * t.M + rows[std::size_t(g)].first + r)] = 1;
        }
      }
      for (std::int64_t layer = 0; layer < layers; ++layer) {
        for (std::int64_t m = 0; m < t.M; ++m) {
          if (owned_row[std::size_t(layer * t.M + m)]) continue;
          EA* row = a.data() + layer * strides.a + m * lda;
          for (std::int64_t k = 0; k < t.K; ++k) row[k] = EA(float(row[k]) * 64.0f);  // exact: a power of two
        }
      }
    }
    b = random_fp8_codes<EB>(alloc(t.shared_b ? 1 : count, strides.b, t.N * ldb), gen);
    c.resize(alloc(layers, strides.c, t.M * ldc));
    fill_random(c, seed + 1);
    d.resize(alloc(layers, strides.d, t.M * ldd));
    poison(d);
    // One problem's scales (A's over the rows it addresses: all of A's in the contiguous
    // layout), then the strides between problems: odd pads, so that an ld taken for a stride
    // or one problem's scales read for another's shows.
    if (kKind == gemm::scale::Kind::kPerRowColumn) {
      extent_sa = t.M;
      extent_sb = t.N;
    } else if (kKind == gemm::scale::Kind::kBlockwise) {
      ld_sa = t.M + 3;
      ld_sb = k_blocks + 1;
      extent_sa = ld_sa * (k_blocks - 1) + t.M;
      extent_sb = ld_sb * (n_blocks - 1) + k_blocks;
    }
    extent_sa = std::max<std::int64_t>(extent_sa, 1);
    extent_sb = std::max<std::int64_t>(extent_sb, 1);
    stride_sa = by_rows() || s.shared_scale_a ? 0 : extent_sa + 5;
    stride_sb = s.shared_scale_b ? 0 : extent_sb + 3;
    sa.resize(alloc(stride_sa == 0 ? 1 : count, stride_sa, extent_sa));
    sb.resize(alloc(stride_sb == 0 ? 1 : count, stride_sb, extent_sb));
    for (float& x : sa) x = random_scale(gen, s.scale_exponents);
    for (float& x : sb) x = random_scale(gen, s.scale_exponents);
    reference();
    if constexpr (is_ocp_float8<ED>) {
      const double top = double(float(ED::max_finite()));
      sd = {float(amax_ref > 0.0 ? std::ldexp(1.0, int(std::floor(std::log2(0.8 * top / amax_ref)))) : 1.0)};
    } else if (s.scale_d) {
      sd = {random_scale(gen, 2)};
    }
  }

  // The product of A's and B's scales for element (m, n) of problem g (m: the row as the
  // problem's A is addressed) in the K block kb.
  double scale_of(std::int64_t g, std::int64_t m, std::int64_t n, std::int64_t kb) const {
    const float* pa = sa.data() + g * stride_sa;
    const float* pb = sb.data() + g * stride_sb;
    if (kKind == gemm::scale::Kind::kPerTensor) return double(pa[0]) * double(pb[0]);
    if (kKind == gemm::scale::Kind::kPerRowColumn) return double(pa[m]) * double(pb[n]);
    return double(pa[kb * ld_sa + m]) * double(pb[(n / gemm::scale::kBlock) * ld_sb + kb]);
  }

  std::int64_t at_d(std::int64_t g, std::int64_t m, std::int64_t n) const { return g * strides.d + m * ldd + n; }

  void reference() {
    const SetShape& t = s.set;
    want.assign(d.size(), std::nan(""));
    bound.assign(d.size(), 0.0);
    std::vector<std::pair<std::int64_t, std::int64_t>> items;  // (problem, row as addressed)
    for (std::int64_t g = 0; g < count; ++g) {
      const auto [first, n_rows] = rows[std::size_t(g)];
      for (std::int64_t i = 0; i < n_rows; ++i) items.push_back({g, first + i});
    }
    owned = std::int64_t(items.size()) * t.N;
    std::vector<double> item_amax(items.size(), 0.0), item_bound(items.size(), 0.0);
    for_rows(std::int64_t(items.size()), [&](std::int64_t item) {
      const std::int64_t g = items[std::size_t(item)].first, m = items[std::size_t(item)].second;
      std::vector<double> arow(std::size_t(t.K)), prod(std::size_t(std::max<std::int64_t>(1, t.K)));
      const EA* pa = a.data() + g * strides.a + m * lda;
      for (std::int64_t k = 0; k < t.K; ++k) arow[std::size_t(k)] = to_double(pa[k]);
      for (std::int64_t n = 0; n < t.N; ++n) {
        const EB* bcol = b.data() + g * strides.b + n * ldb;
        for (std::int64_t k = 0; k < t.K; ++k) prod[std::size_t(k)] = arow[std::size_t(k)] * to_double(bcol[k]);
        const Fp8Sum r =
            fp8_sum<Scales::kPromoted>(prod.data(), t.K, [&](std::int64_t kb) { return scale_of(g, m, n, kb); });
        const double cv = t.beta != 0.0f ? to_double(c[std::size_t(g * strides.c + m * ldc + n)]) : 0.0;
        const double x = double(t.alpha) * r.acc + double(t.beta) * cv;
        const auto [v, e] = epilogue.apply(x, fp8_bound_before_d(r, t.K, t.alpha, t.beta, cv), int(g), m, n);
        const std::size_t at = std::size_t(at_d(g, m, n));
        want[at] = v;
        bound[at] = e;
        item_amax[std::size_t(item)] = std::max(item_amax[std::size_t(item)], std::fabs(v));
        item_bound[std::size_t(item)] = std::max(item_bound[std::size_t(item)], e);
      }
    });
    for (std::size_t i = 0; i < items.size(); ++i) {
      amax_ref = std::max(amax_ref, item_amax[i]);
      amax_tolerance = std::max(amax_tolerance, item_bound[i]);
    }
  }

  // The arguments over device copies; `device_sizes`: the int32 sizes in device memory.
  Args arguments(const EA* A, const EB* B, const EC* C, ED* D, const float* SA, const float* SB, const float* SD,
                 float* AMAX, const std::int32_t* device_sizes, std::int32_t* status) const {
    const SetShape& t = s.set;
    Args args{t.M, t.N, t.K, A, lda, B, ldb, C, ldc, D, ldd, t.alpha, t.beta};
    args.problems.count = count;
    args.problems.stride_a = strides.a;
    args.problems.stride_b = strides.b;
    args.problems.stride_c = strides.c;
    args.problems.stride_d = strides.d;
    if (t.layout == SetLayout::kContiguous) args.problems.group_ends = device_sizes;
    if (t.layout == SetLayout::kMasked) args.problems.group_rows = device_sizes;
    if (t.layout != SetLayout::kBatched) args.problems.status = status;
    args.epilogue.a = gemm::ScaleTensor<float>{SA, ld_sa, std::int64_t(sa.size()), stride_sa};
    args.epilogue.b = gemm::ScaleTensor<float>{SB, ld_sb, std::int64_t(sb.size()), stride_sb};
    args.epilogue.scale_d = is_ocp_float8<ED> || s.scale_d ? SD : nullptr;
    args.epilogue.amax_d = s.amax ? AMAX : nullptr;
    fp8_then<decltype(args.epilogue)>::set(args.epilogue, epilogue.arguments);
    return args;
  }

  // `out`: D's allocation as it came back, its guard included.
  Fp8SetOutcome check(const std::vector<ED>& out, double d_scale) const {
    Fp8SetOutcome r;
    double worst_ratio = -1.0;
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (i >= want.size() || std::isnan(want[i])) {
        r.written_elsewhere += !is_poison(out[i]);
        continue;
      }
      ++r.checked;
      if (is_poison(out[i])) {
        ++r.unwritten;
        continue;
      }
      const double ref = d_scale * want[i];
      const double b = fp8_bound_of_d<ED>(d_scale, bound[i], ref);
      const double got = to_double(out[i]);
      const double error = std::fabs(got - ref);
      if (!(error <= b)) ++r.beyond_bound;
      if (!(error / b <= worst_ratio)) {
        worst_ratio = error / b;
        const std::int64_t g = strides.d > 0 ? std::int64_t(i) / strides.d : 0;
        const std::int64_t in = std::int64_t(i) - g * strides.d;
        std::ostringstream o;
        o << "largest error / bound " << worst_ratio << " at problem " << g << " (" << in / ldd << ", " << in % ldd
          << "): got " << got << " want " << ref << " bound " << b;
        r.worst = o.str();
      }
    }
    std::ostringstream o;
    o << r.worst << "; checked " << r.checked << ", unwritten " << r.unwritten << ", beyond the bound "
      << r.beyond_bound << ", written where no problem owns " << r.written_elsewhere << "; d_scale " << d_scale;
    r.worst = o.str();
    return r;
  }
};

inline std::string describe_fp8_set(const Fp8SetCase& c, std::uint64_t seed) {
  std::ostringstream o;
  o << describe_set(c.set, seed) << " span=2^+-" << c.scale_exponents << " shared_scale_a=" << c.shared_scale_a
    << " shared_scale_b=" << c.shared_scale_b << " scale_d=" << c.scale_d << " amax=" << c.amax;
  return o.str();
}

// The device copies of one case.
template <class Config>
struct Fp8SetDevice {
  using H = Fp8SetHost<Config>;
  DeviceBuffer<typename H::EA> a;
  DeviceBuffer<typename H::EB> b;
  DeviceBuffer<typename H::EC> c;
  DeviceBuffer<typename H::ED> d;
  DeviceBuffer<float> sa, sb, sd, amax;
  DeviceInt32s sizes;
  explicit Fp8SetDevice(const H& h)
      : a(h.a), b(h.b), c(h.c), d(h.d), sa(h.sa), sb(h.sb), sd(h.sd), amax(h.amax), sizes(h.sizes) {}
  typename H::Args arguments(const H& h, std::int32_t* status) {
    return h.arguments(a.ptr, b.ptr, c.ptr, d.ptr, sa.ptr, sb.ptr, sd.ptr, amax.ptr, sizes.ptr, status);
  }
  float amax_value() const { return amax.download_with_guard()[0]; }
};

// The amax that came back against the reference's (over the owned elements only).
template <class Config>
void check_fp8_set_amax(const Fp8SetHost<Config>& host, float got) {
  if (!host.s.amax || host.owned == 0) return;
  INFO("amax " << got << " vs float64 " << host.amax_ref << " (bound " << host.amax_tolerance << ")");
  CHECK(std::fabs(double(got) - host.amax_ref) <= host.amax_tolerance);
}

// Runs the case and checks D, amax and the status flag (kSuccess, or kErrorGroupRowsOutOfRange
// where a size is out of range; the flag holds a stale error before the call).
template <class Config>
void check_fp8_set(const Fp8SetCase& c, Fp8EpilogueOf<Config> epilogue = {}) {
  const std::uint64_t seed = fresh_seed();
  INFO(describe_fp8_set(c, seed) << " scales=" << Config::Scales::kName
                                 << " D=" << type_name<typename Config::ElementD>::value);
  const Fp8SetHost<Config> host(c, seed, std::move(epilogue));
  Fp8SetDevice<Config> dev(host);
  DeviceInt32s flag(std::vector<std::int32_t>{kStaleGroupStatus});
  const auto args = dev.arguments(host, flag.ptr);
  const Status st = gemm::Gemm<Config>::run(args);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const Fp8SetOutcome o = host.check(dev.d.download_with_guard(), double(host.sd[0]));
  CHECK_FP8_SET_OUTCOME(o);
  check_fp8_set_amax(host, dev.amax_value());
  if (c.set.layout != SetLayout::kBatched) {
    CHECK(flag.first() == (sizes_in_range(c.set) ? 0 : std::int32_t(Status::kErrorGroupRowsOutOfRange)));
  }
  if (c.report) {
    std::printf("fp8 set bound report: %s M=%lld N=%lld K=%lld scales=%s: %s\n", layout_name(c.set.layout),
                (long long)c.set.M, (long long)c.set.N, (long long)c.set.K, Config::Scales::kName, o.worst.c_str());
  }
}

}  // namespace tessera::test
