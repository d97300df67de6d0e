// Mutation checks: each build of this file (one EMU_TEST_MUTANT_* define, see
// test/emulator/CMakeLists.txt) runs a deliberately broken variant and passes only when
// the emulator catches the break: a reported race, a wrong result, an out-of-bounds
// report. The unbroken variants are the ordinary emulator tests (test_mfma,
// test_emulated_fma_gemm), which require the opposite. What was caught is printed.
#include <catch2/catch.hpp>

#include <cstdio>

#include "tessera/emulator/emulator.hpp"

namespace emu = tessera::amd::emulation;
using emu::ReportKind;

namespace {
[[maybe_unused]] void show(const char* what) {
  std::printf("MUTATION CAUGHT: %s\n%s\n", what, emu::describe_all().c_str());
}
}  // namespace

#if defined(EMU_TEST_MUTANT_FMA_BARRIER) || defined(EMU_TEST_MUTANT_FMA_K_EDGE) || \
    defined(EMU_TEST_MUTANT_FMA_SPLIT_K_OFFSET)
#include "emulated_gemm_case.hpp"
#include "fma_configs.hpp"
#endif

#if defined(EMU_TEST_MUTANT_FMA_SPLIT_K_OFFSET)
// A split-K slice's partial tile written one tile line (BlockN floats) past its slot: its first
// line is never written (the second kernel reads poison: a wrong result) and the last slot's
// runs past the workspace (its guard is written).
template <class Config>
bool split_k_caught(const char* what) {
  emu_test::CaseShape s{33, 17, 3001, 0, 1.0f, 0.5f};
  s.workspace = s.must_split = true;
  const emu_test::EmulatedResult r = emu_test::run_emulated_gemm<Config>(s, tessera::test::fresh_seed());
  const bool wrong = r.status != tessera::Status::kSuccess || !r.compare.passed(r.tolerance);
  std::printf("%s: %s, %zu workspace bytes, %s; %zu guard floats written%s\n", what, tessera::status_name(r.status),
              r.workspace_bytes, r.compare.describe().c_str(), r.workspace_guard_writes,
              wrong || r.workspace_guard_writes > 0 ? ": CAUGHT" : ": NOT CAUGHT");
  return wrong || r.workspace_guard_writes > 0;
}

TEST_CASE("mutation: a split-K partial written off its slot is a wrong result or a guard write",
          "[emulator][mutation]") {
  using Row = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::RowMajor, tessera::RowMajor>;
  using Col = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::ColumnMajor,
                                  tessera::ColumnMajor>;
  std::printf("MUTATION: split-K partial tile written one tile line off its slot\n");
  CHECK(split_k_caught<Row>("row-major D"));
  CHECK(split_k_caught<Col>("column-major D"));
}
#elif defined(EMU_TEST_MUTANT_FMA_K_EDGE)
TEST_CASE("mutation: the FMA loader dropping the last K element gives a wrong emulated result",
          "[emulator][mutation]") {
  using Config = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::RowMajor,
                                     tessera::RowMajor>;
  const emu_test::EmulatedResult r =
      emu_test::run_emulated_gemm<Config>({127, 129, 33, 1, 1.0f, 0.0f}, tessera::test::fresh_seed());
  REQUIRE(r.status == tessera::Status::kSuccess);
  REQUIRE(!r.compare.passed(r.tolerance));
  std::printf("MUTATION CAUGHT: operand loader drops the last K element: %s (tolerance %.3g)\n",
              r.compare.describe().c_str(), r.tolerance);
}
#elif defined(EMU_TEST_MUTANT_FMA_BARRIER)

TEST_CASE("mutation: the FMA kernel without its main-loop barrier is a reported LDS race",
          "[emulator][mutation]") {
  using Config = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::RowMajor,
                                     tessera::RowMajor>;
  const std::int64_t M = 127, N = 129, K = 33;
  std::vector<float> a(std::size_t(M * K)), b(std::size_t(K * N)), d(std::size_t(M * N));
  tessera::test::fill_random(a, tessera::test::fresh_seed());
  tessera::test::fill_random(b, tessera::test::fresh_seed());
  tessera::test::poison(d);
  emu::Options o;
  o.target = emu::Target::kGfx942;
  emu::ScopedOptions scope(o);
  emu::clear_reports();
  const tessera::gemm::Arguments<float, float, float> args{M, N, K, a.data(), K, b.data(), N,
                                                           nullptr, N, d.data(), N, 1.0f, 0.0f};
  REQUIRE(emu_test::EmulatedGemm<Config>::run(args, nullptr) == tessera::Status::kSuccess);
  REQUIRE(emu::report_count(ReportKind::kLdsRace) > 0);
  show("block_barrier() removed from the FMA main loop");
}
#else
#include "mfma_checks.hpp"

namespace amd = tessera::amd;

template <class Shape>
void require_tile_gemm_wrong(const char* what) {
  emu::ScopedOptions scope(emu_test::options_for<Shape>());
  emu::clear_reports();
  const emu_test::TileCheck r = emu_test::check_tile_gemm<Shape>(tessera::test::fresh_seed());
  REQUIRE(r.status == tessera::Status::kSuccess);
  INFO(emu::describe_all());
  REQUIRE(!r.passed());
  std::printf("wave 0: %s\nwave 1: %s\n", r.wave[0].describe().c_str(), r.wave[1].describe().c_str());
  show(what);
}

#if defined(EMU_TEST_MUTANT_WEAK_WAIT)
TEMPLATE_TEST_CASE("mutation: a vmcnt wait one load too weak gives a wrong result", "[emulator][mutation]",
                   amd::Mfma32x32x16F16, amd::Mfma32x32x8Bf16) {
  require_tile_gemm_wrong<TestType>("s_waitcnt vmcnt(N) weakened to vmcnt(N+1) on direct-to-LDS loads");
  CHECK(emu::report_count(ReportKind::kLdsDmaInFlight) > 0);
}
#elif defined(EMU_TEST_MUTANT_LANE_SWAP)
TEMPLATE_TEST_CASE("mutation: two lanes swapped in an MFMA operand map give a wrong result",
                   "[emulator][mutation]", amd::Mfma16x16x16F16, amd::Mfma32x32x16Bf16) {
  emu::ScopedOptions scope(emu_test::options_for<TestType>());
  const emu_test::OnceCheck once = emu_test::check_mfma_once<TestType>(tessera::test::fresh_seed());
  REQUIRE(once.worst_ratio > 1.0);
  std::printf("one instruction: worst %s (%.3g times the rounding bound)\n", once.worst.c_str(),
              once.worst_ratio);
  require_tile_gemm_wrong<TestType>("lanes 0 and 1 swapped in the kernel's A operand map");
}
#elif defined(EMU_TEST_MUTANT_NUM_RECORDS)
TEMPLATE_TEST_CASE("mutation: a descriptor with too large num_records is an out-of-bounds report",
                   "[emulator][mutation]", amd::Mfma32x32x16F16, amd::Mfma16x16x16Bf16) {
  emu::ScopedOptions scope(emu_test::options_for<TestType>());
  emu::clear_reports();
  const emu_test::TileCheck r = emu_test::check_tile_gemm<TestType>(tessera::test::fresh_seed());
  REQUIRE(r.status == tessera::Status::kSuccess);
  REQUIRE(emu::report_count(ReportKind::kBufferOutOfAllocation) > 0);
  show("A's num_records 3 rows past its allocation");
}
#elif defined(EMU_TEST_MUTANT_MODEL)
#include "mfma_lane_map.hpp"

TEMPLATE_TEST_CASE("mutation: the emulator's own MFMA layout with two lanes swapped fails its checks",
                   "[emulator][mutation]", amd::Mfma32x32x8F16, amd::Mfma16x16x32Bf16) {
  constexpr int M = TestType::kM, K = TestType::kK;
  int mismatches = 0;
  for (int lane = 0; lane < 64; ++lane) {
    for (int e = 0; e < TestType::kOperandElements; ++e) {
      const emu_test::MatrixIndex a = emu_test::mfma_a_element<M, K>(lane, e);
      const emu::MfmaSlot s = emu::mfma_a_slot(M, K, a.row, a.col);
      if (s.lane != lane || s.index != e) {
        if (mismatches++ == 0) {
          std::printf("A[%d][%d]: documented lane %d element %d, model lane %d element %d\n", a.row, a.col,
                      lane, e, s.lane, s.index);
        }
      }
    }
  }
  REQUIRE(mismatches > 0);
  emu::ScopedOptions scope(emu_test::options_for<TestType>());
  const emu_test::OnceCheck once = emu_test::check_mfma_once<TestType>(tessera::test::fresh_seed());
  REQUIRE(once.worst_ratio > 1.0);
  std::printf("MUTATION CAUGHT: emulator model with lanes 0 and 1 of A exchanged: %d layout mismatches; "
              "one instruction: worst %s (%.3g times the rounding bound)\n",
              mismatches, once.worst.c_str(), once.worst_ratio);
}
#endif
#endif
