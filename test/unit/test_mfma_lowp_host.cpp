// Host checks of the low-precision MFMA GEMM's numbers: the instructions' traits
// (arch/amd/mfma_lowp.hpp) against the numbers AMD publishes, the atoms' operand maps
// against the register tables of Composable Kernel's MX MFMA test (written here in their
// own form), the LDS reads that feed each operand (fp6's one run of K, fp8's two halves),
// which scale byte each instruction of a K tile reads, the stage layout with its scale
// tiles, and the host API's refusals (Status) of bad scales, odd fp4 K and fp6 rows that
// start mid-byte.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "mfma_lowp_configs.hpp"
#include "tessera/gemm/mfma/smem_plan.hpp"
#include "tessera/gemm/mfma/mfma.hpp"
#include "tessera/memory/mfma_scale_copy.hpp"
#include "tessera/memory/mfma_tile_copy.hpp"
#include "tessera/mma/mfma_atom.hpp"
#include "tessera/mma/mfma_lowp_wave_tile.hpp"

using namespace tessera;
namespace cfg = examples::mfma_lowp;
using amd::MfmaFormat;
using amd::MfmaLowpShape;

TEST_CASE("low-precision MFMA traits: bytes a lane, cycles, the instruction code", "[mfma][lowp]") {
  using G942 = MfmaLowpShape<32, 32, 16, MfmaFormat::kFp8, MfmaFormat::kBf8>;
  using G950x8 = MfmaLowpShape<32, 32, 64, MfmaFormat::kFp8, MfmaFormat::kFp8, true>;
  using G950x4 = MfmaLowpShape<16, 16, 128, MfmaFormat::kFp4, MfmaFormat::kFp4, true>;
  using G950x6 = MfmaLowpShape<32, 32, 64, MfmaFormat::kFp6, MfmaFormat::kBf6, true>;
  using G950x68 = MfmaLowpShape<16, 16, 128, MfmaFormat::kFp6, MfmaFormat::kFp8>;
  // Registers a lane: 2 VGPRs for gfx942's fp8 (AMD's matrix instruction calculator), 8 for
  // an 8-bit f8f6f4 operand, 6 for fp6 and 4 for fp4 (the CDNA4 ISA guide's register table;
  // clang-22 passes v[n:n+5] for cbsz 2 or 3), each operand by its own format.
  STATIC_REQUIRE(G942::kOperandWordsA == 2);
  STATIC_REQUIRE(G950x8::kOperandWordsA == 8);
  STATIC_REQUIRE(G950x4::kOperandWordsA == 4);
  STATIC_REQUIRE((G950x6::kOperandWordsA == 6 && G950x6::kOperandWordsB == 6));
  STATIC_REQUIRE((G950x68::kOperandWordsA == 6 && G950x68::kOperandWordsB == 8));
  STATIC_REQUIRE(G950x4::kValuesPerUnit == 2);
  STATIC_REQUIRE((G950x6::kValuesPerUnit == 1 && G950x6::kOperandElements == 32));  // one value a byte slot
  // FLOP per SIMD-cycle: MI300X fp8 1024 (2x its bf16), MI355X MXFP8 2048, MXFP6 and MXFP4
  // 4096 (10 PFLOP/s each); a mix with an 8-bit operand runs at the 8-bit rate.
  STATIC_REQUIRE(G942::kFlops / G942::kCycles == 1024);
  STATIC_REQUIRE(G950x8::kFlops / G950x8::kCycles == 2048);
  STATIC_REQUIRE(G950x4::kFlops / G950x4::kCycles == 4096);
  STATIC_REQUIRE(G950x6::kFlops / G950x6::kCycles == 4096);
  STATIC_REQUIRE(G950x68::kFlops / G950x68::kCycles == 2048);
  // The code the emulator's hook receives round-trips.
  const amd::MfmaLowpCode c{16, 128, MfmaFormat::kBf8, MfmaFormat::kFp8, true, 2, 3};
  const amd::MfmaLowpCode d = amd::MfmaLowpCode::decode(c.encode());
  CHECK((d.m == 16 && d.k == 128 && d.a == MfmaFormat::kBf8 && d.b == MfmaFormat::kFp8 && d.scaled &&
         d.opsel_a == 2 && d.opsel_b == 3 && d.f8f6f4()));
}

namespace {
// Composable Kernel's register maps (test/mx_mfma_op/mx_mfma_op.hpp, load_A_row_major): lane
// l starts at K = (l / M) * chunk and reads `chunks` chunks of `chunk` values, chunk * 64 / M
// apart (8-bit: chunks of 16; packed fp4 and fp6: one chunk of 32, "FP6 chunk_size = 32,
// num_chunks = 1" at e55b154); gfx942's fp8 (the calculator): 8 values from 8 * (l / M).
template <class Shape>
int ck_k(amd::MfmaFormat format, int lane, int value) {
  constexpr int M = Shape::kM;
  if constexpr (!Shape::kF8F6F4) return 8 * (lane / M) + value;
  const int chunk = amd::mfma_format_bits(format) == 8 ? 16 : 32;
  return (lane / M) * chunk + (value / chunk) * (chunk * 64 / M) + value % chunk;
}
}  // namespace

TEMPLATE_TEST_CASE("low-precision MFMA atoms place operands as Composable Kernel's MX test does", "[mfma][lowp]",
                   (MfmaLowpShape<32, 32, 16, MfmaFormat::kFp8, MfmaFormat::kFp8>),
                   (MfmaLowpShape<16, 16, 32, MfmaFormat::kBf8, MfmaFormat::kFp8>),
                   (MfmaLowpShape<32, 32, 64, MfmaFormat::kFp8, MfmaFormat::kBf8, true>),
                   (MfmaLowpShape<16, 16, 128, MfmaFormat::kFp8, MfmaFormat::kFp8>),
                   (MfmaLowpShape<32, 32, 64, MfmaFormat::kFp4, MfmaFormat::kFp4, true>),
                   (MfmaLowpShape<16, 16, 128, MfmaFormat::kFp4, MfmaFormat::kFp4>),
                   (MfmaLowpShape<32, 32, 64, MfmaFormat::kFp6, MfmaFormat::kBf6, true>),
                   (MfmaLowpShape<16, 16, 128, MfmaFormat::kBf6, MfmaFormat::kFp6>),
                   (MfmaLowpShape<32, 32, 64, MfmaFormat::kFp6, MfmaFormat::kFp8, true>),
                   (MfmaLowpShape<16, 16, 128, MfmaFormat::kBf8, MfmaFormat::kBf6>)) {
  using Atom = mma::MfmaAtom<TestType>;
  for (int lane = 0; lane < 64; ++lane) {
    for (int e = 0; e < Atom::kOperandElements; ++e) {
      INFO("lane " << lane << " unit " << e);
      // Unit e holds value e (8-bit, fp6) or values 2e, 2e + 1 (fp4): the first of them.
      const int value = e * TestType::kValuesPerUnit;
      REQUIRE(Atom::a_coord(lane, e).row == lane % TestType::kM);
      REQUIRE(Atom::a_coord(lane, e).col == ck_k<TestType>(TestType::kFormatA, lane, value));
      REQUIRE(Atom::b_coord(lane, e).row == ck_k<TestType>(TestType::kFormatB, lane, value));
      REQUIRE(Atom::b_coord(lane, e).col == lane % TestType::kN);
    }
  }
}

// What the LDS reads of a K tile give each instruction, for A and for B each by its own
// format: the copy stores the tile's K chunk holding K = k at stored_k(k) (packed fp6: a
// permutation inside each instruction's span of K; others: in place), and read step r of
// lane group g reads the 16 units at r * kKPerRead + 16 g. Unit e of instruction u (read
// step u * kR + e / 16) must then hold tile K = u * (the instruction's units) + the unit
// the instruction's map names (fp6: one run of 32 from 32 g; fp8: two runs half of K apart).
template <class Shape, int kSix>
void check_reads_give_lane_map(bool operand_b) {
  using Atom = mma::MfmaAtom<Shape>;
  constexpr int kR = Atom::kReadsPerInstruction;
  constexpr int kUnits = Atom::kKPerRead * kR;  // one instruction's units of K
  constexpr int kTileK = 4 * kUnits;            // a K tile of four instructions
  using Map = MfmaTileCopyMap<gemm::MfmaOperandTile<64, 16, kTileK, 1>, 64, TileCopyKind::kContiguousK, 1, kSix>;
  // Which tile K a stored position holds: the inverse of stored_k.
  std::vector<int> k_at(kTileK, -1);
  for (int k = 0; k < kTileK; ++k) {
    const int p = Map::stored_k(k);
    REQUIRE(k_at[std::size_t(p)] == -1);
    k_at[std::size_t(p)] = k;
  }
  for (int u = 0; u < 4; ++u) {
    for (int lane = 0; lane < 64; ++lane) {
      for (int e = 0; e < Atom::kOperandElements; ++e) {
        INFO("instruction " << u << " lane " << lane << " unit " << e << (operand_b ? " (B)" : " (A)"));
        const int r = u * kR + e / Atom::kReadElements, x = e % Atom::kReadElements;
        const int g = lane / Shape::kM;
        const int want = (operand_b ? Shape::operand_k_b(g, e) : Shape::operand_k(g, e)) / Shape::kValuesPerUnit;
        REQUIRE(k_at[std::size_t(r * Atom::kKPerRead + Atom::read_k(lane, 0) + x)] == u * kUnits + want);
      }
    }
  }
}

TEMPLATE_TEST_CASE("low-precision reads give each instruction the K its lane map names", "[mfma][lowp]",
                   (MfmaLowpShape<32, 32, 64, MfmaFormat::kFp8, MfmaFormat::kFp8>),
                   (MfmaLowpShape<32, 32, 64, MfmaFormat::kFp6, MfmaFormat::kFp6, true>),
                   (MfmaLowpShape<16, 16, 128, MfmaFormat::kFp6, MfmaFormat::kFp8, true>),
                   (MfmaLowpShape<32, 32, 64, MfmaFormat::kBf8, MfmaFormat::kBf6>),
                   (MfmaLowpShape<16, 16, 128, MfmaFormat::kFp4, MfmaFormat::kFp4, true>)) {
  using S = TestType;
  constexpr int kG = 64 / S::kM;
  check_reads_give_lane_map<S, amd::mfma_format_is_6bit(S::kFormatA) ? kG : 0>(false);
  check_reads_give_lane_map<S, amd::mfma_format_is_6bit(S::kFormatB) ? kG : 0>(true);
}

TEST_CASE("low-precision atoms: reads per instruction, and the K one read step covers", "[mfma][lowp]") {
  using Gfx942 = mma::MfmaAtom<MfmaLowpShape<32, 32, 16, MfmaFormat::kFp8, MfmaFormat::kFp8>>;
  using Fp8x950 = mma::MfmaAtom<MfmaLowpShape<16, 16, 128, MfmaFormat::kFp8, MfmaFormat::kFp8>>;
  using Fp4x950 = mma::MfmaAtom<MfmaLowpShape<32, 32, 64, MfmaFormat::kFp4, MfmaFormat::kFp4>>;
  STATIC_REQUIRE((Gfx942::kInstructionsPerRead == 2 && Gfx942::kReadsPerInstruction == 1 && Gfx942::kKPerRead == 32));
  STATIC_REQUIRE((Fp8x950::kInstructionsPerRead == 1 && Fp8x950::kReadsPerInstruction == 2 && Fp8x950::kKPerRead == 64));
  STATIC_REQUIRE((Fp4x950::kInstructionsPerRead == 1 && Fp4x950::kReadsPerInstruction == 1 && Fp4x950::kKPerRead == 32));
  // The 16-bit atoms are unchanged: 8 elements a read, two gfx942 instructions per read.
  STATIC_REQUIRE((mma::MfmaAtom<amd::Mfma32x32x8Bf16>::kReadElements == 8 &&
                  mma::MfmaAtom<amd::Mfma32x32x8Bf16>::kInstructionsPerRead == 2));
}

TEST_CASE("MX scales: instruction u of a K tile reads block kG u + g from byte (kG u) % 4", "[mfma][lowp]") {
  // 32x32x64 (2 lane groups): instructions 0..3 of an 8-block (fp4) tile read words 0, 0, 1,
  // 1 at op_sel 0, 2, 0, 2; after the lane group's shift of 8 g bits, byte (2u) % 4 is block
  // 2u + g. 16x16x128 (4 groups): one word per instruction, op_sel 0.
  using S2 = mma::MfmaScaleSelect<2>;
  using S4 = mma::MfmaScaleSelect<4>;
  const int word2[] = {0, 0, 1, 1}, opsel2[] = {0, 2, 0, 2};
  for (int u = 0; u < 4; ++u) {
    CHECK(S2::word(u) == word2[u]);
    CHECK(S2::opsel(u) == opsel2[u]);
    for (int g = 0; g < 2; ++g) CHECK(4 * S2::word(u) + S2::opsel(u) + g == 2 * u + g);
  }
  for (int u = 0; u < 2; ++u) {
    CHECK(S4::word(u) == u);
    CHECK(S4::opsel(u) == 0);
    for (int g = 0; g < 4; ++g) CHECK(4 * S4::word(u) + S4::opsel(u) + g == 4 * u + g);
  }
}

TEST_CASE("MX configurations: K in bytes, scale blocks, a stage with its scale tiles", "[mfma][lowp]") {
  using Fp4 = cfg::Mxfp4TwoClusters950;  // 256 x 128 x 256 values of fp4
  STATIC_REQUIRE(Fp4::kBlockKValues == 256);
  STATIC_REQUIRE(Fp4::kBlockK == 128);  // bytes
  STATIC_REQUIRE(Fp4::kScaleBlocks == 8);
  using Plan = gemm::MfmaSmemPlan<Fp4>;
  // A 256 x 128 bytes, B 128 x 128 bytes, then A's 256 x 8 and B's 128 x 8 scale bytes.
  STATIC_REQUIRE(Plan::kStageBytes == 256 * 128 + 128 * 128 + 256 * 8 + 128 * 8);
  using Scales = MfmaScaleTiles<typename Plan::TileA, typename Plan::TileB, 8>;
  STATIC_REQUIRE(Scales::kOffsetFromA == 256 * 128 + 128 * 128);
  STATIC_REQUIRE(Scales::kOffsetFromB == 128 * 128 + 256 * 8);
  // Unscaled fp8 stages hold the operands only, the bf16 tile's bytes.
  STATIC_REQUIRE(gemm::MfmaSmemPlan<cfg::Fp8OneCluster942>::kStageBytes == 2 * 128 * 128);
}

namespace {
template <class Config>
typename gemm::Gemm<Config>::Args fp4_args(const float4_e2m1x2_t* a, const float4_e2m1x2_t* b,
                                          const std::uint8_t* scales, bfloat16_t* d) {
  typename gemm::Gemm<Config>::Args args{100, 60, 320, a, 320, b, 320, nullptr, 60, d, 60, 1.0f, 0.0f};
  const auto* s = reinterpret_cast<const float8_ue8m0_t*>(scales);
  args.epilogue.scales.a = {s, 0, 100 * 10};
  args.epilogue.scales.b = {s, 12, 59 * 12 + 10};
  return args;
}
}  // namespace

TEST_CASE("fp6 configurations: LDS tiles of one value a byte slot, stages as fp8's", "[mfma][lowp]") {
  using Fp6 = cfg::Mxfp6TwoClusters950;  // 256 x 128 x 128 values of fp6
  STATIC_REQUIRE((Fp6::kBlockKValues == 128 && Fp6::kBlockK == 128 && Fp6::kLdsUnitBytes == 1));
  STATIC_REQUIRE((Fp6::kPackedSixA && Fp6::kPackedSixB && !cfg::Fp8Bf6Baseline950::kPackedSixA &&
                  cfg::Fp8Bf6Baseline950::kPackedSixB));
  // Global bytes of K units: 3 for 4 values; the tile's origins move by them.
  STATIC_REQUIRE((Fp6::bytes_a(128) == 96 && Fp6::bytes_b(4) == 3 && cfg::Fp8Bf6Baseline950::bytes_a(128) == 128));
  // The same stage as MXFP8 at this tile: the operands (128-byte rows) and the scale tiles.
  STATIC_REQUIRE(gemm::MfmaSmemPlan<Fp6>::kStageBytes == gemm::MfmaSmemPlan<cfg::Mxfp8TwoClusters950>::kStageBytes);
}

TEST_CASE("bad block scales and odd fp4 K are named Status values", "[mfma][lowp]") {
  using Config = cfg::Mxfp4TwoClusters950;
  using G = gemm::Gemm<Config>;
  std::vector<float4_e2m1x2_t> a(100 * 160), b(60 * 160);
  std::vector<std::uint8_t> scales(100 * 12);
  std::vector<bfloat16_t> d(100 * 60);
  const auto good = fp4_args<Config>(a.data(), b.data(), scales.data(), d.data());
  REQUIRE(G::can_implement(good) == Status::kSuccess);
  auto x = good;
  x.epilogue.scales.a.data = nullptr;
  CHECK(G::can_implement(x) == Status::kErrorNullBlockScalesA);
  x = good;
  x.epilogue.scales.b.data = nullptr;
  CHECK(G::can_implement(x) == Status::kErrorNullBlockScalesB);
  x = good;
  x.epilogue.scales.a.size = 99 * 10 + 9;  // one scale short of (M - 1) * ld + ceil(K / 32)
  CHECK(G::can_implement(x) == Status::kErrorBlockScalesATooSmall);
  x = good;
  x.epilogue.scales.b.ld = 9;  // fewer than ceil(320 / 32) = 10 blocks a row
  CHECK(G::can_implement(x) == Status::kErrorBlockScalesBTooSmall);
  x = good;
  x.K = 319;
  CHECK(G::can_implement(x) == Status::kErrorPackedOperandOddK);
  x = good;
  x.ldb = 321;
  CHECK(G::can_implement(x) == Status::kErrorPackedOperandOddK);
  // K = 0: nothing is read, null operands and scales are fine.
  x = good;
  x.K = 0;
  x.A = nullptr;
  x.B = nullptr;
  x.epilogue.scales = {};
  CHECK(G::can_implement(x) == Status::kSuccess);
  // Per-tensor scales: both pointers, else the epilogue's named Status.
  using PerTensor = cfg::Fp8OneCluster942;
  std::vector<float8_e4m3fnuz_t> a8(64 * 64);
  std::vector<float8_e5m2fnuz_t> b8(64 * 64);
  std::vector<bfloat16_t> d16(64 * 64);
  const float s[2] = {1.0f, 2.0f};
  typename gemm::Gemm<PerTensor>::Args p{64, 64, 64, a8.data(), 64, b8.data(), 64, nullptr, 64, d16.data(), 64};
  p.epilogue.scales = {{s}, {s + 1}};
  CHECK(gemm::Gemm<PerTensor>::can_implement(p) == Status::kSuccess);
  p.epilogue.scales.a = {nullptr};
  CHECK(gemm::Gemm<PerTensor>::can_implement(p) == Status::kErrorNullEpilogueOperand);
}

TEST_CASE("fp6 rows that start mid-byte are a named Status; any K is fine", "[mfma][lowp]") {
  using Config = cfg::Mxfp6Fp8OneCluster16x950;  // e2m3 A (packed), e4m3 B
  using G = gemm::Gemm<Config>;
  std::vector<float6_e2m3x4_t> a(100 * 80);
  std::vector<float8_e4m3_t> b(60 * 320);
  std::vector<std::uint8_t> scales(100 * 12);
  std::vector<half_t> d(100 * 60);
  const auto* s = reinterpret_cast<const float8_ue8m0_t*>(scales.data());
  typename G::Args good{100, 60, 317, a.data(), 320, b.data(), 320, nullptr, 100, d.data(), 100, 1.0f, 0.0f};
  good.epilogue.scales.a = {s, 0, 100 * 10};
  good.epilogue.scales.b = {s, 0, 60 * 10};
  CHECK(G::can_implement(good) == Status::kSuccess);  // K = 317: not a multiple of 4
  auto x = good;
  x.lda = 322;  // row 1 would start 241.5 bytes in
  CHECK(G::can_implement(x) == Status::kErrorPackedFp6Ld);
  x.lda = 324;
  CHECK(G::can_implement(x) == Status::kSuccess);
  // fp8 B takes any ldb; an fp6 B does not.
  x = good;
  x.ldb = 321;
  CHECK(G::can_implement(x) == Status::kSuccess);
  using Bf6 = cfg::Fp8Bf6Baseline950;
  std::vector<float8_e5m2_t> a8(64 * 64);
  std::vector<float6_e3m2x4_t> b6(64 * 16);
  std::vector<bfloat16_t> d16(64 * 64);
  const float t[2] = {1.0f, 1.0f};
  typename gemm::Gemm<Bf6>::Args p{64, 64, 61, a8.data(), 64, b6.data(), 64, nullptr, 64, d16.data(), 64};
  p.epilogue.scales = {{t}, {t + 1}};
  CHECK(gemm::Gemm<Bf6>::can_implement(p) == Status::kSuccess);
  p.ldb = 63;
  CHECK(gemm::Gemm<Bf6>::can_implement(p) == Status::kErrorPackedFp6Ld);
}
