// GPU tests of the Hopper family's shape-specific configurations (issue 17): N tiles below 64;
// the epilogue that loads C into its staging boxes with TMA (option::StagingBoxes); the cluster
// split-K kernel (ClusterSplitK); small M computed transposed (WgmmaSmallM); and the selector
// Gemm<Auto<...>>, whose choice is checked for every shape of tessera_bench's LLM suite. Odd
// shapes, K tails, beta, C == D, layouts, M = 1, K much deeper than M and N, bitwise-identical
// reruns of the split, bad arguments. Against the float64 reference with poisoned outputs
// (gemm_case.hpp). Label `gpu`; needs an sm_90 device.
#include "tessera/gemm/select/auto.hpp"
#include "tessera/gemm/wgmma/cluster_split.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <type_traits>
#include <string>
#include <vector>

#include "gemm_case.hpp"
#include "llm_benchmark_shapes.hpp"
#include "test_epilogues.hpp"

using namespace tessera;
using tessera::test::CaseShape;
using tessera::test::check_gemm;

namespace {

using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

template <class EA, class EC, class LA, class LB, class LC, class Tile = GemmShape<128, 256, 64>,
          class Schedule = schedule::AutoSm90, class... Options>
using Wgmma = gemm::WgmmaConfig<EA, LA, EA, LB, EC, LC, gemm::option::Tile<Tile>, gemm::option::Schedule<Schedule>, Options...>;

// Every extent and leading dimension a multiple of 8 (TMA's 16 bytes), none of the tile.
CaseShape tma(CaseShape s) {
  s.ld_multiple = 8;
  return s;
}
CaseShape in_place(CaseShape s) {
  s.in_place = true;
  return s;
}

template <class Config>
auto expect_staged_c(bool want) {
  return [want](const auto& args, const void* workspace) {
    const bool got = gemm::wgmma_stages_c<Config>(args, workspace);
    INFO("C staged by TMA: " << got);
    REQUIRE(got == want);
  };
}

// Random bf16 A (row-major M x K), B (column-major K x N: W[N][K]) and C, and a poisoned D
// (row-major M x N) on the device, with their Arguments.
struct DeviceOperands {
  std::int64_t M, N, K;
  test::DeviceBuffer<bfloat16_t> a, b, c, d;
  static std::vector<bfloat16_t> random(std::int64_t n, std::uint64_t seed) {
    std::vector<bfloat16_t> v(static_cast<std::size_t>(n));
    test::fill_random(v, seed);
    return v;
  }
  static std::vector<bfloat16_t> poisoned(std::int64_t n) {
    std::vector<bfloat16_t> v(static_cast<std::size_t>(n));
    test::poison(v);
    return v;
  }
  DeviceOperands(std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed)
      : M(m), N(n), K(k), a(random(m * k, seed)), b(random(k * n, seed + 1)), c(random(m * n, seed + 2)),
        d(poisoned(m * n)) {}
  gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> arguments(float beta) const {
    return {M, N, K, a.ptr, K, b.ptr, K, c.ptr, N, d.ptr, N, 1.0f, beta};
  }
};

// ---- N tiles below 64 -----------------------------------------------------------------------

const CaseShape kNarrowSweep[] = {
    tma({8, 8, 8}),           tma({136, 40, 200, 0, 1.0f, 0.5f}),  tma({200, 16, 72, 8, -1.0f, 1.0f}),
    tma({1000, 24, 128}),     {67, 30, 70, 1, 1.0f, 0.5f},         {129, 17, 65, 3, 2.0f, -1.0f},
};

}  // namespace

TEMPLATE_TEST_CASE("wgmma GEMM: N tiles of 16 and 32, both D layouts, every path", "[gpu][shapes][narrow]",
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 16, 64>>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, ColumnMajor, GemmShape<128, 16, 64>>),
                   (Wgmma<half_t, float, ColumnMajor, ColumnMajor, RowMajor, GemmShape<128, 32, 64>>),
                   (Wgmma<bfloat16_t, float, RowMajor, ColumnMajor, ColumnMajor, GemmShape<64, 32, 64>, Pingpong>),
                   (Wgmma<half_t, half_t, RowMajor, ColumnMajor, RowMajor, GemmShape<256, 32, 64>>)) {
  for (CaseShape s : kNarrowSweep) {
    check_gemm<TestType>(s);
    s.workspace = true;
    check_gemm<TestType>(s);
  }
  check_gemm<TestType>(in_place(tma({72, 48, 24, 0, 1.0f, 1.0f})));
}

// ---- C loaded into the staging boxes by TMA --------------------------------------------------

TEMPLATE_TEST_CASE("wgmma GEMM: C staged by TMA (beta != 0), in place, every schedule", "[gpu][shapes][staged_c]",
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 256, 64>,
                          Cooperative, gemm::option::StagingBoxes<4>>),
                   (Wgmma<half_t, half_t, ColumnMajor, RowMajor, ColumnMajor, GemmShape<128, 128, 64>, Pingpong>),
                   (Wgmma<bfloat16_t, float, RowMajor, RowMajor, ColumnMajor, GemmShape<256, 128, 64>, Cooperative,
                          gemm::option::StagingBoxes<3>>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, ColumnMajor, GemmShape<128, 16, 64>>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<64, 32, 64>, Pingpong>)) {
  using C = TestType;
  // Several tiles per CTA (the ring of boxes wraps), partial tiles, K tails, K = 0.
  for (const CaseShape& s : {tma({136, 264, 200, 0, 1.0f, 0.5f}), tma({1000, 1000, 64, 0, -1.0f, 1.0f}),
                             tma({64, 520, 8, 0, 2.0f, -0.25f}), tma({40, 64, 0, 0, 1.0f, 0.5f}),
                             tma({1536, 1024, 64, 0, 1.0f, 1.0f})}) {
    check_gemm<C>(s, expect_staged_c<C>(true));
    check_gemm<C>(in_place(s), expect_staged_c<C>(true));
  }
  // beta == 0: nothing to stage.
  check_gemm<C>(tma({136, 264, 200}), expect_staged_c<C>(false));
  // C one element off alignment: read with ordinary loads; D still by TMA.
  CaseShape odd = tma({136, 264, 72, 0, 1.0f, 0.5f});
  odd.offset_pointers = true;
  odd.workspace = true;  // A, B and D go through the packed copies; C stays the caller's
  check_gemm<C>(odd, expect_staged_c<C>(false));
}

TEST_CASE("wgmma GEMM: C of another element size than D is read with ordinary loads", "[gpu][shapes][staged_c]") {
  using Mixed = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                  gemm::option::Tile<GemmShape<128, 256, 64>>,
                                  gemm::option::OutputElement<bfloat16_t>>;
  check_gemm<Mixed>(tma({136, 264, 200, 0, 1.0f, 0.5f}), expect_staged_c<Mixed>(false));
}

TEST_CASE("wgmma GEMM: a test-only epilogue that reads C, with C staged", "[gpu][shapes][staged_c]") {
  using tessera::test::EpilogueCase;
  using TimesC = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                   gemm::option::Tile<GemmShape<128, 256, 64>>,
                                   gemm::option::Epilogue<tessera::test::TimesCPlusColumn>>;
  EpilogueCase<TimesC> times_c;
  times_c.expected = [](double ab, double c, std::int64_t, std::int64_t n) { return ab * c + double(n); };
  check_gemm<TimesC>(tma({300, 520, 136}), expect_staged_c<TimesC>(true), times_c);
}

// ---- K split over a cluster -----------------------------------------------------------------

namespace {
template <class EA, class EC, class LA, class LB, class LC, int kN = 128, int kSplits = 0>
using Split = gemm::ClusterSplitK<Wgmma<EA, EC, LA, LB, LC, GemmShape<128, kN, 64>, Cooperative>, kSplits>;

const CaseShape kSplitSweep[] = {
    tma({8, 8, 8}),                            tma({136, 264, 1000, 0, 1.0f, 0.5f}),
    tma({256, 256, 4096, 0, -1.0f, 1.0f}),     tma({520, 136, 2056, 8, 1.0f, 0.0f}),
    tma({40, 64, 0, 0, 1.0f, 0.5f}),           tma({8, 2048, 2048, 0, 1.0f, 0.5f}),
    tma({1000, 200, 1000, 0, 1.0f, -0.5f}),
};

// Each shape, then the same shape in place (C == D).
template <class Config, std::size_t kShapes>
void check_each_and_in_place(const CaseShape (&shapes)[kShapes]) {
  for (const CaseShape& s : shapes) {
    check_gemm<Config>(s);
    check_gemm<Config>(in_place(s));
  }
}
}  // namespace

TEMPLATE_TEST_CASE("cluster split-K: every layout, outputs, splits chosen and fixed", "[gpu][shapes][split]",
                   (Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (Split<bfloat16_t, bfloat16_t, ColumnMajor, RowMajor, RowMajor>),
                   (Split<half_t, float, RowMajor, RowMajor, ColumnMajor>),
                   (Split<half_t, half_t, ColumnMajor, ColumnMajor, ColumnMajor>),
                   (Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, 256>),
                   (Split<bfloat16_t, float, RowMajor, ColumnMajor, ColumnMajor, 16>),
                   (Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, 128, 3>),
                   (Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, 64, 16>)) {
  check_each_and_in_place<TestType>(kSplitSweep);
}

TEST_CASE("cluster split-K: the split the rule takes, and the same bits on every run", "[gpu][shapes][split]") {
  using S = Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>;
  const DeviceOperands ops(512, 512, 16384, 11);
  const auto args = ops.arguments(0.5f);
  const int split = gemm::cluster_splits<S>(args);
  INFO("split " << split);
  CHECK(split > 1);  // 16 tiles of 128 x 128 on a GPU of 100+ SMs
  std::vector<bfloat16_t> first;
  for (int run = 0; run < 10; ++run) {
    REQUIRE(gemm::Gemm<S>::run(args) == Status::kSuccess);
    REQUIRE_CUDA(cudaDeviceSynchronize());
    const std::vector<bfloat16_t> got = ops.d.download_with_guard();
    if (run == 0) {
      first = got;
    } else {
      REQUIRE(std::memcmp(first.data(), got.data(), got.size() * sizeof(bfloat16_t)) == 0);
    }
  }
}

// ---- small M, computed transposed -----------------------------------------------------------

namespace {
template <class EA, class EC, class LA, class LB, class LC, int kTileM = 16, class... Options>
using SmallM = gemm::WgmmaSmallM<EA, LA, EA, LB, EC, LC, kTileM, 0, Options...>;

const CaseShape kSmallMSweep[] = {
    tma({1, 4096, 4096}),                   tma({3, 520, 1000, 0, 1.0f, 0.5f}),
    tma({8, 2048, 8192, 8, -1.0f, 1.0f}),   tma({16, 1000, 64}),
    tma({17, 136, 136, 0, 1.0f, -2.0f}),    tma({16, 64, 0, 0, 1.0f, 0.5f}),
};
}  // namespace

// With a column-major A, TMA needs M itself to be a multiple of 8 (16 bytes of A's contiguous
// extent): such a call needs a workspace to copy A into (the packed test) and is skipped here.
TEMPLATE_TEST_CASE("small M: every tile, both B and D layouts, fp32 D, M = 1", "[gpu][shapes][small_m]",
                   (SmallM<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (SmallM<bfloat16_t, bfloat16_t, RowMajor, RowMajor, ColumnMajor>),
                   (SmallM<half_t, float, RowMajor, ColumnMajor, RowMajor, 32>),
                   (SmallM<bfloat16_t, bfloat16_t, ColumnMajor, ColumnMajor, RowMajor, 64>),
                   (SmallM<half_t, half_t, RowMajor, ColumnMajor, ColumnMajor, 128>)) {
  for (const CaseShape& s : kSmallMSweep) {
    if (!TestType::LayoutA::kIsRowMajor && s.M % 8 != 0) continue;
    check_gemm<TestType>(s);
    check_gemm<TestType>(in_place(s));
  }
  check_gemm<TestType>(tma({200, 4096, 1024, 0, 1.0f, 0.5f}));  // several tiles of M (a multiple of 8: any A)
}

TEST_CASE("small M: the user's epilogue sees D's rows and columns", "[gpu][shapes][small_m]") {
  using tessera::test::EpilogueCase;
  using Scale = SmallM<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, 16,
                       gemm::option::Epilogue<tessera::test::ScaleAndAddRow>>;
  using TimesC = SmallM<half_t, float, RowMajor, ColumnMajor, RowMajor, 32,
                        gemm::option::Epilogue<tessera::test::TimesCPlusColumn>>;
  EpilogueCase<Scale> scale;
  scale.arguments.scale = 3.0f;
  scale.expected = [](double ab, double, std::int64_t m, std::int64_t) { return 3.0 * ab + double(m); };
  EpilogueCase<TimesC> times_c;
  times_c.expected = [](double ab, double c, std::int64_t, std::int64_t n) { return ab * c + double(n); };
  check_gemm<Scale>(tma({13, 1000, 520}), tessera::test::NoArgsCheck{}, scale);
  check_gemm<TimesC>(tma({30, 264, 2048}), tessera::test::NoArgsCheck{}, times_c);
}

// ---- A or B that TMA cannot describe: copied into the workspace ------------------------------

namespace {
// Odd leading dimensions (ld = the extent, plus pad) or operands one element into their
// buffers: every case has A or B that TMA cannot describe, in every layout. With
// workspace_size(args) bytes, which check_gemm then requires to be more than zero (must_split):
// the copies are made.
CaseShape packed(CaseShape s, bool offset) {
  s.workspace = true;
  s.must_split = true;
  s.offset_pointers = offset;
  return s;
}
const CaseShape kPackedSweep[] = {
    packed({1, 1000, 1001}, false),                  packed({3, 520, 1001, 0, 1.0f, 0.5f}, true),
    packed({17, 136, 4099, 1, -1.0f, 1.0f}, false),   packed({64, 264, 2048, 0, 1.0f, 0.0f}, true),
    packed({136, 200, 1000, 3, 1.0f, -0.5f}, true),
};
}  // namespace

TEMPLATE_TEST_CASE("split and small M: A or B that TMA cannot describe, copied into the workspace",
                   "[gpu][shapes][packed]", (Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (Split<half_t, float, ColumnMajor, RowMajor, ColumnMajor, 64>),
                   (SmallM<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (SmallM<half_t, half_t, RowMajor, RowMajor, ColumnMajor, 32>),
                   (SmallM<bfloat16_t, float, ColumnMajor, ColumnMajor, RowMajor, 64>)) {
  check_each_and_in_place<TestType>(kPackedSweep);
}

// ---- bad arguments ----------------------------------------------------------------------------

namespace {
// Each bad argument returns its Status (naming the user's operand, also where the kernel runs
// the transposed problem) and D stays untouched.
template <class G>
void check_bad_arguments() {
  constexpr std::int64_t K = 128, N = 256;
  const DeviceOperands ops(16, N, K, 1);
  const auto good = ops.arguments(1.0f);
  auto expect = [&](Status want, auto mutate) {
    auto args = good;
    mutate(args);
    const Status got = G::run(args);
    INFO("want " << status_name(want) << ", got " << status_name(got));
    CHECK(got == want);
  };
  // One element off a 16-byte boundary: element-aligned, but not as TMA needs (tma.hpp).
  auto off = [](auto* p) { return p + 1; };
  expect(Status::kErrorNegativeSize, [](auto& x) { x.M = -1; });
  expect(Status::kErrorLeadingDimA, [](auto& x) { x.lda = K - 1; });
  expect(Status::kErrorLeadingDimB, [](auto& x) { x.ldb = K - 1; });
  expect(Status::kErrorLeadingDimC, [](auto& x) { x.ldc = N - 1; });
  expect(Status::kErrorNullA, [](auto& x) { x.A = nullptr; });
  expect(Status::kErrorNullB, [](auto& x) { x.B = nullptr; });
  expect(Status::kErrorNullC, [](auto& x) { x.C = nullptr; });
  // Copied into the workspace first (the [packed] test): without one, the call names that.
  expect(Status::kErrorWorkspaceNull, [&](auto& x) { x.A = off(x.A); });
  expect(Status::kErrorWorkspaceNull, [&](auto& x) { x.B = off(x.B); });
  expect(Status::kErrorDimensionTooLarge, [](auto& x) {
    x.K = std::int64_t(1) << 31;
    x.lda = x.ldb = x.K;
  });
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (const bfloat16_t v : ops.d.download_with_guard()) REQUIRE(test::is_poison(v));
}
}  // namespace

TEST_CASE("split and small M: bad arguments name the problem and write nothing", "[gpu][shapes][status]") {
  check_bad_arguments<gemm::Gemm<Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>>>();
  check_bad_arguments<gemm::Gemm<SmallM<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>>>();
}

// ---- the selector -----------------------------------------------------------------------------

namespace {
template <class EA, class EC, class LA, class LB, class LC>
using Auto = gemm::Auto<EA, LA, EA, LB, EC, LC>;
template <class EA, class EC, class LA, class LB, class LC>
using AutoByRule = gemm::AutoByRule<EA, LA, EA, LB, EC, LC>;
using AutoTn = Auto<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>;
using AutoRuleTn = AutoByRule<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>;

}  // namespace

// For every benchmark shape (with the suite's layouts and leading dimensions, beta 0 and 1):
// the entry the selector picks on this device is its selector's first (or, where that refuses
// the arguments, a later one or the default), and that configuration takes the arguments. Pointers are 256-byte aligned fakes:
// nothing is launched.
TEST_CASE("selector: its choice for every benchmark shape runs the arguments", "[gpu][shapes][auto]") {
  DeviceInfo d;
  REQUIRE(current_device(&d) == Status::kSuccess);
  const auto* fake = reinterpret_cast<bfloat16_t*>(std::uintptr_t(1) << 20);
  for (const test::GemmExtents& x : test::llm_benchmark_shapes()) {
    for (float beta : {0.0f, 1.0f}) {
      const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> args{
          x.M, x.N, x.K, fake, x.K, fake, x.K, fake, x.N, const_cast<bfloat16_t*>(fake), x.N, 1.0f, beta};
      for (bool workspace : {false, true}) {
        const gemm::AutoChoice c = gemm::auto_choice<AutoTn>(args, d, workspace);
        static const char any_workspace = 0;
        INFO(gemm::explain<AutoTn>(args, workspace ? &any_workspace : nullptr));
        const bool takes = AutoTn::Entries::with(c.entry, [&](auto e) {
          return gemm::Gemm<decltype(e)>::can_implement(args) == Status::kSuccess;
        });
        CHECK(takes);
        const gemm::AutoChoice first = AutoTn::Selector::choose(gemm::detail::auto_problem<AutoTn>(args, d, workspace));
        const bool first_takes = AutoTn::Entries::with(first.entry, [&](auto e) {
          return gemm::Gemm<decltype(e)>::can_implement(args) == Status::kSuccess;
        });
        CHECK((c.entry == first.entry || !first_takes));
      }
      const gemm::AutoChoice c = gemm::auto_choice<AutoTn>(args, d, false);
      // Decode shapes: a transposed small-M entry (the sweeps timed them fastest there).
      if (x.M <= 16 && x.N >= 4096) {
        CHECK((c.entry == gemm::AutoEntry::kSmallM16 || c.entry == gemm::AutoEntry::kSmallM32 ||
               c.entry == gemm::AutoEntry::kSmallM64));
      }
    }
  }
}

// The rule's shapes reach every entry of the table (so every entry's result is checked); the
// timed selector (Auto) runs the same shapes, whichever entries it picks.
TEMPLATE_TEST_CASE("selector: every entry computes the right result", "[gpu][shapes][auto]",
                   (AutoByRule<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (AutoByRule<half_t, float, ColumnMajor, RowMajor, ColumnMajor>),
                   (Auto<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>)) {
  using A = TestType;
  constexpr bool kRule = std::is_same_v<typename A::Selector, gemm::select::Rule>;
  std::set<gemm::AutoEntry> chosen;
  auto record = [&](const auto& args, const void* workspace) {
    const gemm::AutoChoice c = gemm::auto_choice<A>(args, workspace);
    chosen.insert(c.entry);
    INFO(gemm::explain<A>(args, workspace));
    CHECK(A::Entries::with(c.entry, [&](auto e) { return gemm::Gemm<decltype(e)>::can_implement(args); }) ==
          Status::kSuccess);
    if (workspace == nullptr) {
      CHECK((c.entry != gemm::AutoEntry::kStreamK && c.entry != gemm::AutoEntry::kStreamK128));
    }
  };
  for (const CaseShape& s : {tma({1, 2048, 1024, 0, 1.0f, 0.5f}), tma({24, 4096, 512}), tma({48, 1024, 2048}),
                             tma({128, 4096, 256, 0, 1.0f, 1.0f}), tma({256, 512, 4096, 0, 1.0f, 0.5f}),
                             tma({1024, 1024, 128, 0, 1.0f, 1.0f}), tma({640, 1024, 520}), tma({1024, 2048, 64}),
                             tma({2048, 2048, 64, 0, 1.0f, 1.0f}), tma({4096, 4224, 16, 0, 1.0f, 1.0f}),
                             tma({4224, 4096, 16, 0, 1.0f, 0.5f}), tma({256, 256, 16384, 0, 1.0f, 0.5f}),
                             tma({256, 512, 16384}), CaseShape{1000, 33, 129, 5, 1.0f, 1.0f},
                             CaseShape{7, 1000, 101, 1, 1.0f, 0.5f}}) {
    check_gemm<A>(s, record);
    check_gemm<A>(in_place(s));
    CaseShape w = s;
    w.workspace = true;
    check_gemm<A>(w, record);
  }
  // Deep K on 16 tiles of 128 x 256 with a workspace: scheduler::StreamK<> (split-K through it).
  // (kStreamK128 needs 66 such tiles and K >= 16384, too large for the float64 reference here:
  // the rule's choice is a host test, the 128 x 128 StreamK kernel the stream-K suite's.)
  CaseShape deep = tma({512, 1024, 16384, 0, 1.0f, 0.5f});
  deep.workspace = true;
  deep.must_split = kRule;  // the rule splits it; the timed selector may not
  check_gemm<A>(deep, record);
  if constexpr (kRule) {
    // Every other entry of the table ran (tiles below 64 only with a row-major A).
    CHECK(chosen.size() == (A::LayoutA::kIsRowMajor ? 9u : 7u));
    CHECK(chosen.count(gemm::AutoEntry::kStreamK128) == 0);
  }
}

// Entries no shape of the rule reaches (the timed selector and the tuned mode may run them):
// each forced, on the layouts and paths every entry must take (AutoRule::runs says they run
// every valid argument): TMA with tails, realigning without a workspace, packed with one, in
// place with beta.
TEMPLATE_TEST_CASE("selector: the entries the rule never picks, forced, every layout and path", "[gpu][shapes][auto]",
                   (Auto<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (Auto<bfloat16_t, bfloat16_t, RowMajor, RowMajor, RowMajor>),
                   (Auto<half_t, float, ColumnMajor, RowMajor, ColumnMajor>),
                   (Auto<bfloat16_t, bfloat16_t, ColumnMajor, ColumnMajor, RowMajor>)) {
  using Tile64 = typename TestType::Entries::Tile64;
  CHECK(TestType::Entries::with(gemm::AutoEntry::kTile64, [](auto e) { return std::is_same_v<decltype(e), Tile64>; }));
  for (const CaseShape& s : {tma({8, 8, 8}), tma({72, 136, 200, 0, 1.0f, 0.5f}), tma({264, 520, 1000, 0, -1.0f, 1.0f}),
                             tma({1000, 40, 128}), tma({136, 4096, 72, 8, 1.0f, 0.0f}), tma({40, 64, 0, 0, 1.0f, 0.5f})}) {
    check_gemm<Tile64>(s);
    check_gemm<Tile64>(in_place(s));
  }
  for (const CaseShape& s : {CaseShape{1, 1, 1}, CaseShape{63, 65, 127, 1}, CaseShape{129, 127, 65, 3, 2.0f, -1.0f},
                             CaseShape{1000, 33, 129, 5, 1.0f, 1.0f}}) {
    check_gemm<Tile64>(s);
    CaseShape w = s;
    w.workspace = true;
    check_gemm<Tile64>(w);
    check_gemm<Tile64>(in_place(w));
  }
}

TEST_CASE("selector: explain says which kernel and why", "[gpu][shapes][auto]") {
  const auto* fake = reinterpret_cast<bfloat16_t*>(std::uintptr_t(1) << 20);
  auto args = [&](std::int64_t M, std::int64_t N, std::int64_t K, float beta) {
    return gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t>{M, N, K, fake, K, fake, K,
                                                               fake, N, const_cast<bfloat16_t*>(fake), N, 1.0f, beta};
  };
  const std::string decode = gemm::explain<AutoTn>(args(16, 4096, 4096, 0.0f));
  INFO(decode);
  CHECK(decode.find("WgmmaSmallM<16>") != std::string::npos);
  CHECK(decode.find("K split over clusters of") != std::string::npos);
  CHECK(decode.find("calibrated shapes nearest to the call") != std::string::npos);
  const std::string residual = gemm::explain<AutoTn>(args(4096, 4096, 4096, 1.0f));
  INFO(residual);
  CHECK(residual.find("C loaded by TMA") != std::string::npos);
  // The rule's reasons, and the workspace's effect on its choice.
  const auto deep = args(1024, 1024, 32768, 0.0f);
  const std::string bare = gemm::explain<AutoRuleTn>(deep);
  INFO(bare);
  CHECK(bare.find("ClusterSplitK<128 x 128 x 64>") != std::string::npos);
  CHECK(bare.find("given workspace_size(args) bytes of workspace: WgmmaConfig 128 x 256 x 64, Cooperative, "
                  "scheduler::StreamK<>") != std::string::npos);
  static const char any_workspace = 0;
  const std::string given = gemm::explain<AutoRuleTn>(deep, &any_workspace);
  INFO(given);
  CHECK(given.find("with a workspace: WgmmaConfig 128 x 256 x 64, Cooperative, scheduler::StreamK<>") !=
        std::string::npos);
  auto bad = args(16, 4096, 4096, 0.0f);
  bad.lda = 1;
  CHECK(gemm::explain<AutoTn>(bad).find("kErrorLeadingDimA") != std::string::npos);
}

// For compute-sanitizer (memcheck, racecheck, synccheck): the new kernels, small.
TEST_CASE("shapes sanitizer cross-section", "[gpu][shapes][sanitize]") {
  using Staged = Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 256, 64>,
                       Cooperative, gemm::option::StagingBoxes<4>>;
  check_gemm<Staged>(in_place(tma({264, 520, 136, 0, 1.0f, 1.0f})));
  check_gemm<Split<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>>(tma({256, 256, 2048, 0, 1.0f, 0.5f}));
  check_gemm<SmallM<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>>(in_place(tma({5, 1024, 1024, 0, 1.0f, 1.0f})));
}
