// GPU tests of the Blackwell tcgen05 family (UmmaConfig). Built wherever nvcc builds sm_100a;
// NO Blackwell GPU has run them: on any device but compute capability 10.0 the executable
// reports itself skipped (gpu_main.cpp), and the host API refuses other devices with
// kErrorWrongArchitecture. They are the first thing to run on a B200 (benchmark/notes/umma.md
// says in which order): every shipped configuration (examples/umma_configs.hpp) on every
// path (TMA; packed with a workspace, generic without), odd sizes and K tails, beta != 0,
// C == D, K = 0, the tiles a cluster or pair does not divide, against the float64 reference
// with poisoned outputs, and the planned shared memory; the fp8 configurations (.kind::f8f6f4)
// against the float64 product of the decoded fp8 inputs (test/support/lowp_gemm_case.hpp);
// the fp6 / fp4 configurations likewise, on shapes TMA's unpacking types take, and the
// arguments they refuse (named Status, D untouched).
#include "tessera/gemm/umma/umma.hpp"

#include "gemm_case.hpp"
#include "lowp_gemm_case.hpp"
#include "test_epilogues.hpp"
#include "umma_configs.hpp"

using namespace tessera;
using gemm::TmaPath;
using tessera::test::CaseShape;
using tessera::test::check_gemm;

namespace {

// Requires the path these arguments take.
template <class Config>
auto takes(TmaPath want) {
  return [want](const auto& args, const void* workspace) {
    const TmaPath got = gemm::tma_path<Config>(args, workspace);
    INFO("path " << gemm::path_name(got));
    REQUIRE(got == want);
  };
}

// Every extent and leading dimension a multiple of 8 elements: the TMA path.
CaseShape aligned(CaseShape s) {
  s.ld_multiple = 8;
  return s;
}

// Sizes chosen for this family: one K tile and a K tail, a single partial tile, M past one
// 128-row block but inside a pair's 256 (the peer CTA's rows partly outside), N past one
// tile, enough tiles that every CTA walks several (both accumulator buffers, both phases).
const CaseShape kAligned[] = {
    aligned({8, 8, 8}),           aligned({128, 256, 64}),          aligned({136, 264, 72, 0, 1.0f, 0.5f}),
    aligned({200, 520, 136, 8}),  aligned({1000, 64, 200, 0, -1.0f, 0.0f}), aligned({520, 1032, 1000, 0, 1.5f, -0.25f}),
};
// Extents or leading dimensions TMA cannot describe: the realigning path.
const CaseShape kUnaligned[] = {
    {1, 1, 1}, {7, 9, 65, 0, 1.0f, 0.5f}, {129, 257, 127, 3, 2.0f, -1.0f}, {300, 70, 1001, 1},
};

template <class Config>
void sweep() {
  for (const CaseShape& s : kAligned) check_gemm<Config>(s, takes<Config>(TmaPath::kTma));
  for (CaseShape s : kUnaligned) {
    check_gemm<Config>(s, takes<Config>(TmaPath::kRealigning));
    s.workspace = true;  // workspace_size() bytes: the packed path (tma/packing.hpp)
    check_gemm<Config>(s, takes<Config>(TmaPath::kPacked));
  }
}

// fp8 cases: the host half reads Config::OperandScales, which the tcgen05 family does not
// take (its fp8 MMAs are unscaled); the same types with None say so.
template <class Config>
struct Unscaled : Config {
  using OperandScales = gemm::scale::None;
};

template <class Config, class ArgsCheck>
void check_fp8_gemm(const CaseShape& s, ArgsCheck&& args_check) {
  using Host = tessera::test::LowpHostCase<Unscaled<Config>>;
  using tessera::test::DeviceBuffer;
  const std::uint64_t seed = tessera::test::fresh_seed();
  const Host host(s, seed);
  INFO(host.describe(seed));
  DeviceBuffer<typename Config::ElementA> da(host.a);
  DeviceBuffer<typename Config::ElementB> db(host.b);
  DeviceBuffer<typename Config::ElementC> dc(host.c);
  DeviceBuffer<typename Config::ElementD> dd(host.d);
  const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr);
  void* workspace = nullptr;
  const std::size_t bytes = s.workspace ? gemm::Gemm<Config>::workspace_size(args) : 0;
  if (bytes > 0) REQUIRE_CUDA(cudaMalloc(&workspace, bytes));
  args_check(args, workspace);
  const Status st = gemm::Gemm<Config>::run(args, workspace);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  if (workspace != nullptr) REQUIRE_CUDA(cudaFree(workspace));
  const auto r = host.check_output(dd.download_with_guard(), DeviceBuffer<typename Config::ElementD>::kGuard);
  CHECK_CASE_OUTCOME(s, r);
}

// Every leading dimension a multiple of 16 values (16 bytes of fp8): the TMA path. K tails
// inside a 128-value K tile and inside a 32-value MMA step.
template <class Config>
void fp8_sweep() {
  const auto aligned16 = [](CaseShape s) {
    s.ld_multiple = 16;
    return s;
  };
  for (const CaseShape& s : {aligned16({8, 8, 16}), aligned16({128, 256, 128}), aligned16({136, 264, 200, 0, 1.0f, 0.5f}),
                             aligned16({520, 1032, 1000, 16, 1.5f, -0.25f})}) {
    check_fp8_gemm<Config>(s, takes<Config>(TmaPath::kTma));
  }
  for (CaseShape s : {CaseShape{1, 1, 1}, CaseShape{7, 9, 65, 0, 1.0f, 0.5f}, CaseShape{129, 257, 127, 3, 2.0f, -1.0f}}) {
    check_fp8_gemm<Config>(s, takes<Config>(TmaPath::kRealigning));
    s.workspace = true;
    check_fp8_gemm<Config>(s, takes<Config>(TmaPath::kPacked));
  }
}

// A device D that refused calls must not have touched: still the poisoned host copy, bit
// for bit.
template <class T>
void require_untouched(const tessera::test::DeviceBuffer<T>& device, const std::vector<T>& poisoned) {
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto out = device.download_with_guard();
  for (std::size_t i = 0; i < poisoned.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::memcmp(&out[i], &poisoned[i], sizeof(poisoned[i])) == 0);
  }
}

// fp6 / fp4 operands (TMA only, unpacked by TMA): K a multiple of 128 values and every
// leading dimension a multiple of 128 values (32-byte pitches of fp4 and fp6); M and N tails,
// several K tiles, many tiles per CTA, beta; K = 0; and the arguments TMA cannot take, refused
// with their Status before anything is written (D still poisoned).
template <class Config>
void sub_byte_sweep() {
  const auto aligned128 = [](CaseShape s) {
    s.ld_multiple = 128;
    return s;
  };
  for (const CaseShape& s : {aligned128({8, 8, 128}), aligned128({128, 256, 128}),
                             aligned128({136, 264, 256, 0, 1.0f, 0.5f}), aligned128({520, 1032, 1024, 0, 1.5f, -0.25f}),
                             aligned128({300, 70, 0, 0, 1.0f, 0.5f})}) {
    check_fp8_gemm<Config>(s, takes<Config>(TmaPath::kTma));
  }
  using Host = tessera::test::LowpHostCase<Unscaled<Config>>;
  using tessera::test::DeviceBuffer;
  const CaseShape s = aligned128({136, 264, 256, 0, 1.0f, 0.5f});
  const Host host(s, tessera::test::fresh_seed());
  DeviceBuffer<typename Config::ElementA> da(host.a);
  DeviceBuffer<typename Config::ElementB> db(host.b);
  DeviceBuffer<typename Config::ElementC> dc(host.c);
  DeviceBuffer<typename Config::ElementD> dd(host.d);
  const auto good = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr);
  static_assert(Config::kSubByteB, "these cases break B, the unpacked operand of every such configuration");
  auto bad_k = good;
  bad_k.K = 200;          // not a multiple of 128 values
  auto bad_ldb = good;
  bad_ldb.ldb += 32;      // 16 (fp4) or 24 (fp6) bytes more: the pitch is no multiple of 32 bytes
  auto bad_b = good;
  bad_b.B = good.B + 1;   // 1 or 3 bytes into the allocation: not 32-byte aligned
  CHECK(gemm::Gemm<Config>::run(bad_k) == Status::kErrorSubByteOperandK);
  CHECK(gemm::Gemm<Config>::run(bad_ldb) == Status::kErrorMisalignedB);
  CHECK(gemm::Gemm<Config>::run(bad_b) == Status::kErrorMisalignedB);
  require_untouched(dd, host.d);
}

// Block-scaled configurations (TMA only): the operands as the fp8 / fp6 / fp4 cases, plus the
// row-major scale tensors (padded rows, a NaN code in the padding, a pointer one byte into
// its allocation: the scale loader reads bytes), against the float64 product of the
// dequantized inputs.
template <class Config>
void check_scaled_gemm(const CaseShape& s, tessera::test::ScaleLayout layout) {
  using Host = tessera::test::LowpHostCase<Config>;
  using tessera::test::DeviceBuffer;
  const std::uint64_t seed = tessera::test::fresh_seed();
  const Host host(s, seed, layout);
  INFO(host.describe(seed));
  DeviceBuffer<typename Config::ElementA> da(host.a);
  DeviceBuffer<typename Config::ElementB> db(host.b);
  DeviceBuffer<typename Config::ElementC> dc(host.c);
  DeviceBuffer<typename Config::ElementD> dd(host.d);
  DeviceBuffer<std::uint8_t> sa(host.scale_a), sb(host.scale_b);
  const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr, sa.ptr, sb.ptr);
  REQUIRE(gemm::tma_path<Config>(args) == TmaPath::kTma);
  const Status st = gemm::Gemm<Config>::run(args);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  const auto r = host.check_output(dd.download_with_guard(), DeviceBuffer<typename Config::ElementD>::kGuard);
  CHECK_CASE_OUTCOME(s, r);
  // Bad scale arguments: named Status values, D untouched (still poisoned).
  if (s.M > 0 && s.N > 0 && s.K > 0) {
    auto no_a = args;
    no_a.epilogue.scales.a.data = nullptr;
    auto short_b = args;
    short_b.epilogue.scales.b.size -= 1 + host.ld_scale;  // less than (N - 1) * ld + blocks
    const Host fresh(s, seed, layout);
    DeviceBuffer<typename Config::ElementD> untouched(fresh.d);
    no_a.D = short_b.D = untouched.ptr + (args.D - dd.ptr);
    CHECK(gemm::Gemm<Config>::run(no_a) == Status::kErrorNullBlockScalesA);
    CHECK(gemm::Gemm<Config>::run(short_b) == Status::kErrorBlockScalesBTooSmall);
    require_untouched(untouched, fresh.d);
  }
}

// K in units of 16 (fp8: TMA's 16-byte rule) or 32 values (fp4 read packed): tails inside a
// K tile; for MX on fp8, K = 144 ends inside a 32-value scale block; fp6 / fp4 unpacked need
// K % 128.
template <class Config>
void scaled_sweep() {
  constexpr bool kUnpacked = Config::kSubByteA || Config::kSubByteB;
  constexpr bool kPacked = Config::kValuesPerKUnit > 1;
  const std::int64_t ld = kUnpacked ? 128 : 32;
  const auto shaped = [ld](CaseShape s) {
    s.ld_multiple = ld;
    return s;
  };
  const std::int64_t tail_k = kUnpacked ? 384 : kPacked ? 288 : 144;
  for (const CaseShape& s : {shaped({128, 128, kUnpacked ? 128 : 256}), shaped({136, 264, tail_k, 0, 1.0f, 0.5f}),
                             shaped({520, 1032, 1024, 0, 1.5f, -0.25f}), shaped({70, 90, 0, 0, 1.0f, 0.5f})}) {
    check_scaled_gemm<Config>(s, {});
  }
  check_scaled_gemm<Config>(shaped({200, 130, kUnpacked ? 512 : 480}), {3, true});  // padded, misaligned scales
}

}  // namespace

TEMPLATE_TEST_CASE("umma GEMM: block scales (MXFP8/6/4 .kind::mxf8f6f4 and .kind::mxf4, NVFP4 .kind::mxf4nvf4)",
                   "[gpu][umma][block_scaled]", examples::umma::MxFp8, examples::umma::MxFp6Fp4Pair,
                   examples::umma::NvFp4, examples::umma::NvFp4Pair, examples::umma::MxFp4) {
  scaled_sweep<TestType>();
}

TEMPLATE_TEST_CASE("umma GEMM: fp8 (.kind::f8f6f4), every path", "[gpu][umma][fp8]", examples::umma::Fp8,
                   examples::umma::Fp8Pair) {
  fp8_sweep<TestType>();
}

TEMPLATE_TEST_CASE("umma GEMM: fp6 and fp4 (.kind::f8f6f4, unpacked by TMA)", "[gpu][umma][fp6][fp4]",
                   examples::umma::Fp4, examples::umma::Fp8Fp4, examples::umma::Fp6Pair) {
  sub_byte_sweep<TestType>();
}

TEMPLATE_TEST_CASE("umma GEMM: the shipped configurations, every path", "[gpu][umma]", examples::umma::Tn,
                   examples::umma::NnF32, examples::umma::ColD, examples::umma::Multicast, examples::umma::Pair) {
  sweep<TestType>();
}

TEST_CASE("umma GEMM: one accumulator buffer, and a pair with a 128-wide N", "[gpu][umma]") {
  sweep<gemm::UmmaConfig<bfloat16_t, ColumnMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                         gemm::option::Tile<GemmShape<128, 192, 64>>, gemm::option::AccumulatorBuffers<1>>>();
  sweep<gemm::UmmaConfig<half_t, RowMajor, half_t, RowMajor, half_t, RowMajor,
                         gemm::option::Tile<GemmShape<256, 128, 64>>,
                         gemm::option::CtaGroup<gemm::CtaPair>>>();
}

TEST_CASE("umma GEMM: in place, K = 0, alpha = 0", "[gpu][umma][edge]") {
  for (CaseShape s : {aligned({136, 128, 72, 0, 1.0f, 1.0f}), CaseShape{64, 200, 16, 3, -2.0f, 0.5f}}) {
    s.in_place = true;
    check_gemm<examples::umma::Tn>(s);
    check_gemm<examples::umma::Pair>(s);
  }
  check_gemm<examples::umma::Tn>(aligned({40, 64, 0, 0, 1.0f, 0.5f}));
  check_gemm<examples::umma::Pair>(aligned({300, 64, 0, 0, 1.0f, 0.5f}));
  check_gemm<examples::umma::Tn>({70, 20, 0, 2, 3.0f, -1.0f});
  check_gemm<examples::umma::Multicast>(aligned({100, 100, 50, 0, 0.0f, 1.0f}));
}

TEST_CASE("umma GEMM: a test-only epilogue, and D of another type than C", "[gpu][umma][epilogue]") {
  using tessera::test::EpilogueCase;
  using tessera::test::ScaleAndAddRow;
  using tessera::test::TimesCPlusColumn;
  using Scale = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>,
                                 gemm::option::Epilogue<ScaleAndAddRow>>;
  using TimesC = gemm::UmmaConfig<half_t, RowMajor, half_t, RowMajor, half_t, ColumnMajor,
                                  gemm::option::Tile<GemmShape<256, 128, 64>>,
                                  gemm::option::CtaGroup<gemm::CtaPair>,
                                  gemm::option::Epilogue<TimesCPlusColumn>, gemm::option::OutputElement<float>>;
  EpilogueCase<Scale> scale;
  scale.arguments.scale = 3.0f;
  scale.expected = [](double ab, double, std::int64_t m, std::int64_t) { return 3.0 * ab + double(m); };
  EpilogueCase<TimesC> times_c;
  times_c.expected = [](double ab, double c, std::int64_t, std::int64_t n) { return ab * c + double(n); };
  for (CaseShape s : {aligned({300, 520, 130}), CaseShape{129, 257, 71, 1}}) {
    check_gemm<Scale>(s, tessera::test::NoArgsCheck{}, scale);
    check_gemm<TimesC>(s, tessera::test::NoArgsCheck{}, times_c);
  }
}

// The kernels' shared memory is the plan's: no static shared memory, and the dynamic size the
// launcher opts in to is exactly the plan's total (the kernel also traps on any other size).
TEST_CASE("umma kernels use exactly the planned shared memory", "[gpu][umma][plan]") {
  using Tn = examples::umma::Tn;
  check_gemm<Tn>(aligned({256, 256, 64}));
  check_gemm<Tn>({67, 130, 70, 1});
  cudaFuncAttributes tma{}, generic{};
  REQUIRE_CUDA(cudaFuncGetAttributes(&tma, gemm::umma_gemm_kernel<Tn, TmaPath::kTma>));
  REQUIRE_CUDA(cudaFuncGetAttributes(&generic, gemm::umma_gemm_kernel<Tn, TmaPath::kRealigning>));
  CHECK(tma.sharedSizeBytes == 0);
  CHECK(generic.sharedSizeBytes == 0);
  CHECK(std::size_t(tma.maxDynamicSharedSizeBytes) == gemm::UmmaSmemPlan<Tn>::Plan::kTotalBytes);
  CHECK(std::size_t(generic.maxDynamicSharedSizeBytes) == gemm::UmmaSmemPlan<Tn>::RealigningPlan::kTotalBytes);
  CHECK(tma.localSizeBytes == 0);
  CHECK(generic.localSizeBytes == 0);
}
