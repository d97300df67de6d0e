// GPU tests of the wgmma family with fp8 operands: every scale mode (per tensor, per row and
// column, 1x128 / 128x128 blocks; promoted, and fast for per row/column), every D type (bf16,
// fp16, fp32, e4m3 and e5m2 with a D scale and amax), e4m3 x e4m3, e4m3 x e5m2, e5m2 x e4m3
// and e5m2 x e5m2, every path (TMA; odd extents
// and leading dimensions: packed with a workspace, generic without), K not a multiple of 128
// (a partial last scale block), C == D with beta, K = 0, a K = 16384 problem with block
// scales spanning 2^-20 .. 2^20; a narrow N tile (32: the transposed small-M tiles' width); bad
// arguments return a named Status and leave D untouched.
// Each element within its derived error bound (fp8_case.hpp). Label `gpu`; needs sm_90.
#include "fp8_case.hpp"
#include "fp8_configs.hpp"

using namespace tessera;
using namespace tessera::test::fp8;
using gemm::TmaPath;
using test::check_fp8;
using test::Fp8Case;

namespace {

Fp8Case with_workspace(Fp8Case s) {
  s.workspace = true;
  return s;
}

// Every extent and leading dimension a multiple of 16 bytes (TMA), none a multiple of the
// tile; K tails of 16 (272, 1040) and 0 (a whole last scale block).
const Fp8Case kTmaSweep[] = {
    {128, 128, 128},
    {200, 256, 384, 16, 1.0f, 0.5f},
    {8, 16, 32},
    {136, 128, 272, 0, -1.5f, 0.0f},
    {1000, 48, 1040},
    {64, 512, 144, 0, 1.0f, 1.0f},
};
// Extents or leading dimensions TMA cannot describe: the realigning path without a workspace,
// the packed path with one. K tails of 1, 33, 3, 72, 104.
const Fp8Case kOddSweep[] = {
    {1, 1, 1}, {7, 9, 33, 1, 1.0f, 0.5f}, {129, 127, 131, 3}, {257, 130, 200, 1, 2.0f, -1.0f}, {65, 300, 1000, 5},
};

template <class Config>
void sweep() {
  for (const Fp8Case& s : kTmaSweep) check_fp8<Config>(s);
  check_fp8<Config>({200, 256, 384}, expect_path<Config>(TmaPath::kTma));
  for (const Fp8Case& s : kOddSweep) {
    check_fp8<Config>(s, expect_path<Config>(TmaPath::kRealigning));
    check_fp8<Config>(with_workspace(s), expect_path<Config>(TmaPath::kPacked));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("wgmma fp8 GEMM: every scale mode, D type and operand pairing", "[gpu][fp8][modes]",
                   BlockBf16, BlockF32, TensorF16, RowColBf16, BlockE4m3D, TensorE5m2D, FastRowColE5m2F32,
                   TensorN32) {
  sweep<TestType>();
}

TEST_CASE("wgmma fp8 GEMM: a D scale on a 16-bit D, no amax", "[gpu][fp8][modes]") {
  Fp8Case s{264, 256, 520, 16, 0.75f, 0.25f};
  s.scale_d = true;
  check_fp8<BlockBf16>(s);
  check_fp8<TensorF16>(s);
  s.amax = false;
  check_fp8<RowColBf16>(s);
}

TEST_CASE("wgmma fp8 GEMM: in place (C == D), beta != 0", "[gpu][fp8][inplace]") {
  for (Fp8Case s : {Fp8Case{136, 128, 272, 16, 1.0f, 1.0f}, Fp8Case{64, 256, 64, 3, -2.0f, 0.5f}}) {
    s.in_place = true;
    check_fp8<BlockBf16>(s);
    check_fp8<BlockF32>(s);
    check_fp8<TensorE5m2D>(s);
    check_fp8<BlockBf16>(with_workspace(s));
  }
}

TEST_CASE("wgmma fp8 GEMM: K = 0 gives D = beta * C; alpha = 0", "[gpu][fp8][edge]") {
  check_fp8<BlockBf16>({40, 64, 0, 0, 1.0f, 0.5f});
  check_fp8<RowColBf16>({40, 64, 0, 0, 1.0f, 0.5f});
  check_fp8<TensorF16>({70, 20, 0, 2, 3.0f, -1.0f});
  check_fp8<BlockF32>({100, 128, 200, 0, 0.0f, 1.0f});
}

TEST_CASE("wgmma fp8 GEMM: K = 16384, block scales spanning 2^-20 .. 2^20", "[gpu][fp8][deep]") {
  for (const std::int64_t K : {std::int64_t(16384), std::int64_t(16384 + 80)}) {
    Fp8Case s{200, 264, K};
    s.scale_exponents = 20;
    s.report = true;
    check_fp8<BlockBf16>(s);
    check_fp8<BlockF32>(s);
  }
  Fp8Case s{256, 256, 16384};
  s.report = true;
  check_fp8<TensorF16>(s);
  check_fp8<RowColBf16>(s);
}

TEST_CASE("wgmma fp8 GEMM: bad arguments return a Status naming the problem and write nothing",
          "[gpu][fp8][status]") {
  using test::check_fp8_refused;
  using test::DeviceBuffer;
  const std::int64_t M = 40, N = 48, K = 300, k_blocks = 3;
  std::vector<e4m3> a(std::size_t(M * K), e4m3(1.0f)), b(std::size_t(K * N), e4m3(0.5f));
  std::vector<bfloat16_t> d(std::size_t(M * N));
  std::vector<e4m3> d8(std::size_t(M * N));
  test::poison(d);
  test::poison(d8);
  std::vector<float> scales(std::size_t(M * k_blocks + 8), 1.0f);
  DeviceBuffer<e4m3> da(a), db(b), dd8(d8);
  DeviceBuffer<bfloat16_t> dd(d);
  DeviceBuffer<float> ds(scales);

  {  // block scales: A's ld_a * (K/128 - 1) + M values, B's ld_b * (N/128 - 1) + K/128
    gemm::Gemm<BlockBf16>::Args good{M, N, K, da.ptr, K, db.ptr, K, nullptr, N, dd.ptr, N, 1.0f, 0.0f,
                                     {{ds.ptr, M, M * k_blocks}, {ds.ptr, k_blocks, k_blocks}, nullptr, nullptr}};
    REQUIRE(gemm::Gemm<BlockBf16>::can_implement(good) == Status::kSuccess);
    auto with = [&](auto mutate) {
      auto x = good;
      mutate(x);
      return x;
    };
    check_fp8_refused<BlockBf16>(with([](auto& x) { x.epilogue.a.data = nullptr; }), Status::kErrorNullScaleA, dd);
    check_fp8_refused<BlockBf16>(with([](auto& x) { x.epilogue.b.data = nullptr; }), Status::kErrorNullScaleB, dd);
    check_fp8_refused<BlockBf16>(with([](auto& x) { x.epilogue.a.size -= 1; }), Status::kErrorScaleATooSmall,
                                 dd);
    check_fp8_refused<BlockBf16>(with([](auto& x) { x.epilogue.a.ld = M - 1; }), Status::kErrorScaleATooSmall,
                                 dd);
    check_fp8_refused<BlockBf16>(with([](auto& x) { x.epilogue.b.size -= 1; }), Status::kErrorScaleBTooSmall,
                                 dd);
    check_fp8_refused<BlockBf16>(with([](auto& x) { x.epilogue.b.ld = k_blocks - 1; }),
                                 Status::kErrorScaleBTooSmall, dd);
    check_fp8_refused<BlockBf16>(with([](auto& x) { x.K = K + 128; }), Status::kErrorLeadingDimA, dd);
  }
  {  // per row and column: M and N values
    gemm::Gemm<RowColBf16>::Args good{M, N, K, da.ptr, K, db.ptr, K, nullptr, N, dd.ptr, N, 1.0f, 0.0f,
                                      {{ds.ptr, 0, M}, {ds.ptr, 0, N}, nullptr, nullptr}};
    REQUIRE(gemm::Gemm<RowColBf16>::can_implement(good) == Status::kSuccess);
    auto x = good;
    x.epilogue.a.size = M - 1;
    check_fp8_refused<RowColBf16>(x, Status::kErrorScaleATooSmall, dd);
    x = good;
    x.epilogue.b.size = N - 1;
    check_fp8_refused<RowColBf16>(x, Status::kErrorScaleBTooSmall, dd);
  }
  {  // an fp8 D needs its scale
    gemm::Gemm<BlockE4m3D>::Args x{M, N, K, da.ptr, K, db.ptr, K, nullptr, N, dd8.ptr, N, 1.0f, 0.0f,
                                   {{ds.ptr, M, M * k_blocks}, {ds.ptr, k_blocks, k_blocks}, nullptr, nullptr}};
    check_fp8_refused<BlockE4m3D>(x, Status::kErrorNullScaleD, dd8);
  }
  {  // operands that are not K-major: refused (fp8 wgmma has no transposed operand)
    using NotKMajor = gemm::WgmmaConfig<e4m3, RowMajor, e4m3, RowMajor, bfloat16_t, RowMajor,
                                        gemm::option::Tile<GemmShape<128, 128, 128>>>;
    gemm::Gemm<NotKMajor>::Args x{M, N, K, da.ptr, K, db.ptr, N, nullptr, N, dd.ptr, N, 1.0f, 0.0f,
                                  {{ds.ptr, 0, 1}, {ds.ptr, 0, 1}, nullptr, nullptr}};
    check_fp8_refused<NotKMajor>(x, Status::kErrorFp8OperandNotKMajor, dd);
  }
}
