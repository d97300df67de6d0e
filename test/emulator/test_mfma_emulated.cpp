// The AMD MFMA GEMM (issue 9) on the wave emulator: every shipped configuration
// (examples/mfma_configs.hpp: every schedule, both MFMA sizes, both input types, the three
// output types, all four A/B layouts, gfx942 and gfx950, and each one's unaligned kernel)
// through Gemm<Config>::run on CI-sized shapes (mfma_gemm_cases.hpp: odd sizes, K tails,
// K < BlockK, beta != 0, C == D, unaligned leading dimensions and pointers), against the
// float64 reference, with the LDS race detector on and no report of any kind allowed.
// Each ping-pong schedule's order is also read back from the emulator's trace: the two
// wave groups of the 8-wave schedules never issue MFMAs in the same barrier interval, and
// the dot clusters run at raised priority.
//
// These results are EMULATED (docs/emulator.md), not runs on an AMD GPU. One ctest entry
// per schedule (test/emulator/CMakeLists.txt: emulator.mfma_gemm.<tag>).
#include <catch2/catch.hpp>

#include "mfma_gemm_cases.hpp"
#include "mfma_gemm_configs.hpp"

namespace emu_test {
namespace {

template <class Config>
void sweep() {
  INFO("schedule: " << Config::Schedule::kName << ", " << Config::kWaves << " waves, tile " << Config::kBlockM
                    << "x" << Config::kBlockN << "x" << Config::kBlockK);
  for (const CaseShape& s : mfma_shapes<Config>(true)) check_emulated_gemm<Config>(s);
  if constexpr (!Config::kDirectToLds) {
    for (const CaseShape& s : mfma_shapes<Config>(false)) check_emulated_gemm<Config>(s);
  } else {
    // No unaligned kernel: refused before any launch (the host API's requirements).
    for (const CaseShape& s : mfma_shapes<Config>(false)) {
      const EmulatedResult r = run_emulated_gemm<Config>(s, 1);
      INFO("M=" << s.M << " N=" << s.N << " K=" << s.K << ": " << tessera::status_name(r.status));
      CHECK((r.status == tessera::Status::kErrorMisalignedA || r.status == tessera::Status::kErrorMisalignedB));
    }
  }
  // The schedule's order, on the shape with the most K tiles (the last aligned one).
  namespace emu = tessera::amd::emulation;
  emu::Options traced;
  traced.record_trace = true;
  const CaseShape s = mfma_shapes<Config>(true).back();
  check_emulated_gemm<Config>(s, traced);
  const ScheduleOrder o = schedule_order(0, Config::kWaves);
  INFO(o.describe());
  CHECK(keeps_schedule_order<Config>(o));
}

}  // namespace
}  // namespace emu_test

namespace mfma = examples::mfma;
using emu_test::sweep;
using tessera::Gfx942;
using tessera::Gfx950;

TEST_CASE("emulated: MFMA GEMM, no ping-pong", "[emulator][mfma][baseline]") {
  sweep<mfma::Baseline<Gfx942>>();
  sweep<mfma::Baseline<Gfx950>>();
}
TEST_CASE("emulated: MFMA GEMM, one-cluster ping-pong", "[emulator][mfma][one]") {
  sweep<mfma::OneCluster<Gfx942>>();
  sweep<mfma::OneCluster<Gfx950>>();
}
TEST_CASE("emulated: MFMA GEMM, one-cluster ping-pong with 16x16 MFMAs", "[emulator][mfma][one16]") {
  sweep<mfma::OneCluster16<Gfx942>>();
  sweep<mfma::OneCluster16<Gfx950>>();
}
TEST_CASE("emulated: MFMA GEMM, two-cluster ping-pong", "[emulator][mfma][two]") {
  sweep<mfma::TwoClusters<Gfx942>>();
  sweep<mfma::TwoClusters<Gfx950>>();
}
TEST_CASE("emulated: MFMA GEMM, four-cluster ping-pong", "[emulator][mfma][four]") {
  sweep<mfma::FourClusters<Gfx942>>();
  sweep<mfma::FourClusters<Gfx950>>();
}
TEST_CASE("emulated: MFMA GEMM, gfx950 async direct-to-LDS", "[emulator][mfma][async]") {
  sweep<mfma::Async>();
}
