// Mutation checks of the low-precision MFMA GEMM (test/emulator/CMakeLists.txt,
// tessera_lowp_mutant): each build runs the shipped configurations one mutation of a
// library header breaks (mutation_lowp_configs.hpp) on the emulated suite's deepest shape
// and its K-tail shapes, and passes only when the suite's checks catch it in every one: a
// wrong result against the float64 reference, or a report. The unbroken configurations are
// test_mfma_lowp_emulated's, which requires the opposite. What was caught is printed.
#include <catch2/catch.hpp>

#include <cstdio>

#include "lowp_emulated_case.hpp"
#include "mutation_lowp_configs.hpp"

namespace emu_test {
namespace {

template <class Config>
bool caught(const CaseShape& s, ScaleLayout sl) {
  const LowpResult r = run_lowp_gemm<Config>(s, tessera::test::fresh_seed(), sl);
  const bool reported = !emu::reports().empty();
  const bool wrong = r.status != tessera::Status::kSuccess || !r.compare.passed(r.tolerance);
  std::printf("%s %s, %s: M=%lld N=%lld K=%lld: %s%s%s\n", Config::Arch::kName, Config::Schedule::kName,
              Config::OperandScales::kName, (long long)s.M, (long long)s.N, (long long)s.K, reported ? "reports; " : "",
              wrong ? "wrong result; " : "", wrong || reported ? "CAUGHT" : "not caught");
  if (wrong) std::printf("  %s: %s\n", tessera::status_name(r.status), r.compare.describe().c_str());
  return wrong || reported;
}

template <class Config>
void require_caught() {
  // The deep shape, and the shapes whose K ends inside a scale block (with padded scale rows).
  const auto shapes = lowp_shapes<Config>(true);
  bool any = false;
  for (std::size_t i : {std::size_t(5), std::size_t(1), std::size_t(3)}) any = caught<Config>(shapes[i].first, shapes[i].second) || any;
  CHECK(any);
}

}  // namespace
}  // namespace emu_test

TEST_CASE("mutation: " EMU_TEST_MUTANT_WHAT, "[emulator][mutation][lowp]") {
  std::printf("MUTATION: %s\n", EMU_TEST_MUTANT_WHAT);
#define EMU_TEST_REQUIRE_CAUGHT(C) emu_test::require_caught<emu_test::Unparen<void C>::type>();
  namespace lowp_gemm = examples::mfma_lowp;
  EMU_TEST_MUTANT_LOWP_CONFIGS(EMU_TEST_REQUIRE_CAUGHT)
}
