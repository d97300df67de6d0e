// The FMA GEMM's AMD configurations (gfx942, gfx950), run by the wave emulator through the
// public host API on the GPU suite's odd shapes, with and without a split-K workspace,
// against the float64 reference. These are EMULATED results: the AMD code path of the
// kernel (buffer loads with their range check, LDS of exactly the planned size,
// s_barrier, 64-lane waves) executed on the host, not a run on an AMD GPU.
#include "emulated_gemm_case.hpp"
#include "fma_configs.hpp"

namespace emu_test {
namespace {

// The GPU suite's sweep (test/gpu/test_fma_gemm.cu), shapes that stay cheap to emulate:
// every edge case of the 128x128x8 tile (partial tiles in M, N and K, K below one tile,
// ld padding, alpha/beta) and one shape whose K is deep enough to split.
const CaseShape kSweep[] = {
    {1, 1, 1},
    {7, 7, 7, 0, 1.0f, 0.0f},
    {33, 17, 9, 3, 0.5f, 2.0f},
    {127, 129, 33, 1, 1.0f, -1.0f},
    {129, 127, 65, 0, -1.5f, 0.25f},
    {257, 130, 17, 4, 2.0f, 0.0f},
    {300, 260, 48, 0, 1.0f, 0.0f},  // every dimension a multiple of 4: the vector paths
    {16, 300, 600, 0, 1.0f, 1.0f, false, false, false, true},  // few tiles, deep K: must split
};

template <class Config>
void sweep() {
  for (CaseShape s : kSweep) {
    check_emulated_gemm<Config>(s);
    s.workspace = true;
    check_emulated_gemm<Config>(s);
  }
}

using F32Configs = EMU_TEST_TUPLE(EMU_TEST_FMA_F32_CONFIGS);
using Bit16Configs = EMU_TEST_TUPLE(EMU_TEST_FMA_16BIT_CONFIGS);

}  // namespace
}  // namespace emu_test

using emu_test::Bit16Configs;
using emu_test::CaseShape;
using emu_test::F32Configs;

TEMPLATE_LIST_TEST_CASE("emulated: fp32 FMA GEMM matches float64 for every layout combination",
                        "[emulator][fma][fp32]", F32Configs) {
  emu_test::sweep<TestType>();
}

TEMPLATE_LIST_TEST_CASE("emulated: f16/bf16 FMA GEMM matches float64", "[emulator][fma][f16][bf16]",
                        Bit16Configs) {
  emu_test::sweep<TestType>();
}

TEST_CASE("emulated: in place, unaligned operands, K = 0 and alpha = 0", "[emulator][fma]") {
  using RowF32 = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::RowMajor,
                                     tessera::RowMajor>;
  using ColF16 = emu_test::Gfx942Fma<tessera::half_t, tessera::half_t, tessera::half_t, tessera::ColumnMajor,
                                     tessera::ColumnMajor, tessera::ColumnMajor>;
  for (CaseShape s : {CaseShape{129, 131, 67, 0, 1.0f, 1.0f}, CaseShape{64, 256, 16, 3, -2.0f, 0.5f}}) {
    s.in_place = true;
    emu_test::check_emulated_gemm<RowF32>(s);
    emu_test::check_emulated_gemm<ColF16>(s);
  }
  for (CaseShape s : {CaseShape{128, 256, 64, 0, 1.0f, 0.5f}, CaseShape{37, 41, 43, 1, 1.0f, 0.0f}}) {
    s.offset_pointers = true;  // the epilogue's scalar path
    emu_test::check_emulated_gemm<RowF32>(s);
    emu_test::check_emulated_gemm<ColF16>(s);
  }
  emu_test::check_emulated_gemm<RowF32>({33, 65, 0, 0, 1.0f, 0.5f});
  emu_test::check_emulated_gemm<ColF16>({70, 20, 0, 2, 3.0f, -1.0f});
  emu_test::check_emulated_gemm<RowF32>({100, 100, 50, 0, 0.0f, 1.0f});
}

TEST_CASE("emulated: split-K where M and N are not multiples of 4, one and several tiles",
          "[emulator][fma][splitk]") {
  // Each K slice of a tile writes its partial tile (BlockM x BlockN floats) to its own slot
  // and the second kernel sums them; edge tiles here are partly outside M x N. The workspace is
  // guarded on both sides (emulated_gemm_case.hpp).
  using RowF32 = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::RowMajor,
                                     tessera::RowMajor>;
  using ColF32 = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::ColumnMajor,
                                     tessera::ColumnMajor>;
  using ColF16 = emu_test::Gfx942Fma<tessera::half_t, tessera::half_t, tessera::half_t, tessera::ColumnMajor,
                                     tessera::ColumnMajor, tessera::ColumnMajor>;
  using RowBf16 = emu_test::Gfx950Fma<tessera::half_t, tessera::half_t, tessera::bfloat16_t,
                                      tessera::ColumnMajor, tessera::RowMajor, tessera::RowMajor>;
  for (CaseShape s : {CaseShape{33, 17, 3001, 0, 1.0f, 0.5f}, CaseShape{130, 67, 601, 1, -1.0f, 0.25f}}) {
    s.workspace = s.must_split = true;
    emu_test::check_emulated_gemm<RowF32>(s);
    emu_test::check_emulated_gemm<ColF32>(s);
    emu_test::check_emulated_gemm<ColF16>(s);
    emu_test::check_emulated_gemm<RowBf16>(s);
  }
}

TEST_CASE("emulated: split-K slices a call asks for (Arguments::split), and none when it asks for none",
          "[emulator][fma][splitk]") {
  using RowF32 = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::RowMajor,
                                     tessera::RowMajor>;
  using ColF16 = emu_test::Gfx942Fma<tessera::half_t, tessera::half_t, tessera::half_t, tessera::ColumnMajor,
                                     tessera::ColumnMajor, tessera::ColumnMajor>;
  using tessera::gemm::Decomposition;
  for (int splits : {2, 3, 7}) {
    INFO(splits << " slices");
    CaseShape s{70, 45, 900, 0, 1.0f, 0.5f};
    s.workspace = s.must_split = true;
    s.split = {Decomposition::kSplitK, splits};
    emu_test::check_emulated_gemm<RowF32>(s);
    emu_test::check_emulated_gemm<ColF16>(s);
  }
  // Data-parallel asked for: no workspace needed, the same result.
  CaseShape dp{16, 300, 600, 0, 1.0f, 1.0f};
  dp.workspace = true;
  dp.split = {Decomposition::kDataParallel};
  const std::uint64_t seed = tessera::test::fresh_seed();
  const emu_test::EmulatedResult r = emu_test::run_emulated_gemm<RowF32>(dp, seed);
  CHECK(r.workspace_bytes == 0);
  CHECK(r.status == tessera::Status::kSuccess);
  CHECK_CASE_OUTCOME(dp, r);
}

TEST_CASE("emulated: a configuration for one AMD target is refused on the other", "[emulator][fma]") {
  using Config = emu_test::Gfx942Fma<float, float, float, tessera::RowMajor, tessera::RowMajor,
                                     tessera::RowMajor>;
  std::vector<float> a(16, 1.0f), b(16, 1.0f), d(16, 0.0f);
  tessera::gemm::Arguments<float, float, float> args{4, 4, 4, a.data(), 4, b.data(), 4,
                                                     nullptr, 4, d.data(), 4, 1.0f, 0.0f};
  tessera::amd::emulation::Options o;
  o.target = tessera::amd::emulation::Target::kGfx950;
  tessera::amd::emulation::ScopedOptions scope(o);
  CHECK(emu_test::EmulatedGemm<Config>::run(args, nullptr) == tessera::Status::kErrorWrongArchitecture);
}

// The per-element check's mutation (ctest emulator.mutation.edge_row): a correct run, then the
// last row of a bf16 D moved by 2^-6 of each value (2 to 4 units in the last place: an edge
// row rounded or scaled wrongly), the kind of error a whole-matrix norm averages away: one row
// of 257 adds 2^-6 / sqrt(257) = 1e-3 to the relative Frobenius error, below its tolerance (4e-3
// at bf16), while each element of the row is off by 2^-6 |d|, beyond its own bound (about
// 2^-8 |d|). The unchanged run is the control: both checks pass.
TEST_CASE("mutation: one edge row of D off by 2^-6 passes the norm, the element check refuses it",
          "[mutation][edge_row]") {
  using Config = emu_test::Gfx942Fma<tessera::bfloat16_t, tessera::bfloat16_t, tessera::bfloat16_t,
                                     tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>;
  using LC = Config::LayoutC;
  const CaseShape s{257, 130, 64};  // the last row alone in its tile row
  const std::uint64_t seed = tessera::test::fresh_seed();
  INFO("EMULATED " << tessera::test::describe_case<Config>(s, seed));

  const emu_test::EmulatedResult control = emu_test::run_emulated_gemm<Config>(s, seed);
  INFO("control: " << control.compare.describe());
  REQUIRE(control.status == tessera::Status::kSuccess);
  CHECK(control.compare.rel_fro <= control.tolerance);
  CHECK(control.compare.element_checked);
  CHECK(control.compare.elements_passed());

  const emu_test::AfterRun<tessera::bfloat16_t> edge_row_off = [&](std::vector<tessera::bfloat16_t>& out,
                                                                   std::int64_t off, std::int64_t ldd) {
    for (std::int64_t n = 0; n < s.N; ++n) {
      tessera::bfloat16_t& d = out[std::size_t(off + LC::offset(s.M - 1, n, ldd))];
      d = tessera::bfloat16_t(float(d) * (1.0f + 0x1p-6f));
    }
  };
  const emu_test::EmulatedResult mutant = emu_test::run_emulated_gemm<Config>(s, seed, {}, {}, edge_row_off);
  INFO("mutant: " << mutant.compare.describe());
  REQUIRE(mutant.status == tessera::Status::kSuccess);
  // What CHECK_CASE_OUTCOME checked before the element check: all of it passes.
  CHECK(mutant.compare.unwritten == 0);
  CHECK(mutant.compare.nan == 0);
  CHECK(mutant.compare.rel_fro <= mutant.tolerance);
  CHECK(mutant.padding_writes == 0);
  CHECK(mutant.outside_intact);
  // The element check refuses it, and names an element of the changed row.
  CHECK(mutant.compare.beyond_bound > 0);
  CHECK(mutant.compare.ratio_row == s.M - 1);
}
