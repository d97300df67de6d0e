// A kernel translation unit built without -fsanitize=thread: the emulator cannot see its
// LDS accesses (no race detection, no bounds), and must say so instead of passing quietly.
#include <catch2/catch.hpp>

#include <vector>

#include "core_kernels.hpp"
#include "tessera/emulator/emulator.hpp"

namespace emu = tessera::amd::emulation;

TEST_CASE("a kernel compiled without the LDS instrumentation is reported", "[emulator]") {
  emu::clear_reports();
  std::vector<float> out(128);
  REQUIRE(emu_test::run_exchange(emu_test::Sync::kNone, 128, out.data()) == tessera::Status::kSuccess);
  INFO(emu::describe_all());
  CHECK(emu::report_count(emu::ReportKind::kLdsRace) == 0);  // the race it cannot see
  CHECK(emu::report_count(emu::ReportKind::kMisuse) == 1);
}
