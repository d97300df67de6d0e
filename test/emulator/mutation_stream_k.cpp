// Mutation checks of the stream-K fix-up on the MFMA family (test/emulator/CMakeLists.txt,
// tessera_header_mutant stream_k_*): built against a broken copy of one header, these pass only
// when the emulator catches the break on every StreamK configuration (stream_k_configs.hpp):
//   stream_k_skip        the reduction leaves out one peer's partial: a wrong result;
//   stream_k_every_peer  every peer reduces its share, as on a GPU where all workgroups are
//                        resident, but the emulator runs them one after another: a peer waits
//                        for a later one's flag, which the emulator reports (and the launch fails).
// test_mfma_stream_k, on the unbroken headers, requires the opposite. What was caught is printed.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "emulated_gemm_case.hpp"
#include "stream_k_configs.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"

namespace emu_test {
namespace {

// The launch splits this case (else the mutant could not show).
template <class Config>
bool splits_case(const CaseShape& s, int cus) {
  const tessera::gemm::TileGrid g{s.M, s.N, s.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
  std::int64_t workers = tessera::gemm::scheduler::StreamK<>::units(g);
  if (workers > cus * Config::kBlocksPerCu) workers = cus * Config::kBlocksPerCu;
  return tessera::gemm::scheduler::StreamK<>::make(g, int(workers), s.split).plan.mode ==
         tessera::gemm::Decomposition::kSplitK;
}

template <class Config>
bool caught() {
  const std::int64_t bm = Config::kBlockM, bn = Config::kBlockN, bk = Config::kBlockK;
  CaseShape s{bm + 2, bn + 5, 20 * bk + 9, 0, 1.0f, 0.5f};
  s.ld_multiple = 8;
  s.workspace = true;
  s.split = {tessera::gemm::Decomposition::kSplitK, 3};
  emu::Options options;
  options.compute_units = 16;
  REQUIRE(splits_case<Config>(s, options.compute_units));
  const EmulatedResult r = run_emulated_gemm<Config>(s, tessera::test::fresh_seed(), options);
  const bool reported = !emu::reports().empty();
  const bool wrong = r.status != tessera::Status::kSuccess || !r.compare.passed(r.tolerance);
  std::printf("%s %s, M=%lld N=%lld K=%lld, split-K 3: %s%s%s\n", Config::Arch::kName, Config::Schedule::kName,
              (long long)s.M, (long long)s.N, (long long)s.K, reported ? "reports; " : "", wrong ? "wrong result; " : "",
              reported || wrong ? "CAUGHT" : "NOT CAUGHT");
  if (wrong) std::printf("  %s: %s\n", tessera::status_name(r.status), r.compare.describe().c_str());
  if (reported) std::printf("  %s\n", r.reports.substr(0, r.reports.find("\n[", 1)).c_str());
  return reported || wrong;
}

}  // namespace
}  // namespace emu_test

TEST_CASE("mutation: the stream-K fix-up, broken", "[emulator][mutation][stream_k]") {
#define EMU_TEST_REQUIRE_CAUGHT(C) CHECK(emu_test::caught<emu_test::Unparen<void C>::type>());
  EMU_TEST_STREAM_K_CONFIGS(EMU_TEST_REQUIRE_CAUGHT)
}
