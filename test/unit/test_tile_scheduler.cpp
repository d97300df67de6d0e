#include <catch2/catch.hpp>

#include <set>
#include <utility>

#include "tessera/gemm/tile_scheduler.hpp"

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
