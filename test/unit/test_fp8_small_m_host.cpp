// Host checks of the fp8 small-M path (WgmmaFp8SmallM: D^T = B^T A^T, gemm/select/small_m.hpp),
// no GPU: what the configuration declares (the user's scale mode and epilogue, the inner
// configuration's transposed ones), that the call's arguments reach the inner configuration
// with A's and B's scales exchanged, and that the inner block-scale mode
// (scale::BlockwiseTransposed) refuses at exactly the boundaries where the user's Blockwise
// does, naming the other operand (the user's A is the inner B).
#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>

#include "tessera/gemm/select/small_m.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {
const float kScales[2] = {1.0f, 2.0f};  // only the pointers matter here
using e4m3 = float8_e4m3_t;
template <class Scales>
using SmallM = WgmmaFp8SmallM<e4m3, e4m3, bfloat16_t, Scales, 32>;
}  // namespace

TEST_CASE("fp8 small M: the user's scale mode and epilogue outside, the transposed ones inside", "[fp8][small_m]") {
  using Block = SmallM<scale::Blockwise>;
  STATIC_REQUIRE(std::is_same_v<Block::Scales, scale::Blockwise>);
  STATIC_REQUIRE(std::is_same_v<Block::Inner::Scales, scale::BlockwiseTransposed>);
  STATIC_REQUIRE(std::is_same_v<Block::Epilogue, Fp8Scaling<scale::Blockwise, bfloat16_t, LinearCombination>>);
  STATIC_REQUIRE(std::is_same_v<Block::Epilogue::Arguments, Block::Inner::Epilogue::Arguments>);
  STATIC_REQUIRE(std::is_same_v<Block::LayoutA, RowMajor> && std::is_same_v<Block::LayoutB, ColumnMajor> &&
                 std::is_same_v<Block::LayoutC, RowMajor>);
  // The inner tile: 128 weight rows x 32 tokens x 128 of K, both operands K-major.
  STATIC_REQUIRE(Block::Inner::kBlockM == 128 && Block::Inner::kBlockN == 32 && Block::Inner::kBlockK == 128);
  STATIC_REQUIRE(Block::Inner::kKMajorA && Block::Inner::kKMajorB && Block::Inner::kFp8);
  using Tensor = SmallM<scale::PerTensor>;
  STATIC_REQUIRE(std::is_same_v<Tensor::Scales, scale::PerTensor>);
  STATIC_REQUIRE(std::is_same_v<Tensor::Inner::Scales, scale::PerTensor>);
}

TEST_CASE("fp8 small M: the inner call gets B's scales as A's and A's as B's", "[fp8][small_m]") {
  using C = SmallM<scale::PerRowColumn>;
  ConfigArguments<C> a{};
  a.M = 16;
  a.N = 4096;
  a.K = 2048;
  a.epilogue.a = {kScales, 0, 16};
  a.epilogue.b = {kScales + 1, 0, 4096};
  const auto t = transpose_arguments<C>(a);
  CHECK(t.M == 4096);
  CHECK(t.N == 16);
  CHECK(t.epilogue.a.data == kScales + 1);
  CHECK(t.epilogue.a.size == 4096);
  CHECK(t.epilogue.b.data == kScales);
  CHECK(t.epilogue.b.size == 16);
  // The inner problem's per-row/column checks pass on the exchanged scales, as the user's do.
  using Outer = C::Epilogue;
  using Inner = C::Inner::Epilogue;
  const EpilogueProblem user{a.M, a.N, a.K}, inner{t.M, t.N, t.K};
  CHECK(Outer::can_implement(a.epilogue, user) == Status::kSuccess);
  CHECK(Inner::can_implement(t.epilogue, inner) == Status::kSuccess);
}

TEST_CASE("fp8 small M: transposed block scales refuse where the user's block scales do", "[fp8][small_m]") {
  using C = SmallM<scale::Blockwise>;
  using Outer = C::Epilogue;         // Fp8Scaling<Blockwise>: A 1 x 128 ([kb][M]), B 128 x 128 ([N/128][kb])
  using Inner = C::Inner::Epilogue;  // Fp8Scaling<BlockwiseTransposed>: A 128 x 128, B 128 x 1 ([kb][N])
  const std::int64_t M = 33, N = 300, K = 1000, kb = 8, nb = 3;  // the last K block partial
  ConfigArguments<C> a{};
  a.M = M;
  a.N = N;
  a.K = K;
  a.epilogue.a = {kScales, 0, M * (kb - 1) + M};
  a.epilogue.b = {kScales + 1, 0, kb * (nb - 1) + kb};
  const EpilogueProblem user{M, N, K}, inner{N, M, K};
  auto both = [&](auto mutate) {
    ConfigArguments<C> x = a;
    mutate(x);
    const auto t = transpose_arguments<C>(x);
    return std::pair<Status, Status>{Outer::can_implement(x.epilogue, user), Inner::can_implement(t.epilogue, inner)};
  };
  using P = std::pair<Status, Status>;
  CHECK(both([](auto&) {}) == P{Status::kSuccess, Status::kSuccess});
  CHECK(both([](auto& x) { x.epilogue.a.size -= 1; }) == P{Status::kErrorScaleATooSmall, Status::kErrorScaleBTooSmall});
  CHECK(both([](auto& x) { x.epilogue.b.size -= 1; }) == P{Status::kErrorScaleBTooSmall, Status::kErrorScaleATooSmall});
  CHECK(both([](auto& x) { x.epilogue.a.ld = M - 1; }) == P{Status::kErrorScaleATooSmall, Status::kErrorScaleBTooSmall});
  CHECK(both([](auto& x) { x.epilogue.b.ld = kb - 1; }) == P{Status::kErrorScaleBTooSmall, Status::kErrorScaleATooSmall});
  CHECK(both([](auto& x) { x.epilogue.a.data = nullptr; }) == P{Status::kErrorNullScaleA, Status::kErrorNullScaleB});
  CHECK(both([&](auto& x) {
          x.epilogue.a.ld = M + 7;
          x.epilogue.a.size = (M + 7) * (kb - 1) + M;
        }) == P{Status::kSuccess, Status::kSuccess});
  // The inner defaults read the same floats: ld of its A (the user's B) is the K blocks, of its B
  // (the user's A) the tokens.
  const Inner made = Inner::make(transpose_arguments<C>(a).epilogue, inner);
  CHECK(made.ld_a == kb);
  CHECK(made.ld_b == M);
  CHECK(made.scale_a == kScales + 1);
  CHECK(made.scale_b == kScales);
}
