// The emulator's MFMA model, each instruction on its own: its lane layout against the
// documented tables (mma/mfma_atom.hpp's table, AMD's example kernels via mfma_lane_map.hpp), and the
// instruction against a scalar float64 product on fresh random inputs. Then a small MFMA
// GEMM kernel with direct-to-LDS loads and asymmetric waits, end to end. EMULATED results.
#include <catch2/catch.hpp>

#include <vector>

#include "mfma_checks.hpp"
#include "mfma_lane_map.hpp"

namespace emu = tessera::amd::emulation;
namespace amd = tessera::amd;
using tessera::Status;

TEMPLATE_TEST_CASE("the MFMA model places operands as the documentation says", "[emulator][mfma]",
                   amd::Mfma32x32x8F16, amd::Mfma16x16x16F16, amd::Mfma32x32x16F16, amd::Mfma16x16x32F16) {
  constexpr int M = TestType::kM, K = TestType::kK;
  for (int lane = 0; lane < 64; ++lane) {
    for (int e = 0; e < TestType::kOperandElements; ++e) {
      const emu_test::MatrixIndex a = emu_test::mfma_a_element<M, K>(lane, e);
      const emu_test::MatrixIndex b = emu_test::mfma_b_element<M, K>(lane, e);
      const emu::MfmaSlot sa = emu::mfma_a_slot(M, K, a.row, a.col);
      const emu::MfmaSlot sb = emu::mfma_b_slot(M, K, b.row, b.col);
      INFO("lane " << lane << " element " << e);
      REQUIRE((sa.lane == lane && sa.index == e));
      REQUIRE((sb.lane == lane && sb.index == e));
    }
    for (int r = 0; r < TestType::kAccumulators; ++r) {
      const emu_test::MatrixIndex c = emu_test::mfma_c_element<M>(lane, r);
      const emu::MfmaSlot sc = emu::mfma_c_slot(M, M, c.row, c.col);
      INFO("lane " << lane << " register " << r);
      REQUIRE((sc.lane == lane && sc.index == r));
    }
  }
  // The table as mma/mfma_atom.hpp writes it (AMD's matrix instruction calculator).
  for (int i = 0; i < M; ++i) {
    for (int k = 0; k < K; ++k) {
      const int kpl = TestType::kOperandElements;
      const emu::MfmaSlot s = emu::mfma_a_slot(M, K, i, k);
      REQUIRE((s.lane == M * (k / kpl) + i && s.index == k % kpl));
    }
    for (int j = 0; j < M; ++j) {
      const emu::MfmaSlot s = emu::mfma_c_slot(M, M, i, j);
      if (M == 32) {
        REQUIRE((s.index == 4 * (i / 8) + i % 4 && s.lane == 32 * ((i / 4) % 2) + j));
      } else {
        REQUIRE((s.index == i % 4 && s.lane == 16 * (i / 4) + j));
      }
    }
  }
}

TEMPLATE_TEST_CASE("each MFMA instruction computes A * B + C like a scalar product", "[emulator][mfma]",
                   amd::Mfma32x32x8F16, amd::Mfma32x32x8Bf16, amd::Mfma16x16x16F16, amd::Mfma16x16x16Bf16,
                   amd::Mfma32x32x16F16, amd::Mfma32x32x16Bf16, amd::Mfma16x16x32F16, amd::Mfma16x16x32Bf16) {
  emu::ScopedOptions scope(emu_test::options_for<TestType>());
  for (int trial = 0; trial < 4; ++trial) {
    const std::uint64_t seed = tessera::test::fresh_seed();
    emu::clear_reports();
    const emu_test::OnceCheck r = emu_test::check_mfma_once<TestType>(seed);
    INFO("seed " << seed << ": worst " << r.worst << " (" << r.worst_ratio << " of the rounding bound)");
    INFO(emu::describe_all());
    REQUIRE(r.status == Status::kSuccess);
    CHECK(emu::reports().empty());
    CHECK(r.worst_ratio <= 1.0);
  }
}

TEMPLATE_TEST_CASE("an MFMA GEMM with direct-to-LDS loads and ticketed waits matches float64",
                   "[emulator][mfma]", amd::Mfma32x32x8F16, amd::Mfma32x32x8Bf16, amd::Mfma16x16x16F16,
                   amd::Mfma16x16x16Bf16, amd::Mfma32x32x16F16, amd::Mfma32x32x16Bf16,
                   amd::Mfma16x16x32F16, amd::Mfma16x16x32Bf16) {
  emu::ScopedOptions scope(emu_test::options_for<TestType>());
  const std::uint64_t seed = tessera::test::fresh_seed();
  emu::clear_reports();
  const emu_test::TileCheck r = emu_test::check_tile_gemm<TestType>(seed);
  INFO("seed " << seed << "\nwave 0: " << r.wave[0].describe() << "\nwave 1: " << r.wave[1].describe());
  INFO(emu::describe_all());
  REQUIRE(r.status == Status::kSuccess);
  CHECK(emu::reports().empty());
  CHECK(r.passed());
}

TEMPLATE_TEST_CASE("the MFMA denormal choice flushes subnormal inputs and outputs, or keeps them",
                   "[emulator][mfma]", amd::Mfma32x32x8F16, amd::Mfma16x16x32Bf16) {
  constexpr int M = TestType::kM, K = TestType::kK;
  constexpr bool kBf16 = TestType::kType == amd::MfmaType::kBf16;
  const std::uint16_t one = kBf16 ? 0x3f80 : 0x3c00;
  struct Case {
    const char* what;
    std::uint16_t a;  // every element of A; B is all `b`
    std::uint16_t b;
    float c00;        // C[0][0]; the rest of C is 0
    float d;          // every D but D[0][0], kept
  };
  // Subnormal inputs: A the format's smallest subnormal (2^-24 f16, 2^-133 bf16), C[0][0] an
  // fp32 subnormal. Subnormal outputs (bf16 only: f16 products are normal fp32 numbers):
  // A = B = 2^-70, whose K products sum to 2^-135.
  std::vector<Case> cases{{"subnormal inputs", 0x0001, one, 0x1p-140f, float(K) * (kBf16 ? 0x1p-133f : 0x1p-24f)}};
  if (kBf16) cases.push_back({"subnormal outputs", 0x1c80, 0x1c80, 0.0f, float(K) * 0x1p-140f});
  for (const Case& t : cases) {
    std::vector<std::uint16_t> a(std::size_t(M * K), t.a), b(std::size_t(K * M), t.b);
    std::vector<float> c(std::size_t(M * M), 0.0f), d(std::size_t(M * M), -1.0f);
    c[0] = t.c00;
    for (emu::Denormals choice : {emu::Denormals::kKeep, emu::Denormals::kFlush}) {
      emu::Options o = emu_test::options_for<TestType>();
      o.hardware.mfma_denormals = choice;
      emu::ScopedOptions scope(o);
      emu::clear_reports();
      REQUIRE(emu_test::run_mfma_once<TestType>(a.data(), b.data(), c.data(), d.data()) == Status::kSuccess);
      CHECK(emu::reports().empty());
      const bool flush = choice == emu::Denormals::kFlush;
      INFO(t.what << ", choice " << int(choice) << ": D[0][0] " << d[0] << " D[0][1] " << d[1]);
      CHECK(d[1] == (flush ? 0.0f : t.d));  // sums of exact products: exact
      CHECK(d[0] == (flush ? 0.0f : t.d + t.c00));
    }
  }
}
