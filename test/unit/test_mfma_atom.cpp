// MFMA atoms (include/tessera/mma/mfma_atom.hpp) against a scalar model of each
// instruction. The model below is written from the layout table (AMD's matrix instruction
// calculator, as mma/mfma_atom.hpp's header writes it) in the forward direction -- "A[i][k] is in lane M*(k/E)+i,
// element k%E" -- and shares no code with the atoms, which state the maps the other way
// round (lane, element -> coordinate). Three things are checked per instruction:
//  1. the atom's maps and the table agree element for element and are bijections;
//  2. operands distributed to lanes with the atom's maps, multiplied by the model
//     instruction and gathered back with the atom's C map, give the exact matrix product
//     (small integers, so every product and sum is exact in float);
//  3. the packed 16-byte reads (two gfx942 instructions per read, or one gfx950
//     instruction) cover each K value of a read step exactly once in A and B alike, so
//     the packed dot is the exact product over the read step.
#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <utility>
#include <vector>

#include "tessera/mma/mfma_atom.hpp"

using namespace tessera;
using tessera::mma::MfmaAtom;

namespace {

// ---- the scalar model of one MFMA instruction, from the layout table -------------------
template <class Instruction>
struct Model {
  static constexpr int M = Instruction::kM, N = Instruction::kN, K = Instruction::kK;
  static constexpr int E = Instruction::kOperandElements;
  static constexpr int R = Instruction::kAccumulators;
  // Forward maps, as the table states them.
  static int a_lane(int i, int k) { return M * (k / E) + i; }
  static int a_elem(int, int k) { return k % E; }
  static int b_lane(int k, int j) { return N * (k / E) + j; }
  static int b_elem(int k, int) { return k % E; }
  static int c_lane(int i, int j) { return M == 32 ? 32 * ((i / 4) % 2) + j : 16 * (i / 4) + j; }
  static int c_reg(int i, int) { return M == 32 ? 4 * (i / 8) + i % 4 : i % 4; }

  // D = C + A * B with A, B and C as the 64 lanes' registers.
  static void run(const float (&a)[64][E], const float (&b)[64][E], float (&c)[64][R]) {
    float out[64][R];
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < R; ++r) out[l][r] = c[l][r];
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float sum = 0.0f;
        for (int k = 0; k < K; ++k) sum += a[a_lane(i, k)][a_elem(i, k)] * b[b_lane(k, j)][b_elem(k, j)];
        out[c_lane(i, j)][c_reg(i, j)] += sum;
      }
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < R; ++r) c[l][r] = out[l][r];
  }
};

template <class Instruction>
void check_maps_against_table() {
  using Atom = MfmaAtom<Instruction>;
  using Mo = Model<Instruction>;
  std::set<std::pair<int, int>> seen_a, seen_b, seen_c;
  for (int l = 0; l < 64; ++l) {
    for (int e = 0; e < Atom::kOperandElements; ++e) {
      const auto a = Atom::a_coord(l, e);
      REQUIRE(Mo::a_lane(a.row, a.col) == l);
      REQUIRE(Mo::a_elem(a.row, a.col) == e);
      seen_a.insert({a.row, a.col});
      const auto b = Atom::b_coord(l, e);
      REQUIRE(Mo::b_lane(b.row, b.col) == l);
      REQUIRE(Mo::b_elem(b.row, b.col) == e);
      seen_b.insert({b.row, b.col});
    }
    for (int r = 0; r < Atom::kAccumulators; ++r) {
      const auto c = Atom::c_coord(l, r);
      REQUIRE(c.row >= 0);
      REQUIRE(c.row < Atom::kM);
      REQUIRE(Mo::c_lane(c.row, c.col) == l);
      REQUIRE(Mo::c_reg(c.row, c.col) == r);
      seen_c.insert({c.row, c.col});
    }
  }
  // Bijections: every element of A (M x K), B (K x N) and C (M x N) appears exactly once.
  REQUIRE(int(seen_a.size()) == Atom::kM * Atom::kK);
  REQUIRE(int(seen_b.size()) == Atom::kK * Atom::kN);
  REQUIRE(int(seen_c.size()) == Atom::kM * Atom::kN);
}

template <class Instruction>
void check_product() {
  using Atom = MfmaAtom<Instruction>;
  constexpr int E = Atom::kOperandElements, R = Atom::kAccumulators;
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> small(-8, 8);
  std::vector<float> A(Atom::kM * Atom::kK), B(Atom::kK * Atom::kN), C(Atom::kM * Atom::kN);
  for (float& x : A) x = float(small(rng));
  for (float& x : B) x = float(small(rng));
  for (float& x : C) x = float(small(rng));

  float a[64][E], b[64][E], c[64][R];
  for (int l = 0; l < 64; ++l) {
    for (int e = 0; e < E; ++e) {
      const auto ac = Atom::a_coord(l, e);
      a[l][e] = A[ac.row * Atom::kK + ac.col];
      const auto bc = Atom::b_coord(l, e);
      b[l][e] = B[bc.row * Atom::kN + bc.col];
    }
    for (int r = 0; r < R; ++r) {
      const auto cc = Atom::c_coord(l, r);
      c[l][r] = C[cc.row * Atom::kN + cc.col];
    }
  }
  Model<Instruction>::run(a, b, c);
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < R; ++r) {
      const auto cc = Atom::c_coord(l, r);
      float want = C[cc.row * Atom::kN + cc.col];
      for (int k = 0; k < Atom::kK; ++k) want += A[cc.row * Atom::kK + k] * B[k * Atom::kN + cc.col];
      REQUIRE(c[l][r] == want);
    }
}

// A read step: each lane reads 8 contiguous K values of its row (A) / column (B); the
// instructions of the step take 4 or 8 of them each. The sum must be the product over the
// step's kKPerRead values of K.
template <class Instruction>
void check_packed_reads() {
  using Atom = MfmaAtom<Instruction>;
  constexpr int E = Atom::kOperandElements, R = Atom::kAccumulators, KR = Atom::kKPerRead;
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> small(-8, 8);
  std::vector<float> A(Atom::kM * KR), B(KR * Atom::kN);
  for (float& x : A) x = float(small(rng));
  for (float& x : B) x = float(small(rng));

  // Every K value of the step is read by exactly one lane group, once.
  std::vector<int> covered(KR, 0);
  for (int g = 0; g < Atom::kKGroups; ++g)
    for (int x = 0; x < Atom::kReadElements; ++x) ++covered[Atom::read_k(g * Atom::kM, x)];
  for (int k = 0; k < KR; ++k) REQUIRE(covered[k] == 1);

  float c[64][R] = {};
  for (int t = 0; t < Atom::kInstructionsPerRead; ++t) {
    float a[64][E], b[64][E];
    for (int l = 0; l < 64; ++l)
      for (int e = 0; e < E; ++e) {
        const int k = Atom::read_k(l, t * E + e);
        a[l][e] = A[Atom::read_row(l) * KR + k];
        b[l][e] = B[k * Atom::kN + Atom::read_row(l)];
      }
    Model<Instruction>::run(a, b, c);
  }
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < R; ++r) {
      const auto cc = Atom::c_coord(l, r);
      float want = 0.0f;
      for (int k = 0; k < KR; ++k) want += A[cc.row * KR + k] * B[k * Atom::kN + cc.col];
      REQUIRE(c[l][r] == want);
    }
}

template <class Instruction>
void check_all() {
  check_maps_against_table<Instruction>();
  check_product<Instruction>();
  check_packed_reads<Instruction>();
}

}  // namespace

TEST_CASE("gfx942 v_mfma_f32_32x32x8 (f16, bf16): lane maps, product, packed reads", "[mfma]") {
  check_all<amd::Mfma32x32x8F16>();
  check_all<amd::Mfma32x32x8Bf16>();
  STATIC_REQUIRE(MfmaAtom<amd::Mfma32x32x8F16>::kInstructionsPerRead == 2);
  STATIC_REQUIRE(MfmaAtom<amd::Mfma32x32x8F16>::kKPerRead == 16);
}

TEST_CASE("gfx942 v_mfma_f32_16x16x16 (f16, bf16): lane maps, product, packed reads", "[mfma]") {
  check_all<amd::Mfma16x16x16F16>();
  check_all<amd::Mfma16x16x16Bf16>();
  STATIC_REQUIRE(MfmaAtom<amd::Mfma16x16x16F16>::kInstructionsPerRead == 2);
  STATIC_REQUIRE(MfmaAtom<amd::Mfma16x16x16F16>::kKPerRead == 32);
}

TEST_CASE("gfx950 v_mfma_f32_32x32x16 (f16, bf16): lane maps, product, packed reads", "[mfma]") {
  check_all<amd::Mfma32x32x16F16>();
  check_all<amd::Mfma32x32x16Bf16>();
  STATIC_REQUIRE(MfmaAtom<amd::Mfma32x32x16F16>::kInstructionsPerRead == 1);
  STATIC_REQUIRE(MfmaAtom<amd::Mfma32x32x16F16>::kKPerRead == 16);
}

TEST_CASE("gfx950 v_mfma_f32_16x16x32 (f16, bf16): lane maps, product, packed reads", "[mfma]") {
  check_all<amd::Mfma16x16x32F16>();
  check_all<amd::Mfma16x16x32Bf16>();
  STATIC_REQUIRE(MfmaAtom<amd::Mfma16x16x32F16>::kInstructionsPerRead == 1);
  STATIC_REQUIRE(MfmaAtom<amd::Mfma16x16x32F16>::kKPerRead == 32);
}

TEST_CASE("MFMA pass counts used by the static speed proxy", "[mfma]") {
  // 4 cycles per pass; 32x32 forms 8 passes, 16x16 forms 4 (LLVM SISchedule.td).
  STATIC_REQUIRE(amd::Mfma32x32x8F16::kCycles == 32);
  STATIC_REQUIRE(amd::Mfma16x16x16Bf16::kCycles == 16);
  STATIC_REQUIRE(amd::Mfma32x32x16Bf16::kCycles == 32);
  STATIC_REQUIRE(amd::Mfma16x16x32F16::kCycles == 16);
  // FLOP per cycle per SIMD: 512 for the gfx942 forms, 1024 for the gfx950 forms.
  STATIC_REQUIRE(amd::Mfma32x32x8F16::kFlops / amd::Mfma32x32x8F16::kCycles == 512);
  STATIC_REQUIRE(amd::Mfma32x32x16F16::kFlops / amd::Mfma32x32x16F16::kCycles == 1024);
  STATIC_REQUIRE(amd::Mfma16x16x32F16::kFlops / amd::Mfma16x16x32F16::kCycles == 1024);
}
