// The MFMA GEMM with scheduler::StreamK<> on the wave emulator (emulated, not run on AMD
// hardware): a persistent grid whose workgroups run units of a tile and a range of its K tiles,
// partial tiles written to the workspace and reduced by the tile's last peer (the emulator
// runs workgroups one after another: gemm/scheduler/stream_k.hpp, Reducers). Data-parallel, split-K and
// stream-K requested in turn (Arguments::split), and the rule's choice, on edge tiles, K tails, M = 1, K much deeper
// than M and N, beta, C == D and unaligned operands, against the float64 reference with
// poisoned outputs and a poisoned workspace, with no emulator report of any kind.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "emulated_gemm_case.hpp"
#include "stream_k_configs.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"

using namespace emu_test;
using tessera::gemm::Decomposition;
using tessera::gemm::SplitRequest;
using StreamK = tessera::gemm::scheduler::StreamK<>;
using tessera::test::CaseShape;

namespace {

using Configs = EMU_TEST_TUPLE(EMU_TEST_STREAM_K_CONFIGS);

// Cases relative to the block tile: edge tiles and a K tail, M = 1, C == D with a padded ld,
// whole tiles with K 16 tiles deep, and an unaligned one (the element-gather kernel).
template <class Config>
std::vector<CaseShape> stream_k_shapes() {
  const std::int64_t bm = Config::kBlockM, bn = Config::kBlockN, bk = Config::kBlockK;
  std::vector<CaseShape> s{
      {bm + 2, bn + 5, 20 * bk + 9, 0, 1.0f, 0.5f},
      {1, bn, 12 * bk},
      {bm - 3, 2 * bn + 1, 9 * bk + 5, 8, -1.5f, 1.0f},
      {bm, bn, 16 * bk},
      {33, 47, 700, 1, 1.0f, -1.0f},
  };
  for (std::size_t i = 0; i + 1 < s.size(); ++i) s[i].ld_multiple = 8;
  s[2].in_place = true;
  for (CaseShape& c : s) c.workspace = true;
  return s;
}

// The plan the launch makes for `s` on `cus` compute units (what the launcher computes).
template <class Config>
Decomposition planned(const CaseShape& s, int cus) {
  const tessera::gemm::TileGrid g{s.M, s.N, s.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
  std::int64_t workers = StreamK::units(g);
  if (workers > cus * Config::kBlocksPerCu) workers = cus * Config::kBlocksPerCu;
  return StreamK::make(g, int(workers), s.split).plan.mode;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("MFMA GEMM with StreamK (emulated): every decomposition", "[stream_k]", Configs) {
  emu::Options options;
  options.compute_units = 16;  // 16 or 32 workgroups: every forced split below fits
  for (const CaseShape& s : stream_k_shapes<TestType>()) {
    {
      INFO("the rule's plan");
      check_emulated_gemm<TestType>(s, options);
    }
    {
      INFO("data-parallel");
      CaseShape dp = s;
      dp.split = {Decomposition::kDataParallel};
      REQUIRE(planned<TestType>(dp, options.compute_units) == Decomposition::kDataParallel);
      check_emulated_gemm<TestType>(dp, options);
    }
    for (int splits : {2, 3, 5}) {
      INFO("split-K, " << splits << " slices");
      CaseShape split = s;
      split.split = {Decomposition::kSplitK, splits};
      split.must_split = true;
      REQUIRE(planned<TestType>(split, options.compute_units) == Decomposition::kSplitK);
      check_emulated_gemm<TestType>(split, options);
    }
    {
      INFO("stream-K");
      CaseShape sk = s;
      sk.split = {Decomposition::kStreamK};
      sk.must_split = true;
      REQUIRE(planned<TestType>(sk, options.compute_units) == Decomposition::kStreamK);
      check_emulated_gemm<TestType>(sk, options);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("MFMA GEMM with StreamK (emulated): the rule on the chip's own CU count", "[stream_k]",
                        Configs) {
  const std::int64_t bm = TestType::kBlockM, bn = TestType::kBlockN, bk = TestType::kBlockK;
  CaseShape s{2 * bm + 1, bn + 7, 40 * bk + 3, 0, 1.0f, 0.5f};
  s.ld_multiple = 8;
  s.workspace = true;
  s.must_split = true;
  check_emulated_gemm<TestType>(s);
  // Without a workspace: data-parallel, the same result.
  s.workspace = false;
  s.must_split = false;
  check_emulated_gemm<TestType>(s);
}
