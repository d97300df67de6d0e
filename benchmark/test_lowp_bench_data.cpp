// EMULATED (the AMD wave emulator, docs/emulator.md; no AMD GPU ran this): the inputs and
// float64 rows tessera_bench_hip's low-precision suite checks a GPU's output against
// (lowp_host_data.hpp) are what Tessera's kernels compute from. For one configuration of each
// kind (fnuz fp8 with per-tensor scales and bf16 D; MXFP8 e4m3 x e5m2 with fp16 column-major D;
// MXFP4; MXFP6 e2m3 x MXFP8 e4m3 with fp16 column-major D; e5m2 x bf6 e3m2 with per-tensor
// scales and bf16 D), the suite's own codes, packing and scales go through Gemm<Config>::run
// on the emulator, and every row of D must lie within the suite's tolerance of the suite's
// float64 rows; the suite's fp32 dequantized values (the naive reference's inputs) must give
// exactly those float64 rows. A wrong nibble or 6-bit field order, scale layout or tensor
// scale in the suite would fail here, not on the first GPU run (for fp6 only against an
// operand of another format: see the notes).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "emulated_gemm_case.hpp"
#include "lowp_gemm_case.hpp"  // poison values of the 8-bit types (guards)
#include "lowp_host_data.hpp"
#include "mfma_lowp_configs.hpp"
#include "reference_gemm.hpp"

namespace {

namespace cfg = examples::mfma_lowp;
namespace emu = emu_test::emu;

// The device bytes as the operand's element type (one byte, or an fp6 group of three).
template <class T>
std::vector<T> as_elements(const std::vector<std::uint8_t>& bytes) {
  static_assert(std::is_trivially_copyable_v<T>, "operand elements are plain bytes");
  REQUIRE(bytes.size() % sizeof(T) == 0);
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// Row-major M x K times column-major B from `d`, D in the configuration's layout, on the
// emulator; D returned row-major.
template <class Config>
std::vector<typename Config::ElementD> emulated_d(const LowpHostData& d) {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using ED = typename Config::ElementD;
  using LC = typename Config::LayoutC;
  using Mode = typename Config::OperandScales;
  emu::Options options;
  options.target = emu_test::target_of<Config>();
  emu::ScopedOptions scope(options);
  emu::clear_reports();
  emu_test::GuardedBuffer<EA> a(as_elements<EA>(d.packed_a()), "A");
  emu_test::GuardedBuffer<EB> b(as_elements<EB>(d.packed_b()), "B");
  emu_test::GuardedBuffer<std::uint8_t> sa(d.sa.empty() ? std::vector<std::uint8_t>(1, 0) : d.sa, "scales of A");
  emu_test::GuardedBuffer<std::uint8_t> sb(d.sb.empty() ? std::vector<std::uint8_t>(1, 0) : d.sb, "scales of B");
  emu_test::GuardedBuffer<float> tensor(std::vector<float>{d.tensor[0], d.tensor[1]}, "tensor scales");
  std::vector<ED> d_init(std::size_t(d.M * d.N));
  tessera::test::poison(d_init);
  emu_test::GuardedBuffer<ED> out(d_init, "D");
  const std::int64_t ldd = LC::kIsRowMajor ? d.N : d.M;
  typename emu_test::EmulatedGemm<Config>::Args args{d.M, d.N, d.K, a.data.data(), d.K, b.data.data(), d.K,
                                                     nullptr, ldd, out.data.data(), ldd, 1.0f, 0.0f};
  if constexpr (Mode::kBlock) {
    using S = typename Mode::ScaleType;
    args.epilogue.scales.a = {reinterpret_cast<const S*>(sa.data.data()), d.scale_ld, std::int64_t(sa.size)};
    args.epilogue.scales.b = {reinterpret_cast<const S*>(sb.data.data()), d.scale_ld, std::int64_t(sb.size)};
  } else if constexpr (Mode::kPerTensor) {
    args.epilogue.scales.a = {tensor.data.data()};
    args.epilogue.scales.b = {tensor.data.data() + 1};
  }
  REQUIRE(emu_test::EmulatedGemm<Config>::run(args, nullptr) == tessera::Status::kSuccess);
  INFO(emu::describe_all());
  CHECK(emu::reports().empty());
  std::vector<ED> rows(std::size_t(d.M * d.N));
  for (std::int64_t i = 0; i < d.M; ++i)
    for (std::int64_t j = 0; j < d.N; ++j) {
      rows[std::size_t(i * d.N + j)] = out.data[std::size_t(LC::offset(i, j, ldd))];
    }
  return rows;
}

}  // namespace

TEMPLATE_TEST_CASE("EMULATED: the lowp suite's inputs and float64 rows agree with Tessera's kernels", "[lowp_bench]",
                   cfg::Fp8OneCluster942, cfg::Mxfp8OneCluster16x950, cfg::Mxfp4OneCluster16x950,
                   cfg::Mxfp6Fp8OneCluster16x950, cfg::Fp8Bf6Baseline950) {
  using Config = TestType;
  const std::int64_t bm = Config::kBlockM, bn = Config::kBlockN, bk = Config::kBlockKValues;
  // Whole MX blocks across two K tiles and a tail; then a K that ends 8 values into a block.
  const std::int64_t shapes[][3] = {{bm + 3, bn + 5, 2 * bk + 64}, {bm - 1, 2 * bn + 1, bk + 40}};
  for (const auto& s : shapes) {
    const std::uint64_t seed = tessera::test::fresh_seed();
    LowpHostData d;
    d.generate(lowp_kind<Config>(), s[0], s[1], s[2], seed, seed + 1, seed + 2);
    INFO("M=" << d.M << " N=" << d.N << " K=" << d.K << " seed=" << seed);
    std::vector<std::int64_t> all(std::size_t(d.M));
    std::iota(all.begin(), all.end(), std::int64_t(0));
    const std::vector<double> ref = d.rows_f64(all);

    const auto out = emulated_d<Config>(d);
    const auto cmp = tessera::test::compare<tessera::RowMajor>(d.M, d.N, out, d.N, ref, d.N);
    const double tol = tessera::test::tolerance<float, typename Config::ElementD>(d.K);
    INFO(cmp.describe() << " (tolerance " << tol << ")");
    CHECK(cmp.passed(tol));

    // The naive reference's inputs: fp32 dequantized values give the float64 rows exactly.
    const std::vector<float> a = d.dequantized(*d.kind.a, d.a_codes, d.sa);
    const std::vector<float> b = d.dequantized(*d.kind.b, d.b_codes, d.sb);
    double worst = 0.0;
    for (std::int64_t i = 0; i < d.M; ++i) {
      for (std::int64_t j = 0; j < d.N; ++j) {
        double sum = 0.0;
        for (std::int64_t k = 0; k < d.K; ++k) {
          sum += double(a[std::size_t(i * d.K + k)]) * double(b[std::size_t(j * d.K + k)]);
        }
        sum *= double(d.tensor[0]) * double(d.tensor[1]);
        worst = std::max(worst, std::fabs(sum - ref[std::size_t(i * d.N + j)]));
      }
    }
    CHECK(worst == 0.0);
  }
}
