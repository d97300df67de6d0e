// Batched and grouped GEMMs on the host: the schedulers (every row of every problem covered
// exactly once, in units the workers share evenly; empty groups cost nothing; out-of-range
// sizes clamped and reported), the problem-set checks of Gemm::can_implement and the TMA
// families' refusals and 3-D map layers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "tessera/core/numeric.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/scheduler/batched.hpp"
#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/scheduler/grouped.hpp"
#include "tessera/gemm/problem_set_checks.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/tma/problem_set.hpp"
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {

// Every unit of every worker, for the CTA at (cm, cn) of each cluster.
template <class S>
std::vector<WorkUnit> walk_all(const S& s, int workers, int cluster_m, int cluster_n) {
  std::vector<WorkUnit> units;
  for (int w = 0; w < workers; ++w) {
    for (int j = 0; j < s.units_of(w); ++j) {
      REQUIRE(s.k_tiles_before(w, j) == std::int64_t(j) * s.k_tiles);
      for (int cm = 0; cm < cluster_m; ++cm) {
        for (int cn = 0; cn < cluster_n; ++cn) units.push_back(s.unit(w, j, cm, cn));
      }
    }
  }
  return units;
}

// The row ranges a contiguous layout's group ends describe, clamped as documented.
std::vector<std::pair<int, int>> contiguous_rows(const std::vector<std::int32_t>& ends, int M) {
  std::vector<std::pair<int, int>> rows;  // (begin, count)
  int end = 0;
  for (std::int32_t e : ends) {
    const int clamped = std::min<int>(std::max<int>(e, end), M);
    rows.push_back({end, clamped - end});
    end = clamped;
  }
  return rows;
}

// Checks that the units cover rows [begin, begin + count) x N of every group exactly once with
// tiles of tile_m x tile_n, and nothing of an empty group.
void check_cover(const std::vector<WorkUnit>& units, const std::vector<std::pair<int, int>>& rows, int N, int tile_m,
                 int tile_n, int k_tiles) {
  std::map<std::tuple<int, int, int>, int> seen;  // (group, tile m, tile n)
  for (const WorkUnit& u : units) {
    REQUIRE(u.problem >= 0);
    REQUIRE(u.problem < int(rows.size()));
    REQUIRE(u.k_begin == 0);
    REQUIRE(u.k_end == k_tiles);
    REQUIRE(u.row_begin == rows[std::size_t(u.problem)].first);
    REQUIRE(u.rows == rows[std::size_t(u.problem)].second);
    ++seen[{u.problem, u.m, u.n}];
  }
  for (std::size_t g = 0; g < rows.size(); ++g) {
    const int tiles_m = (rows[g].second + tile_m - 1) / tile_m, tiles_n = (N + tile_n - 1) / tile_n;
    for (int m = 0; m < tiles_m; ++m) {
      for (int n = 0; n < tiles_n; ++n) {
        INFO("group " << g << " tile (" << m << ", " << n << ")");
        REQUIRE(seen[{int(g), m, n}] == 1);
      }
    }
  }
  // Nothing else but a cluster's overhang past a group's or N's last tile.
  for (const auto& kv : seen) {
    const auto [g, m, n] = kv.first;
    REQUIRE(kv.second == 1);
    if (rows[std::size_t(g)].second == 0) FAIL("a unit of the empty group " << g);
  }
}

}  // namespace

TEST_CASE("StridedBatched covers every tile of every entry once", "[problems][scheduler]") {
  struct Case {
    std::int64_t count, M, N;
    int tile_m, tile_n, cm, cn, workers;
  };
  for (const Case& c : {Case{32, 1024, 1024, 128, 256, 1, 1, 132}, Case{3, 129, 300, 128, 128, 2, 1, 7},
                        Case{128, 128, 4096, 128, 256, 1, 2, 66}, Case{1, 64, 64, 128, 256, 1, 1, 1}}) {
    INFO("batch " << c.count << " of " << c.M << "x" << c.N);
    ProblemSet set;
    set.count = c.count;
    const TileGrid grid{c.M, c.N, 130, c.tile_m, c.tile_n, 64, c.cm, c.cn};
    const auto s = scheduler::StridedBatched::make(grid, set, c.workers);
    const auto units = walk_all(s, c.workers, c.cm, c.cn);
    REQUIRE(std::int64_t(units.size()) == scheduler::StridedBatched::units(grid, set) * c.cm * c.cn);
    check_cover(units, std::vector<std::pair<int, int>>(std::size_t(c.count), {0, int(c.M)}), int(c.N), c.tile_m,
                c.tile_n, 3);
    // The workers' shares differ by one unit at most.
    int most = 0, least = 1 << 30;
    for (int w = 0; w < c.workers; ++w) {
      most = std::max(most, s.units_of(w));
      least = std::min(least, s.units_of(w));
    }
    CHECK(most - least <= 1);
  }
}

TEST_CASE("Grouped (contiguous) covers every group's rows once; empty groups have no units", "[problems][scheduler]") {
  using S = scheduler::Grouped<group_layout::Contiguous>;
  std::mt19937 gen(20);
  const int tile_m = 128, tile_n = 256;
  struct Case {
    std::vector<std::int32_t> sizes;  // rows per group
    int N, cm, cn, workers;
  };
  std::vector<Case> cases = {
      {{128, 512, 64, 1024, 256, 384, 768, 960}, 4096, 1, 1, 132},  // the list
      {{0, 1, 0, 0, 129, 127, 0}, 300, 1, 1, 5},                    // empty, single rows, tails
      {{4096}, 4096, 1, 1, 132},                                   // one group: the plain GEMM's tiles
      {{0, 0, 0}, 512, 1, 1, 3},                                   // nothing at all
      {{200, 7, 300}, 1000, 2, 1, 9},                              // clusters
      {{64, 64, 64}, 512, 1, 2, 4},
  };
  std::vector<std::int32_t> random_sizes(256);
  for (auto& r : random_sizes) r = std::int32_t(gen() % 300);
  cases.push_back({random_sizes, 2048, 1, 1, 132});
  for (const Case& c : cases) {
    std::vector<std::int32_t> ends;
    std::int32_t total = 0;
    for (std::int32_t r : c.sizes) ends.push_back(total += r);
    INFO(c.sizes.size() << " groups, " << total << " rows, cluster " << c.cm << "x" << c.cn);
    ProblemSet set;
    set.count = std::int64_t(c.sizes.size());
    set.group_ends = ends.data();
    std::int32_t status = 0;
    set.status = &status;
    const TileGrid grid{total, c.N, 7168, tile_m, tile_n, 64, c.cm, c.cn};
    const S s = S::make(grid, set, c.workers);
    const auto units = walk_all(s, c.workers, c.cm, c.cn);
    const auto rows = contiguous_rows(ends, total);
    // With clusters every CTA of a cluster gets the cluster's unit: count cluster tiles.
    std::int64_t cluster_tiles = 0;
    for (const auto& r : rows) {
      cluster_tiles += (r.second + tile_m * c.cm - 1) / (tile_m * c.cm) * ((c.N + tile_n * c.cn - 1) / (tile_n * c.cn));
    }
    REQUIRE(s.units() == cluster_tiles);
    REQUIRE(std::int64_t(units.size()) == cluster_tiles * c.cm * c.cn);
    REQUIRE(S::units(grid, set) >= s.units());  // the launch's bound
    // Units past a group's rows or N exist only as a cluster's overhang.
    std::vector<WorkUnit> inside;
    for (const WorkUnit& u : units) {
      if (u.m * tile_m < u.rows && u.n * tile_n < c.N) inside.push_back(u);
    }
    check_cover(inside, rows, c.N, tile_m, tile_n, 112);
    CHECK(status == 0);
  }
}

// Unit by unit, equal fields.
void require_same_unit(const WorkUnit& a, const WorkUnit& b) {
  REQUIRE(a.m == b.m);
  REQUIRE(a.n == b.n);
  REQUIRE(a.k_begin == b.k_begin);
  REQUIRE(a.k_end == b.k_end);
  REQUIRE(a.slice == b.slice);
  REQUIRE(a.problem == b.problem);
  REQUIRE(a.row_begin == b.row_begin);
  REQUIRE(a.rows == b.rows);
}

TEST_CASE("a role's walk through Grouped's cursor finds the units the plain form finds", "[problems][scheduler]") {
  std::mt19937 gen(29);
  for (int trial = 0; trial < 40; ++trial) {
    const int groups = 1 + int(gen() % 80), M = 64 + int(gen() % 6000);
    const int workers = 1 + int(gen() % 140), cm = 1 + int(gen() % 2), cn = trial % 3 == 0 ? 2 : 1;
    std::vector<std::int32_t> ends, counts;
    std::int32_t end = 0;
    for (int g = 0; g < groups; ++g) {
      // Mostly in range; now and then an empty group, an end that goes back, one past M.
      const int r = int(gen() % 10);
      end += r == 0 ? 0 : (r == 1 ? -int(gen() % 50) : int(gen() % 400));
      ends.push_back(r == 2 && gen() % 4 == 0 ? M + 7 : end);
      counts.push_back(r == 1 ? -3 : std::int32_t(gen() % (M + 40)));
    }
    const TileGrid grid{M, 64 + int(gen() % 3000), 512, 128, 128, 64, cm, cn};
    ProblemSet contiguous_set, masked_set;
    contiguous_set.count = masked_set.count = groups;
    contiguous_set.group_ends = ends.data();
    masked_set.group_rows = counts.data();
    auto check = [&](const auto& s) {
      INFO("trial " << trial << ", " << groups << " groups, " << workers << " workers");
      for (int w = 0; w < workers; ++w) {
        const int units = s.units_of(w);
        for (int first = 0; first < 2; ++first) {  // every unit, then a Pingpong warpgroup's
          for (int cta = 0; cta < cm * cn; ++cta) {
            auto walk = walk_units(s);
            for (int j = first; j < units; j += 1 + first) {
              require_same_unit(walk.unit(w, j, cta / cn, cta % cn), s.unit(w, j, cta / cn, cta % cn));
            }
            // Back to an earlier unit (no role does): the walk starts over and still agrees.
            if (units > 0) require_same_unit(walk.unit(w, 0, 0, 0), s.unit(w, 0, 0, 0));
            // Past the last unit: the plain form's empty unit.
            require_same_unit(walk.unit(w, units + 3, 0, 0), s.unit(w, units + 3, 0, 0));
          }
        }
      }
    };
    check(scheduler::Grouped<group_layout::Contiguous>::make(grid, contiguous_set, workers));
    check(scheduler::Grouped<group_layout::Masked>::make(grid, masked_set, workers));
  }
}

TEST_CASE("a role's walk reads each group's size about once", "[problems][scheduler]") {
  // 64 experts of 512 rows, 132 workers: the walk of worker w passes each group once, so it
  // advances the cursor at most groups + units times.
  std::vector<std::int32_t> ends;
  for (int g = 1; g <= 64; ++g) ends.push_back(512 * g);
  ProblemSet set;
  set.count = 64;
  set.group_ends = ends.data();
  const TileGrid grid{512 * 64, 4096, 7168, 128, 128, 128};
  const auto s = scheduler::Grouped<group_layout::Contiguous>::make(grid, set, 132);
  for (int w = 0; w < 132; ++w) {
    auto walk = walk_units(s);
    int last_group = 0;
    for (int j = 0; j < s.units_of(w); ++j) {
      const WorkUnit u = walk.unit(w, j, 0, 0);
      REQUIRE(u.problem >= last_group);  // never walked back
      REQUIRE(walk.at.g == u.problem);
      last_group = u.problem;
    }
    REQUIRE(last_group >= 60);
  }
}

TEST_CASE("Grouped (contiguous): one group walks the tiles in DataParallel's order", "[problems][scheduler]") {
  std::vector<std::int32_t> ends = {4096};
  ProblemSet set;
  set.count = 1;
  set.group_ends = ends.data();
  const TileGrid grid{4096, 4096, 4096, 128, 256, 64};
  const auto g = scheduler::Grouped<group_layout::Contiguous>::make(grid, set, 132);
  const auto d = scheduler::DataParallel::make(grid, 132);
  for (int w = 0; w < 132; ++w) {
    REQUIRE(g.units_of(w) == d.units_of(w));
    for (int j = 0; j < d.units_of(w); ++j) {
      REQUIRE(g.unit(w, j, 0, 0).m == d.unit(w, j, 0, 0).m);
      REQUIRE(g.unit(w, j, 0, 0).n == d.unit(w, j, 0, 0).n);
    }
  }
}

TEST_CASE("Grouped clamps out-of-range sizes and reports them", "[problems][scheduler]") {
  const int M = 1000;
  SECTION("contiguous: an end below the previous one, an end past M") {
    std::vector<std::int32_t> ends = {300, 200, 700, 5000, 6000, -4};
    ProblemSet set;
    set.count = 6;
    set.group_ends = ends.data();
    std::int32_t status = 0;
    set.status = &status;
    const TileGrid grid{M, 512, 64, 128, 128, 64};
    const auto s = scheduler::Grouped<group_layout::Contiguous>::make(grid, set, 8);
    const auto rows = contiguous_rows(ends, M);
    REQUIRE(rows[1] == std::pair<int, int>{300, 0});  // a negative count: empty
    REQUIRE(rows[2] == std::pair<int, int>{300, 400});
    REQUIRE(rows[3] == std::pair<int, int>{700, 300});  // cut at M
    REQUIRE(rows[4] == std::pair<int, int>{1000, 0});
    REQUIRE(rows[5] == std::pair<int, int>{1000, 0});
    check_cover(walk_all(s, 8, 1, 1), rows, 512, 128, 128, 1);
    CHECK(status == std::int32_t(Status::kErrorGroupRowsOutOfRange));
    for (const WorkUnit& u : walk_all(s, 8, 1, 1)) REQUIRE(u.row_begin + u.rows <= M);  // never past A
  }
  SECTION("masked: negative counts and counts above M") {
    std::vector<std::int32_t> counts = {-5, 1000, 1001, 17, 0};
    ProblemSet set;
    set.count = 5;
    set.group_rows = counts.data();
    std::int32_t status = 0;
    set.status = &status;
    const TileGrid grid{M, 300, 64, 128, 256, 64};
    const auto s = scheduler::Grouped<group_layout::Masked>::make(grid, set, 16);
    check_cover(walk_all(s, 16, 1, 1), {{0, 0}, {0, 1000}, {0, 1000}, {0, 17}, {0, 0}}, 300, 128, 256, 1);
    CHECK(status == std::int32_t(Status::kErrorGroupRowsOutOfRange));
  }
  SECTION("sizes in range leave the flag alone") {
    std::vector<std::int32_t> counts = {0, 1000, 3};
    ProblemSet set;
    set.count = 3;
    set.group_rows = counts.data();
    std::int32_t status = 0;
    set.status = &status;
    const auto s = scheduler::Grouped<group_layout::Masked>::make(TileGrid{M, 300, 64, 128, 256, 64}, set, 4);
    (void)walk_all(s, 4, 1, 1);
    CHECK(status == 0);
  }
}

TEST_CASE("Grouped's launch bound holds for any sizes", "[problems][scheduler]") {
  std::mt19937 gen(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int groups = 1 + int(gen() % 40), M = 1 + int(gen() % 3000);
    std::vector<std::int32_t> ends(static_cast<std::size_t>(groups)), counts(static_cast<std::size_t>(groups));
    for (int g = 0; g < groups; ++g) {
      ends[std::size_t(g)] = std::int32_t(gen() % std::uint32_t(M + 200)) - 100;
      counts[std::size_t(g)] = std::int32_t(gen() % std::uint32_t(M + 200)) - 100;
    }
    std::sort(ends.begin(), ends.end() - groups / 3);  // mostly increasing, some not
    ProblemSet set;
    set.count = groups;
    set.group_ends = ends.data();
    set.group_rows = counts.data();
    const TileGrid grid{M, 777, 64, 128, 256, 64};
    const auto c = scheduler::Grouped<group_layout::Contiguous>::make(grid, set, 10);
    const auto m = scheduler::Grouped<group_layout::Masked>::make(grid, set, 10);
    REQUIRE(c.units() <= scheduler::Grouped<group_layout::Contiguous>::units(grid, set));
    REQUIRE(m.units() <= scheduler::Grouped<group_layout::Masked>::units(grid, set));
  }
}

TEST_CASE("problem-set arguments are checked with the GEMM's", "[problems][status]") {
  using Contiguous = scheduler::Grouped<group_layout::Contiguous>;
  using Masked = scheduler::Grouped<group_layout::Masked>;
  using Batched = scheduler::StridedBatched;
  Arguments<bfloat16_t, bfloat16_t, bfloat16_t> a{256, 128, 64, nullptr, 64, nullptr, 64, nullptr, 128, nullptr, 128};
  // One-GEMM schedulers refuse a set.
  CHECK(check_problem_set<scheduler::DataParallel, RowMajor>(a) == Status::kSuccess);
  auto batch = a;
  batch.problems.count = 4;
  CHECK(check_problem_set<scheduler::DataParallel, RowMajor>(batch) == Status::kErrorProblemsUnsupported);
  // Batched: D's stride keeps the outputs apart; negative strides and counts are refused.
  batch.problems.stride_d = 256 * 128;
  CHECK(check_problem_set<Batched, RowMajor>(batch) == Status::kSuccess);
  batch.problems.stride_d = 256 * 128 - 1;
  CHECK(check_problem_set<Batched, RowMajor>(batch) == Status::kErrorProblemStride);
  batch.problems.stride_d = 256 * 128;
  batch.problems.stride_b = -1;
  CHECK(check_problem_set<Batched, RowMajor>(batch) == Status::kErrorProblemStride);
  batch.problems.stride_b = 0;  // a shared B
  batch.problems.count = -1;
  CHECK(check_problem_set<Batched, RowMajor>(batch) == Status::kErrorProblemCount);
  // Grouped: the sizes must be given, in the layout's field.
  auto groups = a;
  groups.problems.count = 8;
  CHECK(check_problem_set<Contiguous, RowMajor>(groups) == Status::kErrorGroupRowsNull);
  static const std::int32_t sizes[8] = {};
  groups.problems.group_rows = sizes;
  CHECK(check_problem_set<Contiguous, RowMajor>(groups) == Status::kErrorGroupRowsNull);
  CHECK(check_problem_set<Masked, RowMajor>(groups) == Status::kErrorProblemStride);  // D's slabs overlap
  groups.problems.stride_d = 256 * 128;
  CHECK(check_problem_set<Masked, RowMajor>(groups) == Status::kSuccess);
  groups.problems.group_ends = sizes;
  CHECK(check_problem_set<Contiguous, RowMajor>(groups) == Status::kSuccess);
}

TEST_CASE("the TMA families' problem sets: describable operands, 16-byte strides, layers", "[problems][tma]") {
  using Batched = scheduler::StridedBatched;
  using Contiguous = scheduler::Grouped<group_layout::Contiguous>;
  alignas(16) static bfloat16_t buffer[64];
  Arguments<bfloat16_t, bfloat16_t, bfloat16_t> a{128, 64, 64, buffer, 64, buffer, 64, nullptr, 64, buffer, 64};
  a.problems.count = 4;
  a.problems.stride_a = 128 * 64;
  a.problems.stride_b = 0;
  a.problems.stride_d = 128 * 64;
  CHECK(check_tma_problem_set<RowMajor, ColumnMajor, RowMajor, Batched>(a) == Status::kSuccess);
  auto odd = a;
  odd.problems.stride_a = 128 * 64 + 4;  // 8 bytes past a 16-byte multiple
  CHECK(check_tma_problem_set<RowMajor, ColumnMajor, RowMajor, Batched>(odd) == Status::kErrorProblemStrideMisaligned);
  odd = a;
  odd.problems.stride_a = 64 * 64;  // entries' A overlap: layers a TMA map cannot hold
  CHECK(check_tma_problem_set<RowMajor, ColumnMajor, RowMajor, Batched>(odd) == Status::kErrorProblemStride);
  odd = a;
  odd.lda = 65;  // one GEMM would take the packed path; a set cannot
  CHECK(check_tma_problem_set<RowMajor, ColumnMajor, RowMajor, Batched>(odd) == Status::kErrorMisalignedA);
  odd = a;
  odd.D = buffer + 1;
  CHECK(check_tma_problem_set<RowMajor, ColumnMajor, RowMajor, Batched>(odd) == Status::kErrorMisalignedD);
  // The contiguous layout addresses A and D by rows: their strides are not used.
  auto grouped = a;
  grouped.problems.stride_a = 3;
  grouped.problems.stride_b = 64 * 64;
  CHECK(check_tma_problem_set<RowMajor, ColumnMajor, RowMajor, Contiguous>(grouped) == Status::kSuccess);
  const ProblemStrides s = problem_strides<Contiguous>(grouped.problems);
  CHECK((s.a == 0 && s.b == 64 * 64 && s.c == 0 && s.d == 0));
  // Layers: one per entry, or one shared layer.
  CHECK(map_layers<bfloat16_t>(4, std::int64_t(128 * 64)).layers == 4);
  CHECK(map_layers<bfloat16_t>(4, std::int64_t(128 * 64)).pitch_bytes == 128 * 64 * 2);
  CHECK(map_layers<bfloat16_t>(4, std::int64_t(0)).layers == 1);
}

// Gemm<Config>::can_implement checks the set with the configuration's scheduler (SchedulerOf):
// the shape-specific Hopper configurations compute one GEMM and refuse a set.
TEST_CASE("transposed small-M and cluster split-K configurations refuse a set", "[problems][status]") {
  using SmallM = WgmmaSmallM<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
  using Split = ClusterSplitK<WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                          option::Tile<GemmShape<128, 256, 64>>,
                                          option::Schedule<schedule::Cooperative>>>;
  Arguments<bfloat16_t, bfloat16_t, bfloat16_t> a{16, 128, 64, nullptr, 64, nullptr, 64, nullptr, 128, nullptr, 128};
  CHECK(check_problem_set<SchedulerOf<SmallM>::type, RowMajor>(a) == Status::kSuccess);
  CHECK(check_problem_set<SchedulerOf<Split>::type, RowMajor>(a) == Status::kSuccess);
  a.problems.count = 2;
  a.problems.stride_d = 16 * 128;
  CHECK(check_problem_set<SchedulerOf<SmallM>::type, RowMajor>(a) == Status::kErrorProblemsUnsupported);
  CHECK(check_problem_set<SchedulerOf<Split>::type, RowMajor>(a) == Status::kErrorProblemsUnsupported);
}
