// The fused epilogues on the host (the formulas every family runs; the GPU suites and the
// emulator run them inside the kernels): each activation against its definition written here
// in double, the vector epilogues' indexing (rows, columns, per-problem strides) and their
// silence outside what is stored, the auxiliary output, Compose's order and arguments, and
// every argument check.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/core/numeric.hpp"
#include "tessera/gemm/epilogue/fused.hpp"

#include "activation_reference.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {

// ReLU's definition; GELU's and SiLU's are activation_reference.hpp's, all independent of the library's code.
double relu_ref(double x) { return x > 0 ? x : 0; }

EpilogueElement at(std::int64_t m, std::int64_t n, int problem = 0, bool stored = true) {
  return EpilogueElement{m, n, 0.0f, false, stored, problem};
}

template <class Activation>
double worst_error(double (*ref)(double)) {
  const Activation f = Activation::make({}, EpilogueProblem{});
  double worst = 0;
  for (int i = -4000; i <= 4000; ++i) {
    const float x = float(i) / 256.0f;  // [-15.6, 15.6], fine steps through the bends
    const double want = ref(double(x));
    // Relative to the value, or where GELU and SiLU vanish (x << 0) to the input's scale: the
    // absolute error of 1 + tanh or 1 + erf there is a few ulps of 1, times x / 2.
    const double err = std::fabs(double(f(x, at(0, 0))) - want) / (std::fabs(want) + 0.5 * std::fabs(double(x)));
    worst = err > worst ? err : worst;
  }
  return worst;
}

}  // namespace

TEST_CASE("activations match their definitions (host formulas)", "[epilogue][activation]") {
  CHECK(worst_error<Relu>(relu_ref) == 0.0);
  // Documented (arch/fast_math.hpp): erf within 1.5e-7 absolute, tanh 2^-21 relative; float
  // rounding on top.
  CHECK(worst_error<GeluErf>(test::gelu_erf) < 3e-7);
  CHECK(worst_error<GeluTanh>(test::gelu_tanh) < 3e-7);
  CHECK(worst_error<Silu>(test::silu) < 3e-7);
  // Far tails: GELU is x or 0, SiLU x or 0, without NaN.
  CHECK(GeluTanh::apply(30.0f) == 30.0f);
  CHECK(GeluErf::apply(-30.0f) == 0.0f);
  CHECK(Silu::apply(100.0f) == 100.0f);
  CHECK(std::fabs(Silu::apply(-100.0f)) < 1e-30f);
  // NaN stays NaN.
  CHECK(std::isnan(Relu::apply(std::numeric_limits<float>::quiet_NaN())));
  CHECK(std::isnan(GeluTanh::apply(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("Clamp bounds the value and checks its bounds", "[epilogue][activation]") {
  const EpilogueProblem p{4, 4, 4};
  CHECK(Clamp::can_implement({-1.0f, 2.0f}, p) == Status::kSuccess);
  CHECK(Clamp::can_implement({2.0f, -1.0f}, p) == Status::kErrorEpilogueArgument);
  CHECK(Clamp::can_implement({std::numeric_limits<float>::quiet_NaN(), 1.0f}, p) == Status::kErrorEpilogueArgument);
  const Clamp c = Clamp::make({-1.0f, 2.0f}, p);
  CHECK(c(-5.0f, at(0, 0)) == -1.0f);
  CHECK(c(0.5f, at(0, 0)) == 0.5f);
  CHECK(c(7.0f, at(0, 0)) == 2.0f);
  const Clamp open = Clamp::make({}, p);  // the defaults: no bound
  CHECK(open(-1e30f, at(0, 0)) == -1e30f);
}

TEST_CASE("vector epilogues index rows, columns and problems, and read nothing outside", "[epilogue][vector]") {
  const EpilogueProblem p{3, 4, 8};
  const std::vector<bfloat16_t> columns = {bfloat16_t(1.0f), bfloat16_t(2.0f), bfloat16_t(3.0f), bfloat16_t(4.0f),
                                           bfloat16_t(10.0f), bfloat16_t(20.0f), bfloat16_t(30.0f), bfloat16_t(40.0f)};
  const std::vector<float> rows = {0.5f, -1.0f, 2.0f};
  const auto bias = ColumnBias<bfloat16_t>::make({columns.data(), 4}, p);
  CHECK(bias(1.0f, at(2, 3)) == 5.0f);                // + columns[3]
  CHECK(bias(1.0f, at(2, 3, /*problem=*/1)) == 41.0f);  // problem 1's vector: + columns[4 + 3]
  const auto row_bias = RowBias<float>::make({rows.data()}, p);
  CHECK(row_bias(1.0f, at(1, 3)) == 0.0f);
  const auto scale = RowScale<float>::make({rows.data()}, p);
  CHECK(scale(3.0f, at(2, 0)) == 6.0f);
  const auto column_scale = ColumnScale<bfloat16_t>::make({columns.data()}, p);
  CHECK(column_scale(3.0f, at(0, 1)) == 6.0f);
  // Outside what is stored (an edge tile's part past M or N) nothing is read past a vector: a
  // row vector is not read at all (a null one would crash here otherwise), a column vector at
  // the column clamped into N (the value is not stored by any family).
  const auto no_rows = RowBias<float>::make({nullptr}, p);
  CHECK(no_rows(7.0f, at(5, 9, 0, /*stored=*/false)) == 7.0f);
  const std::vector<float> four = {1.0f, 2.0f, 3.0f, 4.0f};
  const auto clamped = ColumnBias<float>::make({four.data()}, p);  // N = 4
  CHECK(clamped(7.0f, at(5, 9, 0, /*stored=*/false)) == 11.0f);     // + four[3]
  // Checks: a null vector where there is output; a negative stride.
  CHECK(ColumnBias<float>::can_implement({nullptr}, p) == Status::kErrorNullEpilogueOperand);
  CHECK(ColumnBias<float>::can_implement({nullptr}, EpilogueProblem{0, 4, 8}) == Status::kSuccess);
  CHECK(RowScale<float>::can_implement({rows.data(), -1}, p) == Status::kErrorEpilogueArgument);
}

TEST_CASE("AuxiliaryOutput writes the value where stored and passes it on", "[epilogue][aux]") {
  const EpilogueProblem p{2, 3, 8};
  std::vector<half_t> z(2 * 4 * 2, half_t(-7.0f));  // two problems of 2 x 3 at ld 4
  using RowAux = AuxiliaryOutput<half_t>;
  REQUIRE(RowAux::can_implement({z.data(), 4, 8}, p) == Status::kSuccess);
  const RowAux aux = RowAux::make({z.data(), 4, 8}, p);
  CHECK(aux(1.5f, at(1, 2, 1)) == 1.5f);
  CHECK(float(z[8 + 1 * 4 + 2]) == 1.5f);
  CHECK(aux(2.5f, at(1, 3, 0, /*stored=*/false)) == 2.5f);  // not stored: nothing written
  for (std::size_t i = 0; i < z.size(); ++i) {
    if (i != 8 + 1 * 4 + 2) REQUIRE(float(z[i]) == -7.0f);
  }
  using ColumnAux = AuxiliaryOutput<float, ColumnMajor>;
  std::vector<float> w(3 * 2, 0.0f);
  const ColumnAux caux = ColumnAux::make({w.data(), 2, 0}, p);
  caux(9.0f, at(1, 2));
  CHECK(w[2 * 2 + 1] == 9.0f);
  CHECK(RowAux::can_implement({nullptr, 4, 0}, p) == Status::kErrorNullEpilogueOperand);
  CHECK(RowAux::can_implement({z.data(), 2, 0}, p) == Status::kErrorEpilogueArgument);  // ld < N
  CHECK(ColumnAux::can_implement({w.data(), 1, 0}, p) == Status::kErrorEpilogueArgument);  // ld < M
}

// The Hopper epilogue keeps one shared store loop for composed epilogues (wgmma/epilogue.hpp).
TEST_CASE("IsComposedEpilogue tells a Compose from a single part", "[epilogue][compose]") {
  STATIC_REQUIRE(IsComposedEpilogue<Compose<LinearCombination, ColumnBias<bfloat16_t>, GeluTanh>>::value);
  STATIC_REQUIRE(IsComposedEpilogue<Compose<LinearCombination>>::value);
  STATIC_REQUIRE_FALSE(IsComposedEpilogue<LinearCombination>::value);
  STATIC_REQUIRE_FALSE(IsComposedEpilogue<GeluTanh>::value);
}

TEST_CASE("Compose applies bias, auxiliary output and activation in order", "[epilogue][compose]") {
  const EpilogueProblem p{1, 2, 8, 2.0f, 0.5f};
  const std::vector<float> bias = {0.25f, -3.0f};
  std::vector<float> pre(2, 0.0f);
  using Epilogue = Compose<LinearCombination, ColumnBias<float>, AuxiliaryOutput<float>, GeluTanh>;
  // One brace per epilogue of the Compose, in order (docs/epilogues.md's form).
  Epilogue::Arguments args{{}, {bias.data()}, {pre.data(), 2}, {}};
  REQUIRE(Epilogue::can_implement(args, p) == Status::kSuccess);
  const Epilogue e = Epilogue::make(args, p);
  CHECK(e.reads_c());  // beta != 0
  const EpilogueElement x{0, 1, 4.0f, true};
  const double want_pre = 2.0 * 1.0 + 0.5 * 4.0 - 3.0;  // alpha acc + beta C + bias[1]
  const float got = e(1.0f, x);
  CHECK(pre[1] == float(want_pre));
  CHECK(std::fabs(double(got) - test::gelu_tanh(want_pre)) < 1e-6);
  Epilogue::Arguments bad{{}, {bias.data()}, {nullptr, 2}, {}};
  CHECK(Epilogue::can_implement(bad, p) == Status::kErrorNullEpilogueOperand);
}
