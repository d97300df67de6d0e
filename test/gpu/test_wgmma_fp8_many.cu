// GPU tests of the wgmma family's fp8 GEMM beyond one plain GEMM:
//  - grouped (mixture of experts) in the contiguous layout, block and per-tensor scales with
//    B's scales per expert (ScaleTensor::stride): 8 and 17 experts of uneven sizes (empty,
//    one row, not multiples of the tile), rows past the last group's end untouched, K tails
//    inside a scale block (272, 1040), N not a multiple of the tile, one set of B's scales
//    for all (stride 0), amax over the stored elements only;
//  - grouped in the masked layout (8 experts x 96 rows, counts 0..96), A's block scales per
//    expert at a.stride (and shared, stride 0), rows past each count untouched;
//  - strided-batched with per-row/column scales, a shared B with shared scales;
//  - sizes changed on the device between replays of one captured graph (D, amax, status flag);
//  - bad arguments: scale tensors too small for count problems at their stride (a named
//    Status, D and the status flag untouched); out-of-range group sizes clamped and reported;
//  - fused epilogues with fp8 operands: dense block-scaled + bias + GELU (tanh) on every path;
//    per-tensor with an e4m3 D, scale_d, amax and the pre-activation kept (AuxiliaryOutput);
//    grouped + a bias per expert + SiLU;
//  - scheduler::StreamK<> (the decode shapes, M = 1..64): split-K and stream-K forced and the
//    rule's choice, block and per-tensor (e4m3 D) scales, beta with C, amax, no workspace;
//  - K = 16384 with block scales spanning 2^-20 .. 2^20 in a grouped call (the promoted
//    accumulation's bound).
// Every element against the float64 reference of the dequantized inputs within its own bound
// (fp8_case.hpp's error model; fp8_many_case.hpp for problem sets), every element no problem
// owns still poisoned. Label `gpu`; needs sm_90.
#include <cstring>

#include "activation_reference.hpp"
#include "fp8_case.hpp"
#include "fp8_many_case.hpp"

#include "tessera/gemm/epilogue/fused.hpp"
#include "tessera/gemm/scheduler/batched.hpp"
#include "tessera/gemm/scheduler/grouped.hpp"

using namespace tessera;
using test::check_fp8;
using test::check_fp8_set;
using test::DeviceBuffer;
using test::DeviceInt32s;
using test::Fp8Case;
using test::Fp8EpilogueOf;
using test::Fp8SetCase;
using test::Fp8SetDevice;
using test::Fp8SetHost;
using test::fp8_batched;
using test::fp8_grouped;
using test::SetLayout;

namespace {

namespace scale = gemm::scale;
namespace sched = gemm::scheduler;
using e4m3 = float8_e4m3_t;
using e5m2 = float8_e5m2_t;
using gemm::AuxiliaryOutput;
using gemm::ColumnBias;
using gemm::Compose;
using gemm::LinearCombination;
using Contiguous = sched::Grouped<gemm::group_layout::Contiguous>;
using Masked = sched::Grouped<gemm::group_layout::Masked>;

// The configurations (each costs seconds of nvcc time: few of them). 128 x 128 x 128 tiles: the
// block scales' K block, N 128.
template <class EA, class EB, class ED, class Scales, class Scheduler, class EC = ED, class... Options>
using Fp8Many = gemm::WgmmaConfig<EA, RowMajor, EB, ColumnMajor, EC, RowMajor,
                                  gemm::option::Tile<GemmShape<128, 128, 128>>, gemm::option::OutputElement<ED>,
                                  gemm::option::Scales<Scales>, gemm::option::Scheduler<Scheduler>, Options...>;

using GroupedBlock = Fp8Many<e4m3, e4m3, bfloat16_t, scale::Blockwise, Contiguous>;
using GroupedTensor = Fp8Many<e4m3, e5m2, float, scale::PerTensor, Contiguous>;
using MaskedBlock = Fp8Many<e4m3, e4m3, bfloat16_t, scale::Blockwise, Masked>;
// 64 x 128 Pingpong tiles (the masked decode tile).
using MaskedBlock64 = gemm::WgmmaConfig<e4m3, RowMajor, e4m3, ColumnMajor, bfloat16_t, RowMajor,
                                        gemm::option::Tile<GemmShape<64, 128, 128>>,
                                        gemm::option::Schedule<schedule::Pingpong>,
                                        gemm::option::Scales<scale::Blockwise>, gemm::option::Scheduler<Masked>>;
using BatchedRowCol = Fp8Many<e5m2, e4m3, bfloat16_t, scale::PerRowColumn, sched::StridedBatched>;
using GroupedBiasSilu = Fp8Many<e4m3, e4m3, bfloat16_t, scale::Blockwise, Contiguous, bfloat16_t,
                                gemm::option::Epilogue<Compose<LinearCombination, ColumnBias<bfloat16_t>, gemm::Silu>>>;
using DenseBiasGelu = Fp8Many<e4m3, e4m3, bfloat16_t, scale::Blockwise, sched::DataParallel, bfloat16_t,
                              gemm::option::Epilogue<Compose<LinearCombination, ColumnBias<bfloat16_t>, gemm::GeluTanh>>>;
using DenseAuxE4m3 =
    Fp8Many<e4m3, e4m3, e4m3, scale::PerTensor, sched::DataParallel, bfloat16_t,
            gemm::option::Epilogue<
                Compose<LinearCombination, ColumnBias<bfloat16_t>, AuxiliaryOutput<bfloat16_t>, gemm::GeluTanh>>>;
using StreamKBlock = Fp8Many<e4m3, e4m3, bfloat16_t, scale::Blockwise, sched::StreamK<>>;
using StreamKTensorE4m3 = Fp8Many<e4m3, e4m3, e4m3, scale::PerTensor, sched::StreamK<>, bfloat16_t>;

using test::gelu_tanh;
using test::kSiluApproximation;
using test::kTanhApproximation;
using test::random_vector;
using test::silu;

std::int32_t total(const std::vector<std::int32_t>& v) {
  std::int32_t t = 0;
  for (std::int32_t x : v) t += x;
  return t;
}

// Uneven experts: empty ones, one row, sizes not multiples of the 128-row tile.
const std::vector<std::int32_t> kEight = {0, 1, 130, 0, 255, 64, 383, 17};                             // 850 rows
const std::vector<std::int32_t> kSeventeen = {5, 0, 1, 128, 129, 0, 0, 300, 1, 64, 77, 0, 200, 1, 3, 250, 0};  // 1159

Fp8SetCase with_scale_d(Fp8SetCase c) {
  c.scale_d = true;
  return c;
}
Fp8SetCase with_shared_scale_b(Fp8SetCase c) {
  c.shared_scale_b = true;
  return c;
}
Fp8SetCase with_alpha(Fp8SetCase c, float alpha) {
  c.set.alpha = alpha;
  return c;
}

}  // namespace

// ---- grouped, contiguous ---------------------------------------------------------------------
TEMPLATE_TEST_CASE("wgmma fp8 grouped GEMM: contiguous layout, uneven experts, scales per expert",
                   "[gpu][fp8][grouped]", GroupedBlock, GroupedTensor) {
  // 8 experts, 50 rows past the last group's end (untouched), K = 272 (a tail of 16 in the
  // last scale block), N = 264 (a tail of 8 columns).
  check_fp8_set<TestType>(fp8_grouped(SetLayout::kContiguous, total(kEight) + 50, 264, 272, kEight));
  // 17 experts, the last group at A's end, K = 1040, N = 200, beta with C, alpha, a D scale.
  check_fp8_set<TestType>(
      with_scale_d(with_alpha(fp8_grouped(SetLayout::kContiguous, total(kSeventeen), 200, 1040, kSeventeen, 0.5f), -1.5f)));
  // One set of B's scales for every expert (stride 0).
  check_fp8_set<TestType>(with_shared_scale_b(fp8_grouped(SetLayout::kContiguous, total(kEight), 128, 1040, kEight)));
  // No rows at all: D untouched.
  check_fp8_set<TestType>(fp8_grouped(SetLayout::kContiguous, 64, 136, 272, {0, 0, 0}));
}

// ---- grouped, masked -------------------------------------------------------------------------
TEMPLATE_TEST_CASE("wgmma fp8 grouped GEMM: masked layout, A's block scales per expert", "[gpu][fp8][grouped][masked]",
                   MaskedBlock, MaskedBlock64) {
  // 8 experts x 96 rows, counts 0..96: rows past each count untouched.
  check_fp8_set<TestType>(fp8_grouped(SetLayout::kMasked, 96, 200, 272, {0, 96, 1, 47, 95, 64, 17, 80}));
  Fp8SetCase c = fp8_grouped(SetLayout::kMasked, 96, 264, 1040, {3, 0, 96, 33}, 0.5f);
  check_fp8_set<TestType>(c);
  c.shared_scale_a = true;  // one set of A's scales for every expert (stride 0)
  check_fp8_set<TestType>(c);
}

// ---- strided-batched -------------------------------------------------------------------------
TEST_CASE("wgmma fp8 strided-batched GEMM: per-row/column scales per entry, a shared B", "[gpu][fp8][batched]") {
  check_fp8_set<BatchedRowCol>(fp8_batched(3, 200, 264, 272, 0.5f));
  check_fp8_set<BatchedRowCol>(fp8_batched(4, 64, 128, 1040, 0.0f, /*shared_b=*/true));  // B and its scales shared
  check_fp8_set<BatchedRowCol>(fp8_batched(0, 64, 128, 128));                            // nothing to do
}

// ---- a captured graph replayed with new sizes --------------------------------------------------
// The sizes live in device memory: each replay reads the current ones; D, amax and the status
// flag are each replay's (run() resets amax and the flag on the stream, inside the graph).
TEST_CASE("wgmma fp8 grouped GEMM: sizes changed between replays of one captured graph", "[gpu][fp8][grouped][graph]") {
  using Config = GroupedBlock;
  const std::uint64_t seed = test::fresh_seed();
  INFO("seed " << seed);
  const std::int32_t M = 1200;
  // The same data (same seed and extents), three sets of sizes; the second ends past M.
  Fp8SetCase one = fp8_grouped(SetLayout::kContiguous, M, 264, 272, {100, 0, 700, 400}),
             two = fp8_grouped(SetLayout::kContiguous, M, 264, 272, {0, 1199, 0, 5});
  one.loud_unowned_rows = two.loud_unowned_rows = false;
  const Fp8SetHost<Config> first(one, seed);
  const Fp8SetHost<Config> second(two, seed);
  REQUIRE(first.a.size() == second.a.size());
  REQUIRE(std::memcmp(first.a.data(), second.a.data(), first.a.size()) == 0);
  REQUIRE(first.sa == second.sa);
  Fp8SetDevice<Config> dev(first);
  DeviceInt32s flag(std::vector<std::int32_t>{test::kStaleGroupStatus});
  cudaStream_t stream;
  REQUIRE_CUDA(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  REQUIRE_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const Status st = gemm::Gemm<Config>::run(dev.arguments(first, flag.ptr), nullptr, stream);
  REQUIRE_CUDA(cudaStreamEndCapture(stream, &graph));
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  cudaGraphExec_t exec;
  REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  int replay = 0;
  for (const Fp8SetHost<Config>* host : {&first, &second, &first}) {
    INFO("replay " << replay++);
    // The sizes (as a router kernel would write them) and a poisoned D, then the same graph.
    dev.sizes.upload(host->sizes);
    REQUIRE_CUDA(cudaMemcpy(dev.d.ptr, host->d.data(), host->d.size() * sizeof(bfloat16_t), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaGraphLaunch(exec, stream));
    REQUIRE_CUDA(cudaStreamSynchronize(stream));
    const test::Fp8SetOutcome o = host->check(dev.d.download_with_guard(), double(host->sd[0]));
    CHECK_FP8_SET_OUTCOME(o);
    test::check_fp8_set_amax(*host, dev.amax_value());
    CHECK(flag.first() ==
          (test::sizes_in_range(host->s.set) ? 0 : std::int32_t(Status::kErrorGroupRowsOutOfRange)));
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
  REQUIRE_CUDA(cudaGraphDestroy(graph));
  REQUIRE_CUDA(cudaStreamDestroy(stream));
}

// ---- bad arguments ---------------------------------------------------------------------------
namespace {
// Runs `args` (a call that must be refused): `want`, D still poisoned, the status flag as it was.
template <class Config>
void check_set_refused(const typename gemm::Gemm<Config>::Args& args, Status want, const Fp8SetDevice<Config>& dev,
                       const DeviceInt32s& flag) {
  test::check_fp8_refused<Config>(args, want, dev.d);
  CHECK(flag.first() == test::kStaleGroupStatus);
}

// The refusals a set's scales can earn (ScaleTensor{data, ld, size, stride}: size >= stride *
// (count - 1) + one problem's extent), then the good call, right.
template <class Config>
void scales_too_small(const Fp8SetCase& c, bool a_per_problem) {
  const std::uint64_t seed = test::fresh_seed();
  INFO(test::describe_fp8_set(c, seed));
  const Fp8SetHost<Config> host(c, seed);
  Fp8SetDevice<Config> dev(host);
  DeviceInt32s flag(std::vector<std::int32_t>{test::kStaleGroupStatus});
  const auto good = dev.arguments(host, flag.ptr);
  REQUIRE(gemm::Gemm<Config>::can_implement(good) == Status::kSuccess);
  auto with = [&](auto mutate) {
    auto x = good;
    mutate(x);
    return x;
  };
  // B's scales: one float short of the last expert's; a stride that puts the last expert's past the end.
  check_set_refused<Config>(with([](auto& x) { x.epilogue.b.size -= 1; }), Status::kErrorScaleBTooSmall, dev, flag);
  check_set_refused<Config>(with([](auto& x) { x.epilogue.b.stride += 1; }), Status::kErrorScaleBTooSmall, dev, flag);
  // A's: one float short (of all rows' in the contiguous layout, of the last problem's otherwise;
  // one per-tensor scale at stride 0 has no size to check).
  if (a_per_problem || Config::Scales::kKind != scale::Kind::kPerTensor) {
    check_set_refused<Config>(with([](auto& x) { x.epilogue.a.size -= 1; }), Status::kErrorScaleATooSmall, dev,
                              flag);
  }
  if (a_per_problem) {
    check_set_refused<Config>(with([](auto& x) { x.epilogue.a.stride += 1; }), Status::kErrorScaleATooSmall, dev,
                              flag);
  }
  if (Config::Scales::kKind == scale::Kind::kBlockwise) {
    check_set_refused<Config>(with([&](auto& x) { x.epilogue.a.ld = c.set.M - 1; }), Status::kErrorScaleATooSmall,
                              dev, flag);
  }
  check_set_refused<Config>(with([](auto& x) { x.epilogue.a.data = nullptr; }), Status::kErrorNullScaleA, dev, flag);
  check_set_refused<Config>(with([](auto& x) { x.epilogue.b.data = nullptr; }), Status::kErrorNullScaleB, dev, flag);
  // The good call, after all that.
  const Status st = gemm::Gemm<Config>::run(good);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const test::Fp8SetOutcome o = host.check(dev.d.download_with_guard(), double(host.sd[0]));
  CHECK_FP8_SET_OUTCOME(o);
  test::check_fp8_set_amax(host, dev.amax_value());
  CHECK(flag.first() == 0);
}
}  // namespace

TEST_CASE("wgmma fp8 grouped GEMM: scale tensors too small for count problems at their stride",
          "[gpu][fp8][grouped][status]") {
  scales_too_small<GroupedBlock>(fp8_grouped(SetLayout::kContiguous, 256, 264, 272, {100, 0, 156}), false);
  scales_too_small<GroupedTensor>(fp8_grouped(SetLayout::kContiguous, 256, 264, 272, {100, 0, 156}), false);
  scales_too_small<MaskedBlock>(fp8_grouped(SetLayout::kMasked, 96, 264, 272, {96, 3, 50}), true);
}

// Out-of-range sizes: clamped (docs/many-gemms.md), reported through problems.status, nothing
// read or written outside (compute-sanitizer runs this); A's scales addressed by the clamped rows.
TEST_CASE("wgmma fp8 grouped GEMM: out-of-range sizes are clamped and reported", "[gpu][fp8][grouped][bad][sanitize]") {
  Fp8SetCase c = fp8_grouped(SetLayout::kContiguous, 700, 264, 272, {300, 200, 650, 5000, 1 << 30, -4});
  c.set.ends_given = true;  // an end below the previous one, ends past M, a negative end
  REQUIRE_FALSE(test::sizes_in_range(c.set));
  check_fp8_set<GroupedBlock>(c);
  c = fp8_grouped(SetLayout::kMasked, 300, 264, 272, {-5, 300, 301, 1 << 30, 17});
  REQUIRE_FALSE(test::sizes_in_range(c.set));
  check_fp8_set<MaskedBlock>(c);
}

// ---- fused epilogues with fp8 operands --------------------------------------------------------
// D = GELU(alpha acc + beta C + bias[n]) from block-scaled fp8, bf16 D: TMA, realigning and packed paths.
TEST_CASE("wgmma fp8 GEMM + bias + GELU (tanh): dense, block scales, every path", "[gpu][fp8][epilogue]") {
  for (Fp8Case s : {Fp8Case{264, 520, 400, 0, 0.75f, 0.5f}, Fp8Case{129, 127, 131, 3, 1.0f, 0.5f}}) {
    for (const bool workspace : {false, true}) {
      s.workspace = workspace;
      const auto bias = random_vector<bfloat16_t>(std::size_t(s.N), test::fresh_seed());
      DeviceBuffer<bfloat16_t> d_bias(bias);
      Fp8EpilogueOf<DenseBiasGelu> e;
      e.arguments = {{}, {d_bias.ptr}, {}};
      e.f = [&](double x, int, std::int64_t, std::int64_t n) { return gelu_tanh(x + double(float(bias[std::size_t(n)]))); };
      e.approximation = kTanhApproximation;
      check_fp8<DenseBiasGelu>(s, test::NoArgsCheck{}, e);
    }
  }
}

// Per-tensor scales, an e4m3 D (scale_d, amax of GELU's output before scale_d) and the
// pre-activation alpha acc + beta C + bias kept in bf16 (AuxiliaryOutput: before scale_d).
TEST_CASE("wgmma fp8 GEMM + bias + kept pre-activation + GELU: per-tensor scales, e4m3 D", "[gpu][fp8][epilogue][aux]") {
  for (const Fp8Case& s : {Fp8Case{200, 256, 272, 0, 1.0f, 0.5f}, Fp8Case{64, 384, 1040, 0, -0.5f, 0.0f}}) {
    const auto bias = random_vector<bfloat16_t>(std::size_t(s.N), test::fresh_seed());
    DeviceBuffer<bfloat16_t> d_bias(bias);
    std::vector<bfloat16_t> pre(std::size_t(s.M * s.N));
    test::poison(pre);
    DeviceBuffer<bfloat16_t> d_pre(pre);
    std::vector<double> want_pre(pre.size(), std::nan("")), pre_bound(pre.size(), 0.0);
    Fp8EpilogueOf<DenseAuxE4m3> e;
    e.arguments = {{}, {d_bias.ptr}, {d_pre.ptr, s.N}, {}};
    e.f = [&](double x, int, std::int64_t, std::int64_t n) { return gelu_tanh(x + double(float(bias[std::size_t(n)]))); };
    e.approximation = kTanhApproximation;
    e.record = [&](int, std::int64_t m, std::int64_t n, double x, double bound) {
      const double b = double(float(bias[std::size_t(n)]));
      want_pre[std::size_t(m * s.N + n)] = x + b;
      pre_bound[std::size_t(m * s.N + n)] = bound + 2.0 * 0x1p-24 * (std::fabs(x) + std::fabs(b));
    };
    check_fp8<DenseAuxE4m3>(s, test::NoArgsCheck{}, e);
    // The second output: every element the pre-activation in bf16 within its bound, nothing past it written.
    const auto got = d_pre.download_with_guard();
    std::int64_t beyond = 0, wrong_writes = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (i >= want_pre.size()) {
        wrong_writes += !test::is_poison(got[i]);
        continue;
      }
      const double bound = test::fp8_bound_of_d<bfloat16_t>(1.0, pre_bound[i], want_pre[i]);
      beyond += !(std::fabs(double(float(got[i])) - want_pre[i]) <= bound);
    }
    CHECK(beyond == 0);
    CHECK(wrong_writes == 0);
  }
}

// A bias per expert (ColumnBias with problem_stride N) and SiLU on a grouped fp8 call; rows
// past the last group untouched, amax of SiLU's output over the stored elements.
TEST_CASE("wgmma fp8 grouped GEMM + bias per expert + SiLU", "[gpu][fp8][grouped][epilogue]") {
  const std::vector<std::int32_t> sizes = {0, 129, 1, 300, 270, 17};
  const Fp8SetCase c = fp8_grouped(SetLayout::kContiguous, total(sizes) + 43, 264, 272, sizes, 0.5f);
  const std::int64_t N = c.set.N;
  const auto bias = random_vector<bfloat16_t>(sizes.size() * std::size_t(N), test::fresh_seed());
  DeviceBuffer<bfloat16_t> d_bias(bias);
  Fp8EpilogueOf<GroupedBiasSilu> e;
  e.arguments = {{}, {d_bias.ptr, N}, {}};
  e.f = [&](double x, int g, std::int64_t, std::int64_t n) {
    return silu(x + double(float(bias[std::size_t(g * N + n)])));
  };
  e.approximation = kSiluApproximation;
  check_fp8_set<GroupedBiasSilu>(c, e);
}

// ---- stream-K (the decode shapes) -------------------------------------------------------------
namespace {
// The call must split: it asked for a workspace of some bytes.
struct MustSplit {
  template <class Args>
  void operator()(const Args&, const void* workspace) const {
    REQUIRE(workspace != nullptr);
  }
};
}  // namespace

TEMPLATE_TEST_CASE("wgmma fp8 GEMM with stream-K: M = 1..64, split-K and stream-K, beta, amax",
                   "[gpu][fp8][stream_k]", StreamKBlock, StreamKTensorE4m3) {
  // DeepSeek-like decode shapes (N 7168 / 2048, K 7168 / 2048) cut down for test time.
  for (Fp8Case s : {Fp8Case{16, 1024, 4096}, Fp8Case{64, 768, 2048, 0, 1.0f, 0.5f},
                    Fp8Case{1, 256, 1040, 0, -1.0f, 0.5f}}) {
    s.workspace = true;
    for (const gemm::Decomposition mode :
         {gemm::Decomposition::kAuto, gemm::Decomposition::kSplitK, gemm::Decomposition::kStreamK}) {
      INFO("requested " << gemm::decomposition_name(mode));
      s.split = {mode, mode == gemm::Decomposition::kSplitK ? 4 : 0};
      if (mode == gemm::Decomposition::kAuto) {
        check_fp8<TestType>(s);
      } else {
        check_fp8<TestType>(s, MustSplit{});
      }
    }
  }
  // No workspace: the unsplit kernel.
  check_fp8<TestType>({64, 768, 2048, 0, 1.0f, 0.5f});
}

// ---- deep K ---------------------------------------------------------------------------------
TEST_CASE("wgmma fp8 grouped GEMM: K = 16384, block scales spanning 2^-20 .. 2^20", "[gpu][fp8][grouped][deep]") {
  Fp8SetCase c = fp8_grouped(SetLayout::kContiguous, 259, 256, 16384, {40, 0, 129, 90});
  c.scale_exponents = 20;
  c.report = true;
  check_fp8_set<GroupedBlock>(c);
}

// ---- the sanitizer cross-section (scripts/device/check.sh --sanitizers) --------------------------
// Several units per CTA and the ring wrapping (staged scale slots refilled), Pingpong: memcheck
// and synccheck only (racecheck does not follow mbarrier ordering: test_wgmma_fp8_schedules.cu).
TEST_CASE("wgmma fp8 many GEMMs: sanitizer cross-section, scale slots refilled", "[gpu][fp8][sanitize_ring]") {
  check_fp8_set<MaskedBlock64>(fp8_grouped(SetLayout::kMasked, 96, 264, 1040, {3, 0, 96, 33}));
}
TEST_CASE("wgmma fp8 many GEMMs: sanitizer cross-section", "[gpu][fp8][sanitize]") {
  check_fp8_set<GroupedBlock>(fp8_grouped(SetLayout::kContiguous, 170, 136, 272, {0, 1, 130, 17}));
  check_fp8_set<GroupedTensor>(fp8_grouped(SetLayout::kContiguous, 148, 264, 160, {20, 0, 128}, 0.5f));
  check_fp8_set<MaskedBlock>(fp8_grouped(SetLayout::kMasked, 96, 128, 272, {0, 96, 5}));
  check_fp8_set<BatchedRowCol>(fp8_batched(2, 72, 136, 272, 0.5f));
  {
    const std::vector<std::int32_t> sizes = {3, 0, 140};
    const Fp8SetCase c = fp8_grouped(SetLayout::kContiguous, 150, 136, 272, sizes, 0.5f);
    const auto bias = random_vector<bfloat16_t>(sizes.size() * 136, test::fresh_seed());
    DeviceBuffer<bfloat16_t> d_bias(bias);
    Fp8EpilogueOf<GroupedBiasSilu> e;
    e.arguments = {{}, {d_bias.ptr, 136}, {}};
    e.f = [&](double x, int g, std::int64_t, std::int64_t n) { return silu(x + double(float(bias[std::size_t(g * 136 + n)]))); };
    e.approximation = kSiluApproximation;
    check_fp8_set<GroupedBiasSilu>(c, e);
  }
  Fp8Case s{16, 256, 1040, 0, 1.0f, 0.5f};
  s.workspace = true;
  s.split = {gemm::Decomposition::kStreamK, 0};
  check_fp8<StreamKBlock>(s, MustSplit{});
  s.split = {gemm::Decomposition::kSplitK, 3};
  check_fp8<StreamKTensorE4m3>(s, MustSplit{});
}
