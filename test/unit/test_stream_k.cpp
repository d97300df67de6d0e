// scheduler::StreamK<> on the host: every K tile of every tile computed exactly once in every
// decomposition, over many shapes, tiles, clusters and worker counts; the fix-up's bookkeeping
// (slots, flags, peers, shares) simulated end to end with integer "accumulators"; the ring
// positions Pingpong consumers take; the host rule on the benchmark's shapes; the workspace
// (bound, too small, none); the launch tokens.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "tessera/gemm/scheduler/stream_k.hpp"

using namespace tessera::gemm;
using StreamK = scheduler::StreamK<>;

namespace {

struct Shape {
  std::int64_t M, N, K;
};
struct Tile {
  int m, n, k, cm, cn;
};

// A made plan with a workspace as large as the plan asks for (host memory: the simulation
// below only computes offsets into it).
StreamK attached(const TileGrid& g, int workers, Reducers reducers, std::vector<unsigned char>& memory,
                 const SplitRequest& request = {}) {
  StreamK s = StreamK::make(g, workers, request);
  s.reducers = reducers;
  const std::size_t need = s.workspace_bytes();
  memory.assign(need + 16, 0);
  FixupSpace space;
  space.base = need > 0 ? memory.data() : nullptr;
  space.bytes = need;
  space.token = 7;
  space.reducers = reducers;
  s.use_workspace(space);
  return s;
}

// Walks every unit of every worker (every CTA of each cluster) and runs the fix-up's
// bookkeeping with integers: a unit's "accumulator" of tile x is the sum over its K tiles k of
// value(x, k); partials go to their slots, reductions sum the peers' slots. At the end every
// tile must hold the sum over all its K tiles, written once (by its whole unit, or by the
// reducers' shares, which must partition the tile's lines exactly).
void simulate(const StreamK& s, const TileGrid& g) {
  const int k_tiles = g.k_tiles();
  const int lines = 64;  // a tile's lines, for the shares
  auto value = [](int m, int n, int k) { return std::int64_t(m) * 1000003 + std::int64_t(n) * 1009 + k + 1; };
  std::map<std::pair<int, int>, std::int64_t> result;
  std::map<std::pair<int, int>, std::vector<int>> lines_written;
  std::map<std::pair<int, int>, std::vector<int>> k_seen;
  std::map<std::tuple<int, int>, std::int64_t> slot_value;    // (slot, rank) -> partial
  std::map<std::tuple<int, int>, std::pair<int, int>> slot_tile;
  std::set<std::tuple<int, int, int>> flags_set;              // (slot, rank, reader)
  const std::int64_t slots = s.slots();
  // Every worker's units, then (kEveryPeer: after every worker's stores, as co-resident
  // workers may meet them; kLastPeer: right after the worker's own units, as the emulator runs
  // workers one after another) its reductions.
  auto run_units = [&](int w, int cm, int cn) {
    const int rank = s.cta_rank(cm, cn);
    std::int64_t ring = 0;
    for (int j = 0; j < s.units_of(w); ++j) {
      const WorkUnit u = s.unit(w, j, cm, cn);
      REQUIRE(s.k_tiles_before(w, j) == ring);
      ring += u.k_tiles();
      REQUIRE(u.k_begin >= 0);
      REQUIRE(u.k_begin < u.k_end);
      REQUIRE(u.k_end <= k_tiles);
      std::int64_t acc = 0;
      for (int k = u.k_begin; k < u.k_end; ++k) {
        acc += value(u.m, u.n, k);
        k_seen[{u.m, u.n}].push_back(k);
      }
      const int slot = s.partial_slot(w, j);
      if (slot < 0) {
        REQUIRE(u.k_begin == 0);
        REQUIRE(u.k_end == k_tiles);
        REQUIRE(result.count({u.m, u.n}) == 0);
        result[{u.m, u.n}] = acc;
        lines_written[{u.m, u.n}].assign(lines, 1);
        continue;
      }
      REQUIRE(s.fixup_active());
      REQUIRE(slot >= 0);
      REQUIRE(std::int64_t(slot) * s.cluster_size() + rank < slots);
      // A slot is written once.
      REQUIRE(slot_value.count({slot, rank}) == 0);
      slot_value[{slot, rank}] = acc;
      slot_tile[{slot, rank}] = {u.m, u.n};
      const int readers = s.readers_of_piece(w, j);
      REQUIRE(readers >= 1);
      REQUIRE(readers <= s.flag_stride);
      for (int r = 0; r < readers; ++r) REQUIRE(flags_set.insert({slot, rank, r}).second);
    }
  };
  auto run_reductions = [&](int w, int cm, int cn) {
    const int rank = s.cta_rank(cm, cn);
    for (int which = 0; which < 2; ++which) {
      if (!s.reduces(w, which)) continue;
      const TileReduction r = s.reduction(w, which, cm, cn);
      REQUIRE(r.peers >= 2);
      REQUIRE(r.reader >= 0);
      REQUIRE(r.reader < r.readers);
      if (s.reducers == Reducers::kLastPeer) {
        REQUIRE(r.readers == 1);
        // Every peer is a lower worker: the emulator runs them first.
        REQUIRE(r.next_slot + r.peers - 2 == w);
      }
      std::int64_t sum = 0;
      for (int p = 0; p < r.peers; ++p) {
        const int slot = p == 0 ? r.head_slot : r.next_slot + p - 1;
        INFO("worker " << w << " which " << which << " peer " << p << " slot " << slot);
        REQUIRE(slot_tile.count({slot, rank}) == 1);
        REQUIRE(slot_tile[{slot, rank}] == std::make_pair(r.m, r.n));
        // The flag this reader waits for was published, and is taken once.
        REQUIRE(flags_set.erase({slot, rank, r.reader}) == 1);
        sum += slot_value[{slot, rank}];
      }
      auto& written = lines_written[{r.m, r.n}];
      written.resize(lines, 0);
      const int begin = int(std::int64_t(r.reader) * lines / r.readers);
      const int end = int(std::int64_t(r.reader + 1) * lines / r.readers);
      for (int l = begin; l < end; ++l) ++written[std::size_t(l)];
      if (result.count({r.m, r.n})) {
        REQUIRE(result[{r.m, r.n}] == sum);  // every reader sums the same partials
      }
      result[{r.m, r.n}] = sum;
    }
  };
  const bool in_order = s.reducers == Reducers::kLastPeer;
  for (int w = 0; w < s.workers; ++w) {
    for (int cm = 0; cm < g.cluster_m; ++cm) {
      for (int cn = 0; cn < g.cluster_n; ++cn) {
        run_units(w, cm, cn);
        if (in_order) run_reductions(w, cm, cn);
      }
    }
  }
  for (int w = 0; w < s.workers && !in_order; ++w) {
    for (int cm = 0; cm < g.cluster_m; ++cm) {
      for (int cn = 0; cn < g.cluster_n; ++cn) run_reductions(w, cm, cn);
    }
  }
  // Every flag published was taken by its reader.
  REQUIRE(flags_set.empty());
  const std::int64_t tiles_m = (g.M + g.tile_m - 1) / g.tile_m, tiles_n = (g.N + g.tile_n - 1) / g.tile_n;
  for (int m = 0; m < tiles_m; ++m) {
    for (int n = 0; n < tiles_n; ++n) {
      INFO("tile " << m << "," << n);
      auto& ks = k_seen[{m, n}];
      REQUIRE(int(ks.size()) == k_tiles);
      std::sort(ks.begin(), ks.end());
      for (int k = 0; k < k_tiles; ++k) REQUIRE(ks[std::size_t(k)] == k);
      std::int64_t want = 0;
      for (int k = 0; k < k_tiles; ++k) want += value(m, n, k);
      REQUIRE(result.count({m, n}) == 1);
      REQUIRE(result[{m, n}] == want);
      for (int l = 0; l < lines; ++l) REQUIRE(lines_written[{m, n}][std::size_t(l)] == 1);
    }
  }
}

}  // namespace

TEST_CASE("StreamK covers every K tile of every tile exactly once, in every decomposition",
          "[gemm][scheduler][stream_k]") {
  const Shape shapes[] = {{1, 1, 1},       {7, 300, 64},     {128, 256, 64 * 37}, {256, 256, 65536},
                          {512, 512, 16384}, {1000, 1000, 1000}, {1024, 1024, 1024}, {4097, 129, 777},
                          {300, 4000, 2000}, {64, 64, 64 * 5}};
  const Tile tiles[] = {{128, 256, 64, 1, 1}, {128, 128, 64, 1, 1}, {64, 64, 32, 2, 1}, {128, 128, 64, 1, 2},
                        {256, 128, 64, 2, 2}};
  const int worker_counts[] = {1, 2, 3, 7, 13, 60, 66, 132};
  for (const Shape& sh : shapes) {
    for (const Tile& t : tiles) {
      const TileGrid g{sh.M, sh.N, sh.K, t.m, t.n, t.k, t.cm, t.cn};
      for (int workers : worker_counts) {
        for (Reducers reducers : {Reducers::kEveryPeer, Reducers::kLastPeer}) {
          INFO("M=" << sh.M << " N=" << sh.N << " K=" << sh.K << " tile " << t.m << "x" << t.n << "x" << t.k
                    << " cluster " << t.cm << "x" << t.cn << " workers " << workers << " last-peer "
                    << (reducers == Reducers::kLastPeer));
          std::vector<unsigned char> memory;
          {
            INFO("the rule's plan");
            simulate(attached(g, workers, reducers, memory), g);
          }
          {
            const StreamK s = attached(g, workers, reducers, memory, {Decomposition::kDataParallel});
            REQUIRE(s.plan.mode == Decomposition::kDataParallel);
            REQUIRE(!s.fixup_active());
            simulate(s, g);
          }
          for (int splits : {2, 3, 5, 64}) {
            INFO("split-K " << splits);
            const StreamK s = attached(g, workers, reducers, memory, {Decomposition::kSplitK, splits});
            if (s.plan.mode == Decomposition::kSplitK) {
              for (int w = 0; w < s.workers; ++w) REQUIRE(s.pieces_of(w) <= 1);
            }
            simulate(s, g);
          }
          {
            INFO("stream-K");
            simulate(attached(g, workers, reducers, memory, {Decomposition::kStreamK}), g);
          }
        }
      }
    }
  }
}

TEST_CASE("StreamK honours a call's request (Arguments::split)", "[gemm][scheduler][stream_k]") {
  // 8 tiles of 128x256 on 132 workers, 256 K tiles: every mode fits.
  const TileGrid g{512, 512, 16384, 128, 256, 64};
  CHECK(StreamK::make(g, 132).plan.mode == Decomposition::kSplitK);  // the rule's
  CHECK(StreamK::make(g, 132, {Decomposition::kDataParallel}).plan.mode == Decomposition::kDataParallel);
  CHECK(StreamK::make(g, 132, {Decomposition::kStreamK}).plan.mode == Decomposition::kStreamK);
  for (int splits : {2, 3, 5, 16}) {
    const StreamK s = StreamK::make(g, 132, {Decomposition::kSplitK, splits});
    CHECK(s.plan.mode == Decomposition::kSplitK);
    CHECK(s.plan.splits == splits);
    CHECK(s.plan.sk_workers == 8 * splits);
  }
  // More slices than the workers hold: as many as fit (132 / 8 = 16).
  CHECK(StreamK::make(g, 132, {Decomposition::kSplitK, 64}).plan.splits == 16);
}

TEST_CASE("StreamK data-parallel walks the tiles as DataParallel does", "[gemm][scheduler][stream_k]") {
  for (int workers : {1, 5, 66, 132}) {
    const TileGrid g{4097, 4095, 1000, 128, 256, 64, 2, 1};
    const StreamK s = StreamK::make(g, workers, {Decomposition::kDataParallel});
    const auto d = scheduler::DataParallel::make(g, workers);
    for (int w = 0; w < workers; ++w) {
      REQUIRE(s.units_of(w) == d.units_of(w));
      for (int j = 0; j < s.units_of(w); ++j) {
        for (int cm = 0; cm < 2; ++cm) {
          const WorkUnit a = s.unit(w, j, cm, 0), b = d.unit(w, j, cm, 0);
          REQUIRE(std::make_tuple(a.m, a.n, a.k_begin, a.k_end) == std::make_tuple(b.m, b.n, b.k_begin, b.k_end));
          REQUIRE(s.k_tiles_before(w, j) == d.k_tiles_before(w, j));
        }
      }
    }
  }
}

TEST_CASE("The host rule on the benchmark's shapes (132 workers, 128x256x64 tiles)", "[gemm][scheduler][stream_k]") {
  auto mode = [](std::int64_t M, std::int64_t N, std::int64_t K, int tile_n = 256) {
    const TileGrid g{M, N, K, 128, tile_n, 64};
    return StreamK::make(g, 132).plan.mode;
  };
  // Few tiles, deep K: split-K (one piece per worker, one partial each).
  CHECK(mode(256, 256, 65536) == Decomposition::kSplitK);
  CHECK(mode(512, 512, 16384) == Decomposition::kSplitK);
  CHECK(mode(1024, 1024, 32768) == Decomposition::kSplitK);
  // Few tiles, shallow K: the fix-up costs more than the idle SMs (measured: 24.5 us split
  // 4 ways, 16.3 us data-parallel at 1024^3 on an H100).
  CHECK(mode(1024, 1024, 1024) == Decomposition::kDataParallel);
  CHECK(mode(1000, 1000, 1000) == Decomposition::kDataParallel);
  CHECK(mode(1024, 1024, 1024, 128) == Decomposition::kDataParallel);
  // A wave and a twelfth (144 tiles): the full wave data-parallel, the other 12 tiles split 11 ways.
  CHECK(mode(2048, 2304, 4096) == Decomposition::kSplitK);
  const StreamK hybrid = StreamK::make(TileGrid{2048, 2304, 4096, 128, 256, 64}, 132);
  CHECK(hybrid.plan.dp_tiles == 132);
  CHECK(hybrid.plan.splits == 11);
  CHECK(hybrid.plan.sk_workers == 132);
  // Full machines, or too little K to cut: data-parallel.
  CHECK(mode(2048, 2048, 2048) == Decomposition::kDataParallel);
  CHECK(mode(4096, 4096, 4096) == Decomposition::kDataParallel);
  CHECK(mode(4096, 14336, 4096) == Decomposition::kDataParallel);
  CHECK(mode(8192, 8192, 1024) == Decomposition::kDataParallel);
  CHECK(mode(256, 256, 256) == Decomposition::kDataParallel);
  // Split-K on 512x512x16384: 8 tiles x 16 slices of 16 K tiles on 128 workers.
  const StreamK s = StreamK::make(TileGrid{512, 512, 16384, 128, 256, 64}, 132);
  CHECK(s.plan.splits == 16);
  CHECK(s.plan.granule == 16);
  CHECK(s.plan.sk_workers == 128);
}

TEST_CASE("StreamK's workspace: the bound covers fewer workers; too small or none runs data-parallel",
          "[gemm][scheduler][stream_k]") {
  for (const Shape& sh : {Shape{512, 512, 16384}, Shape{1024, 1024, 1024}, Shape{2048, 2304, 4096},
                          Shape{300, 4000, 2000}, Shape{4096, 4096, 4096}}) {
    for (int cm : {1, 2}) {
      const TileGrid g{sh.M, sh.N, sh.K, 128, 256, 64, cm, 1};
      const int max_workers = 132 / cm;
      const std::size_t bound = StreamK::workspace_bound(g, max_workers);
      for (int workers = 2; workers <= max_workers; ++workers) {
        for (Decomposition forced : {Decomposition::kSplitK, Decomposition::kStreamK}) {
          const SplitRequest request{forced, 4};
          StreamK s = StreamK::make(g, workers, request);
          if (StreamK::workspace_bound(g, max_workers, request) > 0) {
            INFO("workers " << workers);
            REQUIRE(s.workspace_bytes() <= StreamK::workspace_bound(g, max_workers, request));
          }
        }
        StreamK s = StreamK::make(g, workers);
        if (bound > 0) REQUIRE(s.workspace_bytes() <= bound);
      }
    }
  }
  const TileGrid g{512, 512, 16384, 128, 256, 64};
  StreamK s = StreamK::make(g, 132);
  REQUIRE(s.plan.mode == Decomposition::kSplitK);
  const std::size_t need = s.workspace_bytes();
  REQUIRE(need > 0);
  std::vector<unsigned char> memory(need + 16);
  unsigned char* aligned = memory.data() + (16 - reinterpret_cast<std::uintptr_t>(memory.data()) % 16) % 16;
  StreamK small = s;
  small.use_workspace(FixupSpace{aligned, need - 1, 5, Reducers::kEveryPeer});
  CHECK(small.plan.mode == Decomposition::kDataParallel);
  CHECK(!small.fixup_active());
  StreamK none = s;
  none.use_workspace(FixupSpace{});
  CHECK(none.plan.mode == Decomposition::kDataParallel);
  StreamK enough = s;
  enough.use_workspace(FixupSpace{aligned, need, 5, Reducers::kEveryPeer});
  CHECK(enough.plan.mode == Decomposition::kSplitK);
  CHECK(enough.fixup_active());
  CHECK(enough.token == 5);
  // A data-parallel plan needs nothing.
  CHECK(StreamK::workspace_bound(TileGrid{4096, 4096, 4096, 128, 256, 64}, 132) == 0);
}

TEST_CASE("Fix-up tokens are distinct and never 0", "[gemm][scheduler][stream_k]") {
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t t = next_fixup_token();
    REQUIRE(t != 0);
    REQUIRE(seen.insert(t).second);
  }
}
