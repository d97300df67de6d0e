// GPU tests of scheduler::StreamK<> on the Hopper family (WgmmaConfig with
// option::Scheduler<scheduler::StreamK<>>): data-parallel, split-K and stream-K requested in turn
// (gemm::Arguments::split) and the rule's own choice, on odd shapes, K tails, beta, C == D,
// every A/B layout and both C/D layouts, M = 1, K much deeper than M and N, a cluster, both
// schedules, a test-only epilogue; split-K and stream-K bitwise identical over 10 runs; no
// workspace, or one a byte short, runs unsplit (and leaves the workspace alone); bad
// arguments. Against the float64 reference with poisoned outputs and a poisoned workspace
// (NaN: every partial read must have been written). Label `gpu`; sm_90 only.
#include "tessera/gemm/wgmma/wgmma.hpp"

#include <cstring>

#include "gemm_case.hpp"
#include "test_epilogues.hpp"

using namespace tessera;
using gemm::ClusterShape;
using gemm::Decomposition;
using tessera::test::CaseShape;
using tessera::test::check_gemm;

namespace {

using StreamKOption = gemm::option::Scheduler<gemm::scheduler::StreamK<>>;
template <class EA, class EC, class LA, class LB, class LC, class Tile = GemmShape<128, 256, 64>,
          class Schedule = schedule::AutoSm90, class Cluster = ClusterShape<1, 1>, class... Options>
using Sk = gemm::WgmmaConfig<EA, LA, EA, LB, EC, LC, gemm::option::Tile<Tile>, gemm::option::Schedule<Schedule>,
                             gemm::option::Cluster<Cluster::kM, Cluster::kN>, StreamKOption, Options...>;

// The four A/B layouts, both D layouts, both schedules, a cluster, fp32 D.
using SkTn = Sk<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>;
using SkNnColD = Sk<half_t, float, ColumnMajor, RowMajor, ColumnMajor>;
using SkPingpong = Sk<bfloat16_t, bfloat16_t, RowMajor, RowMajor, RowMajor, GemmShape<128, 128, 64>, schedule::Pingpong>;
using SkCluster = Sk<bfloat16_t, bfloat16_t, ColumnMajor, ColumnMajor, RowMajor, GemmShape<128, 256, 64>,
                     schedule::Cooperative, ClusterShape<2, 1>>;

CaseShape with_workspace(CaseShape s) {
  s.workspace = true;
  return s;
}
CaseShape tma(CaseShape s) {
  s.ld_multiple = 8;
  return s;
}
// The case with the call's request for a decomposition (Arguments::split).
CaseShape requesting(CaseShape s, Decomposition mode, int splits = 0) {
  s.split = {mode, splits};
  return s;
}

// Shapes a split helps (few tiles, deep K) with odd extents, K tails, beta, M = 1, pads (the
// packed path with its copies before the fix-up's region), and one that fills the machine.
const CaseShape kShapes[] = {
    tma({1, 256, 4000}),                      // M = 1, deep K
    tma({136, 264, 64 * 37 + 8, 0, 1.0f, 0.5f}),  // K tail of 8, beta
    tma({520, 264, 2000, 0, -1.0f, 0.25f}),
    tma({8, 24, 20000}),                      // K >> M, N
    {129, 257, 3001, 1, 1.0f, -1.0f},         // odd everything: packed path, K tail
    {7, 9, 9999, 3, 2.0f, 0.5f},
};

// The plan a 1x1 configuration's launch takes on this device for `s` (its grid is one CTA per
// SM), so a test can require that the forced decomposition is the one that ran.
template <class Config>
Decomposition planned(const CaseShape& s) {
  int device = 0, sms = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const gemm::TileGrid g{s.M, s.N, s.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
  std::int64_t workers = gemm::scheduler::StreamK<>::units(g);
  if (workers > sms) workers = sms;
  return gemm::scheduler::StreamK<>::make(g, int(workers), s.split).plan.mode;
}

template <class Config>
void sweep(bool one_cta_clusters) {
  for (const CaseShape& shape : kShapes) {
    const CaseShape s = with_workspace(shape);
    {
      INFO("the rule's plan");
      check_gemm<Config>(s);
    }
    {
      INFO("data-parallel");
      check_gemm<Config>(requesting(s, Decomposition::kDataParallel));
    }
    for (int splits : {2, 3, 7}) {
      INFO("split-K, " << splits << " slices");
      const CaseShape split = requesting(s, Decomposition::kSplitK, splits);
      if (one_cta_clusters && s.M < 600) REQUIRE(planned<Config>(split) == Decomposition::kSplitK);
      check_gemm<Config>(split);
    }
    {
      INFO("stream-K");
      const CaseShape sk = requesting(s, Decomposition::kStreamK);
      if (one_cta_clusters) REQUIRE(planned<Config>(sk) == Decomposition::kStreamK);
      check_gemm<Config>(sk);
    }
  }
}

}  // namespace

TEST_CASE("stream-K: every decomposition on every layout, schedule and a cluster", "[gpu][stream_k][layout]") {
  sweep<SkTn>(true);
  sweep<SkNnColD>(true);
  sweep<SkPingpong>(true);
  sweep<SkCluster>(false);
}

TEST_CASE("stream-K: the rule's plan where the machine is full and where it is not", "[gpu][stream_k][rule]") {
  for (const CaseShape& s : {tma({1000, 1000, 1000, 0, 1.0f, 0.5f}), tma({2048, 2304, 1024}), tma({512, 512, 16384}),
                             tma({2048, 2048, 512})}) {
    check_gemm<SkTn>(with_workspace(s));
    check_gemm<SkPingpong>(with_workspace(s));
  }
}

TEST_CASE("stream-K: in place (C == D) and beta", "[gpu][stream_k][inplace]") {
  for (CaseShape s : {tma({136, 128, 4000, 0, 1.0f, 1.0f}), CaseShape{64, 256, 3333, 3, -2.0f, 0.5f},
                      tma({8, 1000, 6000, 0, 1.0f, -1.0f})}) {
    s.in_place = true;
    s.workspace = true;
    for (Decomposition mode : {Decomposition::kSplitK, Decomposition::kStreamK}) {
      const CaseShape r = requesting(s, mode, 5);
      check_gemm<SkTn>(r);
      check_gemm<SkNnColD>(r);
      check_gemm<SkPingpong>(r);
    }
  }
}

TEST_CASE("stream-K: the configuration's epilogue applied by the reducers", "[gpu][stream_k][epilogue]") {
  using tessera::test::EpilogueCase;
  using tessera::test::TimesCPlusColumn;
  using TimesC = Sk<half_t, half_t, ColumnMajor, RowMajor, ColumnMajor, GemmShape<128, 128, 64>, schedule::Pingpong,
                    ClusterShape<1, 1>, gemm::option::Epilogue<TimesCPlusColumn>, gemm::option::OutputElement<float>>;
  EpilogueCase<TimesC> times_c;
  times_c.expected = [](double ab, double c, std::int64_t, std::int64_t n) { return ab * c + double(n); };
  for (Decomposition mode : {Decomposition::kSplitK, Decomposition::kStreamK}) {
    check_gemm<TimesC>(requesting(with_workspace({300, 130, 3000, 0, 1.0f, 0.75f}), mode, 4),
                       tessera::test::NoArgsCheck{}, times_c);
    check_gemm<TimesC>(requesting(with_workspace({129, 257, 2001, 1, 1.0f, 0.75f}), mode, 4),
                       tessera::test::NoArgsCheck{}, times_c);
  }
}

namespace {

// Runs the case `runs` times on the same inputs (D and the workspace poisoned before each) and
// requires every run's D to be bit for bit the first's, and the first to be right.
template <class Config>
void check_bitwise_repeatable(const CaseShape& s, int runs) {
  using ED = typename Config::ElementD;
  const std::uint64_t seed = test::fresh_seed();
  INFO(test::describe_case<Config>(s, seed));
  const test::HostCase<Config> host(s, seed);
  test::DeviceBuffer<typename Config::ElementA> da(host.a);
  test::DeviceBuffer<typename Config::ElementB> db(host.b);
  test::DeviceBuffer<typename Config::ElementC> dc(host.c);
  test::DeviceBuffer<ED> dd(host.d);
  const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr);
  const std::size_t bytes = gemm::Gemm<Config>::workspace_size(args);
  REQUIRE(bytes > 0);
  void* workspace = nullptr;
  REQUIRE_CUDA(cudaMalloc(&workspace, bytes));
  std::vector<ED> first;
  for (int run = 0; run < runs; ++run) {
    REQUIRE_CUDA(cudaMemcpy(dd.ptr, host.d.data(), host.d.size() * sizeof(ED), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemset(workspace, run % 2 == 0 ? 0xff : 0x7f, bytes));
    REQUIRE(gemm::Gemm<Config>::run(args, workspace) == Status::kSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    std::vector<ED> out = dd.download_with_guard();
    if (run == 0) {
      const test::CaseOutcome r = host.check_output(out, test::DeviceBuffer<ED>::kGuard);
      CHECK_CASE_OUTCOME(s, r);
      first = out;
    } else {
      INFO("run " << run);
      REQUIRE(std::memcmp(out.data(), first.data(), out.size() * sizeof(ED)) == 0);
    }
  }
  REQUIRE_CUDA(cudaFree(workspace));
}

}  // namespace

TEST_CASE("stream-K and split-K: the same bits on every run", "[gpu][stream_k][deterministic]") {
  for (const CaseShape& s : {tma({256, 256, 16384}), CaseShape{129, 257, 3001, 1, 1.0f, 0.5f}, tma({1, 512, 9000})}) {
    for (Decomposition mode : {Decomposition::kSplitK, Decomposition::kStreamK}) {
      INFO(gemm::decomposition_name(mode));
      check_bitwise_repeatable<SkTn>(requesting(s, mode, 6), 10);
      check_bitwise_repeatable<SkPingpong>(requesting(s, mode, 6), 10);
    }
  }
  check_bitwise_repeatable<SkCluster>(requesting(tma({512, 512, 8192}), Decomposition::kStreamK), 10);
}

TEST_CASE("stream-K: no workspace, or one smaller than workspace_size, runs unsplit and leaves it alone",
          "[gpu][stream_k][workspace]") {
  for (Decomposition mode : {Decomposition::kSplitK, Decomposition::kStreamK}) {
    const CaseShape s = requesting(tma({136, 264, 64 * 37 + 8, 0, 1.0f, 0.5f}), mode, 4);
    check_gemm<SkTn>(s);  // no workspace at all
    const std::uint64_t seed = test::fresh_seed();
    INFO(test::describe_case<SkTn>(s, seed));
    const test::HostCase<SkTn> host(s, seed);
    test::DeviceBuffer<bfloat16_t> da(host.a), db(host.b), dc(host.c), dd(host.d);
    const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr);
    const std::size_t bytes = gemm::Gemm<SkTn>::workspace_size(args);
    REQUIRE(bytes > 0);
    void* workspace = nullptr;
    REQUIRE_CUDA(cudaMalloc(&workspace, bytes));
    REQUIRE_CUDA(cudaMemset(workspace, 0xa5, bytes));
    REQUIRE(gemm::Gemm<SkTn>::run(args, workspace, bytes - 1, nullptr) == Status::kSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const test::CaseOutcome r = host.check_output(dd.download_with_guard(), test::DeviceBuffer<bfloat16_t>::kGuard);
    CHECK_CASE_OUTCOME(s, r);
    std::vector<unsigned char> after(bytes);
    REQUIRE_CUDA(cudaMemcpy(after.data(), workspace, bytes, cudaMemcpyDeviceToHost));
    std::size_t touched = 0;
    for (unsigned char b : after) touched += b != 0xa5 ? 1 : 0;
    CHECK(touched == 0);
    // And with exactly workspace_size bytes it is used.
    REQUIRE(gemm::Gemm<SkTn>::run(args, workspace, bytes, nullptr) == Status::kSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    REQUIRE_CUDA(cudaMemcpy(after.data(), workspace, bytes, cudaMemcpyDeviceToHost));
    touched = 0;
    for (unsigned char b : after) touched += b != 0xa5 ? 1 : 0;
    CHECK(touched > 0);
    REQUIRE_CUDA(cudaFree(workspace));
  }
}

TEST_CASE("stream-K: bad arguments return their Status and write nothing", "[gpu][stream_k][status]") {
  const std::int64_t M = 40, N = 48, K = 4096;
  std::vector<bfloat16_t> a(std::size_t(M * K)), b(std::size_t(K * N)), c(std::size_t(M * N)), d(std::size_t(M * N));
  test::fill_random(a, 1);
  test::fill_random(b, 2);
  test::fill_random(c, 3);
  test::poison(d);
  test::DeviceBuffer<bfloat16_t> da(a), db(b), dc(c), dd(d);
  using G = gemm::Gemm<SkTn>;
  gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> good{M, N, K, da.ptr, K, db.ptr, K, dc.ptr, N, dd.ptr, N,
                                                           1.0f, 1.0f};
  good.split = {Decomposition::kSplitK, 8};
  const std::size_t bytes = G::workspace_size(good);
  REQUIRE(bytes > 0);
  void* workspace = nullptr;
  REQUIRE_CUDA(cudaMalloc(&workspace, bytes));
  auto expect = [&](Status want, auto mutate) {
    auto args = good;
    mutate(args);
    const Status got = G::run(args, workspace);
    INFO("want " << status_name(want) << ", got " << status_name(got));
    CHECK(got == want);
  };
  expect(Status::kErrorNegativeSize, [](auto& x) { x.M = -1; });
  expect(Status::kErrorLeadingDimA, [](auto& x) { x.lda = K - 1; });
  expect(Status::kErrorNullB, [](auto& x) { x.B = nullptr; });
  expect(Status::kErrorMisalignedD, [](auto& x) { x.D = reinterpret_cast<bfloat16_t*>(reinterpret_cast<char*>(x.D) + 1); });
  {
    auto args = good;
    CHECK(G::run(args, reinterpret_cast<char*>(workspace) + 8) == Status::kErrorWorkspaceMisaligned);
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (const bfloat16_t v : dd.download_with_guard()) REQUIRE(test::is_poison(v));
  REQUIRE_CUDA(cudaFree(workspace));
}

// A small cross-section for compute-sanitizer (memcheck, racecheck, synccheck).
TEST_CASE("stream-K sanitizer cross-section", "[gpu][stream_k][sanitize]") {
  for (Decomposition mode : {Decomposition::kSplitK, Decomposition::kStreamK}) {
    check_gemm<SkTn>(requesting(with_workspace(tma({136, 264, 1000, 0, 1.0f, 0.5f})), mode, 3));
    check_gemm<SkPingpong>(requesting(with_workspace({67, 130, 700, 1, 1.0f, 0.5f}), mode, 3));
    check_gemm<SkCluster>(requesting(with_workspace(tma({256, 256, 1024})), mode, 3));
  }
}
