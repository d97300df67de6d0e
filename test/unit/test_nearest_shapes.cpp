// Host tests of Auto's timed selector (select/nearest_shapes.hpp): it ranks only entries that
// run the problem and were timed near it, each once; the default comes first where it is
// within the margin of the winner; a problem at a calibrated shape takes that shape's fastest entry where its neighbours
// agree; explain_nearest says where the choice came from. scripts/test_selector_table.py checks
// that the C++ and the Python selection (scripts/fit_selector_table.py) agree shape by shape.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "tessera/gemm/select/nearest_shapes.hpp"

using namespace tessera::gemm;
using select::NearestShapes;
using select::NearestVote;
using Table = NearestShapes::Table;

namespace {
AutoProblem problem(std::int64_t M, std::int64_t N, std::int64_t K, bool tma = true) {
  AutoProblem p;
  p.M = M;
  p.N = N;
  p.K = K;
  p.tma_a = p.tma_b = tma;
  p.workspace = true;
  return p;
}
}  // namespace

TEST_CASE("nearest shapes: ranks only entries that run the problem, each once, the default within its margin first",
          "[gemm][auto][nearest]") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> log_extent(0.0, 15.0);
  for (int i = 0; i < 3000; ++i) {
    AutoProblem p = problem(std::int64_t(std::exp2(log_extent(rng))), std::int64_t(std::exp2(log_extent(rng))),
                            std::int64_t(std::exp2(log_extent(rng))), rng() % 4 != 0);
    p.k_major_a = rng() % 3 != 0;
    p.k_major_b = rng() % 2 == 0;
    p.reads_c = rng() % 2 == 0;
    p.workspace = rng() % 3 != 0;
    INFO("M=" << p.M << " N=" << p.N << " K=" << p.K << " tma " << p.tma_a);
    NearestVote ranked[Table::kEntries];
    const int n = NearestShapes::rank(p, ranked);
    REQUIRE(n >= 1);  // kLarge runs everything and was timed on every calibrated shape
    bool seen[Table::kEntries] = {};
    int large_at = -1;
    for (int j = 0; j < n; ++j) {
      REQUIRE(AutoRule::runs(ranked[j].entry, p));
      if (!p.workspace) REQUIRE((ranked[j].entry != AutoEntry::kStreamK && ranked[j].entry != AutoEntry::kStreamK128));
      REQUIRE(!seen[int(ranked[j].entry)]);
      seen[int(ranked[j].entry)] = true;
      REQUIRE(ranked[j].mean_log_ratio >= 0.0f);
      if (ranked[j].entry == AutoEntry::kLarge) large_at = j;
      if (j > 1) REQUIRE(ranked[j].mean_log_ratio >= ranked[j - 1].mean_log_ratio);
    }
    REQUIRE(large_at >= 0);
    // Every ranked entry was timed on at least half of the neighbours' weight (an entry the
    // table has no timings for, e.g. one added before its calibration sweep, is never ranked).
    NearestShapes::Neighbour near[Table::kNeighbours];
    const int k = NearestShapes::nearest(p, near);
    float total = 0.0f, timed[Table::kEntries] = {};
    for (int j = 0; j < k; ++j) {
      const float w = 1.0f / (near[j].distance + Table::kDistanceFloor);
      total += w;
      for (int e = 0; e < Table::kEntries; ++e) {
        if (Table::kData[near[j].row].cost[e] != Table::kNotMeasured) timed[e] += w;
      }
    }
    for (int j = 0; j < n; ++j) REQUIRE(timed[int(ranked[j].entry)] >= 0.5f * total);
    // The default leads exactly where it is within the margin of the best other entry.
    float best_other = 1e30f;
    for (int j = 0; j < n; ++j) {
      if (ranked[j].entry != AutoEntry::kLarge && ranked[j].mean_log_ratio < best_other) {
        best_other = ranked[j].mean_log_ratio;
      }
    }
    const float large = ranked[large_at].mean_log_ratio;
    if (n > 1) REQUIRE((large_at == 0) == (large - best_other < Table::kDefaultMargin));
    const AutoChoice c = NearestShapes::choose(p);
    REQUIRE(c.entry == ranked[0].entry);
    REQUIRE(c.reason == AutoReason::kTimed);
  }
}

TEST_CASE("nearest shapes: without TMA or a K-major A, only the entries that need neither", "[gemm][auto][nearest]") {
  AutoProblem p = problem(16, 4096, 4096, false);
  p.workspace = false;  // (with one, the TMA-only entries copy what TMA cannot describe)
  NearestVote ranked[Table::kEntries];
  const int n = NearestShapes::rank(p, ranked);
  for (int j = 0; j < n; ++j) {
    REQUIRE(AutoRule::runs(ranked[j].entry, p));
    REQUIRE(ranked[j].entry != AutoEntry::kSmallM16);
    REQUIRE(ranked[j].entry != AutoEntry::kSplit64);
  }
  p = problem(16, 4096, 4096);
  p.k_major_a = false;
  const int m = NearestShapes::rank(p, ranked);
  for (int j = 0; j < m; ++j) {
    REQUIRE(ranked[j].entry != AutoEntry::kSmallM16);
    REQUIRE(ranked[j].entry != AutoEntry::kSmallM32);
  }
}

TEST_CASE("nearest shapes: a calibrated shape whose neighbours agree takes its fastest entry", "[gemm][auto][nearest]") {
  int agreeing = 0;
  for (int r = 0; r < Table::kShapes; ++r) {
    const select::TimedShape& s = Table::kData[r];
    AutoProblem p = problem(std::llround(std::exp2(s.log2_m)), std::llround(std::exp2(s.log2_n)),
                            std::llround(std::exp2(s.log2_k)));
    p.reads_c = s.reads_c;
    p.k_major_b = s.k_major_b;
    NearestShapes::Neighbour near[Table::kNeighbours];
    REQUIRE(NearestShapes::nearest(p, near) == Table::kNeighbours);
    REQUIRE(near[0].distance < 1e-3f);  // the shape itself
    for (int j = 1; j < Table::kNeighbours; ++j) REQUIRE(near[j].distance >= near[j - 1].distance);
    // Where every neighbour's fastest entry is the same one, that entry (or the default within
    // its margin) is chosen.
    int fastest = -1;
    bool agree = true;
    for (int j = 0; j < Table::kNeighbours && agree; ++j) {
      const select::TimedShape& q = Table::kData[near[j].row];
      int f = -1;
      for (int e = 0; e < Table::kEntries; ++e) {
        if (q.cost[e] == 0.0f) f = e;
      }
      agree = f >= 0 && (fastest < 0 || f == fastest);
      fastest = f;
    }
    if (!agree) continue;
    ++agreeing;
    const AutoChoice c = NearestShapes::choose(p);
    INFO("row " << r << ": fastest " << auto_entry_name(AutoEntry(fastest)) << ", chosen " << auto_entry_name(c.entry));
    REQUIRE((int(c.entry) == fastest || c.entry == AutoEntry::kLarge));
  }
  REQUIRE(agreeing > 0);
}

TEST_CASE("nearest shapes: explain says where the choice came from", "[gemm][auto][nearest]") {
  const AutoProblem p = problem(4096, 4096, 4096);
  const AutoChoice c = NearestShapes::choose(p);
  const std::string text = select::explain_nearest(p, c.entry);
  INFO(text);
  CHECK(text.find("calibrated shapes nearest") != std::string::npos);
  CHECK(text.find(Table::kSource) != std::string::npos);
}
