// Emulated tests of the AMD MFMA GEMM (label `emulator`): every shipped configuration
// (examples/mfma_configs.hpp: every schedule, both MFMA sizes, both input types, the three
// output types, all four A/B layouts) runs through Gemm<Config>::run on the wave emulator
// (issue 8) against the float64 reference, on a CI-sized set of shapes: odd sizes, K tails
// (K % BlockK != 0 and K < BlockK), beta != 0, C == D, unaligned leading dimensions (the
// element-gather variant), alpha != 1. The emulator's LDS race detector runs throughout.
// Results are "emulated", never "ran on AMD".
//
// Built only with -DTESSERA_BUILD_MFMA_EMULATED=ON (test/emulator/CMakeLists.txt), a host
// build with TESSERA_AMD_EMULATION by clang, linked with the emulator. What this file
// assumes of the emulator, beyond the hooks the headers declare (docs in the report):
//   tessera::amd::emulation::select_target(const char* gfx)   which gfx target (and so
//                                                              which MFMAs and LDS size)
//                                                              current_device() reports
// Each test case names its schedule in brackets ([four], [async], ...) so that
// scripts/mfma_emulator_mutation_check.sh can run one schedule's cases against a mutant.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "mfma_configs.hpp"
#include "reference_gemm.hpp"
#include "tessera/gemm/mfma_gemm.hpp"

namespace tessera::amd::emulation {
void select_target(const char* gfx);  // provided by the emulator (see the header comment)
}  // namespace tessera::amd::emulation

namespace {

using namespace tessera;
using namespace tessera::test;

struct Shape {
  std::int64_t M, N, K;
  std::int64_t pad;  // added to every leading dimension: odd pads take the gather variant
  float alpha, beta;
  bool in_place;     // C and D are one buffer
};

// Shapes relative to the block tile, so that every configuration sees edge tiles in M and
// N, a partial K tile, and K < BlockK. Kept small: the emulator runs every lane on the host.
template <class Config>
std::vector<Shape> shapes() {
  const std::int64_t bm = Config::kBlockM, bn = Config::kBlockN, bk = Config::kBlockK;
  return {
      {bm, bn, 2 * bk, 0, 1.0f, 0.0f, false},                  // whole tiles, aligned
      {bm + 17, bn - 5, 2 * bk + 9, 0, 1.0f, 0.5f, false},     // edges, K tail, beta
      {bm - 3, 2 * bn + 1, bk - 7, 8, -1.5f, 0.0f, false},     // K < BlockK, padded ld
      {bm + 1, bn + 2, 3 * bk + 1, 1, 1.0f, 1.0f, true},       // unaligned ld (gather), C == D
      {33, 47, 5, 0, 2.0f, -1.0f, false},                      // smaller than one tile
  };
}

template <class Config>
void run_case(const Shape& s) {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using LA = typename Config::LayoutA;
  using LB = typename Config::LayoutB;
  using LC = typename Config::LayoutC;
  const std::uint64_t seed = fresh_seed();
  INFO(Config::Arch::kName << " " << Config::Schedule::kName << " M=" << s.M << " N=" << s.N << " K=" << s.K
                           << " pad=" << s.pad << " alpha=" << s.alpha << " beta=" << s.beta
                           << " in_place=" << s.in_place << " seed=" << seed);
  const std::int64_t lda = LA::min_ld(s.M, s.K) + s.pad;
  const std::int64_t ldb = LB::min_ld(s.K, s.N) + s.pad;
  const std::int64_t ldc = LC::min_ld(s.M, s.N) + s.pad;
  const std::int64_t ldd = s.in_place ? ldc : LC::min_ld(s.M, s.N) + 2 * s.pad;
  // The async schedule needs 16-byte lines (its direct-to-LDS loads have no narrower form);
  // its unaligned shapes are refused by can_implement, which test_mfma_schedule covers.
  if (Config::kDirectToLds && ((lda * 2) % 16 != 0 || (ldb * 2) % 16 != 0)) return;
  // std::vector's storage is 16-byte aligned (operator new on x86-64).
  auto aligned = [](auto& v) { return v.data(); };
  std::vector<EA> a(std::size_t(matrix_span<LA>(s.M, s.K, lda)) + 8);
  std::vector<EB> b(std::size_t(matrix_span<LB>(s.K, s.N, ldb)) + 8);
  std::vector<EC> c(std::size_t(matrix_span<LC>(s.M, s.N, ldc)) + 8);
  std::vector<EC> d(std::size_t(matrix_span<LC>(s.M, s.N, ldd)) + 8);
  fill_random(a, seed);
  fill_random(b, seed + 1);
  fill_random(c, seed + 2);
  poison(d);
  if (s.in_place) d = c;
  gemm::Arguments<EA, EB, EC> args{s.M, s.N, s.K, aligned(a), lda, aligned(b), ldb, aligned(c), ldc,
                                   s.in_place ? aligned(c) : aligned(d), s.in_place ? ldc : ldd, s.alpha, s.beta};
  const std::vector<double> ref = reference_gemm_f64<LA, LB, LC>(
      gemm::Arguments<EA, EB, EC>{s.M, s.N, s.K, a.data(), lda, b.data(), ldb, c.data(), ldc, nullptr, args.ldd,
                                  s.alpha, s.beta});
  const Status st = gemm::Gemm<Config>::run(args);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  const CompareResult r = compare<LC>(s.M, s.N, args.D, args.ldd, ref.data(), args.ldd);
  INFO(r.describe());
  CHECK(r.unwritten == 0);
  CHECK(r.nan == 0);
  CHECK(r.rel_fro <= tolerance<EA, EC>(s.K));
  if (!s.in_place) CHECK(count_padding_writes<LC>(s.M, s.N, d, args.ldd) == 0);
}

template <class Config>
void sweep() {
  amd::emulation::select_target(Config::Arch::kName);
  for (const Shape& s : shapes<Config>()) run_case<Config>(s);
}

namespace cfg = examples::mfma;

}  // namespace

TEST_CASE("MFMA GEMM, no ping-pong (emulated)", "[emulator][mfma][baseline]") {
  sweep<cfg::Baseline<Gfx942>>();
  sweep<cfg::Baseline<Gfx950>>();
}
TEST_CASE("MFMA GEMM, one-cluster ping-pong (emulated)", "[emulator][mfma][one]") {
  sweep<cfg::OneCluster<Gfx942>>();
  sweep<cfg::OneCluster<Gfx950>>();
  sweep<cfg::OneCluster16<Gfx942>>();
  sweep<cfg::OneCluster16<Gfx950>>();
}
TEST_CASE("MFMA GEMM, two-cluster ping-pong (emulated)", "[emulator][mfma][two]") {
  sweep<cfg::TwoClusters<Gfx942>>();
  sweep<cfg::TwoClusters<Gfx950>>();
}
TEST_CASE("MFMA GEMM, four-cluster ping-pong (emulated)", "[emulator][mfma][four]") {
  sweep<cfg::FourClusters<Gfx942>>();
  sweep<cfg::FourClusters<Gfx950>>();
}
TEST_CASE("MFMA GEMM, gfx950 async direct-to-LDS (emulated)", "[emulator][mfma][async]") {
  sweep<cfg::Async>();
}
