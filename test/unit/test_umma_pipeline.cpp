// The order of the Blackwell kernel's hand-offs, on the host: a model of its mbarriers (arrival
// counts, transaction bytes, phase parities) and of the waits and arrivals each role performs
// (gemm/umma/kernel.hpp, umma/mainloop.hpp, the shared TMA producer), with
// the shipped configurations' arrival counts (UmmaConfig::kStageReleases,
// kAccumulatorReleases) and stage bytes. Every role runs its whole persistent walk in many
// random interleavings; the model fails on a deadlock, on a stage overwritten before the MMA
// read it, on an MMA that reads a stage before its bytes landed, on an accumulator buffer
// overwritten before every epilogue warp read it, or read before its tile was complete.
// No Blackwell GPU has run the kernel; this checks the protocol, not the hardware.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/umma/smem_plan.hpp"
#include "umma_configs.hpp"

using namespace tessera;

namespace {

// An mbarrier: a phase completes when its pending arrivals reach 0 with no transaction bytes
// outstanding (bytes may land before they are announced: tx goes below 0 meanwhile).
struct Barrier {
  int count = 1, pending = 1, completed = 0;
  long tx = 0;
  void init(int n) { count = pending = n; }
  void settle() {
    if (pending == 0 && tx == 0) {
      ++completed;
      pending = count;
    }
  }
  // try_wait.parity: true once the phase of this parity has completed.
  bool passed(std::uint32_t parity) const { return std::uint32_t(completed & 1) != parity; }
};

enum class Kind { kWait, kArrive, kExpect, kBytes, kWriteStage, kReadStage, kStartTile, kEndTile, kReadTile };
struct Op {
  Kind kind;
  int bar = 0;              // barrier index (kWait, kArrive, kExpect, kBytes); kWriteStage: the part
  std::uint32_t parity = 0;  // kWait
  long bytes = 0;           // kExpect, kBytes
  int cta = 0, index = 0;   // stage or buffer of a CTA
  int tag = 0;              // the K tile (linear) or the output tile
};

struct Params {
  int ctas, cluster_m, cluster_n, stages, buffers, units, k_tiles;
  bool pair;
  int stage_releases, accumulator_releases;
  long bytes_a, bytes_b;  // one CTA's stage: its A tile and its B stage tile
};

struct Model {
  Params p;
  std::vector<Barrier> bars;
  std::vector<std::vector<Op>> roles;
  // Stage contents: the K tile each part of a CTA's stage holds; what its reader consumed.
  std::vector<std::vector<std::vector<int>>> stage;  // [cta][stage][part]
  std::vector<std::vector<int>> consumed;            // [cta][stage]
  std::vector<std::vector<int>> tile_in, tile_done, tile_read, reads;  // [cta][buffer]
  std::string error;

  int full(int c, int s) const { return c * per_cta() + s; }
  int empty(int c, int s) const { return c * per_cta() + p.stages + s; }
  int acc_full(int c, int b) const { return c * per_cta() + 2 * p.stages + b; }
  int acc_empty(int c, int b) const { return c * per_cta() + 2 * p.stages + p.buffers + b; }
  int per_cta() const { return 2 * p.stages + 2 * p.buffers; }
  int parts() const { return p.cluster_n + p.cluster_m; }  // A slices, then B slices
  // ClusterPosition: rank = cm + kM cn; the CTAs sharing A (same cm) and B (same cn).
  std::vector<int> a_group(int c) const {
    std::vector<int> g;
    for (int j = 0; j < p.cluster_n; ++j) g.push_back(c % p.cluster_m + p.cluster_m * j);
    return g;
  }
  std::vector<int> b_group(int c) const {
    std::vector<int> g;
    for (int i = 0; i < p.cluster_m; ++i) g.push_back(i + p.cluster_m * (c / p.cluster_m));
    return g;
  }

  explicit Model(const Params& params) : p(params) {
    bars.resize(std::size_t(p.ctas * per_cta()));
    for (int c = 0; c < p.ctas; ++c) {
      for (int s = 0; s < p.stages; ++s) bars[std::size_t(empty(c, s))].init(p.stage_releases);
      for (int b = 0; b < p.buffers; ++b) bars[std::size_t(acc_empty(c, b))].init(p.accumulator_releases);
    }
    stage.assign(std::size_t(p.ctas), std::vector<std::vector<int>>(std::size_t(p.stages),
                                                                    std::vector<int>(std::size_t(parts()), -1)));
    consumed.assign(std::size_t(p.ctas), std::vector<int>(std::size_t(p.stages), -1));
    const auto per_buffer = std::vector<std::vector<int>>(std::size_t(p.ctas), std::vector<int>(std::size_t(p.buffers), -1));
    tile_in = tile_done = tile_read = per_buffer;
    reads.assign(std::size_t(p.ctas), std::vector<int>(std::size_t(p.buffers), 0));
    for (int c = 0; c < p.ctas; ++c) roles.push_back(producer(c));
    for (int c = 0; c < p.ctas; ++c) {
      if (!p.pair || c % 2 == 0) roles.push_back(mma(c));
      for (int w = 0; w < 4; ++w) roles.push_back(epilogue(c));
    }
  }

  // TmaProducer::run: wait for the free stage, announce its bytes, issue the copies.
  std::vector<Op> producer(int c) const {
    std::vector<Op> ops;
    for (int n = 0; n < p.units * p.k_tiles; ++n) {
      const int s = n % p.stages;
      const std::uint32_t phase = std::uint32_t((n / p.stages) & 1);
      ops.push_back({Kind::kWait, empty(c, s), phase ^ 1u});
      if (p.pair) {
        const int leader = c & ~1;
        if (c == leader) ops.push_back({Kind::kExpect, full(leader, s), 0, 2 * (p.bytes_a + p.bytes_b)});
        ops.push_back({Kind::kWriteStage, 0, 0, 0, c, s, n});  // both parts, this CTA only
        ops.push_back({Kind::kBytes, full(leader, s), 0, p.bytes_a + p.bytes_b});
      } else {
        ops.push_back({Kind::kExpect, full(c, s), 0, p.bytes_a + p.bytes_b});
        for (int d : a_group(c)) {  // this CTA's slice of A, into every CTA that shares it
          ops.push_back({Kind::kWriteStage, c / p.cluster_m, 0, 0, d, s, n});
          ops.push_back({Kind::kBytes, full(d, s), 0, p.bytes_a / p.cluster_n});
        }
        for (int d : b_group(c)) {
          ops.push_back({Kind::kWriteStage, p.cluster_n + c % p.cluster_m, 0, 0, d, s, n});
          ops.push_back({Kind::kBytes, full(d, s), 0, p.bytes_b / p.cluster_m});
        }
      }
    }
    return ops;
  }

  // UmmaGemmKernel::issue and UmmaMainloop::tile.
  std::vector<Op> mma(int c) const {
    std::vector<Op> ops;
    std::vector<int> writes = {c}, releases;
    if (p.pair) {
      writes = {c, c + 1};
      releases = {c, c + 1};
    } else {
      for (int d : a_group(c)) releases.push_back(d);
      for (int d : b_group(c)) {
        if (d != c) releases.push_back(d);
      }
    }
    int n = 0;
    for (int j = 0; j < p.units; ++j) {
      const int b = j % p.buffers;
      const std::uint32_t phase = std::uint32_t((j / p.buffers) & 1);
      ops.push_back({Kind::kWait, acc_empty(c, b), phase ^ 1u});
      for (int d : writes) ops.push_back({Kind::kStartTile, 0, 0, 0, d, b, j});
      for (int kt = 0; kt < p.k_tiles; ++kt, ++n) {
        const int s = n % p.stages;
        ops.push_back({Kind::kWait, full(c, s), std::uint32_t((n / p.stages) & 1)});
        for (int d : writes) ops.push_back({Kind::kReadStage, 0, 0, 0, d, s, n});
        for (int d : releases) ops.push_back({Kind::kArrive, empty(d, s)});
      }
      for (int d : writes) {
        ops.push_back({Kind::kEndTile, 0, 0, 0, d, b, j});
        ops.push_back({Kind::kArrive, acc_full(d, b)});
      }
    }
    return ops;
  }

  // One epilogue warp: wait for the buffer's tile, read it, free it (a pair's: the leader's).
  std::vector<Op> epilogue(int c) const {
    std::vector<Op> ops;
    for (int j = 0; j < p.units; ++j) {
      const int b = j % p.buffers;
      ops.push_back({Kind::kWait, acc_full(c, b), std::uint32_t((j / p.buffers) & 1)});
      ops.push_back({Kind::kReadTile, 0, 0, 0, c, b, j});
      ops.push_back({Kind::kArrive, acc_empty(p.pair ? (c & ~1) : c, b)});
    }
    return ops;
  }

  bool fail(const std::string& what) {
    if (error.empty()) error = what;
    return false;
  }

  // Executes op unless it is a wait that cannot pass; false when it cannot run.
  bool step(const Op& op) {
    Barrier* bar = &bars[std::size_t(op.bar)];
    const auto c = std::size_t(op.cta), i = std::size_t(op.index);
    switch (op.kind) {
      case Kind::kWait: return bar->passed(op.parity);
      case Kind::kArrive: --bar->pending; bar->settle(); return true;
      case Kind::kExpect: bar->tx += op.bytes; --bar->pending; bar->settle(); return true;
      case Kind::kBytes: bar->tx -= op.bytes; bar->settle(); return true;
      case Kind::kWriteStage: {
        if (op.tag >= p.stages && consumed[c][i] < op.tag - p.stages) return fail("a stage was refilled before the MMA read it");
        if (p.pair) {
          for (int& part : stage[c][i]) part = op.tag;
        } else {
          stage[c][i][std::size_t(op.bar)] = op.tag;
        }
        return true;
      }
      case Kind::kReadStage:
        for (int part : stage[c][i]) {
          if (part != op.tag) return fail("the MMA read a stage whose bytes had not all landed");
        }
        consumed[c][i] = op.tag;
        return true;
      case Kind::kStartTile:
        if (op.tag >= p.buffers && tile_read[c][i] < op.tag - p.buffers) {
          return fail("an accumulator buffer was overwritten before every epilogue warp read it");
        }
        tile_in[c][i] = op.tag;
        return true;
      case Kind::kEndTile: tile_done[c][i] = op.tag; return true;
      case Kind::kReadTile:
        if (tile_done[c][i] != op.tag || tile_in[c][i] != op.tag) return fail("an epilogue read an unfinished tile");
        if (++reads[c][i] == 4) {
          reads[c][i] = 0;
          tile_read[c][i] = op.tag;
        }
        return true;
    }
    return false;
  }

  // Runs every role to its end, picking among the runnable ones at random.
  bool run(unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::size_t> pc(roles.size(), 0);
    for (;;) {
      std::vector<std::size_t> ready;
      bool all_done = true;
      for (std::size_t r = 0; r < roles.size(); ++r) {
        if (pc[r] == roles[r].size()) continue;
        all_done = false;
        const Op& op = roles[r][pc[r]];
        if (op.kind != Kind::kWait || bars[std::size_t(op.bar)].passed(op.parity)) ready.push_back(r);
      }
      if (all_done) return error.empty();
      if (ready.empty()) return fail("deadlock: every unfinished role waits");
      const std::size_t r = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng)];
      if (!step(roles[r][pc[r]++])) return false;
    }
  }
};

template <class Config>
Params params_of(int units, int k_tiles) {
  using Cluster = typename Config::Cluster;
  return {Cluster::kSize, Cluster::kM, Cluster::kN, Config::kStages, Config::kAccumulatorBuffers, units, k_tiles,
          Config::kCtaPair, Config::kStageReleases, Config::kAccumulatorReleases,
          long(Config::TileA::kBytes), long(Config::TileB::kBytes)};
}

template <class Config>
void run_walks() {
  for (int units : {1, 2, 5}) {
    for (int k_tiles : {1, 3, 9}) {
      for (unsigned seed = 0; seed < 40; ++seed) {
        Model m(params_of<Config>(units, k_tiles));
        INFO("units " << units << " K tiles " << k_tiles << " seed " << seed);
        const bool ok = m.run(seed);
        INFO(m.error);
        REQUIRE(ok);
      }
    }
  }
}

}  // namespace

TEST_CASE("pipeline hand-offs: one CTA, two accumulator buffers", "[umma][pipeline]") {
  run_walks<examples::umma::Tn>();
  run_walks<examples::umma::NnF32>();
}

TEST_CASE("pipeline hand-offs: one CTA per MMA in a 2x1 multicast cluster", "[umma][pipeline]") {
  run_walks<examples::umma::Multicast>();
  run_walks<gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                             gemm::option::Tile<GemmShape<128, 128, 64>>, gemm::option::Cluster<2, 2>>>();
}

TEST_CASE("pipeline hand-offs: a CTA pair", "[umma][pipeline]") {
  run_walks<examples::umma::Pair>();
  run_walks<gemm::UmmaConfig<half_t, RowMajor, half_t, RowMajor, half_t, RowMajor,
                             gemm::option::Tile<GemmShape<256, 128, 64>>,
                             gemm::option::CtaGroup<gemm::CtaPair>, gemm::option::AccumulatorBuffers<1>>>();
}

TEST_CASE("the pipeline model catches wrong arrival counts", "[umma][pipeline]") {
  // Each mutation breaks one count the kernel takes from the configuration; the model must
  // notice (else these tests could not fail).
  auto fails_somewhere = [](Params p) {
    for (unsigned seed = 0; seed < 200; ++seed) {
      Model m(p);
      if (!m.run(seed)) return true;
    }
    return false;
  };
  Params pair = params_of<examples::umma::Pair>(4, 3);
  pair.accumulator_releases = 4;  // only the leader's epilogue warps awaited
  CHECK(fails_somewhere(pair));
  Params multicast = params_of<examples::umma::Multicast>(4, 3);
  multicast.stage_releases = 1;  // a stage freed when only one of the two MMAs read it
  CHECK(fails_somewhere(multicast));
  Params single = params_of<examples::umma::Tn>(4, 3);
  single.stage_releases = 2;  // a stage no one frees
  CHECK(fails_somewhere(single));
}
