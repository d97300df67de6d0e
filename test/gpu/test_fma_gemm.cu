// GPU tests of the FMA GEMM: every element type and layout combination against the
// float64 reference, odd sizes, beta and in-place, unaligned operands, and every
// bad-input Status. Label `gpu`: skipped (exit 77) where no GPU exists.
#include "tessera/gemm/fma/fma.hpp"

#include "gemm_case.hpp"
#include "test_epilogues.hpp"

#include <iterator>
#include <tuple>

#include "tessera/gemm/select/dispatch.hpp"

using namespace tessera;
using tessera::test::CaseShape;
using tessera::test::check_gemm;

namespace {

template <class EA, class EB, class EC, class LA, class LB, class LC>
using Default = gemm::FmaConfig<Sm90, EA, LA, EB, LB, EC, LC>;
// The AMD default tile (128x128x8, 256 threads), run here on NVIDIA: the same kernel
// code but for the loads, which on AMD go through buffer descriptors.
template <class EA, class EB, class EC, class LA, class LB, class LC>
using SmallTile = gemm::FmaConfig<Sm90, EA, LA, EB, LB, EC, LC, gemm::option::Tile<GemmShape<128, 128, 8>>,
                                  gemm::option::ThreadTile<GemmShape<8, 8, 1>>, gemm::option::MinBlocksPerSm<2>>;

// The odd-size sweep every configuration runs.
const CaseShape kSweep[] = {
    {1, 1, 1},       {7, 7, 7, 0, 1.0f, 0.0f},  {33, 17, 9, 3, 0.5f, 2.0f},
    {127, 129, 33, 1, 1.0f, -1.0f},            {129, 127, 65, 0, -1.5f, 0.25f},
    {1000, 33, 129, 2, 1.0f, 0.0f},            {16, 300, 1000, 0, 1.0f, 1.0f},
    {4097, 7, 33, 0, 1.0f, 0.5f},              {257, 520, 17, 4, 2.0f, 0.0f},
    {300, 260, 48, 0, 1.0f, 0.0f},  // every dimension a multiple of 4: vector paths
    {64, 300, 1000, 0, 1.0f, 1.0f},  // the tile kernel split over K (16 x 300 x 1000: the small-M kernel)
};

// Every shape twice: without a workspace (never split) and with workspace_size() bytes
// (split-K wherever the tiles cannot fill the GPU, e.g. 16x300x1000 and 64x300x1000).
template <class Config, std::size_t kShapes = std::size(kSweep)>
void sweep(const CaseShape (&shapes)[kShapes] = kSweep) {
  for (CaseShape s : shapes) {
    check_gemm<Config>(s);
    s.workspace = true;
    check_gemm<Config>(s);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("fp32 FMA GEMM matches float64 for every layout combination", "[gpu][fp32]",
                   (Default<float, float, float, RowMajor, RowMajor, RowMajor>),
                   (Default<float, float, float, RowMajor, ColumnMajor, RowMajor>),
                   (Default<float, float, float, ColumnMajor, RowMajor, RowMajor>),
                   (Default<float, float, float, ColumnMajor, ColumnMajor, RowMajor>),
                   (Default<float, float, float, RowMajor, RowMajor, ColumnMajor>),
                   (Default<float, float, float, RowMajor, ColumnMajor, ColumnMajor>),
                   (Default<float, float, float, ColumnMajor, RowMajor, ColumnMajor>),
                   (Default<float, float, float, ColumnMajor, ColumnMajor, ColumnMajor>),
                   (SmallTile<float, float, float, RowMajor, RowMajor, RowMajor>),
                   (SmallTile<float, float, float, ColumnMajor, ColumnMajor, ColumnMajor>)) {
  sweep<TestType>();
}

TEMPLATE_TEST_CASE("f16/bf16 inputs with fp32 output", "[gpu][f16][bf16]",
                   (Default<half_t, half_t, float, RowMajor, RowMajor, RowMajor>),
                   (Default<half_t, half_t, float, ColumnMajor, ColumnMajor, ColumnMajor>),
                   (Default<half_t, half_t, float, RowMajor, ColumnMajor, RowMajor>),
                   (Default<half_t, half_t, float, ColumnMajor, RowMajor, ColumnMajor>),
                   (Default<bfloat16_t, bfloat16_t, float, RowMajor, RowMajor, RowMajor>),
                   (Default<bfloat16_t, bfloat16_t, float, ColumnMajor, ColumnMajor, ColumnMajor>),
                   (Default<bfloat16_t, bfloat16_t, float, RowMajor, ColumnMajor, ColumnMajor>),
                   (Default<bfloat16_t, bfloat16_t, float, ColumnMajor, RowMajor, RowMajor>)) {
  sweep<TestType>();
}

TEMPLATE_TEST_CASE("f16/bf16 inputs with f16/bf16 output", "[gpu][f16][bf16]",
                   (Default<half_t, half_t, half_t, RowMajor, RowMajor, RowMajor>),
                   (Default<half_t, half_t, half_t, ColumnMajor, RowMajor, ColumnMajor>),
                   (Default<half_t, half_t, half_t, RowMajor, ColumnMajor, ColumnMajor>),
                   (Default<half_t, half_t, half_t, ColumnMajor, ColumnMajor, RowMajor>),
                   (Default<bfloat16_t, bfloat16_t, bfloat16_t, RowMajor, RowMajor, RowMajor>),
                   (Default<bfloat16_t, bfloat16_t, bfloat16_t, ColumnMajor, ColumnMajor, ColumnMajor>),
                   (Default<bfloat16_t, bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (Default<bfloat16_t, bfloat16_t, bfloat16_t, ColumnMajor, RowMajor, ColumnMajor>),
                   (Default<half_t, half_t, bfloat16_t, RowMajor, RowMajor, RowMajor>)) {
  sweep<TestType>();
}

using RowF32 = Default<float, float, float, RowMajor, RowMajor, RowMajor>;
using ColF16 = Default<half_t, half_t, half_t, ColumnMajor, ColumnMajor, ColumnMajor>;

TEST_CASE("in place (C == D), beta != 0", "[gpu][inplace]") {
  for (CaseShape s : {CaseShape{129, 131, 67, 0, 1.0f, 1.0f}, CaseShape{64, 256, 16, 3, -2.0f, 0.5f},
                      CaseShape{1, 1000, 5, 0, 1.0f, -1.0f}}) {
    s.in_place = true;
    check_gemm<RowF32>(s);
    check_gemm<ColF16>(s);
  }
}

TEST_CASE("operands one element into their allocation take the scalar path", "[gpu][align]") {
  for (CaseShape s : {CaseShape{128, 256, 64, 0, 1.0f, 0.5f}, CaseShape{37, 41, 43, 1, 1.0f, 0.0f}}) {
    s.offset_pointers = true;
    check_gemm<RowF32>(s);
    check_gemm<ColF16>(s);
    check_gemm<Default<bfloat16_t, bfloat16_t, float, RowMajor, ColumnMajor, ColumnMajor>>(s);
  }
}

TEST_CASE("split-K matches float64 for every output layout and type", "[gpu][splitk]") {
  // Few output tiles, deep K: a split is chosen on any GPU with more than 2 SMs.
  // M and N not multiples of 4 (33 x 17, 130 x 67: one and several output tiles): a slice
  // offset with M and N swapped differs from the right one there, and the workspace is
  // guarded on both sides (gemm_case.hpp).
  const CaseShape shapes[] = {{100, 200, 5000, 0, 1.0f, 0.0f},  {512, 512, 4096, 1, 0.5f, 2.0f},
                              {1, 1, 20000, 0, 1.0f, 1.0f},     {130, 7, 3001, 3, -1.0f, 0.25f},
                              {33, 17, 3001, 0, 1.0f, 0.5f},    {130, 67, 4001, 1, -1.0f, 0.25f}};
  for (CaseShape s : shapes) {
    s.workspace = true;
    s.must_split = true;
    check_gemm<RowF32>(s);
    check_gemm<ColF16>(s);
    check_gemm<SmallTile<float, float, float, ColumnMajor, RowMajor, ColumnMajor>>(s);
    check_gemm<Default<bfloat16_t, bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>>(s);
    s.in_place = true;
    check_gemm<RowF32>(s);
  }
}

// ---- small M: the small-M kernel (fma/small_m_kernel.hpp), taken by itself for M <= 16 ------

// The shapes each small-M configuration runs: M of 1 to 16 (two kernel tiles: 8 and 16 rows)
// with odd N and K, K tails inside a chunk and a split slice, padded leading dimensions, alpha
// and beta; the decode shape itself, and K deep enough that the split is chosen.
const CaseShape kSmallM[] = {
    {1, 1, 1},                         {3, 7, 5, 0, 1.0f, 0.0f},           {5, 131, 77, 1, -1.0f, 0.25f},
    {8, 128, 64, 0, 1.0f, 0.0f},       {9, 257, 129, 3, 0.5f, 2.0f},       {16, 300, 1000, 0, 1.0f, 1.0f},
    {12, 4100, 260, 2, 1.5f, -0.5f},   {16, 1, 2000, 0, 1.0f, 0.0f},       {1, 1000, 3001, 3, 0.5f, 2.0f},
    {8, 4096, 4096, 0, 1.0f, 0.0f},
};

TEMPLATE_TEST_CASE("small M streams B: every layout and type matches float64", "[gpu][small_m]",
                   (Default<float, float, float, RowMajor, ColumnMajor, RowMajor>),
                   (Default<float, float, float, RowMajor, RowMajor, RowMajor>),
                   (Default<float, float, float, ColumnMajor, ColumnMajor, RowMajor>),
                   (Default<float, float, float, ColumnMajor, RowMajor, ColumnMajor>),
                   (Default<float, float, float, RowMajor, ColumnMajor, ColumnMajor>),
                   (Default<half_t, half_t, float, RowMajor, ColumnMajor, RowMajor>),
                   (Default<bfloat16_t, bfloat16_t, bfloat16_t, ColumnMajor, RowMajor, ColumnMajor>)) {
  sweep<TestType>(kSmallM);
}

TEST_CASE("small M: every M from 1 to 64 on both sides of the bound", "[gpu][small_m]") {
  using RowCol = Default<float, float, float, RowMajor, ColumnMajor, RowMajor>;
  for (std::int64_t m = 1; m <= 64; ++m) {
    CaseShape s{m, 133, 301, m % 3, 1.0f, m % 2 ? 0.5f : 0.0f};
    s.workspace = m % 4 == 0;
    check_gemm<RowCol>(s);
    check_gemm<RowF32>(s);
  }
}

TEST_CASE("small M: split K over blocks, in place, scalar paths", "[gpu][small_m][splitk]") {
  using RowCol = Default<float, float, float, RowMajor, ColumnMajor, RowMajor>;
  using ColD = Default<float, float, float, RowMajor, ColumnMajor, ColumnMajor>;
  // N few 128-column tiles, K deep: split on any GPU with more than a few SMs.
  const CaseShape shapes[] = {{8, 4096, 4096, 0, 1.0f, 0.0f},   {16, 257, 5003, 1, -1.0f, 0.25f},
                              {1, 33, 20000, 0, 1.0f, 1.0f},    {7, 1000, 3001, 3, 0.5f, 2.0f}};
  for (CaseShape s : shapes) {
    s.workspace = true;
    s.must_split = true;
    check_gemm<RowCol>(s);
    check_gemm<RowF32>(s);
    check_gemm<ColD>(s);
    check_gemm<ColF16>(s);
    s.in_place = true;
    check_gemm<RowCol>(s);
    check_gemm<ColD>(s);
    s.in_place = false;
    s.offset_pointers = true;  // B, C and D one element in: every 4-element access is scalar
    check_gemm<RowCol>(s);
    check_gemm<RowF32>(s);
  }
  // A request not to split is honoured (one block per tile over the whole K).
  CaseShape s{8, 520, 4096, 0, 1.0f, 0.5f};
  s.workspace = true;
  s.split.mode = gemm::Decomposition::kDataParallel;
  check_gemm<RowCol>(s);
}

TEST_CASE("a misaligned workspace is refused", "[gpu][splitk][status]") {
  const std::int64_t M = 64, N = 64, K = 4096;
  std::vector<float> a(std::size_t(M * K)), b(std::size_t(K * N)), d(std::size_t(M * N));
  test::fill_random(a, 11);
  test::fill_random(b, 12);
  test::poison(d);
  test::DeviceBuffer<float> da(a), db(b), dd(d);
  const gemm::Arguments<float, float, float> args{M, N, K, da.ptr, K, db.ptr, N, nullptr, N, dd.ptr, N, 1.0f, 0.0f};
  const std::size_t bytes = gemm::Gemm<RowF32>::workspace_size(args);
  REQUIRE(bytes > 0);
  char* ws = nullptr;
  REQUIRE_CUDA(cudaMalloc(&ws, bytes + 16));
  CHECK(gemm::Gemm<RowF32>::run(args, ws + 4) == Status::kErrorWorkspaceMisaligned);
  CHECK(gemm::Gemm<RowF32>::run(args, ws + 16) == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE_CUDA(cudaFree(ws));
}

TEST_CASE("K = 0 gives D = beta * C; alpha = 0 ignores A*B", "[gpu][edge]") {
  check_gemm<RowF32>({33, 65, 0, 0, 1.0f, 0.5f});
  check_gemm<RowF32>({33, 65, 0, 0, 1.0f, 0.0f});  // D = 0
  check_gemm<ColF16>({70, 20, 0, 2, 3.0f, -1.0f});
  check_gemm<RowF32>({100, 100, 50, 0, 0.0f, 1.0f});
}

TEST_CASE("shapes that fill the machine", "[gpu][large]") {
  check_gemm<RowF32>({1024, 1024, 1024});
  check_gemm<RowF32>({1031, 1553, 777, 1, 1.0f, 1.0f});
  check_gemm<Default<bfloat16_t, bfloat16_t, float, ColumnMajor, RowMajor, RowMajor>>({1024, 768, 1536});
}

TEST_CASE("beta == 0 never reads C, even when C holds NaN", "[gpu][edge]") {
  const std::int64_t M = 65, N = 70, K = 33;
  std::vector<float> a(std::size_t(M * K)), b(std::size_t(K * N)), c(std::size_t(M * N), NAN),
      d(std::size_t(M * N));
  test::fill_random(a, test::fresh_seed());
  test::fill_random(b, test::fresh_seed() + 7);
  test::poison(d);
  test::DeviceBuffer<float> da(a), db(b), dc(c), dd(d);
  gemm::Arguments<float, float, float> args{M, N, K, da.ptr, K, db.ptr, N, dc.ptr, N, dd.ptr, N, 1.0f, 0.0f};
  REQUIRE(gemm::Gemm<RowF32>::run(args) == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::vector<float> out = dd.download_with_guard();
  for (std::int64_t i = 0; i < M * N; ++i) REQUIRE(std::isfinite(out[std::size_t(i)]));
}

TEST_CASE("bad arguments return a Status naming the problem and write nothing", "[gpu][status]") {
  const std::int64_t M = 40, N = 48, K = 24;
  std::vector<float> a(std::size_t(M * K)), b(std::size_t(K * N)), c(std::size_t(M * N)), d(std::size_t(M * N));
  test::fill_random(a, 1);
  test::fill_random(b, 2);
  test::fill_random(c, 3);
  test::poison(d);
  test::DeviceBuffer<float> da(a), db(b), dc(c), dd(d);
  const gemm::Arguments<float, float, float> good{M, N, K, da.ptr, K, db.ptr, N, dc.ptr, N, dd.ptr, N, 1.0f, 1.0f};
  auto expect = [&](Status want, auto mutate) {
    auto args = good;
    mutate(args);
    const Status got = gemm::Gemm<RowF32>::run(args);
    INFO("want " << status_name(want) << ", got " << status_name(got));
    CHECK(got == want);
  };
  expect(Status::kErrorNegativeSize, [](auto& x) { x.M = -1; });
  expect(Status::kErrorNegativeSize, [](auto& x) { x.K = -3; });
  expect(Status::kErrorLeadingDimA, [](auto& x) { x.lda = K - 1; });
  expect(Status::kErrorLeadingDimB, [](auto& x) { x.ldb = N - 1; });
  expect(Status::kErrorLeadingDimC, [](auto& x) { x.ldc = 0; });
  expect(Status::kErrorLeadingDimD, [](auto& x) { x.ldd = N - 1; });
  expect(Status::kErrorNullA, [](auto& x) { x.A = nullptr; });
  expect(Status::kErrorNullB, [](auto& x) { x.B = nullptr; });
  expect(Status::kErrorNullC, [](auto& x) { x.C = nullptr; });
  expect(Status::kErrorNullD, [](auto& x) { x.D = nullptr; });
  expect(Status::kErrorMisalignedA, [](auto& x) { x.A = reinterpret_cast<const float*>(reinterpret_cast<const char*>(x.A) + 2); });
  expect(Status::kErrorMisalignedD, [](auto& x) { x.D = reinterpret_cast<float*>(reinterpret_cast<char*>(x.D) + 1); });
  // Leading dimensions so large that a tile's offsets pass 2^31 bytes: refused before any
  // memory is touched (the pointers are never dereferenced).
  expect(Status::kErrorOffsetOverflow, [](auto& x) { x.lda = std::int64_t(1) << 28; });
  // K past 2^31 (the kernel counts K in 32 bits): refused before anything is read.
  using ColA = Default<float, float, float, ColumnMajor, RowMajor, RowMajor>;
  auto huge_k = good;
  huge_k.K = std::int64_t(1) << 31;
  huge_k.lda = M;
  CHECK(gemm::Gemm<ColA>::run(huge_k) == Status::kErrorOffsetOverflow);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::vector<float> out = dd.download_with_guard();
  for (const float v : out) REQUIRE(test::is_poison(v));  // no call wrote anything
  // Empty products succeed and write nothing either.
  auto empty = good;
  empty.M = 0;
  CHECK(gemm::Gemm<RowF32>::run(empty) == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (const float v : dd.download_with_guard()) REQUIRE(test::is_poison(v));
}

// A small cross-section for compute-sanitizer (memcheck, racecheck): edge tiles, both
// tile configurations, every operand path (vector, scalar, transposing stores).
TEST_CASE("sanitizer cross-section", "[gpu][sanitize]") {
  const CaseShape shapes[] = {{129, 257, 33, 1, 1.0f, 0.5f}, {7, 5, 3}, {256, 256, 32, 0, 1.0f, 0.0f}};
  for (const CaseShape& s : shapes) {
    check_gemm<RowF32>(s);
    check_gemm<ColF16>(s);
    check_gemm<SmallTile<float, float, float, ColumnMajor, RowMajor, ColumnMajor>>(s);
    check_gemm<Default<bfloat16_t, bfloat16_t, float, RowMajor, ColumnMajor, RowMajor>>(s);
  }
  CaseShape in_place{65, 70, 17, 0, 1.0f, 1.0f};
  in_place.in_place = true;
  check_gemm<RowF32>(in_place);
  CaseShape split{129, 131, 2000, 1, 1.0f, 0.5f};
  split.workspace = split.must_split = true;
  check_gemm<RowF32>(split);
  check_gemm<ColF16>(split);
  // The small-M kernel, split over blocks, both layouts of B.
  CaseShape small_m{8, 520, 2000, 1, 1.0f, 0.5f};
  small_m.workspace = small_m.must_split = true;
  check_gemm<RowF32>(small_m);
  check_gemm<Default<float, float, float, RowMajor, ColumnMajor, RowMajor>>(small_m);
}

TEST_CASE("a configuration for another architecture is refused before launching", "[gpu][status][arch]") {
  DeviceInfo info;
  REQUIRE(current_device(&info) == Status::kSuccess);
  INFO("device " << info.arch_name);
  // On a Hopper GPU the Blackwell configuration is the wrong one, elsewhere the Hopper one;
  // the dispatcher over both picks the right one.
  using ForSm100 = gemm::FmaConfig<Sm100, float, RowMajor, float, RowMajor, float, RowMajor>;
  using Both = gemm::Dispatch<RowF32, ForSm100>;
  const std::int64_t M = 33, N = 40, K = 17;
  std::vector<float> a(std::size_t(M * K)), b(std::size_t(K * N)), d(std::size_t(M * N));
  test::fill_random(a, test::fresh_seed());
  test::fill_random(b, test::fresh_seed() + 1);
  test::poison(d);
  test::DeviceBuffer<float> da(a), db(b), dd(d);
  const gemm::Arguments<float, float, float> args{M, N, K, da.ptr, K, db.ptr, N, nullptr, N, dd.ptr, N, 1.0f, 0.0f};
  const Status wrong = gemm::Gemm<RowF32>::supports(info) ? gemm::Gemm<ForSm100>::run(args)
                                                          : gemm::Gemm<RowF32>::run(args);
  CHECK(wrong == Status::kErrorWrongArchitecture);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  for (const float v : dd.download_with_guard()) REQUIRE(test::is_poison(v));  // nothing written
  if (Both::chosen_arch(info) == nullptr) return;  // neither Hopper nor Blackwell
  CHECK(Both::run(args) == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const std::vector<float> out = dd.download_with_guard();
  for (std::size_t i = 0; i < std::size_t(M * N); ++i) REQUIRE(!test::is_poison(out[i]));
}

// ---- the configuration's epilogue and D's own element type -------------------------------

TEST_CASE("FMA GEMM: a test-only epilogue, and D of another type than C", "[gpu][epilogue]") {
  using tessera::test::EpilogueCase;
  using tessera::test::ScaleAndAddRow;
  using tessera::test::TimesCPlusColumn;
  using Scale = gemm::FmaConfig<Sm90, float, RowMajor, float, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 16>>,
                                gemm::option::ThreadTile<GemmShape<16, 8, 1>>,
                                gemm::option::Epilogue<ScaleAndAddRow>>;
  using TimesC = gemm::FmaConfig<Sm90, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 16>>,
                                 gemm::option::ThreadTile<GemmShape<16, 8, 1>>,
                                 gemm::option::Epilogue<TimesCPlusColumn>, gemm::option::OutputElement<float>>;
  using Mixed = gemm::FmaConfig<Sm90, half_t, RowMajor, half_t, RowMajor, half_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 256, 16>>,
                                gemm::option::ThreadTile<GemmShape<16, 8, 1>>, gemm::option::OutputElement<float>>;
  EpilogueCase<Scale> scale;
  scale.arguments.scale = 3.0f;
  scale.expected = [](double ab, double, std::int64_t m, std::int64_t) { return 3.0 * ab + double(m); };
  EpilogueCase<TimesC> times_c;
  times_c.expected = [](double ab, double c, std::int64_t, std::int64_t n) { return ab * c + double(n); };
  for (CaseShape s :
       {CaseShape{33, 17, 9}, CaseShape{129, 300, 65, 1}, CaseShape{16, 300, 1000}, CaseShape{64, 300, 1000}}) {
    check_gemm<Scale>(s, tessera::test::NoArgsCheck{}, scale);
    check_gemm<TimesC>(s, tessera::test::NoArgsCheck{}, times_c);
    s.beta = 0.5f;
    check_gemm<Mixed>(s);
    s.workspace = true;  // through split-K's fix-up where it splits (16 and 64 x 300 x 1000)
    check_gemm<Scale>(s, tessera::test::NoArgsCheck{}, scale);
    check_gemm<TimesC>(s, tessera::test::NoArgsCheck{}, times_c);
    check_gemm<Mixed>(s);
  }
}
