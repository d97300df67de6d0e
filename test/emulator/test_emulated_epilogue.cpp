// The test-only epilogues (test/support/test_epilogues.hpp), written once, on the MFMA family
// under the wave emulator (emulated, not run on AMD hardware): the same definitions the GPU
// suites run on the FMA and wgmma families. The expected D is written here from the float64
// product, independently of the library's epilogue code.
#include <catch2/catch.hpp>

#include <cstdint>

#include "emulated_gemm_case.hpp"
#include "epilogue_configs.hpp"

using namespace emu_test;
using tessera::test::CaseShape;
using tessera::test::EpilogueCase;

namespace {
const CaseShape kShapes[] = {{1, 1, 1}, {33, 17, 9, 3}, {129, 257, 70, 0}, {300, 130, 200, 1, 1.0f, 0.0f, false, true}};
}  // namespace

TEST_CASE("MFMA GEMM (emulated): D = 3 * acc + row, one epilogue definition for every family", "[epilogue]") {
  using Config = EpilogueBaseline<tessera::Gfx942, option::Epilogue<tessera::test::ScaleAndAddRow>>;
  EpilogueCase<Config> e;
  e.arguments.scale = 3.0f;
  e.expected = [](double ab, double, std::int64_t m, std::int64_t) { return 3.0 * ab + double(m); };
  for (const CaseShape& s : kShapes) check_emulated_gemm<Config>(s, {}, e);
}

TEST_CASE("MFMA GEMM (emulated): D = acc * C + column, fp32 D from fp16 C", "[epilogue]") {
  using Config = EpilogueTwoClusters<tessera::Gfx950, option::Epilogue<tessera::test::TimesCPlusColumn>,
                                     option::OutputElement<float>>;
  EpilogueCase<Config> e;
  e.expected = [](double ab, double c, std::int64_t, std::int64_t n) { return ab * c + double(n); };
  for (const CaseShape& s : kShapes) check_emulated_gemm<Config>(s, {}, e);
}

TEST_CASE("MFMA GEMM (emulated): alpha * A B + beta * C with bf16 C and fp32 D", "[epilogue]") {
  using Config = EpilogueBaseline<tessera::Gfx950, option::OutputElement<float>>;
  for (CaseShape s : kShapes) {
    s.beta = 0.5f;
    s.alpha = -1.5f;
    check_emulated_gemm<Config>(s);
  }
}
