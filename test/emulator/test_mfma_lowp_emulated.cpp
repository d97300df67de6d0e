// The low-precision MFMA GEMM (fp8 on gfx942; OCP fp8, fp6 and fp4 with MX block scales on
// gfx950, fp6 with fp8 in either order) on the wave emulator: every shipped configuration (examples/mfma_lowp_configs.hpp)
// through Gemm<Config>::run on CI-sized shapes (lowp_emulated_case.hpp: odd sizes, K tails
// inside a 32-value scale block, K < BlockK, beta, C == D, padded and misaligned scale rows,
// unaligned operands), against the float64 reference of the dequantized inputs, with the
// LDS race detector on, every buffer registered and no report of any kind allowed; K = 0
// with null operands; the schedule's order read back from the trace; and the named Status
// of every bad argument, D untouched.
//
// EMULATED results (docs/emulator.md), not runs on an AMD GPU. One ctest entry per
// schedule (test/emulator/CMakeLists.txt: emulator.mfma_lowp_gemm.<tag>).
#include <catch2/catch.hpp>

#include <cstdio>

#include "lowp_emulated_case.hpp"
#include "mfma_gemm_cases.hpp"
#include "mfma_lowp_gemm_configs.hpp"

namespace emu_test {
namespace {

template <class Config>
using LowpArgs = typename EmulatedGemm<Config>::Args;

// K = 0 with null A, B (and scales): nothing is read, D = beta * C.
template <class Config>
void check_empty_k() {
  using Host = LowpHostCase<Config>;
  const CaseShape s{Config::kBlockM + 3, 37, 0, 0, 1.0f, 2.0f};
  const Host host(s, tessera::test::fresh_seed());
  std::vector<typename Host::ED> d = host.d;
  auto args = host.arguments(nullptr, nullptr, host.c.data(), d.data());
  args.A = nullptr;
  args.B = nullptr;
  emu::Options o;
  o.target = target_of<Config>();
  emu::ScopedOptions scope(o);
  emu::clear_reports();
  const tessera::Status st = EmulatedGemm<Config>::run(args, nullptr);
  INFO(tessera::status_name(st) << "\n" << emu::describe_all());
  REQUIRE(st == tessera::Status::kSuccess);
  CHECK(emu::reports().empty());
  const auto outcome = host.check_output(d, 0);
  CHECK(outcome.compare.passed(outcome.tolerance));
}

// Each bad argument gives its Status and leaves D as it was (poison).
template <class Config>
void check_bad_arguments() {
  using Host = LowpHostCase<Config>;
  using Mode = typename Config::OperandScales;
  const CaseShape s{65, 33, 2 * Config::kBlockKValues + 2 * Config::kValuesPerUnit};
  const Host host(s, tessera::test::fresh_seed());
  std::vector<typename Host::ED> d = host.d;
  const auto good = host.arguments(host.a.data(), host.b.data(), host.c.data(), d.data(), host.scale_a.data(),
                                   host.scale_b.data(), host.tensor_scale);
  std::vector<std::pair<const char*, std::pair<LowpArgs<Config>, tessera::Status>>> cases;
  if constexpr (Mode::kBlock) {
    auto a = good;
    a.epilogue.scales.a.data = nullptr;
    cases.push_back({"A's scales null", {a, tessera::Status::kErrorNullBlockScalesA}});
    a = good;
    a.epilogue.scales.b.data = nullptr;
    cases.push_back({"B's scales null", {a, tessera::Status::kErrorNullBlockScalesB}});
    a = good;
    a.epilogue.scales.a.size -= 1;
    cases.push_back({"A's scales one short", {a, tessera::Status::kErrorBlockScalesATooSmall}});
    a = good;
    a.epilogue.scales.b.ld = 1;  // fewer than ceil(K / 32)
    cases.push_back({"B's scale rows too short", {a, tessera::Status::kErrorBlockScalesBTooSmall}});
  } else if constexpr (Mode::kPerTensor) {
    auto a = good;
    a.epilogue.scales.b = {nullptr};
    cases.push_back({"B's per-tensor scale null", {a, tessera::Status::kErrorNullEpilogueOperand}});
  }
  if constexpr (Config::kValuesPerUnit == 2) {
    auto a = good;
    a.K -= 1;
    cases.push_back({"fp4 with an odd K", {a, tessera::Status::kErrorPackedOperandOddK}});
    a = good;
    a.lda += 1;
    cases.push_back({"fp4 with an odd lda", {a, tessera::Status::kErrorPackedOperandOddK}});
  }
  if constexpr (Config::kPackedSixA) {
    auto a = good;
    a.lda += 2;  // rows would start mid-byte
    cases.push_back({"fp6 A with lda not a multiple of 4", {a, tessera::Status::kErrorPackedFp6Ld}});
  }
  if constexpr (Config::kPackedSixB) {
    auto a = good;
    a.ldb += 1;
    cases.push_back({"fp6 B with ldb not a multiple of 4", {a, tessera::Status::kErrorPackedFp6Ld}});
  }
  emu::Options o;
  o.target = target_of<Config>();
  emu::ScopedOptions scope(o);
  for (const auto& c : cases) {
    INFO(c.first);
    CHECK(EmulatedGemm<Config>::run(c.second.first, nullptr) == c.second.second);
    std::size_t written = 0;
    for (const auto& x : d) written += tessera::test::is_poison(x) ? 0 : 1;
    CHECK(written == 0);
  }
  // The good arguments run (the cases above differ from them in one field each).
  REQUIRE(EmulatedGemm<Config>::run(good, nullptr) == tessera::Status::kSuccess);
}

template <class Config>
void sweep() {
  INFO("schedule: " << Config::Schedule::kName << ", " << Config::kWaves << " waves, tile " << Config::kBlockM << "x"
                    << Config::kBlockN << "x" << Config::kBlockKValues << ", scales " << Config::OperandScales::kName);
  for (bool aligned : {true, false}) {
    for (const auto& s : lowp_shapes<Config>(aligned)) check_lowp_gemm<Config>(s.first, s.second);
  }
  check_empty_k<Config>();
  check_bad_arguments<Config>();
  // The schedule's order, on the shape with the most K tiles (the last aligned one).
  emu::Options traced;
  traced.record_trace = true;
  check_lowp_gemm<Config>(lowp_shapes<Config>(true).back().first, {}, traced);
  const ScheduleOrder order = schedule_order(0, Config::kWaves);
  INFO(order.describe());
  CHECK(keeps_schedule_order<Config>(order));
}

template <class... Configs, class F>
void for_each_lowp_config(F f) {
  (f(Configs{}), ...);
}

}  // namespace
}  // namespace emu_test

namespace lowp_gemm = examples::mfma_lowp;

#define EMU_TEST_LOWP_SCHEDULE(title, tag, ...)                                                                   \
  TEST_CASE("emulated: low-precision MFMA GEMM, " title, "[emulator][mfma][lowp][" tag "]") {                     \
    emu_test::for_each_lowp_config<__VA_ARGS__>([](auto config) { emu_test::sweep<decltype(config)>(); });        \
  }

EMU_TEST_LOWP_SCHEDULE("no ping-pong", "baseline", lowp_gemm::Fp8Baseline942, lowp_gemm::Mxfp8Baseline950,
                       lowp_gemm::Fp8Bf6Baseline950)
EMU_TEST_LOWP_SCHEDULE("one-cluster ping-pong", "one", lowp_gemm::Fp8OneCluster942, lowp_gemm::Fp8OneCluster950)
EMU_TEST_LOWP_SCHEDULE("one-cluster ping-pong with 16x16 MFMAs", "one16", lowp_gemm::Fp8OneCluster16x942,
                       lowp_gemm::Mxfp8OneCluster16x950, lowp_gemm::Mxfp4OneCluster16x950,
                       lowp_gemm::Mxfp6Fp8OneCluster16x950)
EMU_TEST_LOWP_SCHEDULE("two-cluster ping-pong", "two", lowp_gemm::Fp8TwoClusters942, lowp_gemm::Mxfp8TwoClusters950,
                       lowp_gemm::Mxfp4TwoClusters950, lowp_gemm::Mxfp6TwoClusters950)
EMU_TEST_LOWP_SCHEDULE("four-cluster ping-pong", "four", lowp_gemm::Fp8FourClusters942)
