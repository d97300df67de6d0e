#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

using namespace tessera::gemm;

TEST_CASE("grouped raster visits every tile exactly once", "[gemm][scheduler]") {
  for (int M : {1, 127, 128, 129, 1000, 4097}) {
    for (int N : {1, 128, 300, 4095}) {
      const auto s = GroupedRasterScheduler<8>::make(M, N, 128, 128);
      REQUIRE(s.tiles_m == (M + 127) / 128);
      REQUIRE(s.tiles_n == (N + 127) / 128);
      std::set<std::pair<int, int>> seen;
      for (int i = 0; i < s.num_tiles(); ++i) {
        const TileCoord t = s.tile(i);
        REQUIRE(t.m >= 0);
        REQUIRE(t.m < s.tiles_m);
        REQUIRE(t.n >= 0);
        REQUIRE(t.n < s.tiles_n);
        REQUIRE(seen.insert({t.m, t.n}).second);
      }
      REQUIRE(int(seen.size()) == s.num_tiles());
    }
  }
}

TEST_CASE("grouped raster walks down a group of tile rows first", "[gemm][scheduler]") {
  const auto s = GroupedRasterScheduler<4>::make(1024, 1024, 128, 128);  // 8 x 8 tiles
  // The first 4 blocks share tile column 0 (one B tile) across 4 tile rows.
  for (int i = 0; i < 4; ++i) {
    CHECK(s.tile(i).m == i);
    CHECK(s.tile(i).n == 0);
  }
  CHECK(s.tile(4).m == 0);
  CHECK(s.tile(4).n == 1);
  CHECK(s.tile(32).m == 4);  // second group of rows
  CHECK(s.tile(32).n == 0);
}

TEST_CASE("DataParallel (persistent, clusters) covers every tile once over all of K", "[gemm][scheduler]") {
  struct Case {
    std::int64_t M, N;
    int tile_m, tile_n, cm, cn, clusters;
  };
  for (const Case& c : {Case{4096, 4096, 128, 256, 1, 1, 132}, Case{4097, 4095, 128, 256, 2, 1, 66},
                        Case{1000, 3000, 128, 128, 1, 2, 13}, Case{64, 64, 128, 256, 2, 2, 33},
                        Case{8192, 8192, 256, 128, 2, 1, 60}}) {
    INFO("M=" << c.M << " N=" << c.N << " cluster " << c.cm << "x" << c.cn << " clusters " << c.clusters);
    const auto walk = scheduler::DataParallel::make(TileGrid{c.M, c.N, 1000, c.tile_m, c.tile_n, 64, c.cm, c.cn}, c.clusters);
    const std::int64_t tiles_m = (c.M + c.tile_m - 1) / c.tile_m, tiles_n = (c.N + c.tile_n - 1) / c.tile_n;
    std::map<std::pair<int, int>, int> count;
    std::int64_t units = 0;
    for (int cluster = 0; cluster < c.clusters; ++cluster) {
      units += walk.units_of(cluster);
      for (int j = 0; j < walk.units_of(cluster); ++j) {
        for (int cm = 0; cm < c.cm; ++cm) {
          for (int cn = 0; cn < c.cn; ++cn) {
            const WorkUnit u = walk.unit(cluster, j, cm, cn);
            REQUIRE(u.k_begin == 0);
            REQUIRE(u.k_end == 16);  // ceil(1000 / 64)
            REQUIRE(walk.k_tiles_before(cluster, j) == std::int64_t(j) * 16);
            ++count[{u.m, u.n}];
          }
        }
      }
    }
    CHECK(units == walk.units());
    for (std::int64_t m = 0; m < tiles_m; ++m) {
      for (std::int64_t n = 0; n < tiles_n; ++n) REQUIRE(count[{int(m), int(n)}] == 1);
    }
    // Tiles past the matrix appear only where the cluster does not divide the tile grid.
    for (const auto& kv : count) {
      if (kv.first.first >= tiles_m || kv.first.second >= tiles_n) {
        CHECK((tiles_m % c.cm != 0 || tiles_n % c.cn != 0));
      }
    }
  }
}

TEST_CASE("SplitKSlices gives every tile's K tiles to exactly one unit per slice", "[gemm][scheduler]") {
  for (int M : {1, 33, 300}) {
    for (int N : {17, 256}) {
      for (int K : {1, 64, 3001}) {
        const TileGrid g{M, N, K, 128, 128, 16};
        const int sms = 132;
        const SplitK split = choose_split_k(scheduler::DataParallel::units(g), g.k_tiles(), sms);
        const auto s = scheduler::SplitKSlices::make(g, split);
        INFO("M=" << M << " N=" << N << " K=" << K << " splits " << split.splits);
        REQUIRE(s.units() == scheduler::SplitKSlices::units(g, split));
        std::map<std::pair<int, int>, std::vector<int>> covered;  // tile -> K tiles, in unit order
        for (int w = 0; w < s.units(); ++w) {
          REQUIRE(s.units_of(w) == 1);
          const WorkUnit u = s.unit(w, 0, 0, 0);
          REQUIRE(u.slice >= 0);
          REQUIRE(u.slice < split.splits);
          REQUIRE(u.k_begin < u.k_end);  // no slice is empty
          for (int kt = u.k_begin; kt < u.k_end; ++kt) covered[{u.m, u.n}].push_back(kt);
        }
        REQUIRE(s.units_of(int(s.units())) == 0);
        REQUIRE(std::int64_t(covered.size()) == scheduler::DataParallel::units(g));
        for (auto& kv : covered) {
          std::sort(kv.second.begin(), kv.second.end());
          REQUIRE(int(kv.second.size()) == g.k_tiles());
          for (int i = 0; i < g.k_tiles(); ++i) REQUIRE(kv.second[i] == i);
        }
        const std::size_t ws = s.workspace_bytes(1000, 0);
        CHECK(ws == (split.splits > 1 ? std::size_t(split.splits) * 1000 : 0));
      }
    }
  }
}
