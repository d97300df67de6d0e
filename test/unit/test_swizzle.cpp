// Swizzle and SwizzledTile: algebra (involution, bijection, vectors stay contiguous)
// and bank conflicts COUNTED for the access patterns Tessera's kernels use, with and
// without the swizzle. The counts are printed (run the test with -s or ctest -V) and
// recorded in benchmark/notes/swizzle.md.
//
// The bank models (NVIDIA shared memory, measured; AMD LDS, a model) and the counting
// live in test/support/lds_bank_model.hpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "lds_bank_model.hpp"
#include "tessera/layout/swizzle.hpp"

using namespace tessera;
using tessera::test::BankModel;
using tessera::test::Cost;
using tessera::test::count_conflicts;
using tessera::test::kAmdGfx9;
using tessera::test::kNvidia;

namespace {

// ---- algebra ----------------------------------------------------------------------------

// Compile-time spot checks: the documented convention, bit for bit.
static_assert(Swizzle<5, 0, 5>::apply(3 * 32 + 1) == 3 * 32 + (1 ^ 3), "row 3 XOR-ed into col");
static_assert(Swizzle<3, 3, 3>::apply((5 << 6) | (2 << 3) | 7) == ((5 << 6) | ((2 ^ 5) << 3) | 7),
              "chunk ^= row%8, low 3 bits kept");
static_assert(Swizzle<3, 2, 5>::kTargetMask == 0x1cu && Swizzle<3, 2, 5>::kSourceMask == 0x380u, "");
static_assert(NoSwizzle::apply(12345) == 12345, "identity");
static_assert(Swizzle<2, 1, 4>::apply(Swizzle<2, 1, 4>::apply(987)) == 987, "involution");
static_assert(std::is_same<BankSwizzle<64, 2, 16>, Swizzle<3, 3, 3>>::value, "fp16 128B rows");
static_assert(std::is_same<BankSwizzle<32, 4, 4>, Swizzle<5, 0, 5>>::value, "fp32 [32][32]");
static_assert(std::is_same<BankSwizzle<128, 4, 16>, Swizzle<3, 2, 5>>::value, "fp32 [8][128]");
static_assert(std::is_same<BankSwizzle<64, 2, 8>, Swizzle<4, 2, 4>>::value, "fp16 8B accesses");
static_assert(std::is_same<BankSwizzle<32, 2, 16>, Swizzle<2, 3, 3>>::value, "fp16 64B rows");
static_assert(std::is_same<BankSwizzle<128, 2, 16>, Swizzle<3, 3, 4>>::value, "fp16 256B rows");
static_assert(SwizzledTile<64, 64, 2, Swizzle<3, 3, 3>>::kVectorElements == 8, "16B vectors");
static_assert(SwizzledTile<64, 64, 2, Swizzle<4, 2, 4>>::kVectorElements == 4, "8B only");
static_assert(SwizzledTile<8, 132, 4>::kVectorElements == 4, "padded pitch keeps float4");

template <class Swz>
void check_involution_and_bijection(int span) {
  std::vector<int> seen(span, 0);
  for (int x = 0; x < span; ++x) {
    const int y = Swz::apply(x);
    REQUIRE(Swz::apply(y) == x);
    REQUIRE(y >= 0);
    REQUIRE(y < span);                                  // stays inside a tile of whole blocks
    REQUIRE(y / Swz::kBlock == x / Swz::kBlock);        // ...because it stays in its block
    REQUIRE((y & ((1 << Swz::kBase) - 1)) == (x & ((1 << Swz::kBase) - 1)));  // low bits kept
    ++seen[y];
  }
  for (int c : seen) REQUIRE(c == 1);
  // 64-bit offsets give the same answer (the template takes any integer type).
  for (std::int64_t x : {std::int64_t(0), std::int64_t(span - 1), std::int64_t(1) << 40}) {
    CHECK(Swz::apply(Swz::apply(x)) == x);
  }
}

TEST_CASE("Swizzle is an involution and a bijection on whole blocks", "[swizzle]") {
  check_involution_and_bijection<NoSwizzle>(1024);
  check_involution_and_bijection<Swizzle<1, 0, 1>>(1 << 4);
  check_involution_and_bijection<Swizzle<3, 3, 3>>(1 << 12);
  check_involution_and_bijection<Swizzle<5, 0, 5>>(1 << 12);
  check_involution_and_bijection<Swizzle<3, 2, 5>>(1 << 12);
  check_involution_and_bijection<Swizzle<4, 2, 4>>(1 << 12);
  check_involution_and_bijection<Swizzle<2, 3, 3>>(1 << 12);
  check_involution_and_bijection<Swizzle<3, 4, 3>>(1 << 12);
  check_involution_and_bijection<Swizzle<2, 1, 6>>(1 << 12);
  check_involution_and_bijection<Swizzle<3, 3, 4>>(1 << 12);
  // The MFMA operand tiles of M/N-contiguous operands (mfma/smem_plan.hpp).
  check_involution_and_bijection<SwizzlePair<Swizzle<3, 3, 3>, Swizzle<2, 4, 5>>>(1 << 14);
  check_involution_and_bijection<SwizzlePair<Swizzle<3, 3, 3>, Swizzle<1, 5, 4>>>(1 << 14);
}

template <class Tile>
void check_tile_is_permutation() {
  std::vector<int> seen(Tile::kElements, 0);
  for (int r = 0; r < Tile::kRows; ++r) {
    for (int c = 0; c < Tile::kCols; ++c) {
      const int o = Tile::offset(r, c);
      REQUIRE(o >= 0);
      REQUIRE(o < Tile::kElements);
      ++seen[o];
      CHECK(Tile::byte_offset(r, c) == o * Tile::kElementBytes);
      // A vector of kVectorElements starting at an aligned column is contiguous.
      if (c % Tile::kVectorElements == 0) {
        for (int v = 1; v < Tile::kVectorElements; ++v) REQUIRE(Tile::offset(r, c + v) == o + v);
      }
    }
  }
  for (int n : seen) REQUIRE(n == 1);
}

TEST_CASE("SwizzledTile maps every (row, col) to a distinct offset inside the tile", "[swizzle]") {
  check_tile_is_permutation<SwizzledTile<8, 128, 4, NoSwizzle>>();
  check_tile_is_permutation<SwizzledTile<8, 128, 4, BankSwizzle<128, 4, 16>>>();
  check_tile_is_permutation<SwizzledTile<64, 64, 2, BankSwizzle<64, 2, 16>>>();
  check_tile_is_permutation<SwizzledTile<128, 64, 2, BankSwizzle<64, 2, 8>>>();
  check_tile_is_permutation<SwizzledTile<32, 32, 4, BankSwizzle<32, 4, 4>>>();
  check_tile_is_permutation<SwizzledTile<64, 32, 2, BankSwizzle<32, 2, 16>>>();
  check_tile_is_permutation<SwizzledTile<32, 128, 2, BankSwizzle<128, 2, 16>>>();
  check_tile_is_permutation<SwizzledTile<8, 132, 4>>();
}

// ---- bank-conflict counting ----------------------------------------------------------

// One instruction of a pattern: lane -> (row, col) of the tile, or the whole tile
// pattern as a list of instructions. Each lane accesses access_bytes starting there.
struct RowCol {
  int row, col;
};
using Instruction = std::function<RowCol(int lane)>;

// Worst cost over every instruction of a pattern, addresses through Tile.
template <class Tile>
Cost worst_cost(const BankModel& model, const std::vector<Instruction>& instructions,
                int access_bytes) {
  Cost worst;
  for (const Instruction& ins : instructions) {
    std::vector<std::int64_t> addr(model.wave_lanes);
    for (int lane = 0; lane < model.wave_lanes; ++lane) {
      const RowCol rc = ins(lane);
      REQUIRE(rc.row >= 0);
      REQUIRE(rc.row < Tile::kRows);
      REQUIRE(rc.col >= 0);
      REQUIRE(rc.col + access_bytes / Tile::kElementBytes <= Tile::kCols);
      addr[lane] = Tile::byte_offset(rc.row, rc.col);
      // The lane's vector must be contiguous in the swizzled tile too.
      for (int e = 1; e < access_bytes / Tile::kElementBytes; ++e) {
        REQUIRE(Tile::offset(rc.row, rc.col + e) == Tile::offset(rc.row, rc.col) + e);
      }
    }
    const Cost c = count_conflicts(model, addr, access_bytes);
    worst.degree = std::max(worst.degree, c.degree);
    worst.wavefronts = std::max(worst.wavefronts, c.wavefronts);
    worst.ideal = std::max(worst.ideal, c.ideal);
  }
  return worst;
}

// Counts, prints one line of the table, and checks the degree the notes promise.
template <class Tile>
void expect_degree(const char* pattern, const char* layout, const BankModel& model,
                   const std::vector<Instruction>& instructions, int access_bytes,
                   int expected) {
  const Cost c = worst_cost<Tile>(model, instructions, access_bytes);
  std::printf("  %-40s %-26s %-21s degree %2d  wavefronts %2d/%d\n", pattern, layout, model.name,
              c.degree, c.wavefronts, c.ideal);
  INFO(pattern << " | " << layout << " | " << model.name << ": degree " << c.degree
               << ", wavefronts " << c.wavefronts << "/" << c.ideal);
  CHECK(c.degree == expected);
}

// Every instruction of a block of `threads` threads, split into warps/waves, with
// `per_thread` instructions each; f(thread, i) gives the element a thread touches.
std::vector<Instruction> block_instructions(const BankModel& model, int threads, int per_thread,
                                            std::function<RowCol(int thread, int i)> f) {
  std::vector<Instruction> out;
  for (int wave = 0; wave < threads / model.wave_lanes; ++wave) {
    for (int i = 0; i < per_thread; ++i) {
      out.push_back([=](int lane) { return f(wave * model.wave_lanes + lane, i); });
    }
  }
  return out;
}

// ---- (a), (b): FMA GEMM, 128(M) x 8(K) fp32 A tile stored transposed as As[K][M] ----

using AsPlain = SwizzledTile<8, 128, 4, NoSwizzle>;
using AsPadded = SwizzledTile<8, 132, 4, NoSwizzle>;  // 4 floats of padding per k row
using AsSwizzled = SwizzledTile<8, 128, 4, BankSwizzle<128, 4, 16>>;  // Swizzle<3,2,5>

TEST_CASE("(a) FMA A tile: transposed scalar stores into As[8][128]", "[swizzle][banks]") {
  std::printf("(a) 256 threads load A[128][8] as float4 and store 4 scalars each into As[k][m]\n");
  for (const BankModel* model : {&kNvidia, &kAmdGfx9}) {
    // Lane-per-row mapping (as in the brief): thread t owns row m = t % 128 and K
    // values 4*(t/128)..+3, so a warp stores 32 consecutive m at one k.
    const auto per_row = block_instructions(*model, 256, 4, [](int t, int j) {
      return RowCol{4 * (t / 128) + j, t % 128};
    });
    // Two threads per row (the coalesced float4 load: a warp reads 16 rows x 32 bytes):
    // m = t / 2, K values 4*(t%2)..+3: a warp stores 16 m at k = j and k = j + 4, and
    // rows j and j+4 of a 128-float As start in the same bank.
    const auto two_per_row = block_instructions(*model, 256, 4, [](int t, int j) {
      return RowCol{4 * (t % 2) + j, t / 2};
    });
    expect_degree<AsPlain>("a1 lane-per-row store, 4B", "As[8][128]", *model, per_row, 4, 1);
    expect_degree<AsSwizzled>("a1 lane-per-row store, 4B", "As[8][128] Swizzle<3,2,5>", *model,
                             per_row, 4, 1);
    expect_degree<AsPlain>("a2 two-threads-per-row store, 4B", "As[8][128]", *model,
                          two_per_row, 4, 2);
    expect_degree<AsPadded>("a2 two-threads-per-row store, 4B", "As[8][132] (padded)", *model,
                           two_per_row, 4, 1);
    expect_degree<AsSwizzled>("a2 two-threads-per-row store, 4B", "As[8][128] Swizzle<3,2,5>",
                             *model, two_per_row, 4, 1);
  }
}

TEST_CASE("(b) FMA A tile: float4 reads along M stay conflict-free", "[swizzle][banks]") {
  std::printf("(b) compute loop: thread t reads As[k][m0..m0+3], m0 = 4*(t%%16) and m0 + 64\n");
  for (const BankModel* model : {&kNvidia, &kAmdGfx9}) {
    // 16 x 16 threads, 8 x 8 outputs each: a thread's rows are m0..m0+3 and m0+64..+67.
    // Lanes 16 apart read the same float4 (broadcast).
    const auto reads = block_instructions(*model, 256, 16, [](int t, int i) {
      return RowCol{i / 2, 4 * (t % 16) + 64 * (i % 2)};
    });
    expect_degree<AsPlain>("b float4 read along M, 16B", "As[8][128]", *model, reads, 16, 1);
    expect_degree<AsPadded>("b float4 read along M, 16B", "As[8][132] (padded)", *model, reads,
                           16, 1);
    expect_degree<AsSwizzled>("b float4 read along M, 16B", "As[8][128] Swizzle<3,2,5>", *model,
                             reads, 16, 1);
  }
}

// ---- (c): 64x64 fp16 tile, 128-byte rows, ldmatrix-like column reads -------------------

using H64Plain = SwizzledTile<64, 64, 2, NoSwizzle>;
using H64Swizzled = SwizzledTile<64, 64, 2, BankSwizzle<64, 2, 16>>;  // Swizzle<3,3,3>

TEST_CASE("(c) 64x64 fp16: ldmatrix.x4-like reads and 16-byte row stores", "[swizzle][banks]") {
  std::printf("(c) 64x64 fp16 tile, 128-byte rows\n");
  // ldmatrix.x4 of the 16x16 sub-tile at (r0, k0): lane l gives the address of row
  // r0 + l%16, halves k0 + 8*(l/16)..+7; each 8-lane phase is 8 rows x 16 bytes of one
  // column chunk. ldmatrix.trans on a [K][N] B tile issues the same addresses.
  std::vector<Instruction> ldmatrix;
  for (int r0 = 0; r0 < 64; r0 += 16) {
    for (int k0 = 0; k0 < 64; k0 += 16) {
      ldmatrix.push_back([=](int l) { return RowCol{r0 + l % 16, k0 + 8 * (l / 16)}; });
    }
  }
  // cp.async / st.shared.v4 from a row-major global tile: 128 threads, 4 passes,
  // thread t of pass p writes 16-byte chunk c = 128p + t: row c/8, halves 8*(c%8)..
  const auto stores = block_instructions(kNvidia, 128, 4, [](int t, int p) {
    const int c = 128 * p + t;
    return RowCol{c / 8, 8 * (c % 8)};
  });
  expect_degree<H64Plain>("c ldmatrix.x4 column read, 16B", "[64][64]", kNvidia, ldmatrix, 16, 8);
  expect_degree<H64Swizzled>("c ldmatrix.x4 column read, 16B", "[64][64] Swizzle<3,3,3>", kNvidia,
                            ldmatrix, 16, 1);
  expect_degree<H64Plain>("c row-wise 16B stores (cp.async)", "[64][64]", kNvidia, stores, 16, 1);
  expect_degree<H64Swizzled>("c row-wise 16B stores (cp.async)", "[64][64] Swizzle<3,3,3>",
                            kNvidia, stores, 16, 1);
}

// ---- (d): fp32 [32][32], lane i reads row i ---------------------------------------------

using F32Plain = SwizzledTile<32, 32, 4, NoSwizzle>;
using F32Swizzled = SwizzledTile<32, 32, 4, Swizzle<5, 0, 5>>;

TEST_CASE("(d) fp32 [32][32] transposed read: 32-way without, 1 with Swizzle<5,0,5>",
          "[swizzle][banks]") {
  std::printf("(d) fp32 [32][32], 128-byte rows\n");
  std::vector<Instruction> column_reads, row_reads;
  for (int c = 0; c < 32; ++c) {
    column_reads.push_back([=](int lane) { return RowCol{lane, c}; });
    row_reads.push_back([=](int lane) { return RowCol{c, lane}; });
  }
  expect_degree<F32Plain>("d lane i reads row i (column), 4B", "[32][32]", kNvidia, column_reads,
                         4, 32);
  expect_degree<F32Swizzled>("d lane i reads row i (column), 4B", "[32][32] Swizzle<5,0,5>",
                            kNvidia, column_reads, 4, 1);
  expect_degree<F32Plain>("d lane i reads col i (row), 4B", "[32][32]", kNvidia, row_reads, 4, 1);
  expect_degree<F32Swizzled>("d lane i reads col i (row), 4B", "[32][32] Swizzle<5,0,5>", kNvidia,
                            row_reads, 4, 1);
}

// ---- (e): AMD MFMA A-operand reads from a [128][64] fp16 LDS tile (model) ----------------

using A128Plain = SwizzledTile<128, 64, 2, NoSwizzle>;
using A128Swz16 = SwizzledTile<128, 64, 2, BankSwizzle<64, 2, 16>>;  // Swizzle<3,3,3>
using A128Swz8 = SwizzledTile<128, 64, 2, BankSwizzle<64, 2, 8>>;    // Swizzle<4,2,4>

TEST_CASE("(e) AMD MFMA operand reads from a [128][64] fp16 tile (LDS model)",
          "[swizzle][banks]") {
  std::printf("(e) AMD: MFMA A operand from [128][64] fp16 (128-byte rows), 64-lane wave\n");
  // gfx950 v_mfma_f32_32x32x16_f16: A[i][k] in lane 32*(k/8)+i, 8 halves -> ds_read_b128.
  // gfx942 v_mfma_f32_32x32x8_f16: A[i][k] in lane 32*(k/4)+i, 4 halves -> ds_read_b64.
  // gfx942 v_mfma_f32_16x16x16_f16: A[i][k] in lane 16*(k/4)+i, 4 halves -> ds_read_b64.
  std::vector<Instruction> mfma32x16, mfma32x8, mfma16x16;
  for (int k0 = 0; k0 < 64; k0 += 16) {
    for (int r0 = 0; r0 < 128; r0 += 32) {
      mfma32x16.push_back([=](int l) { return RowCol{r0 + l % 32, k0 + 8 * (l / 32)}; });
    }
    for (int r0 = 0; r0 < 128; r0 += 16) {
      mfma16x16.push_back([=](int l) { return RowCol{r0 + l % 16, k0 + 4 * (l / 16)}; });
    }
  }
  for (int k0 = 0; k0 < 64; k0 += 8) {
    for (int r0 = 0; r0 < 128; r0 += 32) {
      mfma32x8.push_back([=](int l) { return RowCol{r0 + l % 32, k0 + 4 * (l / 32)}; });
    }
  }
  // Global -> LDS, 256 threads: 16-byte stores (ds_write_b128 / gfx950 direct loads) and
  // 8-byte stores (what an 8-byte-granular swizzle requires).
  const auto stores16 = block_instructions(kAmdGfx9, 256, 4, [](int t, int p) {
    const int c = 256 * p + t;
    return RowCol{c / 8, 8 * (c % 8)};
  });
  const auto stores8 = block_instructions(kAmdGfx9, 256, 8, [](int t, int p) {
    const int c = 256 * p + t;
    return RowCol{c / 16, 4 * (c % 16)};
  });
  const BankModel& m = kAmdGfx9;
  expect_degree<A128Plain>("e 32x32x16 A read (gfx950), 16B", "[128][64]", m, mfma32x16, 16, 8);
  expect_degree<A128Swz16>("e 32x32x16 A read (gfx950), 16B", "[128][64] Swizzle<3,3,3>", m,
                          mfma32x16, 16, 1);
  expect_degree<A128Plain>("e 32x32x8 A read (gfx942), 8B", "[128][64]", m, mfma32x8, 8, 16);
  expect_degree<A128Swz16>("e 32x32x8 A read (gfx942), 8B", "[128][64] Swizzle<3,3,3>", m,
                          mfma32x8, 8, 2);
  expect_degree<A128Swz8>("e 32x32x8 A read (gfx942), 8B", "[128][64] Swizzle<4,2,4>", m,
                         mfma32x8, 8, 1);
  expect_degree<A128Plain>("e 16x16x16 A read (gfx942), 8B", "[128][64]", m, mfma16x16, 8, 16);
  expect_degree<A128Swz16>("e 16x16x16 A read (gfx942), 8B", "[128][64] Swizzle<3,3,3>", m,
                          mfma16x16, 8, 2);
  expect_degree<A128Swz8>("e 16x16x16 A read (gfx942), 8B", "[128][64] Swizzle<4,2,4>", m,
                         mfma16x16, 8, 1);
  expect_degree<A128Plain>("e row-wise 16B stores", "[128][64]", m, stores16, 16, 1);
  expect_degree<A128Swz16>("e row-wise 16B stores", "[128][64] Swizzle<3,3,3>", m, stores16,
                          16, 1);
  expect_degree<A128Swz8>("e row-wise 8B stores", "[128][64] Swizzle<4,2,4>", m, stores8, 8, 1);
  // An 8-byte-granular swizzle splits 16-byte vectors: a 16-byte store would need two.
  CHECK(A128Swz8::offset(1, 4) != A128Swz8::offset(1, 0) + 4);
}

// ---- the BankSwizzle promise, exhaustively over a family of shapes ----------------------

template <int RowElements, int ElementBytes, int AccessBytes>
void check_bank_swizzle_promise() {
  constexpr int kRows = 64;
  using Tile = SwizzledTile<kRows, RowElements, ElementBytes,
                            BankSwizzle<RowElements, ElementBytes, AccessBytes>>;
  constexpr int kVec = AccessBytes / ElementBytes;
  constexpr int kLanes = 128 / AccessBytes;  // one 128-byte phase
  static_assert(Tile::kVectorElements >= kVec, "the access must stay one vector");
  // Any kLanes consecutive rows (aligned or not) at any vector-aligned column: one
  // phase, so degree 1 means every lane hit its own banks.
  for (int r0 = 0; r0 + kLanes <= kRows; ++r0) {
    for (int c = 0; c < RowElements; c += kVec) {
      std::vector<std::int64_t> addr(32, 0);
      for (int l = 0; l < kLanes; ++l) addr[l] = Tile::byte_offset(r0 + l, c);
      // Pad the remaining phases with a harmless row-wise access of row 0.
      for (int l = kLanes; l < 32; ++l) addr[l] = ((l % kLanes) * AccessBytes);
      const Cost cost = count_conflicts(kNvidia, addr, AccessBytes);
      INFO("RowElements " << RowElements << " ElementBytes " << ElementBytes << " AccessBytes "
                          << AccessBytes << " rows " << r0 << ".. col " << c);
      REQUIRE(cost.degree == 1);
    }
  }
}

TEST_CASE("BankSwizzle: any 128/AccessBytes consecutive rows at one column are conflict-free",
          "[swizzle][banks]") {
  check_bank_swizzle_promise<64, 2, 16>();
  check_bank_swizzle_promise<32, 2, 16>();
  check_bank_swizzle_promise<128, 2, 16>();
  check_bank_swizzle_promise<16, 2, 16>();
  check_bank_swizzle_promise<64, 2, 8>();
  check_bank_swizzle_promise<64, 2, 4>();
  check_bank_swizzle_promise<32, 4, 4>();
  check_bank_swizzle_promise<128, 4, 16>();
  check_bank_swizzle_promise<64, 4, 16>();
  check_bank_swizzle_promise<128, 1, 16>();
}

}  // namespace
