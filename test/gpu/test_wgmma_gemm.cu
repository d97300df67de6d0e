// GPU tests of the Hopper tensor-core family (WgmmaConfig): every type, layout,
// schedule and cluster shape shipped, every path (TMA; packed copies with a workspace and
// realigning loads without one, for operands TMA cannot describe), odd sizes, K tails, beta != 0, C == D, against the float64 reference
// with poisoned outputs; every bad-input Status. Label `gpu`; needs an sm_90 device
// (skipped elsewhere by gpu_main.cpp's device check, refused with kErrorWrongArchitecture
// by the host API on other GPUs).
#include "tessera/gemm/wgmma/wgmma.hpp"

#include "gemm_case.hpp"
#include "test_epilogues.hpp"

using namespace tessera;
using gemm::TmaPath;
using tessera::test::CaseShape;
using tessera::test::check_gemm;

namespace {

using gemm::ClusterShape;
using schedule::Cooperative;
using schedule::Pingpong;

template <class EA, class EC, class LA, class LB, class LC, class Tile = GemmShape<128, 256, 64>,
          class Schedule = schedule::AutoSm90, class Cluster = ClusterShape<1, 1>>
using Wgmma = gemm::WgmmaConfig<EA, LA, EA, LB, EC, LC, gemm::option::Tile<Tile>, gemm::option::Schedule<Schedule>,
                                gemm::option::Cluster<Cluster::kM, Cluster::kN>>;

using Bf16Tn = Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>;  // both K-major

// Requires the path the call takes.
template <class Config>
auto expect_path(TmaPath want) {
  return [want](const auto& args, const void* workspace) {
    const TmaPath got = gemm::tma_path<Config>(args, workspace);
    INFO("path " << gemm::path_name(got));
    REQUIRE(got == want);
  };
}

// The same case with workspace_size() bytes of workspace (poisoned: the copies' padding
// must be written before TMA reads it).
CaseShape with_workspace(CaseShape s) {
  s.workspace = true;
  return s;
}

// TMA path: every extent and leading dimension a multiple of 8 elements (16 bytes: the
// copy engine's unit along the contiguous dimension, tma.hpp), none a multiple of the
// tile, so TMA clips and zero-fills partial tiles and K tails.
CaseShape tma(CaseShape s) {
  s.ld_multiple = 8;
  return s;
}
const CaseShape kTmaSweep[] = {
    tma({8, 8, 8}),          tma({8, 16, 24, 0, 1.0f, 0.5f}),   tma({72, 136, 200, 0, -1.0f, 0.0f}),
    tma({136, 264, 72, 8}),  tma({256, 256, 64}),               tma({264, 520, 200, 0, 1.5f, -0.25f}),
    tma({1000, 40, 128}),    tma({16, 304, 1000, 0, 1.0f, 1.0f}),
};
// Extents or leading dimensions that are not multiples of 8: the realigning path without a
// workspace, the packed path with one.
const CaseShape kRealigningSweep[] = {
    {1, 1, 1},           {7, 7, 7, 0, 1.0f, 0.5f},       {63, 65, 127, 1},
    {129, 127, 65, 3, 2.0f, -1.0f},  {257, 130, 100, 1},  {1000, 33, 129, 5, 1.0f, 1.0f},
};

template <class Config>
void sweep() {
  for (const CaseShape& s : kTmaSweep) check_gemm<Config>(s, expect_path<Config>(TmaPath::kTma));
  for (const CaseShape& s : kRealigningSweep) {
    check_gemm<Config>(s, expect_path<Config>(TmaPath::kRealigning));
    check_gemm<Config>(with_workspace(s), expect_path<Config>(TmaPath::kPacked));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("wgmma GEMM: every A/B layout, bf16 and fp16", "[gpu][wgmma][layout]",
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, RowMajor, RowMajor>),
                   (Wgmma<bfloat16_t, bfloat16_t, ColumnMajor, ColumnMajor, RowMajor>),
                   (Wgmma<bfloat16_t, bfloat16_t, ColumnMajor, RowMajor, RowMajor>),
                   (Wgmma<half_t, half_t, RowMajor, ColumnMajor, ColumnMajor>),
                   (Wgmma<half_t, half_t, ColumnMajor, RowMajor, ColumnMajor>)) {
  sweep<TestType>();
}

TEMPLATE_TEST_CASE("wgmma GEMM: fp32 and mixed outputs, both C/D layouts", "[gpu][wgmma][output]",
                   (Wgmma<bfloat16_t, float, RowMajor, ColumnMajor, RowMajor>),
                   (Wgmma<bfloat16_t, float, ColumnMajor, RowMajor, ColumnMajor>),
                   (Wgmma<half_t, float, RowMajor, RowMajor, RowMajor>),
                   (Wgmma<half_t, half_t, RowMajor, ColumnMajor, RowMajor>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, ColumnMajor>)) {
  sweep<TestType>();
}

TEMPLATE_TEST_CASE("wgmma GEMM: schedules and tiles", "[gpu][wgmma][schedule]",
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 256, 64>, Cooperative>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 128, 64>, Pingpong>),
                   (Wgmma<bfloat16_t, bfloat16_t, ColumnMajor, RowMajor, RowMajor, GemmShape<64, 256, 64>, Pingpong>),
                   (Wgmma<half_t, float, RowMajor, RowMajor, ColumnMajor, GemmShape<256, 128, 64>, Cooperative>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 192, 64>, Cooperative>)) {
  sweep<TestType>();
}

TEMPLATE_TEST_CASE("wgmma GEMM: clusters with TMA multicast", "[gpu][wgmma][cluster]",
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 256, 64>,
                          Cooperative, ClusterShape<2, 1>>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 256, 64>,
                          Cooperative, ClusterShape<1, 2>>),
                   (Wgmma<half_t, float, ColumnMajor, RowMajor, RowMajor, GemmShape<128, 256, 64>,
                          Cooperative, ClusterShape<2, 1>>),
                   (Wgmma<bfloat16_t, bfloat16_t, RowMajor, RowMajor, ColumnMajor, GemmShape<128, 128, 64>,
                          Pingpong, ClusterShape<2, 2>>)) {
  sweep<TestType>();
}

TEST_CASE("wgmma GEMM: in place (C == D), beta != 0", "[gpu][wgmma][inplace]") {
  for (CaseShape s : {tma({136, 128, 72, 0, 1.0f, 1.0f}), CaseShape{64, 256, 16, 3, -2.0f, 0.5f},
                      tma({8, 1000, 8, 0, 1.0f, -1.0f})}) {
    s.in_place = true;
    check_gemm<Bf16Tn>(s);
    check_gemm<Wgmma<half_t, float, ColumnMajor, RowMajor, ColumnMajor>>(s);
    // Packed: C read from the caller's buffer, D (where TMA cannot describe it, the pad 3
    // case) written to its copy and copied over C afterwards.
    check_gemm<Bf16Tn>(with_workspace(s));
    check_gemm<Wgmma<half_t, float, ColumnMajor, RowMajor, ColumnMajor>>(with_workspace(s));
  }
}

TEST_CASE("wgmma GEMM: operands one element off alignment take the realigning or packed path",
          "[gpu][wgmma][align]") {
  for (CaseShape s : {tma({128, 256, 64, 0, 1.0f, 0.5f}), tma({40, 48, 56, 0, 1.0f, 0.0f})}) {
    s.offset_pointers = true;
    check_gemm<Bf16Tn>(s, expect_path<Bf16Tn>(TmaPath::kRealigning));
    check_gemm<Bf16Tn>(with_workspace(s), expect_path<Bf16Tn>(TmaPath::kPacked));
    check_gemm<Wgmma<half_t, float, ColumnMajor, RowMajor, ColumnMajor>>(s);
    check_gemm<Wgmma<half_t, float, ColumnMajor, RowMajor, ColumnMajor>>(with_workspace(s));
  }
}

// The packed path one operand at a time (the others as they are), with a workspace (D, if
// TMA cannot describe it, through a copy) and, where only D is misaligned, without one (D
// written with direct stores).
TEST_CASE("wgmma GEMM: packed path, operand by operand", "[gpu][wgmma][packed]") {
  using Nn = Wgmma<half_t, float, ColumnMajor, RowMajor, ColumnMajor>;
  // pad 1 on every ld: A, B and D copied; a K tail of 11 (203 = 3 x 64 + 11).
  check_gemm<Bf16Tn>(with_workspace({136, 264, 203, 1, 1.0f, 0.5f}), expect_path<Bf16Tn>(TmaPath::kPacked));
  check_gemm<Nn>(with_workspace({136, 264, 203, 1, 1.0f, 0.5f}), expect_path<Nn>(TmaPath::kPacked));
  // Odd M only: column-major A and D are copied, row-major B stays.
  check_gemm<Nn>(with_workspace({129, 256, 64, 0, 1.0f, -1.0f}), expect_path<Nn>(TmaPath::kPacked));
  // Odd N only, with A row-major and B column-major (N lines of K): A and B stay, row-major
  // D (N wide) is copied out with a workspace, stored directly without one; in place too.
  using Bf16F32 = Wgmma<bfloat16_t, float, RowMajor, ColumnMajor, RowMajor>;
  for (const bool workspace : {true, false}) {
    CaseShape s = tma({256, 129, 64, 0, 1.0f, 0.5f});
    s.workspace = workspace;
    check_gemm<Bf16Tn>(s, expect_path<Bf16Tn>(TmaPath::kPacked));
    check_gemm<Bf16F32>(s, expect_path<Bf16F32>(TmaPath::kPacked));  // fp32 D
    s.beta = 1.0f;
    s.in_place = true;
    check_gemm<Bf16Tn>(s, expect_path<Bf16Tn>(TmaPath::kPacked));
  }
}

TEST_CASE("wgmma GEMM: K = 0 gives D = beta * C; alpha = 0", "[gpu][wgmma][edge]") {
  check_gemm<Bf16Tn>(tma({40, 64, 0, 0, 1.0f, 0.5f}));
  check_gemm<Bf16Tn>(tma({40, 64, 0, 0, 1.0f, 0.0f}));
  check_gemm<Bf16Tn>({70, 20, 0, 2, 3.0f, -1.0f});
  check_gemm<Bf16Tn>(tma({100, 100, 50, 0, 0.0f, 1.0f}));
}

TEST_CASE("wgmma GEMM: shapes that fill the machine", "[gpu][wgmma][large]") {
  check_gemm<Bf16Tn>(tma({1024, 1024, 1024}));
  check_gemm<Bf16Tn>({1031, 1553, 777, 1, 1.0f, 1.0f});
  check_gemm<Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 256, 64>, Cooperative,
                   ClusterShape<2, 1>>>(tma({2048, 1536, 1000, 0, 1.0f, 0.5f}));
  check_gemm<Wgmma<half_t, half_t, ColumnMajor, RowMajor, ColumnMajor, GemmShape<128, 128, 64>, Pingpong>>(
      tma({1536, 1040, 520}));
}

TEST_CASE("wgmma GEMM: bad arguments return a Status naming the problem and write nothing",
          "[gpu][wgmma][status]") {
  const std::int64_t M = 40, N = 48, K = 24;
  std::vector<bfloat16_t> a(std::size_t(M * K)), b(std::size_t(K * N)), c(std::size_t(M * N)),
      d(std::size_t(M * N));
  test::fill_random(a, 1);
  test::fill_random(b, 2);
  test::fill_random(c, 3);
  test::poison(d);
  test::DeviceBuffer<bfloat16_t> da(a), db(b), dc(c), dd(d);
  using G = gemm::Gemm<Bf16Tn>;
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> good{M, N, K, da.ptr, K, db.ptr, K,
                                                                 dc.ptr, N, dd.ptr, N, 1.0f, 1.0f};
  auto expect = [&](Status want, auto mutate) {
    auto args = good;
    mutate(args);
    const Status got = G::run(args);
    INFO("want " << status_name(want) << ", got " << status_name(got));
    CHECK(got == want);
  };
  expect(Status::kErrorNegativeSize, [](auto& x) { x.N = -1; });
  expect(Status::kErrorLeadingDimA, [](auto& x) { x.lda = K - 1; });
  expect(Status::kErrorLeadingDimB, [](auto& x) { x.ldb = K - 1; });
  expect(Status::kErrorLeadingDimC, [](auto& x) { x.ldc = N - 1; });
  expect(Status::kErrorLeadingDimD, [](auto& x) { x.ldd = 0; });
  expect(Status::kErrorNullA, [](auto& x) { x.A = nullptr; });
  expect(Status::kErrorNullB, [](auto& x) { x.B = nullptr; });
  expect(Status::kErrorNullC, [](auto& x) { x.C = nullptr; });
  expect(Status::kErrorNullD, [](auto& x) { x.D = nullptr; });
  expect(Status::kErrorMisalignedA,
         [](auto& x) { x.A = reinterpret_cast<const bfloat16_t*>(reinterpret_cast<const char*>(x.A) + 1); });
  expect(Status::kErrorMisalignedD, [](auto& x) { x.D = reinterpret_cast<bfloat16_t*>(reinterpret_cast<char*>(x.D) + 1); });
  expect(Status::kErrorDimensionTooLarge, [](auto& x) {
    x.K = std::int64_t(1) << 31;
    x.lda = x.ldb = x.K;
  });
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (const bfloat16_t v : dd.download_with_guard()) REQUIRE(test::is_poison(v));
  auto empty = good;
  empty.M = 0;
  CHECK(G::run(empty) == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (const bfloat16_t v : dd.download_with_guard()) REQUIRE(test::is_poison(v));
}

// A small cross-section for compute-sanitizer (memcheck, racecheck, synccheck): both
// paths, both schedules, a cluster, edges, in place.
TEST_CASE("wgmma sanitizer cross-section", "[gpu][wgmma][sanitize]") {
  using Pp = Wgmma<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor, GemmShape<128, 128, 64>, Pingpong>;
  using Cl = Wgmma<half_t, float, ColumnMajor, RowMajor, ColumnMajor, GemmShape<128, 256, 64>, Cooperative,
                   ClusterShape<2, 1>>;
  for (const CaseShape& s : {tma({136, 264, 104, 0, 1.0f, 0.5f}), CaseShape{67, 130, 70, 1, 1.0f, 0.5f},
                             tma({256, 512, 128})}) {
    check_gemm<Bf16Tn>(s);
    check_gemm<Pp>(s);
    check_gemm<Cl>(s);
  }
  check_gemm<Bf16Tn>(with_workspace({67, 130, 70, 1, 1.0f, 0.5f}));  // the packed path's copies
  check_gemm<Cl>(with_workspace({67, 130, 70, 1, 1.0f, 0.5f}));
  check_gemm<Bf16Tn>(tma({256, 129, 64, 0, 1.0f, 0.5f}));  // packed, no workspace: direct stores of D
  CaseShape in_place = tma({72, 72, 24, 0, 1.0f, 1.0f});
  in_place.in_place = true;
  check_gemm<Bf16Tn>(in_place);
}

// The kernels' shared memory is the plan's: no static shared memory beside it, and the
// dynamic size the launcher opts in to is exactly the plan's total (ptxas reports only the
// static part, so this is where "smem = plan" is checked).
TEST_CASE("wgmma kernels use exactly the planned shared memory", "[gpu][wgmma][plan]") {
  check_gemm<Bf16Tn>(tma({256, 256, 64}));        // a TMA-path launch sets the attribute
  check_gemm<Bf16Tn>({67, 130, 70, 1});           // and a generic one
  cudaFuncAttributes tma_attr{}, realigning_attr{};
  REQUIRE_CUDA(cudaFuncGetAttributes(&tma_attr, gemm::wgmma_gemm_kernel<Bf16Tn, TmaPath::kTma>));
  REQUIRE_CUDA(cudaFuncGetAttributes(&realigning_attr, gemm::wgmma_gemm_kernel<Bf16Tn, TmaPath::kRealigning>));
  CHECK(tma_attr.sharedSizeBytes == 0);
  CHECK(realigning_attr.sharedSizeBytes == 0);
  CHECK(std::size_t(tma_attr.maxDynamicSharedSizeBytes) == gemm::WgmmaSmemPlan<Bf16Tn>::Plan::kTotalBytes);
  CHECK(std::size_t(realigning_attr.maxDynamicSharedSizeBytes) == gemm::WgmmaSmemPlan<Bf16Tn>::RealigningPlan::kTotalBytes);
  CHECK(tma_attr.localSizeBytes == 0);
  CHECK(realigning_attr.localSizeBytes == 0);
}

// ---- the configuration's epilogue and D's own element type -------------------------------

TEST_CASE("wgmma GEMM: a test-only epilogue, and D of another type than C, on every path", "[gpu][wgmma][epilogue]") {
  using tessera::test::EpilogueCase;
  using tessera::test::ScaleAndAddRow;
  using tessera::test::TimesCPlusColumn;
  using Tile = GemmShape<128, 256, 64>;
  using Scale = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                  gemm::option::Tile<Tile>,
                                  gemm::option::Epilogue<ScaleAndAddRow>>;
  using TimesC = gemm::WgmmaConfig<half_t, ColumnMajor, half_t, RowMajor, half_t, ColumnMajor,
                                   gemm::option::Tile<GemmShape<128, 128, 64>>,
                                   gemm::option::Schedule<schedule::Pingpong>,
                                   gemm::option::Epilogue<TimesCPlusColumn>, gemm::option::OutputElement<float>>;
  using Mixed = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                  gemm::option::Tile<Tile>, gemm::option::Cluster<2, 1>,
                                  gemm::option::OutputElement<bfloat16_t>>;
  EpilogueCase<Scale> scale;
  scale.arguments.scale = 3.0f;
  scale.expected = [](double ab, double, std::int64_t m, std::int64_t) { return 3.0 * ab + double(m); };
  EpilogueCase<TimesC> times_c;
  times_c.expected = [](double ab, double c, std::int64_t, std::int64_t n) { return ab * c + double(n); };
  // Aligned (TMA path), one element off (packed path with a workspace, generic without).
  for (CaseShape s : {CaseShape{300, 520, 130, 0, 1.0f, 0.0f, false, false, false, false, 8},
                      CaseShape{129, 257, 71, 1}}) {
    for (bool workspace : {false, true}) {
      s.workspace = workspace;
      s.beta = 0.0f;
      check_gemm<Scale>(s, tessera::test::NoArgsCheck{}, scale);
      check_gemm<TimesC>(s, tessera::test::NoArgsCheck{}, times_c);
      s.beta = 0.75f;
      check_gemm<Mixed>(s);
    }
  }
}
