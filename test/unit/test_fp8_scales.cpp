// Host checks of the fp8 GEMM's scales (no GPU): every refusal of Fp8Scaling::can_implement
// at its boundary (the exact size passes, one value less is refused), what the scale modes
// and WgmmaConfig with fp8 operands declare, and the per-element output op (alpha, beta, D's
// scale, the amax of D before that scale).
#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>

#include "tessera/gemm/epilogue/fp8_scaling.hpp"
#include "tessera/gemm/epilogue/fused.hpp"
#include "tessera/gemm/wgmma/smem_plan.hpp"
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {
const float kScales[4] = {1.0f, 2.0f, 3.0f, 4.0f};  // only the pointers matter here
float g_amax = 0.0f;
}  // namespace

TEST_CASE("fp8 block scales: sizes and leading dimensions at their boundaries", "[fp8][scales]") {
  using S = Fp8Scaling<scale::Blockwise, bfloat16_t>;
  const EpilogueProblem p{300, 260, 1000};  // 8 K blocks (the last partial), 3 N blocks
  const std::int64_t kb = 8, nb = 3;
  Fp8ScaleArguments a{{kScales, 0, 0}, {kScales + 1, 0, 0}, nullptr, nullptr};
  // Defaults: ld_a = M, ld_b = K blocks.
  a.a.size = 300 * (kb - 1) + 300;
  a.b.size = kb * (nb - 1) + kb;
  CHECK(S::can_implement(a, p) == Status::kSuccess);
  auto with = [&](auto mutate) {
    Fp8ScaleArguments x = a;
    mutate(x);
    return S::can_implement(x, p);
  };
  CHECK(with([](auto& x) { x.a.size -= 1; }) == Status::kErrorScaleATooSmall);
  CHECK(with([](auto& x) { x.b.size -= 1; }) == Status::kErrorScaleBTooSmall);
  CHECK(with([](auto& x) { x.a.data = nullptr; }) == Status::kErrorNullScaleA);
  CHECK(with([](auto& x) { x.b.data = nullptr; }) == Status::kErrorNullScaleB);
  // Explicit leading dimensions: at least M and the K blocks; sizes follow them.
  CHECK(with([](auto& x) { x.a.ld = 299; }) == Status::kErrorScaleATooSmall);
  CHECK(with([](auto& x) { x.b.ld = 7; }) == Status::kErrorScaleBTooSmall);
  CHECK(with([](auto& x) { x.a.ld = 304; }) == Status::kErrorScaleATooSmall);  // 304 * 7 + 300 needed
  CHECK(with([](auto& x) {
          x.a.ld = 304;
          x.a.size = 304 * 7 + 300;
        }) == Status::kSuccess);
  CHECK(with([](auto& x) {
          x.b.ld = 12;
          x.b.size = 12 * 2 + 8;
        }) == Status::kSuccess);
  // Nothing is read when K == 0 or M x N is empty: null scales are fine then.
  const Fp8ScaleArguments none{};
  CHECK(S::can_implement(none, EpilogueProblem{300, 260, 0}) == Status::kSuccess);
  CHECK(S::can_implement(none, EpilogueProblem{0, 260, 100}) == Status::kSuccess);
  // make() fills the default leading dimensions.
  const S made = S::make(a, p);
  CHECK(made.ld_a == 300);
  CHECK(made.ld_b == kb);
}

TEST_CASE("fp8 per-row/column and per-tensor scales, and D's scale", "[fp8][scales]") {
  const EpilogueProblem p{300, 260, 100};
  using RowCol = Fp8Scaling<scale::PerRowColumn, half_t>;
  Fp8ScaleArguments a{{kScales, 0, 300}, {kScales, 0, 260}, nullptr, nullptr};
  CHECK(RowCol::can_implement(a, p) == Status::kSuccess);
  a.a.size = 299;
  CHECK(RowCol::can_implement(a, p) == Status::kErrorScaleATooSmall);
  a.a.size = 300;
  a.b.size = 259;
  CHECK(RowCol::can_implement(a, p) == Status::kErrorScaleBTooSmall);

  using Tensor = Fp8Scaling<scale::PerTensor, float>;
  const Fp8ScaleArguments t{{kScales, 0, 0}, {kScales, 0, 0}, nullptr, nullptr};  // sizes not needed
  CHECK(Tensor::can_implement(t, p) == Status::kSuccess);
  // An fp8 D needs its scale; another D takes one optionally.
  using Fp8Out = Fp8Scaling<scale::PerTensor, float8_e4m3_t>;
  CHECK(Fp8Out::can_implement(t, p) == Status::kErrorNullScaleD);
  Fp8ScaleArguments with_d = t;
  with_d.scale_d = kScales + 2;
  with_d.amax_d = &g_amax;
  CHECK(Fp8Out::can_implement(with_d, p) == Status::kSuccess);
  CHECK(Tensor::can_implement(with_d, p) == Status::kSuccess);
  CHECK(Fp8Out::can_implement(Fp8ScaleArguments{}, EpilogueProblem{0, 0, 0}) == Status::kSuccess);
}

TEST_CASE("fp8 output op: D = d (alpha acc + beta c), amax before d", "[fp8][scales]") {
  Fp8OutputOp<> op{{2.0f, 0.5f}, 0.25f};
  CHECK(op.reads_c());
  CHECK(op(3.0f, EpilogueElement{0, 0, -20.0f, true}) == 0.25f * (6.0f - 10.0f));
  CHECK(op.amax == 4.0f);
  CHECK(op(1.0f, EpilogueElement{0, 1, 0.0f, false}) == 0.5f);  // no C: 2 x 1, scaled
  CHECK(op.amax == 4.0f);
  CHECK(op(-5.0f, EpilogueElement{1, 0, 0.0f, false}) == -2.5f);
  CHECK(op.amax == 10.0f);
  // An element the family does not store (past a group's rows) leaves amax as is.
  CHECK(op(100.0f, EpilogueElement{2, 0, 0.0f, false, false}) == 50.0f);
  CHECK(op.amax == 10.0f);
  CHECK_FALSE((Fp8OutputOp<>{{1.0f, 0.0f}, 1.0f}.reads_c()));
}

TEST_CASE("fp8 output op with a composed epilogue: bias and ReLU before amax and D's scale", "[fp8][scales]") {
  using Then = Compose<LinearCombination, ColumnBias<float>, Relu>;
  static const float kBias[2] = {1.0f, -10.0f};
  using Scaling = Fp8Scaling<scale::PerTensor, float8_e4m3_t, Then>;
  Scaling::Arguments args{{kScales}, {kScales + 1}, kScales + 2, nullptr, {{}, {kBias}, {}}};
  const EpilogueProblem p{4, 2, 8, 2.0f, 0.0f};
  REQUIRE(Scaling::can_implement(args, p) == Status::kSuccess);
  const Scaling s = Scaling::make(args, p);
  Fp8OutputOp<Then> op{s.then, 0.5f};
  CHECK(op(3.0f, EpilogueElement{0, 0, 0.0f, false}) == 0.5f * (6.0f + 1.0f));
  CHECK(op(3.0f, EpilogueElement{0, 1, 0.0f, false}) == 0.0f);  // 6 - 10, then ReLU
  CHECK(op.amax == 7.0f);
  args.then = {{}, {nullptr}, {}};
  CHECK(Scaling::can_implement(args, p) != Status::kSuccess);  // the bias's own check runs
}

TEST_CASE("fp8 scales of many GEMMs: sizes at their strides", "[fp8][scales]") {
  using Block = Fp8Scaling<scale::Blockwise, bfloat16_t>;
  const EpilogueProblem p{100, 300, 260};  // 3 K blocks, 3 N blocks: A 2 * 100 + 100, B 2 * 3 + 3 per problem
  Fp8ScaleArguments a{{kScales, 0, 300}, {kScales, 0, 9}, nullptr, nullptr};
  CHECK(Block::can_implement_problems(a, p, 4, false) == Status::kSuccess);  // strides 0: shared
  a.a.stride = 300;
  CHECK(Block::can_implement_problems(a, p, 4, false) == Status::kErrorScaleATooSmall);
  CHECK(Block::can_implement_problems(a, p, 4, true) == Status::kSuccess);  // A by rows: no stride
  a.a.size = 3 * 300 + 300;
  CHECK(Block::can_implement_problems(a, p, 4, false) == Status::kSuccess);
  a.b.stride = 9;
  CHECK(Block::can_implement_problems(a, p, 4, false) == Status::kErrorScaleBTooSmall);
  a.b.size = 3 * 9 + 9;
  CHECK(Block::can_implement_problems(a, p, 4, false) == Status::kSuccess);
  a.b.stride = -1;
  CHECK(Block::can_implement_problems(a, p, 4, false) == Status::kErrorScaleBTooSmall);
  using Tensor = Fp8Scaling<scale::PerTensor, bfloat16_t>;
  Fp8ScaleArguments t{{kScales, 0, 0}, {kScales, 0, 3, 1}, nullptr, nullptr};  // one B scale per expert
  CHECK(Tensor::can_implement_problems(t, p, 4, true) == Status::kErrorScaleBTooSmall);
  t.b.size = 4;
  CHECK(Tensor::can_implement_problems(t, p, 4, true) == Status::kSuccess);
}

TEST_CASE("WgmmaConfig with fp8 operands", "[fp8][config]") {
  using Block = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e5m2_t, ColumnMajor, bfloat16_t, RowMajor,
                            option::Tile<GemmShape<128, 128, 128>>,
                            option::Scales<scale::Blockwise>>;
  STATIC_REQUIRE(Block::kFp8);
  STATIC_REQUIRE(std::is_same_v<Block::Epilogue, Fp8Scaling<scale::Blockwise, bfloat16_t>>);
  STATIC_REQUIRE(Block::Scales::kPromoted);
  // One K tile = one 128-byte line per row of fp8: 16 KiB of A and of B per stage.
  STATIC_REQUIRE(Block::TileA::kBytes == 128 * 128);
  STATIC_REQUIRE(Block::TileB::kBytes == 128 * 128);
  // Each stage also holds the K tile's block scales (128 of A's, B's one, padded: 528 bytes),
  // which leaves room for 5 stages beside the epilogue's staging, where 6 fit without them.
  STATIC_REQUIRE(Block::kStagedScales && Block::kScaleSlotBytes == 528);
  STATIC_REQUIRE(Block::kStages == 5);
  STATIC_REQUIRE(std::is_same_v<Block::Schedule, schedule::Cooperative>);
  // The default scale mode is per tensor, promoted; fp8 D with a 16-bit C.
  using Tensor = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, half_t, RowMajor,
                             option::Tile<GemmShape<128, 256, 128>>,
                             option::OutputElement<float8_e4m3_t>, option::Scales<scale::Fast<scale::PerTensor>>>;
  STATIC_REQUIRE(std::is_same_v<Tensor::ElementD, float8_e4m3_t>);
  STATIC_REQUIRE(!Tensor::Scales::kPromoted);
  STATIC_REQUIRE(Tensor::kStages == 4);
  using Default = WgmmaConfig<float8_e5m2_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                              option::Tile<GemmShape<128, 128, 128>>>;
  STATIC_REQUIRE(std::is_same_v<Default::Scales, scale::PerTensor>);
  STATIC_REQUIRE(Default::Scales::kPromoted);
  STATIC_REQUIRE(!Default::kStagedScales && Default::kScaleSlotBytes == 0);  // per-tensor scales: read once per unit
  // 16-bit operands are untouched by all this.
  using Bf16 = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
  STATIC_REQUIRE(!Bf16::kFp8);
  STATIC_REQUIRE(std::is_same_v<Bf16::Epilogue, LinearCombination>);
  CHECK(WgmmaSmemPlan<Block>::Plan::kTotalBytes <= Sm90::kSmemBytesPerBlock);
}
