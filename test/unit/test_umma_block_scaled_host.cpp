// Host checks of the tcgen05 family's block-scaled kinds (no GPU; no Blackwell GPU has run
// them): the instruction descriptor of every K step of every shipped block-scaled
// configuration, field by field against the PTX ISA's Tables 43 and 44 (and hand-worked
// values that CUTLASS's construction reproduces); every scale factor of a problem followed
// from its (row, K block) in the row-major scale tensor through the stage's shared-memory
// atom and tcgen05.cp to the TMEM word and byte its MMA reads; the tensor-memory plans (the
// scale factors' columns beside the accumulators); the argument rules.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/umma/smem_plan.hpp"
#include "tessera/gemm/umma/argument_rules.hpp"
#include "tessera/mma/umma_block_scaled_atom.hpp"
#include "tessera/mma/umma_scale_factors.hpp"
#include "descriptor_field.hpp"
#include "umma_configs.hpp"

using namespace tessera;
namespace umma = tessera::mma::umma;

namespace {

using tessera::test::Field;
using tessera::test::field;

// PTX ISA 9.7.16.4.2, Table 43 (.kind::mxf8f6f4) and Table 44 (.kind::mxf4, .kind::mxf4nvf4),
// written out here independently of the encoder.
constexpr Field kReserved0{0, 2}, kSparse{2, 1}, kReserved3{3, 1}, kScaleIdB{4, 2}, kReserved6{6, 1}, kAType{7, 3},
    kBType{10, 3}, kBTypeMxf4{10, 2}, kReserved12{12, 1}, kNegateA{13, 1}, kNegateB{14, 1}, kTransposeA{15, 1},
    kTransposeB{16, 1}, kNShr3{17, 6}, kScaleType{23, 1}, kReserved24{24, 3}, kMShr7{27, 2}, kScaleIdA{29, 2},
    kBit31{31, 1};

// The tables' type codes: .kind::mxf8f6f4 E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5; .kind::mxf4*
// E2M1 1.
template <class T>
std::uint64_t table43_type() {
  if constexpr (std::is_same_v<T, float8_e4m3_t>) return 0;
  else if constexpr (std::is_same_v<T, float8_e5m2_t>) return 1;
  else if constexpr (std::is_same_v<T, float6_e2m3x4_t>) return 3;
  else if constexpr (std::is_same_v<T, float6_e3m2x4_t>) return 4;
  else return 5;
}

// The scale blocks a K step of each kind consumes (scale_vec::1X: 1 of 32 values, 2X: 2 of 32,
// 4X: 4 of 16 values; K 32, 64, 64): step kk starts at block kk x blocks-per-step, the data ID
// is that block's byte in its 4-block word.
template <class Config>
std::uint64_t expected_scale_id(int kk) {
  const int per_step = Config::kScaledKind == umma::BlockScaledKind::kMxF8F6F4 ? 1
                       : Config::kScaledKind == umma::BlockScaledKind::kMxF4 ? 2
                                                                               : 4;
  return std::uint64_t(kk * per_step % 4);
}

template <class Config>
void check_block_scaled_descriptors() {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  constexpr bool kMxf4Kind = Config::kScaledKind != umma::BlockScaledKind::kMxF8F6F4;
  for (int kk = 0; kk < Config::kBlockK / (32 / Config::Operands::kElementBytesA); ++kk) {
    const std::uint64_t v = umma::with_scale_ids<Config::kScaledKind>(Config::kInstr, kk);
    INFO("K step " << kk << " idesc 0x" << std::hex << v);
    CHECK(field(v, kReserved0) == 0);
    CHECK(field(v, kSparse) == 0);
    CHECK(field(v, kReserved3) == 0);
    CHECK(field(v, kReserved6) == 0);
    CHECK(field(v, kScaleIdB) == expected_scale_id<Config>(kk));
    CHECK(field(v, kScaleIdA) == expected_scale_id<Config>(kk));
    if constexpr (kMxf4Kind) {
      CHECK(field(v, kAType) == 1);
      CHECK(field(v, kBTypeMxf4) == 1);
      CHECK(field(v, kReserved12) == 0);
      CHECK((expected_scale_id<Config>(kk) == 0 || expected_scale_id<Config>(kk) == 2));  // "0 or 2"
    } else {
      CHECK(field(v, kAType) == table43_type<EA>());
      CHECK(field(v, kBType) == table43_type<EB>());
    }
    CHECK(field(v, kNegateA) == 0);
    CHECK(field(v, kNegateB) == 0);
    CHECK(field(v, kTransposeA) == 0);  // K-major (the mxf4 kinds allow nothing else)
    CHECK(field(v, kTransposeB) == 0);
    CHECK(field(v, kNShr3) == std::uint64_t(Config::kMmaN >> 3));
    // UE8M0 = 1 (MX), UE4M3 = 0 (NVFP4).
    CHECK(field(v, kScaleType) == (std::is_same_v<typename Config::OperandScales, gemm::scale::Nvfp4> ? 0u : 1u));
    CHECK(field(v, kReserved24) == 0);
    CHECK(field(v, kMShr7) == std::uint64_t(Config::kMmaM >> 7));
    CHECK(field(v, kBit31) == 0);  // mxf8f6f4: reserved; mxf4 kinds: dense K = 64
    const auto back = umma::decode_block_scaled_descriptor(std::uint32_t(v));
    CHECK(back.m == Config::kMmaM);
    CHECK(back.n == Config::kMmaN);
    CHECK(umma::encode(back) == v);
  }
}

}  // namespace

TEST_CASE("block-scaled instruction descriptors: every field of every K step where Tables 43 and 44 put it",
          "[umma][block_scaled][descriptor]") {
  using namespace examples::umma;
  check_block_scaled_descriptors<MxFp8>();
  check_block_scaled_descriptors<MxFp6Fp4Pair>();
  check_block_scaled_descriptors<NvFp4>();
  check_block_scaled_descriptors<NvFp4Pair>();
  check_block_scaled_descriptors<MxFp4>();
  STATIC_REQUIRE(MxFp8::kScaledKind == umma::BlockScaledKind::kMxF8F6F4);
  STATIC_REQUIRE(MxFp6Fp4Pair::kScaledKind == umma::BlockScaledKind::kMxF8F6F4);
  STATIC_REQUIRE(NvFp4::kScaledKind == umma::BlockScaledKind::kMxF4NvF4);
  STATIC_REQUIRE(MxFp4::kScaledKind == umma::BlockScaledKind::kMxF4);
  // Worked by hand from the tables: MXFP8 e4m3 x e4m3, M = N = 128: scale type UE8M0 (bit 23,
  // 0x00800000), N >> 3 = 16 at bit 17 (0x00200000), M >> 7 = 1 at bit 27 (0x08000000); K step
  // 1 adds data ID 1 for A (bit 29) and B (bit 4). e2m3 (3 at bit 7: 0x180) x e2m1 (5 at bit 10:
  // 0x1400) on a pair (M >> 7 = 2). NVFP4: E2M1 = 1 for both (0x80 | 0x400), UE4M3 = 0. MXFP4
  // (.kind::mxf4): the same types, UE8M0, K step 1 at data ID 2. CUTLASS's
  // UMMA::make_runtime_instr_desc_block_scaled (cute/arch/mma_sm100_desc.hpp) gives the same
  // eleven values (benchmark/notes/lowp_amd_sm100.md).
  CHECK(umma::with_scale_ids<MxFp8::kScaledKind>(MxFp8::kInstr, 0) == 0x08a00000u);
  CHECK(umma::with_scale_ids<MxFp8::kScaledKind>(MxFp8::kInstr, 1) == 0x28a00010u);
  CHECK(umma::with_scale_ids<MxFp8::kScaledKind>(MxFp8::kInstr, 2) == 0x48a00020u);
  CHECK(umma::with_scale_ids<MxFp8::kScaledKind>(MxFp8::kInstr, 3) == 0x68a00030u);
  CHECK(umma::with_scale_ids<MxFp6Fp4Pair::kScaledKind>(MxFp6Fp4Pair::kInstr, 0) == 0x10a01580u);
  CHECK(umma::with_scale_ids<MxFp6Fp4Pair::kScaledKind>(MxFp6Fp4Pair::kInstr, 3) == 0x70a015b0u);
  CHECK(umma::with_scale_ids<NvFp4::kScaledKind>(NvFp4::kInstr, 0) == 0x08200480u);
  CHECK(umma::with_scale_ids<NvFp4::kScaledKind>(NvFp4::kInstr, 3) == 0x08200480u);
  CHECK(umma::with_scale_ids<NvFp4Pair::kScaledKind>(NvFp4Pair::kInstr, 0) == 0x10200480u);
  CHECK(umma::with_scale_ids<MxFp4::kScaledKind>(MxFp4::kInstr, 0) == 0x08a00480u);
  CHECK(umma::with_scale_ids<MxFp4::kScaledKind>(MxFp4::kInstr, 1) == 0x48a004a0u);
}

namespace {

// Tensor memory as the hardware leaves it, modelled: [lane][column] 32-bit words.
using Tmem = std::map<std::pair<int, int>, std::uint32_t>;

// tcgen05.cp.32x128b.warpx4 (PTX ISA 9.7.16.2.3 shapes; .warpx4: the 32 lanes repeated in
// the 4 lane quarters): row i of the source (16 bytes at the descriptor's start + (i / 8) x
// SBO + (i % 8) x 16, K-major unswizzled) to lanes i, 32 + i, 64 + i, 96 + i, its word c to
// column taddr + c.
void model_tcgen05_cp(Tmem& tmem, const std::vector<std::uint8_t>& smem, int column, std::uint64_t encoded) {
  const umma::SmemDescriptor d = umma::decode_smem_descriptor(encoded);
  REQUIRE(d.swizzle == umma::Swizzle::kNone);
  for (int i = 0; i < 32; ++i) {
    const std::uint32_t row = d.start_address + std::uint32_t(i / 8) * d.stride_byte_offset + std::uint32_t(i % 8) * 16;
    for (int c = 0; c < 4; ++c) {
      std::uint32_t word = 0;
      for (int b = 0; b < 4; ++b) word |= std::uint32_t(smem[row + 4 * c + b]) << (8 * b);
      for (int q = 0; q < 4; ++q) tmem[{32 * q + i, column + c}] = word;
    }
  }
}

// One K tile of one operand's scale factors through the family's path: the loader's words
// into the stage (ScaleFactorTile offsets, what umma/scale_loader.hpp writes), the MMA
// thread's copies (one per atom, the family's descriptor and column), then every MMA step's
// reads (its scale operand's column + row / 32 in the row's lane, the data ID's byte + i)
// against the scale tensor's (row, block).
template <class Config, class Tile>
void check_scale_path(int rows, std::int64_t blocks, std::int64_t ld, int tile_row0, int k_tile) {
  constexpr int kBlocks = Config::kScaleBlocksPerTile;
  constexpr int kSteps = Config::kBlockK / (32 / Config::Operands::kElementBytesA);
  constexpr int kPerStep = kBlocks / kSteps;
  INFO("rows from " << tile_row0 << ", K tile " << k_tile);
  std::mt19937 rng(unsigned(rows * 31 + k_tile));
  std::vector<std::uint8_t> scales(std::size_t(rows * ld));
  for (auto& s : scales) s = std::uint8_t(rng() % 255);
  // The loader, as umma/scale_loader.hpp writes: every word of the tile once, each the little-
  // endian bytes of its row's 4 blocks (0 outside the matrix), at its place in the atoms.
  constexpr std::uint32_t kBase = 0x2400;
  std::vector<std::uint8_t> smem(std::size_t(kBase + Tile::kBytes), 0xcd);
  std::vector<int> written(std::size_t(Tile::kBytes), 0);
  for (int w = 0; w < Tile::kLoadWords; ++w) {
    const int r = Tile::load_row(w), b = Tile::load_block(w);
    for (int i = 0; i < 4; ++i) {
      const std::int64_t row = tile_row0 + r, block = Tile::load_global_block(k_tile, w) + i;
      const std::uint8_t v = row < rows && block < blocks ? scales[std::size_t(row * ld + block)] : 0;
      smem[kBase + Tile::offset(r, b) + i] = v;
      ++written[Tile::offset(r, b) + i];
    }
  }
  for (int n : written) REQUIRE(n == 1);  // the words tile the atoms exactly
  // The MMA thread's copies (umma/mainloop.hpp: atom i to the tile's column + atom_column(i)).
  constexpr int kColumn0 = 288;
  Tmem tmem;
  for (int i = 0; i < Tile::kAtoms; ++i) {
    model_tcgen05_cp(tmem, smem, kColumn0 + Tile::atom_column(i),
                     umma::encode(umma::scale_factor_atom_descriptor(kBase + Tile::atom_offset(i))));
  }
  // The MMAs.
  const int mma_rows = Tile::kRowBlocks * 128 < 256 ? Tile::kRowBlocks * 128 : 256;
  for (int kk = 0; kk < kSteps; ++kk) {
    const int operand_column = kColumn0 + Tile::word_column(umma::scale_word_of_step<Config::kScaledKind>(kk));
    const int id = int(umma::scale_id_of_step<Config::kScaledKind>(kk));
    for (int r = 0; r < mma_rows; ++r) {
      for (int i = 0; i < kPerStep; ++i) {
        const std::int64_t row = tile_row0 + r, block = std::int64_t(k_tile) * kBlocks + kk * kPerStep + i;
        const std::uint8_t want = row < rows && block < blocks ? scales[std::size_t(row * ld + block)] : 0;
        for (int q = 0; q < 4; ++q) {  // any lane quarter holds the row's word
          const auto at = tmem.find({32 * q + r % 32, operand_column + r / 32});
          REQUIRE(at != tmem.end());
          INFO("K step " << kk << " row " << r << " scale " << i << " lane quarter " << q);
          REQUIRE(((at->second >> (8 * (id + i))) & 0xffu) == want);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("every scale factor reaches the TMEM byte its MMA reads", "[umma][block_scaled][scales]") {
  using namespace examples::umma;
  // A and B of each shipped configuration, a problem with row and K tails: the last tile's
  // rows past M, the last K tile's blocks past K (written as 0).
  for (int k_tile : {0, 2}) {
    check_scale_path<MxFp8, MxFp8::ScaleTileA>(300, 11, 13, 256, k_tile);        // 11 blocks: K = 352
    check_scale_path<MxFp8, MxFp8::ScaleTileB>(200, 11, 11, 128, k_tile);
    check_scale_path<MxFp6Fp4Pair, MxFp6Fp4Pair::ScaleTileB>(130, 9, 9, 0, k_tile);
    check_scale_path<NvFp4, NvFp4::ScaleTileA>(140, 37, 40, 128, k_tile);         // 16 blocks a K tile
    check_scale_path<NvFp4Pair, NvFp4Pair::ScaleTileB>(128, 40, 40, 0, k_tile);
    check_scale_path<MxFp4, MxFp4::ScaleTileB>(129, 19, 20, 0, k_tile);          // 8 blocks a K tile
  }
  STATIC_REQUIRE(MxFp8::kScaleBlocksPerTile == 4 && NvFp4::kScaleBlocksPerTile == 16 && MxFp4::kScaleBlocksPerTile == 8);
}

TEST_CASE("block-scaled configurations: scale factors in the stages and beside the accumulators in TMEM",
          "[umma][block_scaled][plan]") {
  using namespace examples::umma;
  using Plans = gemm::UmmaSmemPlan<MxFp8>;
  // 2 accumulators of 128 columns, then A's and B's scale factors (one atom: 4 columns each).
  CHECK(Plans::accumulator_column(0) == 0);
  CHECK(Plans::accumulator_column(1) == 128);
  CHECK(Plans::scale_column_a() >= 256);
  CHECK(Plans::scale_column_b() >= Plans::scale_column_a() + 4);
  CHECK(Plans::TmemPlan::kTotalColumns <= 512);
  CHECK(Plans::TmemPlan::buffers_interfere(0, 2));  // all live at once: the MMA reads them all
  using Nv = gemm::UmmaSmemPlan<NvFp4>;
  CHECK(Nv::scale_column_b() >= Nv::scale_column_a() + 16);  // 4 words of 128 rows: 16 columns
  CHECK(Nv::TmemPlan::kAllocColumns == 512);
  // Stage: operands + scale-factor atoms (512 bytes per 128 rows and 4 blocks).
  STATIC_REQUIRE(MxFp8::kScaleStageBytes == 512 + 512);
  STATIC_REQUIRE(NvFp4::kScaleStageBytes == 4 * 512 + 4 * 512);
  STATIC_REQUIRE(MxFp6Fp4Pair::kScaleStageBytes == 512 + 512);  // a pair's CTA: its 128 rows of A, all 128 of B
  CHECK(Plans::Plan::kTotalBytes <= Sm100::kSmemBytesPerBlock);
  // Full barriers: the TMA producer's arrival and the 3 scale-writing warps' (a pair's leader:
  // both CTAs' 3).
  STATIC_REQUIRE(MxFp8::kFullArrivals == 4 && MxFp6Fp4Pair::kFullArrivals == 7 && Fp8::kFullArrivals == 1);
  // Packed fp4 (.kind::mxf4*): K counted in bytes inside the kernel, 256 values a K tile.
  STATIC_REQUIRE(NvFp4::kValuesPerKUnit == 2 && NvFp4::kBlockK == 128 && MxFp8::kValuesPerKUnit == 1);
  STATIC_REQUIRE(NvFp4::kUnpackBitsA == 0 && MxFp6Fp4Pair::kUnpackBitsA == 6 && MxFp6Fp4Pair::kUnpackBitsB == 4);
}

TEST_CASE("block-scaled arguments: null or short scales, odd or misaligned packed fp4 are named Status values",
          "[umma][block_scaled][arguments]") {
  using Config = examples::umma::NvFp4;
  alignas(64) static unsigned char storage[4][4096];
  const auto* a = reinterpret_cast<const float4_e2m1x2_t*>(storage[0]);
  const auto* b = reinterpret_cast<const float4_e2m1x2_t*>(storage[1]);
  const auto* s = reinterpret_cast<const float8_ue4m3_t*>(storage[2]);
  auto* d = reinterpret_cast<bfloat16_t*>(storage[3]);
  // K = 320 values: 20 scale blocks of 16 a row; the scale tensors' ld 0 means exactly that.
  gemm::ConfigArguments<Config> good{100, 60, 320, a, 320, b, 352, nullptr, 60, d, 60, 1.0f, 0.0f};
  good.epilogue.scales.a = {s, 0, 100 * 20};
  good.epilogue.scales.b = {s, 24, 59 * 24 + 20};
  const auto check = [](const gemm::ConfigArguments<Config>& x) {
    Status st = gemm::can_implement<RowMajor, ColumnMajor, RowMajor>(x);
    if (ok(st)) st = Config::Epilogue::can_implement(x.epilogue, gemm::epilogue_problem(x));
    return ok(st) ? gemm::umma_operand_status<Config>(x) : st;
  };
  CHECK(check(good) == Status::kSuccess);
  auto x = good;
  x.epilogue.scales.a.data = nullptr;
  CHECK(check(x) == Status::kErrorNullBlockScalesA);
  x = good;
  x.epilogue.scales.b.data = nullptr;
  CHECK(check(x) == Status::kErrorNullBlockScalesB);
  x = good;
  x.epilogue.scales.a.size = 99 * 20 + 19;  // one short
  CHECK(check(x) == Status::kErrorBlockScalesATooSmall);
  x = good;
  x.epilogue.scales.b.ld = 19;  // fewer than ceil(320 / 16) = 20 blocks a row
  CHECK(check(x) == Status::kErrorBlockScalesBTooSmall);
  x = good;
  x.K = 319;  // fp4 read packed: two values a byte
  x.epilogue.scales.b.ld = 20;
  CHECK(check(x) == Status::kErrorPackedOperandOddK);
  x = good;
  x.lda = 330;  // even, but 165 bytes: not a multiple of 16 (TMA)
  CHECK(check(x) == Status::kErrorMisalignedA);
  x = good;
  x.K = 304;  // 152 bytes a row: TMA's contiguous extent must be a multiple of 16 bytes
  CHECK(check(x) == Status::kErrorMisalignedA);
  x = good;
  x.B = b + 8;  // 8 bytes in: not 16-byte aligned
  CHECK(check(x) == Status::kErrorMisalignedB);
  // Scale tensors need no alignment (read a byte at a time): one byte in is fine.
  x = good;
  x.epilogue.scales.a.data = s + 1;
  CHECK(check(x) == Status::kSuccess);
  // MXFP8: fp8 operands by TMA's 16-byte rules (no realigning path for block-scaled operands).
  using Mx = examples::umma::MxFp8;
  const auto* a8 = reinterpret_cast<const float8_e4m3_t*>(storage[0]);
  const auto* s8 = reinterpret_cast<const float8_ue8m0_t*>(storage[2]);
  gemm::ConfigArguments<Mx> m{100, 60, 144, a8, 144, a8, 160, nullptr, 60, d, 60, 1.0f, 0.0f};
  m.epilogue.scales.a = {s8, 0, 100 * 5};
  m.epilogue.scales.b = {s8, 0, 60 * 5};
  CHECK(Mx::Epilogue::can_implement(m.epilogue, gemm::epilogue_problem(m)) == Status::kSuccess);
  CHECK(gemm::umma_operand_status<Mx>(m) == Status::kSuccess);
  m.lda = 150;
  CHECK(gemm::umma_operand_status<Mx>(m) == Status::kErrorMisalignedA);
}
