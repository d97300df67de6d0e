// Host tests of issue 17's shape-driven pieces: the cluster split-K scheduler and its split
// rule (scheduler/stream_k.hpp with reduce::ClusterShared, scheduler/split_k.hpp), the selector's rule (select/auto_rule.hpp) on every shape of the LLM
// benchmark suite and on random problems, the transposed problem's epilogue and Status
// renaming (select/transposed.hpp), and the shared-memory plans of the new configurations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "tessera/gemm/select/auto_rule.hpp"
#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/wgmma/cluster_split_smem_plan.hpp"
#include "tessera/gemm/wgmma/smem_plan.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/select/transposed.hpp"
#include "tessera/gemm/wgmma/config.hpp"
#include "llm_benchmark_shapes.hpp"

using namespace tessera;
using namespace tessera::gemm;

TEST_CASE("StreamK<ClusterShared>: every K tile of every tile exactly once, clusters of consecutive CTAs",
          "[gemm][scheduler][split]") {
  using Cluster = scheduler::StreamK<scheduler::reduce::ClusterShared>;
  for (const int splits : {1, 2, 3, 4, 7, 8, 16}) {
    for (const std::int64_t K : {64, 640, 1000, 4096}) {
      const TileGrid g{1000, 300, K, 128, 128, 64};
      const auto s = Cluster::make(g, splits);
      const std::int64_t tiles = ((1000 + 127) / 128) * ((300 + 127) / 128);
      const int cluster = s.cluster_split();
      INFO("splits " << splits << " K " << K << " cluster " << cluster);
      // The cluster is the split asked for, fewer only where K is shallower (no empty slice);
      // its longest slice is what the split asked for gives.
      REQUIRE(cluster <= splits);
      REQUIRE(cluster <= g.k_tiles());
      if (splits <= g.k_tiles()) REQUIRE((g.k_tiles() + cluster - 1) / cluster == (g.k_tiles() + splits - 1) / splits);
      REQUIRE(s.workers == tiles * cluster);
      REQUIRE(s.workspace_bytes() == 0);  // the partials meet in the cluster's shared memory
      std::map<std::pair<int, int>, std::vector<int>> k_seen;
      for (int w = 0; w < s.workers; ++w) {
        REQUIRE(s.units_of(w) == 1);
        const WorkUnit u = s.unit(w, 0, 0, 0);
        INFO("worker " << w);
        // The CTAs of one cluster (consecutive workers, rank w % cluster) share a tile, in slice
        // order: rank r holds the r-th K range.
        const WorkUnit first = s.unit(w - w % cluster, 0, 0, 0);
        REQUIRE((u.m == first.m && u.n == first.n));
        REQUIRE(u.k_tiles() >= 1);  // no empty slice
        REQUIRE(u.k_begin == (w % cluster) * ((g.k_tiles() + cluster - 1) / cluster));
        for (int k = u.k_begin; k < u.k_end; ++k) k_seen[{u.m, u.n}].push_back(k);
      }
      REQUIRE(std::int64_t(k_seen.size()) == tiles);
      for (auto& [tile, ks] : k_seen) {
        REQUIRE(int(ks.size()) == g.k_tiles());
        REQUIRE(std::set<int>(ks.begin(), ks.end()).size() == ks.size());
      }
      REQUIRE(s.units_of(s.workers) == 0);
    }
  }
  // A data-parallel request: one CTA per tile, whole K.
  SplitRequest dp;
  dp.mode = Decomposition::kDataParallel;
  const auto s = Cluster::make(TileGrid{1000, 300, 4096, 128, 128, 64}, 8, dp);
  REQUIRE(s.cluster_split() == 1);
  REQUIRE(s.unit(0, 0, 0, 0).k_tiles() == 64);
}

TEST_CASE("choose_cluster_splits: fill the SMs in one wave, slices deep enough, residency respected",
          "[gemm][scheduler][split]") {
  CHECK(choose_cluster_splits(32, 64, 132) == 4);   // decode 4096: 32 tiles of 128 rows
  CHECK(choose_cluster_splits(64, 128, 132) == 2);  // decode 8192
  CHECK(choose_cluster_splits(16, 256, 132) == 8);  // 512 x 512 x 16384, 128 x 128 tiles
  CHECK(choose_cluster_splits(4, 1024, 132) == 16);  // 256 x 256 x 65536
  CHECK(choose_cluster_splits(8, 1024, 132) == 16);
  CHECK(choose_cluster_splits(200, 1024, 132) == 1);  // the tiles alone fill the GPU
  CHECK(choose_cluster_splits(16, 48, 132) == 3);     // K: 48 K tiles, slices of at least 16
  CHECK(choose_cluster_splits(16, 31, 132) == 1);
  CHECK(choose_cluster_splits(64, 16, 132) == 1);     // 1024^3 in 128 x 128 tiles: too shallow
  CHECK(choose_cluster_splits(16, 256, 132, 8) == 8);  // a lower limit
  // Clusters of 8 not resident 16 at a time: the largest size that is.
  CHECK(choose_cluster_splits(16, 256, 132, [](int s) { return s > 4 ? 10 : 132 / s; }) == 4);
  // Never more CTAs than SMs, never an empty slice.
  for (std::int64_t tiles = 1; tiles < 300; tiles += 7) {
    for (std::int64_t k_tiles : {1, 3, 8, 64, 1000}) {
      const int s = choose_cluster_splits(tiles, k_tiles, 132);
      REQUIRE(s >= 1);
      REQUIRE(s <= kMaxClusterSplits);
      if (s > 1) {
        REQUIRE(tiles * s <= 132);
        REQUIRE(k_tiles >= 16 * s);
      }
    }
  }
}

namespace {
using Extents = tessera::test::GemmExtents;
using tessera::test::llm_benchmark_shapes;
// The suite's layouts (A row-major, B = W[N][K], D row-major), ld = the contiguous extent, 16-bit
// elements, 256-byte aligned buffers: TMA describes an operand when its rows are 16-byte multiples.
AutoProblem suite_problem(const Extents& x, int sms = 132) {
  AutoProblem p;
  p.M = x.M;
  p.N = x.N;
  p.K = x.K;
  p.tma_a = p.tma_b = (x.K * 2) % 16 == 0;
  p.odd_pitch = (x.K * 2) % 32 == 16;  // A and B rows K elements apart (row-major A, K-major B)
  p.k_major_a = true;
  p.sms = sms;
  return p;
}
}  // namespace

TEST_CASE("selector rule: every benchmark shape gets an entry that runs it, and the expected one",
          "[gemm][auto]") {
  for (const Extents& x : llm_benchmark_shapes()) {
    const AutoProblem p = suite_problem(x);
    const AutoChoice c = AutoRule::choose(p);
    INFO("M=" << x.M << " N=" << x.N << " K=" << x.K << ": " << auto_entry_name(c.entry));
    REQUIRE(AutoRule::runs(c.entry, p));
    if (x.M <= 16) CHECK(c.entry == AutoEntry::kSmallM16);
    if (x.M == 32) CHECK(c.entry == AutoEntry::kSmallM32);
    if (x.M == 64) CHECK(c.entry == AutoEntry::kSmallM64);
    if (x.M == 128) CHECK(c.entry == AutoEntry::kSplit64);  // 128 x 64 tiles, split 2 (4096) or 1 (8192)
    if (x.M == 1024 && x.K == 1024) CHECK(c.entry == AutoEntry::kTile128);  // short K: no split
    if (x.M == 1000) CHECK(c.entry == AutoEntry::kTile128);
    if (x.M == 4097) CHECK(c.entry == AutoEntry::kLarge);  // TMA cannot describe A: the packed path
    if (x.M >= 4096 && x.M != 4097) CHECK(c.entry == AutoEntry::kLarge2x1);
    if (x.M == 2048 && x.N == 2048) CHECK(c.entry == AutoEntry::kLarge);
    if (x.K >= 16384 && x.M <= 1024) {
      CHECK(c.entry == AutoEntry::kSplit128);
      CHECK(AutoRule::split_ctas(p, x.M <= 256 ? 128 : 256) >= 64);
    }
  }
}

namespace {
AutoProblem tn(std::int64_t M, std::int64_t N, std::int64_t K, bool workspace) {
  AutoProblem p = suite_problem(Extents{M, N, K});
  p.workspace = workspace;
  return p;
}
}  // namespace

// The shapes of the sweeps that set rules 2-5 (benchmark/notes/small_m.md, v4 on an H200, v5 on
// an H100 and an H200), each with the entry that measured fastest among the table's (or within
// its noise).
TEST_CASE("selector rule: the sweep's shapes get the entries that measured fastest", "[gemm][auto]") {
  struct Row {
    std::int64_t M, N, K;
    AutoEntry with_workspace, without;
  };
  const Row rows[] = {
      {2048, 2304, 4096, AutoEntry::kTile128, AutoEntry::kTile128},    // 144 large tiles: 1.09 waves
      {1536, 4096, 4096, AutoEntry::kTile128, AutoEntry::kTile128},    // 192: 1.45 waves
      {3072, 3072, 4096, AutoEntry::kTile128, AutoEntry::kTile128},    // 288: 2.18 waves
      {2048, 5120, 4096, AutoEntry::kTile128, AutoEntry::kTile128},    // 320: 2.42 waves
      {4096, 3072, 4096, AutoEntry::kLarge2x1, AutoEntry::kLarge2x1},  // 384: 2.91 waves
      {1024, 8192, 4096, AutoEntry::kLarge, AutoEntry::kLarge},        // 256: 1.94 waves
      {2560, 2560, 2560, AutoEntry::kLarge, AutoEntry::kLarge},        // both tiles fill 76%
      {1536, 1536, 1536, AutoEntry::kLarge, AutoEntry::kLarge},        // both fill 55%
      {1024, 1024, 1024, AutoEntry::kTile128, AutoEntry::kTile128},    // few tiles, short K
      {1280, 1280, 1280, AutoEntry::kTile128, AutoEntry::kTile128},
      {768, 768, 768, AutoEntry::kTile128, AutoEntry::kTile128},
      {1536, 1024, 2048, AutoEntry::kTile128, AutoEntry::kTile128},
      {1024, 1024, 8192, AutoEntry::kSplit64, AutoEntry::kSplit64},    // K long enough to split
      {128, 4096, 4096, AutoEntry::kSplit64, AutoEntry::kSplit64},     // 32 tiles of 128 x 128: too few
      {1024, 2048, 16384, AutoEntry::kTile128, AutoEntry::kTile128},   // deep, 128 tiles: one wave
      {768, 768, 32768, AutoEntry::kStreamK, AutoEntry::kSplit128},    // deep, 18 large tiles
      {1024, 1024, 32768, AutoEntry::kStreamK, AutoEntry::kSplit128},  // 32
      {512, 1024, 32768, AutoEntry::kStreamK, AutoEntry::kSplit128},   // 16
      {512, 512, 16384, AutoEntry::kSplit128, AutoEntry::kSplit128},   // 8: the cluster split
      {256, 256, 65536, AutoEntry::kSplit128, AutoEntry::kSplit128},   // 2
      {1536, 1536, 16384, AutoEntry::kStreamK128, AutoEntry::kLarge},  // deep, 72 tiles: 0.55 waves
      {2048, 2048, 16384, AutoEntry::kLarge, AutoEntry::kLarge},       // deep, 128 tiles fill a wave
      // Rows an odd multiple of 16 bytes apart (K = 8 mod 16): past the few-tile branch the 2 x 1
      // cluster, which measured 1.2-1.6x the rule's v4 choice on these (v5); the few-tile branch and
      // the controls with K rounded up to a multiple of 16 keep their entries.
      {2200, 2200, 2200, AutoEntry::kLarge2x1, AutoEntry::kLarge2x1},  // v4: kTile128
      {2600, 2600, 2600, AutoEntry::kLarge2x1, AutoEntry::kLarge2x1},  // v4: kLarge
      {1800, 1800, 1800, AutoEntry::kLarge2x1, AutoEntry::kLarge2x1},
      {2000, 3000, 3000, AutoEntry::kLarge2x1, AutoEntry::kLarge2x1},
      {1200, 4000, 5000, AutoEntry::kLarge2x1, AutoEntry::kLarge2x1},
      {3000, 3000, 3000, AutoEntry::kLarge2x1, AutoEntry::kLarge2x1},
      {1000, 1000, 1000, AutoEntry::kTile128, AutoEntry::kTile128},    // few tiles: 128 x 128 measured best
      {2200, 2200, 2208, AutoEntry::kTile128, AutoEntry::kTile128},    // rows on 32-byte multiples
      {2000, 3000, 3008, AutoEntry::kTile128, AutoEntry::kTile128},
  };
  for (const Row& r : rows) {
    for (bool workspace : {true, false}) {
      const AutoProblem p = tn(r.M, r.N, r.K, workspace);
      const AutoChoice c = AutoRule::choose(p);
      INFO("M=" << r.M << " N=" << r.N << " K=" << r.K << (workspace ? " with" : " without")
                << " a workspace: " << auto_entry_name(c.entry));
      CHECK(p.odd_pitch == (r.K % 16 == 8));
      CHECK(c.entry == (workspace ? r.with_workspace : r.without));
      CHECK(AutoRule::runs(c.entry, p));
    }
  }
  // Without TMA descriptions, many tiles take the default tile (its packed and realigning
  // paths); few rows take the small-M entry, which copies A and B into a workspace first, only
  // with one.
  AutoProblem odd = tn(2048, 2304, 4096, true);
  odd.tma_a = false;
  CHECK(AutoRule::choose(odd).entry == AutoEntry::kLarge);
  AutoProblem decode = tn(4, 4096, 4096, true);
  decode.tma_b = false;
  CHECK(AutoRule::choose(decode).entry == AutoEntry::kSmallM16);
  decode.workspace = false;
  CHECK(AutoRule::choose(decode).entry == AutoEntry::kLarge);
}

TEST_CASE("selector rule: fill_permille counts the busy fraction of the waves", "[gemm][auto]") {
  CHECK(AutoRule::fill_permille(0, 132) == 0);
  CHECK(AutoRule::fill_permille(132, 132) == 1000);
  CHECK(AutoRule::fill_permille(133, 132) == 503);  // 133 / 264
  CHECK(AutoRule::fill_permille(144, 132) == 545);
  CHECK(AutoRule::fill_permille(288, 132) == 727);
}

TEST_CASE("selector rule: never an entry that cannot run the problem (random problems)", "[gemm][auto]") {
  std::mt19937_64 rng(17);
  auto extent = [&](int max_log2) {
    const int bits = int(rng() % unsigned(max_log2 + 1));
    return std::int64_t(1 + rng() % (std::uint64_t(1) << bits));
  };
  for (int i = 0; i < 20000; ++i) {
    AutoProblem p;
    p.M = extent(15);
    p.N = extent(16);
    p.K = rng() % 8 == 0 ? 0 : extent(17);
    p.tma_a = rng() % 4 != 0;
    p.tma_b = rng() % 4 != 0;
    p.k_major_a = rng() % 2 == 0;
    p.sms = rng() % 2 == 0 ? 132 : 114;
    p.workspace = rng() % 2 == 0;
    p.odd_pitch = rng() % 4 == 0;
    const AutoChoice c = AutoRule::choose(p);
    INFO("M=" << p.M << " N=" << p.N << " K=" << p.K << " tma " << p.tma_a << p.tma_b << " kmajor " << p.k_major_a
              << " workspace " << p.workspace << " odd pitch " << p.odd_pitch);
    if (!p.workspace) REQUIRE((c.entry != AutoEntry::kStreamK && c.entry != AutoEntry::kStreamK128));
    REQUIRE(AutoRule::runs(c.entry, p));
    // The TMA-only entries (small M, split) copy A or B that TMA cannot describe, so need a workspace.
    if (!(p.tma_a && p.tma_b) && !p.workspace) REQUIRE(((c.entry == AutoEntry::kLarge) || (c.entry == AutoEntry::kLarge2x1)));
    if (!p.k_major_a) REQUIRE((c.entry != AutoEntry::kSmallM16 && c.entry != AutoEntry::kSmallM32));
  }
}

namespace {
struct RecordingElement {
  std::int64_t m, n;
  bool has_c() const { return true; }
  float c() const { return 0.5f; }
};
struct RowTimesTen {  // D = acc + 10 m + n / 1000 + C: sees where the element is
  using Arguments = NoEpilogueArguments;
  static Status can_implement(const Arguments&, const EpilogueProblem& p) {
    return p.M == 3 && p.N == 500 ? Status::kSuccess : Status::kErrorUnsupported;
  }
  static RowTimesTen make(const Arguments&, const EpilogueProblem&) { return {}; }
  bool reads_c() const { return true; }
  template <class E>
  float operator()(float acc, const E& e) const {
    return acc + 10.0f * float(e.m) + float(e.n) / 1000.0f + e.c();
  }
};
}  // namespace

TEST_CASE("transposed problem: the user's epilogue sees D's coordinates and problem", "[gemm][transposed]") {
  using T = TransposedEpilogue<RowTimesTen>;
  // The transposed problem is N x M; the user's epilogue is asked about M x N.
  const EpilogueProblem transposed{500, 3, 64, 1.0f, 0.0f};
  CHECK(T::can_implement({}, transposed) == Status::kSuccess);
  CHECK(T::can_implement({}, EpilogueProblem{3, 500, 64, 1.0f, 0.0f}) == Status::kErrorUnsupported);
  const T e = T::make({}, transposed);
  // Element (row 7, column 2) of D^T is element (2, 7) of D.
  CHECK(e(1.0f, RecordingElement{7, 2}) == Approx(1.0f + 20.0f + 0.007f + 0.5f));
  CHECK(e.reads_c());
  CHECK(gemm::detail::transpose_status(Status::kErrorMisalignedA) == Status::kErrorMisalignedB);
  CHECK(gemm::detail::transpose_status(Status::kErrorLeadingDimB) == Status::kErrorLeadingDimA);
  CHECK(gemm::detail::transpose_status(Status::kErrorNullA) == Status::kErrorNullB);
  CHECK(gemm::detail::transpose_status(Status::kErrorDimensionTooLarge) == Status::kErrorDimensionTooLarge);
}

TEST_CASE("small M: the transposed configuration's layouts, tile and epilogue", "[gemm][transposed]") {
  using S = WgmmaSmallM<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor, 32>;
  using Inner = S::Inner;  // ClusterSplitK
  STATIC_REQUIRE(std::is_same_v<S::LayoutA, RowMajor>);
  STATIC_REQUIRE(std::is_same_v<S::LayoutB, ColumnMajor>);
  STATIC_REQUIRE(std::is_same_v<S::LayoutC, RowMajor>);
  STATIC_REQUIRE(std::is_same_v<Inner::LayoutA, RowMajor>);     // B^T of a column-major B
  STATIC_REQUIRE(std::is_same_v<Inner::LayoutB, ColumnMajor>);  // A^T of a row-major A: K-major
  STATIC_REQUIRE(std::is_same_v<Inner::LayoutC, ColumnMajor>);  // D^T of a row-major D
  STATIC_REQUIRE(Inner::kBlockM == 128);
  STATIC_REQUIRE(Inner::kBlockN == 32);
  STATIC_REQUIRE(std::is_same_v<S::Epilogue, LinearCombination>);
  STATIC_REQUIRE(std::is_same_v<S::ElementD, float>);
}

TEST_CASE("selector rule: the split entries, shape by shape", "[gemm][auto]") {
  auto problem = [](std::int64_t M, std::int64_t N, std::int64_t K) { return suite_problem({M, N, K}); };
  // Deep K: 128 x 128 where its CTAs fill 45% of the SMs (never 128 x 256: measured slower).
  CHECK(AutoRule::split_entry(problem(512, 512, 16384)) == AutoEntry::kSplit128);    // 16 tiles x 8
  CHECK(AutoRule::split_entry(problem(1024, 1024, 32768)) == AutoEntry::kSplit128);  // 64 x 2
  CHECK(AutoRule::split_entry(problem(256, 256, 65536)) == AutoEntry::kSplit128);    // 4 x 16
  // Otherwise the least split among those that fill the SMs.
  CHECK(AutoRule::split_entry(problem(128, 4096, 4096)) == AutoEntry::kSplit64);   // 64 x 2, not 32 x 4
  CHECK(AutoRule::split_entry(problem(1024, 1024, 1024)) == AutoEntry::kSplit64);  // 128 x 1
  CHECK(AutoRule::split_of(problem(1024, 1024, 1024), 64) == 1);
  CHECK(AutoRule::split_of(problem(128, 4096, 4096), 64) == 2);
}

TEST_CASE("shared-memory plans of the new configurations fit and alias as intended", "[gemm][plan]") {
  using Tn = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
  using Staged4 = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                              option::Tile<GemmShape<128, 256, 64>>, option::Schedule<schedule::Cooperative>,
                              option::StagingBoxes<4>>;
  CHECK(Tn::kStages == 4);
  CHECK(Staged4::kStages == 3);
  CHECK(WgmmaSmemPlan<Tn>::Plan::kTotalBytes <= Sm90::kSmemBytesPerBlock);
  CHECK(WgmmaSmemPlan<Staged4>::Plan::kTotalBytes <= Sm90::kSmemBytesPerBlock);
  using Narrow = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, ColumnMajor,
                             option::Tile<GemmShape<128, 16, 64>>>;
  CHECK(Narrow::kStages == 8);
  using Decode = WgmmaSmallM<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>::Inner;
  using DecodePlan = ClusterSplitSmemPlan<Decode>;
  CHECK(Decode::kStages == 11);  // 18 KiB stages: 11 in 227 KiB beside a 14 KiB inbox
  // The cluster sum's inbox has bytes of its own beside the ring and the barriers: a peer may
  // push into it while the stages are in use (wgmma/cluster_partial_sum.hpp).
  CHECK(Decode::kInboxBytes == 14 * 1024);  // 2 units of 512 bytes from each of 14 peers (split 15)
  CHECK(DecodePlan::Plan::kTotalBytes >= std::size_t(Decode::kStages * Decode::kStageBytes + Decode::kInboxBytes));
  CHECK(DecodePlan::Plan::kTotalBytes < std::size_t(Decode::kStages * Decode::kStageBytes + Decode::kInboxBytes + 512));
  using Deep = ClusterSplitK<WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                         option::Tile<GemmShape<128, 256, 64>>,
                                         option::Schedule<schedule::Cooperative>>>;
  CHECK(Deep::kInboxBytes == 126 * 1024);  // 256 units: 18 from each of 14 peers (split 15)
  CHECK(Deep::kStages == 2);
  CHECK(ClusterSplitSmemPlan<Deep>::Plan::kTotalBytes <= Sm90::kSmemBytesPerBlock);
}

// The cluster sum's inbox (wgmma/cluster_sum_inbox.hpp): in every split up to the largest, each
// owner receives each of its units once from each other CTA, into its own 512-byte slot inside
// the bytes it expects, and the planned inbox holds the largest of them.
TEST_CASE("cluster sum: every part lands in a slot of its own inside its owner's inbox", "[gemm][plan]") {
  for (int units : {8, 16, 32, 64, 128, 256}) {
    int most = 0;
    for (int splits = 2; splits <= kMaxClusterSplits; ++splits) {
      std::map<int, std::set<std::uint32_t>> slots;  // owner -> slots written
      for (int u = 0; u < units; ++u) {
        const int owner = u % splits;
        for (int from = 0; from < splits; ++from) {
          if (from == owner) continue;
          const std::uint32_t at = ClusterSumInbox::offset(u, from, owner, splits, 0);
          INFO("units " << units << " splits " << splits << " unit " << u << " from " << from);
          CHECK(at % ClusterSumInbox::kUnitBytes == 0);
          CHECK(at + ClusterSumInbox::kUnitBytes <= std::uint32_t(ClusterSumInbox::received_bytes(units, owner, splits)));
          CHECK(slots[owner].insert(at).second);
          // The last lane's 16 bytes stay inside the slot.
          CHECK(ClusterSumInbox::offset(u, from, owner, splits, 31) + 16 == at + ClusterSumInbox::kUnitBytes);
        }
      }
      for (int rank = 0; rank < splits; ++rank) {
        CHECK(int(slots[rank].size()) * ClusterSumInbox::kUnitBytes ==
              ClusterSumInbox::received_bytes(units, rank, splits));
        most = std::max(most, ClusterSumInbox::received_bytes(units, rank, splits));
      }
    }
    CHECK(ClusterSumInbox::max_bytes(units, kMaxClusterSplits) == most);
  }
}
