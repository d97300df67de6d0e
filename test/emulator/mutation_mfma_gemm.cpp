// Mutation checks of the MFMA GEMM's schedules and kernel (test/emulator/CMakeLists.txt,
// tessera_schedule_mutant, tessera_mfma_mutant): each build runs the shipped configurations
// that one mutation of schedule/amd_pingpong.hpp or gemm/mfma/kernel.hpp breaks
// (mutation_mfma_configs.hpp) and passes only
// when the emulator catches the break in every one of them the way the mutant expects
// (EMU_TEST_MUTANT_EXPECT): a race report (an LDS race, or a read of a direct-to-LDS load
// no wait covered), or a schedule order the schedule does not promise (the two wave groups
// issuing MFMAs in one barrier interval, read from the emulator's trace:
// mfma_gemm_cases.hpp). Wrong results are printed as well. The unbroken schedules are
// test_mfma_emulated's, which requires the opposite. What was caught is printed.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "mfma_gemm_cases.hpp"
#include "mutation_mfma_configs.hpp"

namespace emu_test {
namespace {

namespace emu = tessera::amd::emulation;

enum class Expect { kRace, kReadNotWaited, kOrder };

template <class Config>
bool caught(const CaseShape& s, Expect expect) {
  emu::Options traced;
  traced.record_trace = true;
#if defined(EMU_TEST_MUTANT_FENCE_WAITS_FOR_DMA)
  traced.hardware.fence_waits_for_dma = EMU_TEST_MUTANT_FENCE_WAITS_FOR_DMA;
#endif
  const EmulatedResult r = run_emulated_gemm<Config>(s, tessera::test::fresh_seed(), traced);
  const bool reported = !emu::reports().empty();
  const bool raced = emu::report_count(emu::ReportKind::kLdsRace) + emu::report_count(emu::ReportKind::kLdsDmaInFlight) +
                         emu::report_count(emu::ReportKind::kLdsReadNotWaited) > 0;
  const bool wrong = r.status != tessera::Status::kSuccess || !r.compare.passed(r.tolerance);
  const bool read_not_waited = emu::report_count(emu::ReportKind::kLdsReadNotWaited) > 0;
  const ScheduleOrder order = schedule_order(0, Config::kWaves);
  const bool disordered = !keeps_schedule_order<Config>(order);
  const bool expected = expect == Expect::kRace ? raced : expect == Expect::kReadNotWaited ? read_not_waited : disordered;
  using I = typename Config::Instruction;
  std::printf("%s %s, MFMA %dx%dx%d, M=%lld N=%lld K=%lld: %s%s%s%s\n", Config::Arch::kName,
              Config::Schedule::kName, I::kM, I::kN, I::kK, (long long)s.M, (long long)s.N, (long long)s.K, reported ? "reports; " : "",
              wrong ? "wrong result; " : "", disordered ? "schedule order broken; " : "",
              expected ? "CAUGHT" : "NOT CAUGHT as expected");
  if (wrong) std::printf("  %s: %s\n", tessera::status_name(r.status), r.compare.describe().c_str());
  if (disordered) std::printf("  trace: %s\n", order.describe().c_str());
  if (reported) {
    // The first finding of the kind expected (else the first): the rest repeat it at other
    // addresses.
    std::string text = r.reports;
    const std::size_t at = expect == Expect::kReadNotWaited
                               ? text.find(std::string("[") + emu::kind_name(emu::ReportKind::kLdsReadNotWaited))
                               : std::string::npos;
    if (at != std::string::npos) text = text.substr(at);
    const std::size_t next = text.find("\n[", 1);
    std::printf("  %s\n", text.substr(0, next).c_str());
  }
  return expected;
}

template <class Config>
void require_caught() {
  // The shape with the most K tiles (the loop's steady state), and one with a K tail.
  const std::vector<CaseShape> shapes = mfma_shapes<Config>(true);
  const CaseShape deep = shapes.back(), edges = shapes[1];
  CHECK(caught<Config>(deep, Expect::EMU_TEST_MUTANT_EXPECT));
  CHECK(caught<Config>(edges, Expect::EMU_TEST_MUTANT_EXPECT));
}

}  // namespace
}  // namespace emu_test

TEST_CASE("mutation: " EMU_TEST_MUTANT_WHAT, "[emulator][mutation][mfma]") {
  std::printf("MUTATION: %s\n", EMU_TEST_MUTANT_WHAT);
#define EMU_TEST_REQUIRE_CAUGHT(C) emu_test::require_caught<emu_test::Unparen<void C>::type>();
  namespace mfma = examples::mfma;
  using tessera::Gfx942;
  using tessera::Gfx950;
  EMU_TEST_MUTANT_MFMA_CONFIGS(EMU_TEST_REQUIRE_CAUGHT)
}
