#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "tessera/gemm/scheduler/split_k.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
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

TEST_CASE("StreamK<SecondKernel> gives every tile's K tiles to exactly one unit per slice, as the FMA rule cuts them",
          "[gemm][scheduler]") {
  using Sk = scheduler::StreamK<scheduler::reduce::SecondKernel>;
  for (int M : {1, 33, 300}) {
    for (int N : {17, 256}) {
      for (int K : {1, 64, 3001}) {
        for (int requested : {0, 2, 3, 64}) {
          const TileGrid g{M, N, K, 128, 128, 16};
          const int sms = 132;
          const std::int64_t tiles = scheduler::DataParallel::units(g);
          const SplitRequest request = requested == 0 ? SplitRequest{} : SplitRequest{Decomposition::kSplitK, requested};
          Sk s = Sk::make(g, sms, request);
          // The rule (or the request) decides the slices; the plan's slices are the rule's.
          const SplitK rule = choose_split_k(tiles, g.k_tiles(), sms);
          INFO("M=" << M << " N=" << N << " K=" << K << " requested " << requested << " plan splits "
                    << s.plan.splits);
          if (requested == 0) {
            REQUIRE(s.plan.splits == rule.splits);
            if (rule.splits > 1) REQUIRE(s.plan.granule == rule.k_tiles_per_split);
          }
          // With its workspace: a grid of tiles x slices, one unit each, every tile split.
          std::vector<unsigned char> memory(s.workspace_bytes() + 16);
          s.use_workspace(fixup_space(s.workspace_bytes() > 0 ? memory.data() : nullptr, s.workspace_bytes(), request));
          REQUIRE(s.workers == (s.fixup_active() ? tiles * s.plan.splits : tiles));
          std::map<std::pair<int, int>, std::vector<int>> covered;  // tile -> K tiles
          std::set<int> slots;
          for (int w = 0; w < s.workers; ++w) {
            REQUIRE(s.units_of(w) == 1);
            const WorkUnit u = s.unit(w, 0, 0, 0);
            REQUIRE(u.k_begin < u.k_end);  // no slice is empty
            for (int kt = u.k_begin; kt < u.k_end; ++kt) covered[{u.m, u.n}].push_back(kt);
            const int slot = s.partial_slot(w, 0);
            REQUIRE((slot >= 0) == s.fixup_active());
            if (slot >= 0) {
              REQUIRE(slots.insert(slot).second);  // distinct slots
              // Inside the workspace.
              REQUIRE(reinterpret_cast<unsigned char*>(s.partial(slot, 0) + 128 * 128) <=
                      memory.data() + s.workspace_bytes());
            }
          }
          REQUIRE(std::int64_t(covered.size()) == tiles);
          for (auto& kv : covered) {
            std::sort(kv.second.begin(), kv.second.end());
            REQUIRE(int(kv.second.size()) == g.k_tiles());
            for (int i = 0; i < g.k_tiles(); ++i) REQUIRE(kv.second[i] == i);
          }
          // The second kernel: one block per split tile, reading exactly that tile's slots, in
          // slice order.
          REQUIRE(s.split_tiles() == (s.fixup_active() ? tiles : 0));
          std::set<int> read;
          for (int t = 0; t < int(s.split_tiles()); ++t) {
            const TileReduction r = s.whole_reduction(t, 0, 0);
            REQUIRE(r.readers == 1);
            REQUIRE(r.peers == s.plan.splits);
            int k_expected = 0;
            for (int i = 0; i < r.peers; ++i) {
              const int slot = i == 0 ? r.head_slot : r.next_slot + i - 1;
              REQUIRE(read.insert(slot).second);
              const int w = t * s.plan.splits + i;  // the peer that wrote it
              REQUIRE(s.partial_slot(w, 0) == slot);
              const WorkUnit u = s.unit(w, 0, 0, 0);
              REQUIRE(std::make_pair(u.m, u.n) == std::make_pair(r.m, r.n));
              REQUIRE(u.k_begin == k_expected);
              k_expected = u.k_end;
            }
            REQUIRE(k_expected == g.k_tiles());
          }
          REQUIRE(read == slots);
        }
      }
    }
  }
}

TEST_CASE("StreamK<SecondKernel>: no workspace, or a data-parallel request, runs a block per tile unsplit",
          "[gemm][scheduler]") {
  using Sk = scheduler::StreamK<scheduler::reduce::SecondKernel>;
  const TileGrid g{256, 256, 16384, 128, 128, 16};
  Sk split = Sk::make(g, 132);
  REQUIRE(split.plan.mode == Decomposition::kSplitK);
  REQUIRE(Sk::workspace_bound(g, 132) == split.workspace_bytes());
  split.use_workspace(FixupSpace{});
  CHECK(!split.fixup_active());
  CHECK(split.workers == 4);
  CHECK(split.plan.mode == Decomposition::kDataParallel);
  const Sk dp = Sk::make(g, 132, {Decomposition::kDataParallel});
  CHECK(dp.plan.mode == Decomposition::kDataParallel);
  CHECK(dp.workspace_bytes() == 0);
  CHECK(Sk::workspace_bound(g, 132, {Decomposition::kDataParallel}) == 0);
  // A stream-K request is not something this medium can do: the rule's split.
  CHECK(Sk::make(g, 132, {Decomposition::kStreamK}).plan.splits == Sk::make(g, 132).plan.splits);
  CHECK(Sk::make(g, 132).plan.splits == 32);
}
