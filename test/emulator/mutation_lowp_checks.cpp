// Mutation checks of the low-precision MFMA tests (test/emulator/CMakeLists.txt): each build
// breaks one side of a layout the tests compare and passes only when the tests' checks
// notice. One EMU_TEST_MUTANT_LOWP_* define per build:
//   LANE_SWAP    the test's own operand map (AMD's layout) with A's two 16-value chunks
//                exchanged: the model's results must differ from the scalar model's;
//   SCALE_LANE   the emulator's scale lanes off by one 32-value block
//                (TESSERA_EMULATOR_MUTANT_SCALE_LANE): the layout check and the bit-exact
//                comparison of the scaled forms must fail;
//   FP6_FIELDS   the emulator reading fp6 fields in the wrong order (each group of four
//                from the top of its 24 bits down: TESSERA_EMULATOR_MUTANT_FP6_FIELDS):
//                fp6 x fp8 mixes, whose K pairing that breaks, must differ from the model.
#include <catch2/catch.hpp>

#include <cstdio>

#include "mfma_lowp_checks.hpp"

using namespace emu_test;

template <class S>
std::size_t differences_from_model() {
  emu::ScopedOptions scope(lowp_options<S>());
  const LowpCase t = make_case<S>(tessera::test::fresh_seed(), false);
  Status status;
  const std::vector<float> d = run_instruction<S>(t, &status);
  REQUIRE(status == Status::kSuccess);
  return count_differences(d, scalar_model<S>(t));
}

#if defined(EMU_TEST_MUTANT_LOWP_LANE_SWAP)
TEMPLATE_TEST_CASE("mutation: A's two 16-value chunks exchanged in the f8f6f4 lane map give other results",
                   "[emulator][mutation][lowp]", lowp::G950x32FF, lowp::G950x16FFScaled) {
  const std::size_t differ = differences_from_model<TestType>();
  std::printf("MUTATION CAUGHT: A's chunks exchanged, %s: %zu of %d outputs differ from the scalar model\n",
              TestType::kScaled ? "scaled" : "unscaled", differ, TestType::kM * TestType::kM);
  REQUIRE(differ > 0);
}
#elif defined(EMU_TEST_MUTANT_LOWP_SCALE_LANE)
TEMPLATE_TEST_CASE("mutation: the emulator reading scales one 32-value block off fails the scale checks",
                   "[emulator][mutation][lowp]", lowp::G950x32FBScaled, lowp::G950x16F4Scaled) {
  using S = TestType;
  int mismatches = 0;
  for (int lane = 0; lane < 64; ++lane) {
    const ScaleIndex s = mfma_lowp_scale_element<S>(lane);
    mismatches += emu::mfma_lowp_scale_lane(S::kCode, s.row, s.block) == lane ? 0 : 1;
  }
  const std::size_t differ = differences_from_model<S>();
  std::printf("MUTATION CAUGHT: scales read one block off: %d of 64 scale lanes wrong; %zu of %d outputs differ\n",
              mismatches, differ, S::kM * S::kM);
  REQUIRE(mismatches > 0);
  REQUIRE(differ > 0);
}
#elif defined(EMU_TEST_MUTANT_LOWP_FP6_FIELDS)
TEMPLATE_TEST_CASE("mutation: the emulator reading fp6 fields in the wrong order gives other results",
                   "[emulator][mutation][lowp]", lowp::G950x32F6FScaled, lowp::G950x16BB6Scaled, lowp::G950x16F4B6) {
  const std::size_t differ = differences_from_model<TestType>();
  std::printf("MUTATION CAUGHT: fp6 fields reversed in each group of four, %dx%dx%d %s: %zu of %d outputs differ "
              "from the scalar model\n",
              TestType::kM, TestType::kN, TestType::kK, TestType::kScaled ? "scaled" : "unscaled", differ,
              TestType::kM * TestType::kM);
  REQUIRE(differ > 0);
}
#else
#error "mutation_lowp_checks.cpp: build with one EMU_TEST_MUTANT_LOWP_* define"
#endif
