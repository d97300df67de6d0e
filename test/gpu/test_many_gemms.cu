// GPU tests of many GEMMs in one launch (problem_set.hpp) in the wgmma and FMA families:
// strided-batched (a shared B with stride 0, beta != 0, column-major D), grouped in the
// contiguous and masked layouts (groups of 0 and 1 rows, tails, the last group ending at
// A's end, Pingpong, clusters), one group bitwise equal to the plain GEMM, sizes changed
// between two replays of one captured graph, out-of-range sizes (clamped, reported, nothing
// read or written outside), and the fused epilogues on their own and per group. Every output
// against the float64 reference, every element no problem owns still poisoned.
// Label `gpu`; needs an sm_90 device.
#include "tessera/gemm/scheduler/batched.hpp"
#include "tessera/gemm/fma/fma.hpp"
#include "tessera/gemm/scheduler/grouped.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"

#include "gemm_case.hpp"
#include "activation_reference.hpp"
#include "problem_set_case.hpp"

#include "tessera/gemm/epilogue/fused.hpp"

using namespace tessera;
using tessera::test::DeviceBuffer;
using tessera::test::HostSet;
using tessera::test::SetExpected;
using tessera::test::SetLayout;
using tessera::test::SetOutcome;
using tessera::test::SetShape;

namespace {

using gemm::ClusterShape;
using gemm::option::Scheduler;
using Batched = gemm::scheduler::StridedBatched;
using Contiguous = gemm::scheduler::Grouped<gemm::group_layout::Contiguous>;
using Masked = gemm::scheduler::Grouped<gemm::group_layout::Masked>;

template <class S, class EC = bfloat16_t, class LC = RowMajor, class Tile = GemmShape<128, 256, 64>,
          class Schedule = schedule::AutoSm90, class Cluster = ClusterShape<1, 1>>
using WgmmaSet = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, EC, LC, gemm::option::Tile<Tile>,
                                   gemm::option::Schedule<Schedule>, gemm::option::Cluster<Cluster::kM, Cluster::kN>,
                                   Scheduler<S>>;
template <class S, class LB = ColumnMajor>
using FmaSet = gemm::FmaConfig<Sm90, float, RowMajor, float, LB, float, RowMajor,
                               gemm::option::Tile<GemmShape<128, 128, 8>>,
                               gemm::option::ThreadTile<GemmShape<8, 8, 1>>, gemm::option::MinBlocksPerSm<2>, Scheduler<S>>;

// int32 sizes and the status flag in device memory.
struct DeviceInts {
  std::int32_t* ptr = nullptr;
  std::size_t size = 0;
  explicit DeviceInts(const std::vector<std::int32_t>& host) : size(host.size() > 0 ? host.size() : 1) {
    REQUIRE_CUDA(cudaMalloc(&ptr, size * sizeof(std::int32_t)));
    REQUIRE_CUDA(cudaMemset(ptr, 0, size * sizeof(std::int32_t)));
    if (!host.empty()) {
      REQUIRE_CUDA(cudaMemcpy(ptr, host.data(), host.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
    }
  }
  ~DeviceInts() { cudaFree(ptr); }
  DeviceInts(const DeviceInts&) = delete;
  DeviceInts& operator=(const DeviceInts&) = delete;
  std::int32_t first() const {
    std::int32_t v = 0;
    REQUIRE_CUDA(cudaMemcpy(&v, ptr, sizeof v, cudaMemcpyDeviceToHost));
    return v;
  }
};

// What a grouped call's status flag holds before the call when the test does not say: an error
// left from an earlier call, which run() must clear (problem_set.hpp).
constexpr std::int32_t kStaleStatus = std::int32_t(Status::kErrorGroupRowsOutOfRange);

// One run of a set: device copies (D poisoned, a poisoned guard after it), the sizes, the
// status flag (`flag`, kept by the caller across calls, or one holding kStaleStatus); returns
// the verdict and the flag. `approximation`: HostSet::check's.
struct SetRun {
  SetOutcome outcome;
  std::int32_t status = 0;
};

template <class Config>
SetRun run_set(const SetShape& shape, const SetExpected& expected = {},
               typename Config::Epilogue::Arguments epilogue = {}, double approximation = 0.0,
               DeviceInts* flag = nullptr) {
  const std::uint64_t seed = test::fresh_seed();
  INFO(test::describe_set(shape, seed));
  const HostSet<Config> host(shape, seed);
  DeviceBuffer<typename Config::ElementA> da(host.a);
  DeviceBuffer<typename Config::ElementB> db(host.b);
  DeviceBuffer<typename Config::ElementC> dc(host.c);
  DeviceBuffer<typename Config::ElementD> dd(host.d);
  DeviceInts sizes(host.sizes);
  DeviceInts stale(std::vector<std::int32_t>{kStaleStatus});
  DeviceInts& status = flag != nullptr ? *flag : stale;
  const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr, sizes.ptr, status.ptr, epilogue);
  const Status st = gemm::Gemm<Config>::run(args);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  SetRun r;
  r.outcome = host.check(dd.download_with_guard(), DeviceBuffer<typename Config::ElementD>::kGuard, expected,
                         approximation);
  r.status = status.first();
  return r;
}

template <class Config>
void check_set(const SetShape& shape) {
  const SetRun r = run_set<Config>(shape);
  CHECK_SET_OUTCOME(r.outcome);
  CHECK(r.status == (test::sizes_in_range(shape) ? 0 : std::int32_t(Status::kErrorGroupRowsOutOfRange)));
}

SetShape grouped(SetLayout layout, std::int64_t M, std::int64_t N, std::int64_t K, std::vector<std::int32_t> sizes,
                 float beta = 0.0f) {
  return test::grouped_shape(layout, M, N, K, std::move(sizes), beta);
}
SetShape batched(std::int64_t count, std::int64_t M, std::int64_t N, std::int64_t K, float beta = 0.0f,
                 bool shared_b = false) {
  return test::batched_shape(count, M, N, K, beta, shared_b);
}

// Groups of 0 and 1 rows, tails, groups of many tiles; the rows sum to M, so the last group
// ends at A's last row (contiguous).
const std::vector<std::int32_t> kSizes = {0, 1, 130, 0, 0, 255, 64, 383, 1, 0, 500};
std::int32_t total(const std::vector<std::int32_t>& v) {
  std::int32_t t = 0;
  for (std::int32_t x : v) t += x;
  return t;
}

// The shapes of the configuration's layout.
template <class Config>
void grouped_sweep() {
  if constexpr (std::is_same_v<typename Config::Scheduler, Contiguous>) {
    const std::int32_t M = total(kSizes);
    check_set<Config>(grouped(SetLayout::kContiguous, M, 264, 200, kSizes));
    check_set<Config>(grouped(SetLayout::kContiguous, M + 100, 520, 72, kSizes, 0.5f));  // rows past the last group
    check_set<Config>(grouped(SetLayout::kContiguous, 64, 64, 8, {0, 0, 0}));           // no rows at all
  } else {
    check_set<Config>(grouped(SetLayout::kMasked, 512, 264, 136, kSizes));
    check_set<Config>(grouped(SetLayout::kMasked, 512, 64, 64, {3, 0, 512, 129}, -1.0f));
  }
}

template <class Config>
void batched_sweep() {
  check_set<Config>(batched(3, 200, 264, 136));
  check_set<Config>(batched(5, 64, 520, 200, 0.5f, /*shared_b=*/true));  // broadcast B
  check_set<Config>(batched(2, 8, 8, 8));  // (8 rows: a column-major D's line is 16 bytes at least)
  check_set<Config>(batched(0, 64, 64, 64));  // nothing to do
}

}  // namespace

TEMPLATE_TEST_CASE("grouped GEMM: contiguous layout, empty and single-row groups, tails, the last group at A's end",
                   "[gpu][grouped][sanitize]", (WgmmaSet<Contiguous>), (FmaSet<Contiguous>)) {
  grouped_sweep<TestType>();
}

TEMPLATE_TEST_CASE("grouped GEMM: masked layout", "[gpu][grouped][sanitize]", (WgmmaSet<Masked>), (FmaSet<Masked>)) {
  grouped_sweep<TestType>();
}

// Narrow N tiles (32 columns) store D in boxes narrower than 128 bytes: unswizzled rows of a
// row-major D, 32-column boxes of a column-major one; a group's last tile is copied from them.
TEMPLATE_TEST_CASE("grouped GEMM: schedules, tiles, clusters, fp32 and column-major D", "[gpu][grouped]",
                   (WgmmaSet<Contiguous, bfloat16_t, RowMajor, GemmShape<64, 256, 64>, schedule::Pingpong>),
                   (WgmmaSet<Contiguous, bfloat16_t, RowMajor, GemmShape<128, 256, 64>, schedule::Cooperative,
                             ClusterShape<2, 1>>),
                   (WgmmaSet<Masked, float, ColumnMajor>),
                   (WgmmaSet<Contiguous, bfloat16_t, RowMajor, GemmShape<128, 32, 64>>),
                   (WgmmaSet<Masked, bfloat16_t, ColumnMajor, GemmShape<128, 32, 64>>)) {
  grouped_sweep<TestType>();
}

TEMPLATE_TEST_CASE("strided-batched GEMM, a shared B (stride 0), beta != 0", "[gpu][batched][sanitize]",
                   (WgmmaSet<Batched>), (WgmmaSet<Batched, float, ColumnMajor>),
                   (WgmmaSet<Batched, bfloat16_t, RowMajor, GemmShape<128, 128, 64>, schedule::Pingpong>),
                   (FmaSet<Batched>), (FmaSet<Batched, RowMajor>)) {
  batched_sweep<TestType>();
}

// One group of all M rows is the plain GEMM: the same tiles, the same K order, the same
// epilogue, so the same bits.
template <class Grouped, class Plain>
void one_group_is_plain_gemm(std::int64_t M, std::int64_t N, std::int64_t K) {
  const std::uint64_t seed = test::fresh_seed();
  INFO("M=" << M << " N=" << N << " K=" << K << " seed=" << seed);
  const HostSet<Grouped> host(grouped(SetLayout::kContiguous, M, N, K, {std::int32_t(M)}), seed);
  DeviceBuffer<typename Grouped::ElementA> da(host.a);
  DeviceBuffer<typename Grouped::ElementB> db(host.b);
  DeviceBuffer<typename Grouped::ElementD> d_grouped(host.d), d_plain(host.d);
  DeviceInts sizes(host.sizes);
  REQUIRE(gemm::Gemm<Grouped>::run(host.arguments(da.ptr, db.ptr, nullptr, d_grouped.ptr, sizes.ptr, nullptr)) ==
          Status::kSuccess);
  const typename gemm::Gemm<Plain>::Args plain{M, N, K, da.ptr, host.lda, db.ptr, host.ldb, nullptr, host.ldc,
                                               d_plain.ptr, host.ldd};
  REQUIRE(gemm::Gemm<Plain>::run(plain) == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto g = d_grouped.download_with_guard(), p = d_plain.download_with_guard();
  std::int64_t differ = 0;
  for (std::size_t i = 0; i < g.size(); ++i) differ += test::bits_of(g[i]) != test::bits_of(p[i]);
  CHECK(differ == 0);
  const SetOutcome o = host.check(g, DeviceBuffer<typename Grouped::ElementD>::kGuard);
  CHECK_SET_OUTCOME(o);
}

TEST_CASE("grouped GEMM: one group is the plain GEMM, bit for bit", "[gpu][grouped][bitwise]") {
  one_group_is_plain_gemm<WgmmaSet<Contiguous>, gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor,
                                                                   bfloat16_t, RowMajor>>(1000, 1000, 520);
  one_group_is_plain_gemm<FmaSet<Contiguous>,
                          gemm::FmaConfig<Sm90, float, RowMajor, float, ColumnMajor, float, RowMajor,
                                          gemm::option::Tile<GemmShape<128, 128, 8>>,
                                          gemm::option::ThreadTile<GemmShape<8, 8, 1>>,
                                          gemm::option::MinBlocksPerSm<2>>>(300, 260, 100);
}

// Sizes live in device memory: a captured graph reads the ones current at each replay.
TEST_CASE("grouped GEMM: sizes changed between two replays of one captured graph", "[gpu][grouped][graph]") {
  using Config = WgmmaSet<Contiguous>;
  const std::uint64_t seed = test::fresh_seed();
  INFO("seed " << seed);
  const std::int32_t M = 1200;
  const std::vector<std::int32_t> first = {100, 0, 700, 400}, second = {0, 1199, 0, 1};
  const HostSet<Config> host(grouped(SetLayout::kContiguous, M, 264, 136, first), seed);
  const HostSet<Config> again(grouped(SetLayout::kContiguous, M, 264, 136, second), seed);  // same data
  DeviceBuffer<bfloat16_t> da(host.a), db(host.b), dd(host.d);
  DeviceInts sizes(host.sizes);
  cudaStream_t stream;
  REQUIRE_CUDA(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  REQUIRE_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const Status st = gemm::Gemm<Config>::run(host.arguments(da.ptr, db.ptr, nullptr, dd.ptr, sizes.ptr, nullptr),
                                            nullptr, stream);
  REQUIRE_CUDA(cudaStreamEndCapture(stream, &graph));
  REQUIRE(st == Status::kSuccess);
  cudaGraphExec_t exec;
  REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  REQUIRE_CUDA(cudaGraphLaunch(exec, stream));
  REQUIRE_CUDA(cudaStreamSynchronize(stream));
  SetOutcome o = host.check(dd.download_with_guard(), DeviceBuffer<bfloat16_t>::kGuard);
  CHECK_SET_OUTCOME(o);
  // New sizes (as a router kernel would write them) and a poisoned D, then the same graph.
  REQUIRE_CUDA(cudaMemcpy(sizes.ptr, again.sizes.data(), again.sizes.size() * 4, cudaMemcpyHostToDevice));
  REQUIRE_CUDA(cudaMemcpy(dd.ptr, again.d.data(), again.d.size() * sizeof(bfloat16_t), cudaMemcpyHostToDevice));
  REQUIRE_CUDA(cudaGraphLaunch(exec, stream));
  REQUIRE_CUDA(cudaStreamSynchronize(stream));
  o = again.check(dd.download_with_guard(), DeviceBuffer<bfloat16_t>::kGuard);
  CHECK_SET_OUTCOME(o);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

// Out-of-range sizes: clamped (docs/many-gemms.md), reported through problems.status, and nothing read or
// written outside A, B, C and D (the guard after D stays poisoned; compute-sanitizer runs this).
TEMPLATE_TEST_CASE("grouped GEMM: out-of-range sizes are clamped and reported", "[gpu][grouped][bad][sanitize]",
                   (WgmmaSet<Contiguous>), (FmaSet<Contiguous>), (WgmmaSet<Masked>), (FmaSet<Masked>)) {
  const bool contiguous = std::is_same_v<typename TestType::Scheduler, Contiguous>;
  SetShape s;
  if (contiguous) {
    // An end below the previous one (a negative count), ends past M, a negative end.
    s = grouped(SetLayout::kContiguous, 700, 264, 72, {300, 200, 650, 5000, 1 << 30, -4});
    s.ends_given = true;
  } else {
    s = grouped(SetLayout::kMasked, 300, 264, 72, {-5, 300, 301, 1 << 30, 17});
  }
  REQUIRE_FALSE(test::sizes_in_range(s));
  check_set<TestType>(s);
}

// The status flag says what this call found: one flag through a bad call, a good one, a bad and
// a good one again (each good call reads kSuccess though the call before left an error there),
// then a call with nothing to compute (no groups: kSuccess, no sizes read).
TEMPLATE_TEST_CASE("grouped GEMM: the status flag is this call's", "[gpu][grouped][bad][status]",
                   (WgmmaSet<Masked>), (FmaSet<Masked>)) {
  DeviceInts flag(std::vector<std::int32_t>{0});
  for (int round = 0; round < 2; ++round) {
    SetRun r = run_set<TestType>(grouped(SetLayout::kMasked, 200, 136, 64, {201, 5}), {}, {}, 0.0, &flag);
    CHECK_SET_OUTCOME(r.outcome);
    CHECK(r.status == kStaleStatus);
    r = run_set<TestType>(grouped(SetLayout::kMasked, 200, 136, 64, {200, 5}), {}, {}, 0.0, &flag);
    CHECK_SET_OUTCOME(r.outcome);
    CHECK(r.status == 0);
  }
  REQUIRE_CUDA(cudaMemcpy(flag.ptr, &kStaleStatus, sizeof kStaleStatus, cudaMemcpyHostToDevice));
  const SetRun none = run_set<TestType>(grouped(SetLayout::kMasked, 200, 136, 64, {}), {}, {}, 0.0, &flag);
  CHECK(none.status == 0);
}

// ---- fused epilogues ------------------------------------------------------------------------
namespace {
using gemm::AuxiliaryOutput;
using gemm::ColumnBias;
using gemm::ColumnScale;
using gemm::Compose;
using gemm::LinearCombination;
using gemm::RowBias;
using gemm::RowScale;

using test::gelu_erf;
using test::gelu_tanh;
using test::kTanhApproximation;
using test::random_vector;
using test::silu;

template <class Epilogue, class EC = float, class S = Contiguous>
using WgmmaEpi = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, EC, RowMajor,
                                   gemm::option::Tile<GemmShape<128, 256, 64>>, Scheduler<S>, gemm::option::Epilogue<Epilogue>>;
template <class Epilogue, class S = Contiguous>
using FmaEpi = gemm::FmaConfig<Sm90, float, RowMajor, float, ColumnMajor, float, RowMajor,
                               gemm::option::Tile<GemmShape<128, 128, 8>>,
                               gemm::option::ThreadTile<GemmShape<8, 8, 1>>, gemm::option::MinBlocksPerSm<2>, Scheduler<S>, gemm::option::Epilogue<Epilogue>>;

// Groups in the contiguous layout, so rows, columns and groups all vary; beta != 0.
SetShape epilogue_shape() { return grouped(SetLayout::kContiguous, 700, 264, 136, {0, 129, 1, 300, 270}, 0.5f); }
}  // namespace

// bias per column (one per group), GELU (erf form): fp32 D, no approximation beyond float.
TEMPLATE_TEST_CASE("epilogue: column bias per group + GELU (erf)", "[gpu][epilogue]",
                   (WgmmaEpi<Compose<LinearCombination, ColumnBias<float>, gemm::GeluErf>>),
                   (FmaEpi<Compose<LinearCombination, ColumnBias<float>, gemm::GeluErf>>)) {
  const SetShape s = epilogue_shape();
  const auto bias = random_vector<float>(std::size_t(s.sizes.size() * 300), test::fresh_seed());
  DeviceBuffer<float> d_bias(bias);
  const float beta = s.beta;
  const SetRun r = run_set<TestType>(
      s,
      [&](double ab, double c, int g, std::int64_t, std::int64_t n) {
        return gelu_erf(ab + beta * c + double(bias[std::size_t(g * 300 + n)]));
      },
      {{}, {d_bias.ptr, 300}, {}});
  CHECK_SET_OUTCOME(r.outcome);
}

// bias per row (a token's), ReLU; row scale, column scale, clamp.
TEMPLATE_TEST_CASE("epilogue: row bias + ReLU; row and column scales + clamp", "[gpu][epilogue]",
                   (WgmmaEpi<Compose<LinearCombination, RowBias<bfloat16_t>, gemm::Relu>>),
                   (FmaEpi<Compose<LinearCombination, RowBias<bfloat16_t>, gemm::Relu>>)) {
  const SetShape s = epilogue_shape();
  const auto bias = random_vector<bfloat16_t>(std::size_t(s.M), test::fresh_seed());
  DeviceBuffer<bfloat16_t> d_bias(bias);
  const float beta = s.beta;
  const SetRun r = run_set<TestType>(
      s,
      [&](double ab, double c, int, std::int64_t m, std::int64_t) {
        const double x = ab + beta * c + double(float(bias[std::size_t(m)]));
        return x > 0 ? x : 0.0;
      },
      {{}, {d_bias.ptr}, {}});
  CHECK_SET_OUTCOME(r.outcome);
}

TEMPLATE_TEST_CASE("epilogue: row scale, column scale, clamp", "[gpu][epilogue]",
                   (WgmmaEpi<Compose<RowScale<float>, ColumnScale<half_t>, gemm::Clamp>>),
                   (FmaEpi<Compose<RowScale<float>, ColumnScale<half_t>, gemm::Clamp>>)) {
  const SetShape s = epilogue_shape();  // no LinearCombination: alpha and beta * C are not applied
  const auto rows = random_vector<float>(std::size_t(s.M), test::fresh_seed());
  const auto columns = random_vector<half_t>(264, test::fresh_seed());
  DeviceBuffer<float> d_rows(rows);
  DeviceBuffer<half_t> d_columns(columns);
  const SetRun r = run_set<TestType>(
      s,
      [&](double ab, double, int, std::int64_t m, std::int64_t n) {
        const double x = ab * double(rows[std::size_t(m)]) * double(float(columns[std::size_t(n)]));
        return x < -2.0 ? -2.0 : (x > 3.0 ? 3.0 : x);
      },
      {{d_rows.ptr}, {d_columns.ptr}, {-2.0f, 3.0f}});
  CHECK_SET_OUTCOME(r.outcome);
}

// GELU (tanh form) and SiLU use the special-function unit's approximations on the GPU
// (activations.hpp: tanh.approx within 2^-10.987): bf16 D, whose rounding is larger.
TEMPLATE_TEST_CASE("epilogue: GELU (tanh) with the pre-activation kept; SiLU", "[gpu][epilogue][aux]",
                   (WgmmaEpi<Compose<LinearCombination, ColumnBias<bfloat16_t>, AuxiliaryOutput<float>, gemm::GeluTanh>,
                             bfloat16_t>)) {
  const SetShape s = epilogue_shape();
  const auto bias = random_vector<bfloat16_t>(264, test::fresh_seed());
  DeviceBuffer<bfloat16_t> d_bias(bias);
  std::vector<float> pre(std::size_t(s.M * 264));
  test::poison(pre);
  DeviceBuffer<float> d_pre(pre);
  const float beta = s.beta;
  // The expected D records the pre-activation of each element (it is called last with the
  // element's own values) and the largest |pre-activation| it was asked for (the magnitudes
  // the check tries: at least |ab| summed in magnitude + |beta c| + |bias|).
  std::vector<double> want_pre(pre.size(), std::nan("")), pre_magnitude(pre.size(), 0.0);
  const SetRun r = run_set<TestType>(
      s,
      [&](double ab, double c, int, std::int64_t m, std::int64_t n) {
        const double x = ab + beta * c + double(float(bias[std::size_t(n)]));
        want_pre[std::size_t(m * 264 + n)] = x;
        pre_magnitude[std::size_t(m * 264 + n)] = std::max(pre_magnitude[std::size_t(m * 264 + n)], std::fabs(x));
        return gelu_tanh(x);
      },
      {{}, {d_bias.ptr}, {d_pre.ptr, 264}, {}}, kTanhApproximation);
  CHECK_SET_OUTCOME(r.outcome);
  // The second output: every owned element the pre-activation (fp32), over the whole matrix and
  // each element within its own bound, nothing else written.
  const auto got = d_pre.download_with_guard();
  const test::ElementBound bound = test::element_bound<bfloat16_t, float>(s.K);
  double diff2 = 0, ref2 = 0;
  std::int64_t wrong_writes = 0, beyond = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (i < want_pre.size() && !std::isnan(want_pre[i])) {
      const double error = std::fabs(double(got[i]) - want_pre[i]);
      diff2 += error * error;
      ref2 += want_pre[i] * want_pre[i];
      beyond += !(error <= bound(want_pre[i], pre_magnitude[i]));
    } else {
      wrong_writes += !test::is_poison(got[i]);
    }
  }
  CHECK(wrong_writes == 0);
  CHECK(std::sqrt(diff2 / ref2) <= test::tolerance<bfloat16_t, float>(s.K));
  CHECK(beyond == 0);
}

TEMPLATE_TEST_CASE("epilogue: SiLU on a batch", "[gpu][epilogue]",
                   (WgmmaEpi<Compose<LinearCombination, gemm::Silu>, bfloat16_t, Batched>),
                   (FmaEpi<Compose<LinearCombination, gemm::Silu>, Batched>)) {
  SetShape s = batched(3, 200, 264, 136, 0.5f);
  const SetRun r = run_set<TestType>(
      s, [&](double ab, double c, int, std::int64_t, std::int64_t) { return silu(ab + 0.5 * c); }, {});
  CHECK_SET_OUTCOME(r.outcome);
}

// The plain (one-GEMM) configurations take the fused epilogues too: bias + GELU at a TMA shape
// and at one the packed / realigning paths take.
TEST_CASE("epilogue: one GEMM with bias + GELU on every wgmma path", "[gpu][epilogue][plain]") {
  using Epilogue = Compose<LinearCombination, ColumnBias<bfloat16_t>, gemm::GeluTanh>;
  using Config = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                   gemm::option::Tile<GemmShape<128, 256, 64>>,
                                   gemm::option::Epilogue<Epilogue>>;
  for (test::CaseShape shape : {test::CaseShape{264, 520, 200, 0, 0.75f, 0.0f, false, false, false, false, 8},
                                test::CaseShape{129, 127, 65, 3, 1.0f, 0.5f}}) {
    for (const bool workspace : {false, true}) {
      shape.workspace = workspace;
      const auto bias = random_vector<bfloat16_t>(std::size_t(shape.N), test::fresh_seed());
      DeviceBuffer<bfloat16_t> d_bias(bias);
      test::EpilogueCase<Config> e;
      e.arguments = {{}, {d_bias.ptr}, {}};
      const double alpha = shape.alpha, beta = shape.beta;
      e.expected = [&](double ab, double c, std::int64_t, std::int64_t n) {
        return gelu_tanh(alpha * ab + beta * c + double(float(bias[std::size_t(n)])));
      };
      e.approximation = kTanhApproximation;
      test::check_gemm<Config>(shape, test::NoArgsCheck{}, e);
    }
  }
}

// ---- bad arguments ---------------------------------------------------------------------------
TEST_CASE("many GEMMs: bad arguments return a Status that names them", "[gpu][status]") {
  using G = gemm::Gemm<WgmmaSet<Contiguous>>;
  const HostSet<WgmmaSet<Contiguous>> host(grouped(SetLayout::kContiguous, 256, 64, 64, {128, 128}), 1);
  DeviceBuffer<bfloat16_t> da(host.a), db(host.b), dd(host.d);
  DeviceInts sizes(host.sizes);
  const auto good = host.arguments(da.ptr, db.ptr, nullptr, dd.ptr, sizes.ptr, nullptr);
  REQUIRE(G::run(good) == Status::kSuccess);
  auto bad = good;
  bad.problems.group_ends = nullptr;
  CHECK(G::run(bad) == Status::kErrorGroupRowsNull);
  bad = good;
  bad.problems.stride_b = 4;  // 8 bytes: not a TMA stride
  CHECK(G::run(bad) == Status::kErrorProblemStrideMisaligned);
  bad = good;
  bad.problems.count = -2;
  CHECK(G::run(bad) == Status::kErrorProblemCount);
  bad = good;
  bad.lda = 65;  // a one-GEMM configuration would take the packed path; a set cannot
  CHECK(G::run(bad) == Status::kErrorMisalignedA);
  // A one-GEMM configuration refuses a set.
  using Plain = gemm::Gemm<gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>>;
  Plain::Args plain{256, 64, 64, da.ptr, 64, db.ptr, 64, nullptr, 64, dd.ptr, 64};
  plain.problems.count = 2;
  CHECK(Plain::run(plain) == Status::kErrorProblemsUnsupported);
  // An epilogue's own checks.
  using Biased = gemm::Gemm<WgmmaEpi<Compose<LinearCombination, ColumnBias<float>, gemm::GeluErf>>>;
  Biased::Args biased{256, 64, 64, da.ptr, 64, db.ptr, 64, nullptr, 64, nullptr, 64};
  biased.problems = good.problems;
  biased.D = reinterpret_cast<float*>(dd.ptr);
  CHECK(Biased::run(biased) == Status::kErrorNullEpilogueOperand);
  REQUIRE_CUDA(cudaDeviceSynchronize());
}
