// The emulator's low-precision MFMAs (emulator/src/mfma_lowp.cpp), each instruction on its
// own: its operand and scale lane layouts against the layouts AMD's own code uses
// (mfma_lowp_lane_map.hpp), and the instruction bit for bit against a scalar model of the
// documented arithmetic written here from the formats' definitions (test/support/
// narrow_float_reference.hpp), on random codes and on edge encodings (NaN, inf, max
// normal, subnormals, signed zeros, extreme and NaN scales; fp6 and fp4 have no NaN or
// inf: their edges are max normal, subnormals and both zeros), every width in mixes with
// the others; then against float64 within the fp32 rounding bound. EMULATED results.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "mfma_lowp_checks.hpp"

using namespace emu_test;

#define EMU_TEST_LOWP_TYPES                                                                                        \
  emu_test::lowp::G942x32FF, emu_test::lowp::G942x32FB, emu_test::lowp::G942x32BF, emu_test::lowp::G942x32BB,     \
      emu_test::lowp::G942x16FF, emu_test::lowp::G942x16BF, emu_test::lowp::G950x32FF,                            \
      emu_test::lowp::G950x32FBScaled, emu_test::lowp::G950x32BBScaled, emu_test::lowp::G950x32F4,                \
      emu_test::lowp::G950x32F4Scaled, emu_test::lowp::G950x16FFScaled, emu_test::lowp::G950x16BF,                \
      emu_test::lowp::G950x16F4, emu_test::lowp::G950x16F4Scaled, emu_test::lowp::G950x32F6F6,              \
      emu_test::lowp::G950x32F6B6Scaled, emu_test::lowp::G950x16B6B6Scaled, emu_test::lowp::G950x16F6F6,      \
      emu_test::lowp::G950x32F6FScaled, emu_test::lowp::G950x16BB6Scaled, emu_test::lowp::G950x32B6F,         \
      emu_test::lowp::G950x32F64Scaled, emu_test::lowp::G950x16F4B6, emu_test::lowp::G950x32F4FScaled

TEMPLATE_TEST_CASE("the low-precision MFMA model places operands and scales as AMD's code loads them",
                   "[emulator][mfma][lowp]", EMU_TEST_LOWP_TYPES) {
  using S = TestType;
  constexpr int kValues = emu_test::mfma_lowp_values_per_lane<S>();
  for (int lane = 0; lane < 64; ++lane) {
    for (int e = 0; e < kValues; ++e) {
      const MatrixIndex a = emu_test::mfma_lowp_a_element<S>(lane, e);
      const MatrixIndex b = emu_test::mfma_lowp_b_element<S>(lane, e);
      const emu::MfmaSlot sa = emu::mfma_lowp_a_slot(S::kCode, a.row, a.col);
      const emu::MfmaSlot sb = emu::mfma_lowp_b_slot(S::kCode, b.row, b.col);
      INFO("lane " << lane << " value " << e);
      REQUIRE((sa.lane == lane && sa.index == e));
      REQUIRE((sb.lane == lane && sb.index == e));
      // The instruction's traits (what kernels address with) name the same K: unit e / values
      // per unit of lane group lane / M, each operand by its own format.
      constexpr int kPerUnitA = tessera::amd::mfma_values_per_unit(S::kFormatA);
      constexpr int kPerUnitB = tessera::amd::mfma_values_per_unit(S::kFormatB);
      if (e % kPerUnitA == 0) REQUIRE(S::operand_k(lane / S::kM, e / kPerUnitA) == a.col);
      if (e % kPerUnitB == 0) REQUIRE(S::operand_k_b(lane / S::kM, e / kPerUnitB) == b.row);
    }
    if (S::kScaled) {
      const emu_test::ScaleIndex s = emu_test::mfma_lowp_scale_element<S>(lane);
      REQUIRE(emu::mfma_lowp_scale_lane(S::kCode, s.row, s.block) == lane);
      REQUIRE(S::scale_lane(s.row, s.block) == lane);
    }
  }
}

TEMPLATE_TEST_CASE("each low-precision MFMA equals the scalar model bit for bit", "[emulator][mfma][lowp]",
                   EMU_TEST_LOWP_TYPES) {
  using S = TestType;
  emu::ScopedOptions scope(lowp_options<S>());
  for (bool edges : {false, true}) {
    for (int trial = 0; trial < 3; ++trial) {
      const std::uint64_t seed = tessera::test::fresh_seed();
      const LowpCase t = make_case<S>(seed, edges);
      emu::clear_reports();
      Status status;
      const std::vector<float> d = run_instruction<S>(t, &status);
      const std::vector<float> want = scalar_model<S>(t);
      INFO("seed " << seed << (edges ? ", edge encodings" : ", finite codes"));
      INFO(emu::describe_all());
      REQUIRE(status == Status::kSuccess);
      CHECK(emu::reports().empty());
      const std::size_t differ = count_differences(d, want);
      std::size_t nans = 0, first = d.size();
      for (std::size_t i = 0; i < d.size(); ++i) {
        if (first == d.size() && !same_bits(d[i], want[i])) first = i;
        nans += std::isnan(want[i]) ? 1 : 0;
      }
      INFO(differ << " of " << d.size() << " differ; " << nans << " NaN in the model"
                  << (first < d.size() ? "; first at " + std::to_string(first) + ": " + std::to_string(d[first]) +
                                             " vs " + std::to_string(want[first])
                                       : std::string()));
      CHECK(differ == 0);
      if (!edges) CHECK(nans == 0);
    }
  }
}

TEMPLATE_TEST_CASE("each low-precision MFMA is within the fp32 rounding bound of float64", "[emulator][mfma][lowp]",
                   EMU_TEST_LOWP_TYPES) {
  using S = TestType;
  emu::ScopedOptions scope(lowp_options<S>());
  const std::uint64_t seed = tessera::test::fresh_seed();
  const LowpCase t = make_case<S>(seed, false);
  Status status;
  const std::vector<float> d = run_instruction<S>(t, &status);
  REQUIRE(status == Status::kSuccess);
  const reference::Format& fa = format_of(S::kFormatA, S::kF8F6F4);
  const reference::Format& fb = format_of(S::kFormatB, S::kF8F6F4);
  const int blocks = S::kK / 32;
  double worst = 0.0;
  for (int i = 0; i < t.m; ++i) {
    for (int j = 0; j < t.m; ++j) {
      double ref = t.c[std::size_t(i * t.m + j)], magnitude = std::fabs(ref);
      for (int k = 0; k < t.k; ++k) {
        double p = fa.decode(t.a[std::size_t(i * t.k + k)]) * fb.decode(t.b[std::size_t(k * t.m + j)]);
        if (S::kScaled) {
          p = std::ldexp(p, int(t.sa[std::size_t(i * blocks + k / 32)]) + int(t.sb[std::size_t(j * blocks + k / 32)]) - 254);
        }
        ref += p;
        magnitude += std::fabs(p);
      }
      const double ratio = std::fabs(double(d[std::size_t(i * t.m + j)]) - ref) / (double(t.k + 1) * 0x1p-24 * magnitude);
      if (!(ratio <= worst)) worst = ratio;
    }
  }
  INFO("seed " << seed << ": worst " << worst << " of the rounding bound");
  CHECK(worst <= 1.0);
}

TEST_CASE("a low-precision MFMA on a target that does not have it is misuse", "[emulator][mfma][lowp]") {
  LowpCase t = make_case<emu_test::lowp::G950x32FF>(1, false);
  emu::Options o = lowp_options<emu_test::lowp::G950x32FF>();
  o.target = emu::Target::kGfx942;  // f8f6f4 exists only on gfx950
  {
    emu::ScopedOptions scope(o);
    emu::clear_reports();
    Status status;
    run_instruction<emu_test::lowp::G950x32FF>(t, &status);
    CHECK(status == Status::kErrorLaunchFailed);
    CHECK(emu::report_count(emu::ReportKind::kMisuse) == 1);
  }
  LowpCase u = make_case<emu_test::lowp::G942x32FF>(2, false);
  o.target = emu::Target::kGfx950;  // gfx942's fnuz forms are not modelled on gfx950
  {
    emu::ScopedOptions scope(o);
    emu::clear_reports();
    Status status;
    run_instruction<emu_test::lowp::G942x32FF>(u, &status);
    CHECK(status == Status::kErrorLaunchFailed);
    CHECK(emu::report_count(emu::ReportKind::kMisuse) == 1);
  }
}
