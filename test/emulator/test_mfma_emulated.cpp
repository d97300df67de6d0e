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

#include <cstdio>

#include "mfma_gemm_cases.hpp"
#include "mfma_gemm_configs.hpp"

namespace emu_test {
namespace {

// K = 0 with null A and B at their smallest leading dimensions (1 where the layout allows
// it): nothing is read, D = beta * C, partial tiles included, nothing written past D.
template <class Config>
void check_empty_k_null_operands() {
  using namespace tessera;
  using EC = typename Config::ElementC;
  using LC = typename Config::LayoutC;
  const std::int64_t M = Config::kBlockM + 3, N = 37;
  const std::int64_t ldc = LC::min_ld(M, N);
  const std::size_t elements = std::size_t(matrix_span<LC>(M, N, ldc));
  std::vector<EC> c(elements), d(elements + 64);
  const std::uint64_t seed = test::fresh_seed();
  test::fill_random(c, seed);
  test::poison(d);
  gemm::Arguments<typename Config::ElementA, typename Config::ElementB, EC> args{
      M, N, 0, nullptr, Config::LayoutA::min_ld(M, 0), nullptr, Config::LayoutB::min_ld(0, N),
      c.data(), ldc, d.data(), ldc, 1.0f, 2.0f};
  emu::Options o;
  o.target = target_of<Config>();
  emu::ScopedOptions scope(o);
  emu::clear_reports();
  INFO("K = 0, A = B = nullptr, lda " << args.lda << " ldb " << args.ldb << ", beta 2, seed " << seed);
  const Status st = EmulatedGemm<Config>::run(args, nullptr);
  INFO(status_name(st) << "\n" << emu::describe_all());
  REQUIRE(st == Status::kSuccess);
  CHECK(emu::reports().empty());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < elements; ++i) {
    const float want = float(from_float<EC>(2.0f * float(c[i])));
    wrong += float(d[i]) == want ? 0 : 1;
  }
  CHECK(wrong == 0);
  for (std::size_t g = elements; g < d.size(); ++g) REQUIRE(test::is_poison(d[g]));
}

// The cut-dword shapes under both answers the hardware may give for that dword; how many
// loads met one is returned (the emulator counts them: HardwareChoices::straddle).
template <class Config>
std::uint64_t check_cut_last_dword() {
  std::uint64_t straddles = 0;
  for (const CaseShape& s : cut_dword_shapes()) {
    for (emu::StraddleRule rule : {emu::StraddleRule::kZero, emu::StraddleRule::kWhole}) {
      emu::Options o;
      o.hardware.straddle = rule;
      INFO("straddle rule " << (rule == emu::StraddleRule::kWhole ? "whole" : "zero"));
      check_emulated_gemm<Config>(s, o);
      straddles += emu::last_launch_stats().load_straddles;
    }
  }
  return straddles;
}

// Calls f(Config{}) for each configuration, in order (configurations are empty tag types).
template <class... Configs, class F>
void for_each_config(F f) {
  (f(Configs{}), ...);
}

template <class Config>
void cut_dword() {
  const std::uint64_t straddles = check_cut_last_dword<Config>();
  std::printf("%s %s: main-loop loads meeting a cut last dword in the cut-dword shapes: %llu\n",
              Config::Arch::kName, Config::Schedule::kName, (unsigned long long)straddles);
  // The shapes do exercise it where an operand is M- or N-contiguous.
  if (!Config::kKContiguousA || !Config::kKContiguousB) CHECK(straddles > 0);
}

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
  check_empty_k_null_operands<Config>();
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
using tessera::Gfx942;
using tessera::Gfx950;

// One ctest entry's worth per schedule (test/emulator/CMakeLists.txt: emulator.mfma_gemm.<tag>):
// every shipped configuration of it, and, tagged [cut], their cut-dword shapes, which run both
// straddle answers themselves (the runs under the other hardware settings leave them out).
#define EMU_TEST_SCHEDULE(title, tag, ...)                                                           \
  TEST_CASE("emulated: MFMA GEMM, " title, "[emulator][mfma][" tag "]") {                             \
    emu_test::for_each_config<__VA_ARGS__>([](auto config) { emu_test::sweep<decltype(config)>(); }); \
  }                                                                                                   \
  TEST_CASE("emulated: MFMA GEMM, " title ", cut last dword", "[emulator][mfma][" tag "][cut]") {     \
    emu_test::for_each_config<__VA_ARGS__>([](auto config) { emu_test::cut_dword<decltype(config)>(); }); \
  }

EMU_TEST_SCHEDULE("no ping-pong", "baseline", mfma::Baseline<Gfx942>, mfma::Baseline<Gfx950>)
EMU_TEST_SCHEDULE("one-cluster ping-pong", "one", mfma::OneCluster<Gfx942>, mfma::OneCluster<Gfx950>)
EMU_TEST_SCHEDULE("one-cluster ping-pong with 16x16 MFMAs", "one16", mfma::OneCluster16<Gfx942>,
                  mfma::OneCluster16<Gfx950>)
EMU_TEST_SCHEDULE("two-cluster ping-pong", "two", mfma::TwoClusters<Gfx942>, mfma::TwoClusters<Gfx950>)
EMU_TEST_SCHEDULE("four-cluster ping-pong", "four", mfma::FourClusters<Gfx942>, mfma::FourClusters<Gfx950>)
EMU_TEST_SCHEDULE("gfx950 async direct-to-LDS", "async", mfma::Async)
