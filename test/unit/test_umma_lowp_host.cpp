// Host checks of the tcgen05 family's low-precision operands (no GPU; no Blackwell GPU has run
// them): fp6 and fp4 values followed from global memory through TMA's unpacking into a stage
// and out through each MMA's shared-memory descriptor (a model of both ends, every value of
// every K step of the shipped configurations' tiles); the tensor maps and the transaction
// bytes; the argument rules that replace the realigning path for operands only TMA loads.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/umma/smem_plan.hpp"
#include "tessera/gemm/tma/launch.hpp"
#include "tessera/gemm/umma/argument_rules.hpp"
#include "tessera/mma/umma_atom.hpp"
#include "tessera/mma/umma_lowp_atom.hpp"
#include "umma_configs.hpp"

using namespace tessera;
namespace umma = tessera::mma::umma;

namespace {

// Value `index` of a little-endian bit stream of `bits`-bit values (how fp6 / fp4 operands
// are packed in global memory: core/float6.hpp, float4.hpp), read and written bit by bit.
unsigned stream_value(const std::vector<std::uint8_t>& bytes, std::int64_t index, int bits) {
  unsigned v = 0;
  for (int j = 0; j < bits; ++j) {
    const std::int64_t bit = index * bits + j;
    v |= ((bytes[std::size_t(bit / 8)] >> (bit % 8)) & 1u) << j;
  }
  return v;
}
void set_stream_value(std::vector<std::uint8_t>& bytes, std::int64_t index, int bits, unsigned v) {
  for (int j = 0; j < bits; ++j) {
    const std::int64_t bit = index * bits + j;
    const std::uint8_t mask = std::uint8_t(1u << (bit % 8));
    auto& b = bytes[std::size_t(bit / 8)];
    b = ((v >> j) & 1u) ? std::uint8_t(b | mask) : std::uint8_t(b & ~mask);
  }
}

std::uint32_t swizzle128(std::uint32_t address) { return address ^ (((address >> 7) & 7u) << 4); }

// The MMA's view of K step `step` of a K-major stage tile (PTX ISA 9.7.16.3 canonical layout,
// ((8, m), (T, 2)) : ((8T, SBO), (1, T)) in 16-byte units T, swizzled): the 16-byte unit that
// holds value v (0..31) of row `row`, from the encoded descriptor alone.
std::uint32_t unit_address(std::uint64_t encoded, int row, int v) {
  const umma::SmemDescriptor d = umma::decode_smem_descriptor(encoded);
  const std::uint32_t linear =
      d.start_address + std::uint32_t(row / 8) * d.stride_byte_offset + std::uint32_t(row % 8) * 128 +
      std::uint32_t(v / 16) * 16;
  return swizzle128(linear);
}

// One operand tile: a K tile of 128 values of `rows` rows starting at (row0, k0) of a global
// operand of `bits`-bit values, ld values apart, unpacked as TMA's 16U4_ALIGN16B /
// 16U6_ALIGN16B types do (cuda.h: 16 packed values to 16 bytes, 8 / 4 bytes of gap) into a
// stage at shared address `base`; then every value read back through the K steps' descriptors.
template <class Tile>
void check_unpacked_tile(int bits, int rows) {
  INFO(bits << "-bit values, " << rows << " rows");
  constexpr std::uint32_t kBase = 0x8400;  // 1024-byte aligned
  constexpr int kK = 128, kLd = 384, kRow0 = 5, kK0 = 128;
  const std::int64_t count = std::int64_t(kRow0 + rows) * kLd;
  std::vector<std::uint8_t> global(std::size_t(count * bits / 8 + 1));
  std::mt19937_64 rng(bits * 977 + rows);
  for (std::int64_t i = 0; i < count; ++i) set_stream_value(global, i, bits, unsigned(rng()) & ((1u << bits) - 1u));
  // TMA: each 16-value unit of a row into its 16-byte chunk, packed at the chunk's start, the
  // gap left as it was (0xee here: never read).
  std::vector<std::uint8_t> smem(std::size_t(kBase + Tile::kBytes), 0xee);
  for (int r = 0; r < rows; ++r) {
    for (int u = 0; u < kK / 16; ++u) {
      std::vector<std::uint8_t> unit(16, 0xee);
      for (int j = 0; j < 16; ++j) {
        set_stream_value(unit, j, bits, stream_value(global, std::int64_t(kRow0 + r) * kLd + kK0 + 16 * u + j, bits));
      }
      const std::uint32_t at = kBase + Tile::chunk_offset(r, 16 * u);
      for (int b = 0; b < 16; ++b) {
        if (b < 2 * bits) smem[at + b] = unit[std::size_t(b)];  // 16 values x bits = 2 * bits bytes
      }
    }
  }
  // The MMA: K step kk (32 values, umma::kF8F6F4K) through the family's descriptor.
  for (int kk = 0; kk < kK / umma::kF8F6F4K; ++kk) {
    const std::uint64_t desc = umma::encode(umma::sw128_k_step<Tile, true, umma::kF8F6F4K>(kBase, kk));
    for (int r = 0; r < rows; ++r) {
      for (int v = 0; v < umma::kF8F6F4K; ++v) {
        const std::uint32_t at = unit_address(desc, r, v);
        std::vector<std::uint8_t> unit(smem.begin() + at, smem.begin() + at + 16);
        const unsigned read = stream_value(unit, v % 16, bits);
        const unsigned want = stream_value(global, std::int64_t(kRow0 + r) * kLd + kK0 + 32 * kk + v, bits);
        INFO("k step " << kk << " row " << r << " value " << v);
        REQUIRE(read == want);
      }
    }
  }
}

}  // namespace

TEST_CASE("fp6 and fp4 values: every one an MMA's K step reads is the one TMA unpacked there",
          "[umma][lowp][descriptor]") {
  using examples::umma::Fp4;
  using examples::umma::Fp6Pair;
  using examples::umma::Fp8Fp4;
  // A byte a value in the stages: the fp8 tiles.
  STATIC_REQUIRE(Fp4::TileA::kElementBytes == 1 && Fp4::TileB::kElementBytes == 1);
  STATIC_REQUIRE(Fp6Pair::TileA::kElementBytes == 1);
  check_unpacked_tile<Fp4::TileA>(4, Fp4::kBlockM);
  check_unpacked_tile<Fp4::TileB>(4, Fp4::kStageRowsB);
  check_unpacked_tile<Fp6Pair::TileA>(6, Fp6Pair::kBlockM);
  check_unpacked_tile<Fp6Pair::TileB>(6, Fp6Pair::kStageRowsB);  // a pair's 128 rows of B
  check_unpacked_tile<Fp8Fp4::TileB>(4, Fp8Fp4::kStageRowsB);
}

TEST_CASE("unpacked operands: stages of a byte a value, transactions of their packed bytes", "[umma][lowp]") {
  using examples::umma::Fp4;
  using examples::umma::Fp6Pair;
  using examples::umma::Fp8Fp4;
  // Stage bytes as fp8's: 128 x 128 + 256 x 128 (one CTA), 128 x 128 + 128 x 128 (a pair's half).
  STATIC_REQUIRE(Fp4::kStageBytes == 128 * 128 + 256 * 128);
  STATIC_REQUIRE(Fp6Pair::kStageBytes == 128 * 128 + 128 * 128);
  // What the copies deliver: 4 or 6 bits a value (CUTLASS counts the same).
  STATIC_REQUIRE(Fp4::Operands::kStageTxBytes == (128 * 128 + 256 * 128) / 2);
  STATIC_REQUIRE(Fp8Fp4::Operands::kStageTxBytes == 128 * 128 + 256 * 128 / 2);
  STATIC_REQUIRE(Fp6Pair::Operands::kStageTxBytes == (128 * 128 + 128 * 128) * 6 / 8);
  STATIC_REQUIRE(examples::umma::Fp8::Operands::kStageTxBytes == examples::umma::Fp8::kStageBytes);
  STATIC_REQUIRE(examples::umma::Tn::Operands::kStageTxBytes == examples::umma::Tn::kStageBytes);
  STATIC_REQUIRE(Fp4::kTmaOnly && Fp6Pair::kTmaOnly && Fp8Fp4::kTmaOnly && !examples::umma::Fp8::kTmaOnly);
  STATIC_REQUIRE(Fp8Fp4::kUnpackBitsA == 0 && Fp8Fp4::kUnpackBitsB == 4 && Fp6Pair::kUnpackBitsA == 6);
  STATIC_REQUIRE(Fp4::kKind == nvidia::UmmaKind::kF8F6F4 && examples::umma::Tn::kKind == nvidia::UmmaKind::kF16);
}

TEST_CASE("unpacked operands' tensor maps count values, pitches in packed bytes", "[umma][lowp][tma]") {
  using examples::umma::Fp6Pair;
  using examples::umma::Fp8Fp4;
  alignas(32) static float6_e3m2x4_t a6[4];
  alignas(32) static float6_e2m3x4_t b6[4];
  alignas(32) static float d[4];
  gemm::ConfigArguments<Fp6Pair> six{300, 500, 1024, a6, 1152, b6, 1280, nullptr, 500, d, 500, 1.0f, 0.0f};
  const auto ma = gemm::tma_launch::map_a_plan<Fp6Pair>(six);
  CHECK(ma.unpack_bits == 6);
  CHECK(ma.element_bytes == 1);     // a byte a value in shared memory
  CHECK(ma.inner == 1024u);         // K in values
  CHECK(ma.outer == 300u);
  CHECK(ma.pitch_bytes == 1152u * 6u / 8u);
  CHECK(ma.box_inner == 128u);      // cuda.h: boxDim[0] must be 128 for these types
  CHECK(ma.box_outer == 128u);
  CHECK(ma.swizzle_128b);
  const auto mb = gemm::tma_launch::map_b_plan<Fp6Pair>(six);
  CHECK(mb.unpack_bits == 6);
  CHECK(mb.outer == 500u);
  CHECK(mb.pitch_bytes == 1280u * 6u / 8u);
  CHECK(mb.box_outer == 128u);      // each CTA of the pair loads its half of the 256 columns
  alignas(32) static float8_e4m3_t a8[4];
  alignas(32) static float4_e2m1x2_t b4[4];
  alignas(32) static half_t d16[4];
  gemm::ConfigArguments<Fp8Fp4> mixed{300, 500, 1024, a8, 1040, b4, 1088, nullptr, 500, d16, 500, 1.0f, 0.0f};
  const auto fa = gemm::tma_launch::map_a_plan<Fp8Fp4>(mixed);
  CHECK(fa.unpack_bits == 0);       // fp8: bytes as they are
  CHECK(fa.pitch_bytes == 1040u);
  CHECK(fa.box_inner == 128u);
  const auto fb = gemm::tma_launch::map_b_plan<Fp8Fp4>(mixed);
  CHECK(fb.unpack_bits == 4);
  CHECK(fb.pitch_bytes == 1088u / 2u);
  CHECK(fb.inner == 1024u);
  CHECK(fb.box_outer == 256u);
}

TEST_CASE("operands only TMA loads: K, pointers and pitches TMA cannot take are named Status values",
          "[umma][lowp][arguments]") {
  using Config = examples::umma::Fp6Pair;
  alignas(64) static unsigned char storage[4][1024];
  const auto* a = reinterpret_cast<const float6_e3m2x4_t*>(storage[0]);
  const auto* b = reinterpret_cast<const float6_e2m3x4_t*>(storage[1]);
  auto* d = reinterpret_cast<float*>(storage[2]);
  const gemm::ConfigArguments<Config> good{300, 500, 1024, a, 1152, b, 1024, nullptr, 500, d, 500, 1.0f, 0.0f};
  const auto check = [](const gemm::ConfigArguments<Config>& x) {
    const Status s = gemm::can_implement<RowMajor, ColumnMajor, RowMajor>(x);
    return ok(s) ? gemm::umma_operand_status<Config>(x) : s;
  };
  CHECK(check(good) == Status::kSuccess);
  auto x = good;
  x.K = 1000;  // not a multiple of 128 values (TMA's globalDim[0] rule)
  CHECK(check(x) == Status::kErrorSubByteOperandK);
  x = good;
  x.K = 1023;
  CHECK(check(x) == Status::kErrorSubByteOperandK);
  x = good;
  x.lda = 1088;  // 816 bytes: not a multiple of 32
  CHECK(check(x) == Status::kErrorMisalignedA);
  x = good;
  x.A = reinterpret_cast<const float6_e3m2x4_t*>(storage[0] + 16);  // 16- but not 32-byte aligned
  CHECK(check(x) == Status::kErrorMisalignedA);
  x = good;
  x.A = reinterpret_cast<const float6_e3m2x4_t*>(storage[0] + 3);  // any byte, as the realigning rules allow
  CHECK(gemm::can_implement<RowMajor, ColumnMajor, RowMajor>(x) == Status::kSuccess);
  CHECK(check(x) == Status::kErrorMisalignedA);
  x = good;
  x.ldb = 1216;  // 912 bytes: not a multiple of 32
  CHECK(check(x) == Status::kErrorMisalignedB);
  // Nothing read: K = 0 (or M, N = 0) needs no operand at all.
  x = good;
  x.K = 0;
  x.A = nullptr;
  x.B = nullptr;
  CHECK(check(x) == Status::kSuccess);
  // fp4: two values a byte, so a pitch of a multiple of 64 values; the fp8 operand of the mix
  // by TMA's 16-byte rules.
  using Mixed = examples::umma::Fp8Fp4;
  const auto* a8 = reinterpret_cast<const float8_e4m3_t*>(storage[0]);
  const auto* b4 = reinterpret_cast<const float4_e2m1x2_t*>(storage[1]);
  auto* d16 = reinterpret_cast<half_t*>(storage[3]);
  const gemm::ConfigArguments<Mixed> m{200, 300, 512, a8, 528, b4, 576, nullptr, 300, d16, 300, 1.0f, 0.0f};
  CHECK(gemm::umma_operand_status<Mixed>(m) == Status::kSuccess);
  auto y = m;
  y.ldb = 544;  // 272 bytes
  CHECK(gemm::umma_operand_status<Mixed>(y) == Status::kErrorMisalignedB);
  y = m;
  y.lda = 520;  // fp8 A: 520 bytes, not a multiple of 16
  CHECK(gemm::umma_operand_status<Mixed>(y) == Status::kErrorMisalignedA);
  y = m;
  y.K = 320;  // a multiple of 16 (fp8's rule) but not of 128 (fp4's)
  CHECK(gemm::umma_operand_status<Mixed>(y) == Status::kErrorSubByteOperandK);
  // fp8 alone is not TMA-only: its realigning path takes any pitch.
  using Fp8 = examples::umma::Fp8;
  STATIC_REQUIRE(!Fp8::kTmaOnly);
}
