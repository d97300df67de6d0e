// Batched and grouped GEMMs and the fused epilogues on the MFMA family under the wave emulator
// (emulated, not run on AMD hardware): the grouped scheduler's groups of 0 and 1 rows, tails and
// clamped out-of-range sizes, a batch with a shared B, and the epilogues, each against the
// float64 reference with the formulas written here; every element no problem owns still
// poisoned, and no emulator report (buffer range, LDS race) of any kind.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "emulated_gemm_case.hpp"
#include "problem_set_case.hpp"
#include "problem_set_configs.hpp"

using namespace emu_test;
using namespace emu_test::set_test;
using tessera::test::HostSet;
using tessera::test::SetExpected;
using tessera::test::SetLayout;
using tessera::test::SetOutcome;
using tessera::test::SetShape;

namespace {

// What a grouped call's status flag holds before the call when the test does not say: an error
// left from an earlier call, which run() must clear (problem_set.hpp).
constexpr std::int32_t kStaleStatus = std::int32_t(tessera::Status::kErrorGroupRowsOutOfRange);

// `status`: the flag the call writes (kept by the caller across calls), or one holding
// kStaleStatus.
template <class Config>
void check_emulated_set(const SetShape& s, const SetExpected& expected = {},
                        typename Config::Epilogue::Arguments epilogue = {}, std::int32_t* status = nullptr) {
  const std::uint64_t seed = tessera::test::fresh_seed();
  INFO("EMULATED " << Config::Arch::kName << ": " << tessera::test::describe_set(s, seed));
  emu::Options options;
  options.target = target_of<Config>();
  emu::ScopedOptions scope(options);
  emu::clear_reports();
  const HostSet<Config> host(s, seed);
  GuardedBuffer<typename Config::ElementA> a(host.a, "A");
  GuardedBuffer<typename Config::ElementB> b(host.b, "B");
  GuardedBuffer<typename Config::ElementC> c(host.c, "C");
  GuardedBuffer<typename Config::ElementD> d(host.d, "D");
  std::vector<std::int32_t> sizes = host.sizes;
  sizes.push_back(0);
  std::int32_t stale = kStaleStatus;
  if (status == nullptr) status = &stale;
  INFO("status flag before the call " << *status);
  const auto args = host.arguments(a.data.data(), b.data.data(), c.data.data(), d.data.data(), sizes.data(), status,
                                   epilogue);
  const tessera::Status st = EmulatedGemm<Config>::run(args, nullptr);
  INFO("status " << tessera::status_name(st));
  INFO(emu::describe_all());
  REQUIRE(st == tessera::Status::kSuccess);
  CHECK(emu::reports().empty());
  const SetOutcome o = host.check(d.data, GuardedBuffer<typename Config::ElementD>::kGuard, expected);
  CHECK_SET_OUTCOME(o);
  CHECK(*status == (tessera::test::sizes_in_range(s) ? 0 : std::int32_t(tessera::Status::kErrorGroupRowsOutOfRange)));
}

}  // namespace

TEST_CASE("MFMA grouped GEMM (emulated): bias per group + GELU, empty groups, tails", "[problems][grouped]") {
  using Config = Baseline<tessera::Gfx942, Contiguous, tessera::gemm::option::Epilogue<BiasGelu>>;
  const SetShape s = tessera::test::grouped_shape(SetLayout::kContiguous, 300, 136, 72, {0, 1, 129, 0, 150}, 0.5f);
  std::vector<bfloat16_t> bias(5 * 136);
  tessera::test::fill_random(bias, tessera::test::fresh_seed());
  const SetExpected want = [&](double ab, double c, int g, std::int64_t, std::int64_t n) {
    const double x = ab + 0.5 * c + double(float(bias[std::size_t(g * 136 + n)]));
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  };
  check_emulated_set<Config>(s, want, {{}, {bias.data(), 136}, {}});
}

TEST_CASE("MFMA grouped GEMM (emulated): column-major operands, rows past the last group", "[problems][grouped]") {
  check_emulated_set<TwoClusters<tessera::Gfx950, Contiguous>>(
      tessera::test::grouped_shape(SetLayout::kContiguous, 400, 130, 70, {0, 257, 1, 60}, -1.0f));
}

TEST_CASE("MFMA grouped GEMM (emulated): masked layout, out-of-range counts clamped and reported", "[problems][grouped]") {
  check_emulated_set<Baseline<tessera::Gfx950, Masked>>(tessera::test::grouped_shape(SetLayout::kMasked, 200, 136, 64, {3, 0, 200, 129}));
  check_emulated_set<Baseline<tessera::Gfx950, Masked>>(tessera::test::grouped_shape(SetLayout::kMasked, 200, 136, 64, {-4, 201, 77}));
}

TEST_CASE("MFMA batched GEMM (emulated): shared B, row scale + SiLU", "[problems][batched]") {
  using Config = Baseline<tessera::Gfx942, Batched, tessera::gemm::option::Epilogue<ScaleSilu>>;
  const SetShape s = tessera::test::batched_shape(3, 130, 136, 72, 0.5f, /*shared_b=*/true);
  std::vector<float> scale(std::size_t(3 * 130));
  tessera::test::fill_random(scale, tessera::test::fresh_seed());
  const SetExpected want = [&](double ab, double c, int p, std::int64_t m, std::int64_t) {
    const double x = (ab + 0.5 * c) * double(scale[std::size_t(p * 130 + m)]);
    return x / (1.0 + std::exp(-x));
  };
  check_emulated_set<Config>(s, want, {{}, {scale.data(), 130}, {}});
}

TEST_CASE("MFMA grouped GEMM (emulated): the status flag says what this call found", "[problems][grouped][status]") {
  using Config = Baseline<tessera::Gfx950, Masked>;
  // One flag through a bad call, a good call, a bad and a good one again: each good call reads
  // kSuccess though the call before it left an error there.
  std::int32_t status = 0;
  for (int round = 0; round < 2; ++round) {
    check_emulated_set<Config>(tessera::test::grouped_shape(SetLayout::kMasked, 64, 72, 32, {70, 5}), {}, {}, &status);
    CHECK(status == kStaleStatus);
    check_emulated_set<Config>(tessera::test::grouped_shape(SetLayout::kMasked, 64, 72, 32, {64, 5}), {}, {}, &status);
    CHECK(status == 0);
  }
  // A call with nothing to compute (no groups) reads no sizes and leaves kSuccess; so does one
  // of contiguous groups (another layout, the same flag).
  status = kStaleStatus;
  check_emulated_set<Config>(tessera::test::grouped_shape(SetLayout::kMasked, 64, 72, 32, {}), {}, {}, &status);
  CHECK(status == 0);
  status = 12345;
  check_emulated_set<TwoClusters<tessera::Gfx950, Contiguous>>(
      tessera::test::grouped_shape(SetLayout::kContiguous, 100, 72, 32, {40, 60}), {}, {}, &status);
  CHECK(status == 0);
}
