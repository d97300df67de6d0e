// Host tests of the Auto cost model (select/cost_model.hpp): it ranks only entries that run the
// problem, its predictions move the right way with the problem's size, and explain_costs says
// which term decided without timing.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>

#include "tessera/gemm/select/cost_model.hpp"

using namespace tessera::gemm;
using select::CostModel;
using select::EntryCost;
using select::kAutoEntryCount;

namespace {
AutoProblem problem(std::int64_t M, std::int64_t N, std::int64_t K, bool tma = true, bool workspace = true) {
  AutoProblem p;
  p.M = M;
  p.N = N;
  p.K = K;
  p.tma_a = p.tma_b = tma;
  p.workspace = workspace;
  return p;
}
}  // namespace

TEST_CASE("cost model: ranks only the entries that run the problem, each once, fastest first", "[gemm][auto][cost]") {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> extent(1, 20000);
  for (int i = 0; i < 2000; ++i) {
    AutoProblem p = problem(extent(rng), extent(rng), extent(rng), rng() % 4 != 0, rng() % 2 == 0);
    p.k_major_a = rng() % 3 != 0;
    p.reads_c = rng() % 2 == 0;
    p.sms = rng() % 2 ? 132 : 114;
    EntryCost ranked[kAutoEntryCount] = {};
    const int n = CostModel::rank(p, ranked);
    INFO("M=" << p.M << " N=" << p.N << " K=" << p.K << " tma " << p.tma_a << " k-major A " << p.k_major_a);
    int runnable = 0;
    for (int e = 0; e < kAutoEntryCount; ++e) runnable += AutoRule::runs(AutoEntry(e), p) ? 1 : 0;
    REQUIRE(n == runnable);
    bool seen[kAutoEntryCount] = {};
    for (int j = 0; j < n; ++j) {
      REQUIRE(AutoRule::runs(ranked[j].entry, p));
      REQUIRE(!seen[int(ranked[j].entry)]);
      seen[int(ranked[j].entry)] = true;
      REQUIRE(ranked[j].total_s > 0);
      if (j > 0) REQUIRE(!CostModel::better(ranked[j], ranked[j - 1]));
    }
    const AutoChoice c = CostModel::choose(p);
    REQUIRE(c.entry == ranked[0].entry);
    REQUIRE(c.reason == AutoReason::kCostModel);
  }
}

TEST_CASE("cost model: without TMA or a K-major A, only the entries that need neither", "[gemm][auto][cost]") {
  // (With a workspace the TMA-only entries copy what TMA cannot describe: asked without one.)
  AutoProblem p = problem(16, 4096, 4096, false, false);
  EntryCost ranked[kAutoEntryCount] = {};
  const int n = CostModel::rank(p, ranked);
  for (int j = 0; j < n; ++j) {
    CHECK(ranked[j].entry != AutoEntry::kSmallM16);
    CHECK(ranked[j].entry != AutoEntry::kSplit64);
  }
  p = problem(16, 4096, 4096);
  p.k_major_a = false;
  CHECK(CostModel::choose(p).entry != AutoEntry::kSmallM16);
  CHECK(CostModel::choose(p).entry != AutoEntry::kSmallM32);
}

TEST_CASE("cost model: an entry's prediction never falls as M, N or K grow (persistent entries)",
          "[gemm][auto][cost]") {
  for (const AutoEntry e : {AutoEntry::kTile128, AutoEntry::kLarge, AutoEntry::kLarge2x1}) {
    for (std::int64_t base : {1, 100, 1000, 4096}) {
      double last_m = 0, last_n = 0, last_k = 0;
      for (std::int64_t x = base; x < base + 20000; x += 777) {
        const double tm = CostModel::cost(e, problem(x, 4096, 4096, true, false)).total_s;
        const double tn = CostModel::cost(e, problem(4096, x, 4096, true, false)).total_s;
        const double tk = CostModel::cost(e, problem(4096, 4096, x, true, false)).total_s;
        INFO(auto_entry_name(e) << " x=" << x);
        REQUIRE(tm >= last_m);
        REQUIRE(tn >= last_n);
        REQUIRE(tk >= last_k);
        last_m = tm, last_n = tn, last_k = tk;
      }
    }
  }
}

TEST_CASE("cost model: the terms behave as their definitions say", "[gemm][auto][cost]") {
  // A partial last wave costs a whole one: one tile more than the SMs doubles the waves.
  const AutoProblem full = problem(128 * 132, 256, 4096), over = problem(128 * 133, 256, 4096);
  CHECK(CostModel::cost(AutoEntry::kLarge, full).waves == 1);
  CHECK(CostModel::cost(AutoEntry::kLarge, over).waves == 2);
  CHECK(CostModel::cost(AutoEntry::kLarge, over).compute_s > 1.9 * CostModel::cost(AutoEntry::kLarge, full).compute_s);
  // Decode: the small-M entries are memory-bound (the weights' bytes), a narrower tile pads
  // less; the unsplit 128 x 256 tiles leave most SMs idle and are compute-bound.
  const AutoProblem decode = problem(1, 8192, 8192);
  for (const AutoEntry e : {AutoEntry::kSmallM16, AutoEntry::kSmallM32, AutoEntry::kSmallM64}) {
    CHECK(CostModel::cost(e, decode).bound == select::CostBound::kMemory);
  }
  CHECK(CostModel::cost(AutoEntry::kSmallM16, decode).compute_s < CostModel::cost(AutoEntry::kSmallM64, decode).compute_s);
  CHECK(CostModel::cost(AutoEntry::kLarge, decode).bound == select::CostBound::kCompute);
  CHECK(CostModel::cost(CostModel::choose(decode).entry, decode).bound == select::CostBound::kMemory);
  // C read by the epilogue adds its bytes.
  AutoProblem beta1 = decode;
  beta1.reads_c = true;
  CHECK(CostModel::cost(AutoEntry::kLarge, beta1).bytes > CostModel::cost(AutoEntry::kLarge, decode).bytes);
  // A stream-K entry splits only through a workspace.
  const AutoProblem deep = problem(512, 512, 65536, true, false);
  CHECK(CostModel::cost(AutoEntry::kStreamK, deep).splits == 1);
  CHECK(CostModel::cost(AutoEntry::kStreamK, problem(512, 512, 65536)).splits > 1);
  CHECK(CostModel::cost(AutoEntry::kStreamK, problem(512, 512, 65536)).fixup_s > 0);
  // A big square fills the waves with the largest tile: the model takes a 128 x 256 one.
  const AutoEntry square = CostModel::choose(problem(8192, 8192, 8192)).entry;
  CHECK((square == AutoEntry::kLarge || square == AutoEntry::kLarge2x1 || square == AutoEntry::kStreamK));
}

TEST_CASE("cost model: explain_costs names the entries and the deciding term, no timing", "[gemm][auto][cost]") {
  const AutoProblem p = problem(2048, 2304, 4096);
  const AutoChoice c = CostModel::choose(p);
  const std::string s = select::explain_costs(p, c.entry);
  INFO(s);
  CHECK(s.find("predicts it fastest") != std::string::npos);
  CHECK(s.find("decided by") != std::string::npos);
  CHECK(s.find("wave") != std::string::npos);
  for (const char* unit : {" us", " ms", "TFLOP", "GB/s", "%"}) CHECK(s.find(unit) == std::string::npos);
  CHECK(select::explain_costs(problem(16, 4096, 4096, false, false), AutoEntry::kSmallM16).find("does not rank") !=
        std::string::npos);
}
