// Host-only planning of the tensor-parallel operations (all-gather + GEMM, GEMM +
// reduce-scatter): how M's rows are split over the ranks, which peer each rank sends to and
// receives from at each step, the order of the GEMMs, and the rule that chooses between the
// overlapped pipeline and the serial fallback. Needs neither NCCL nor a GPU, so every rule
// here is unit-tested on the host (test/tp/test_tp_plan.cpp).
//
// The exchange is a sequence of point-to-point steps. At step k (1 <= k < P) rank r sends to
// rank (r + k) % P and receives from rank (r - k) % P: every rank sends one block and receives
// one block per step, so on a switched fabric (NVLink/NVSwitch) all P links of a step carry
// data at once, and the k-th block a rank receives is ready after k steps whatever P is.
//   all-gather + GEMM: rank r multiplies its own shard first (no wait), then shard
//                      (r - k) % P as soon as step k has brought it;
//   GEMM + reduce-scatter: rank r first computes the rows of shard (r + 1) % P, the rows it
//                      sends at step 1, then those of step 2..., its own rows last (they are
//                      sent nowhere); every rank sums the P partials of its shard in rank
//                      order 0, 1, ..., P-1 (a fixed order: the same bits every run).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tp {

// ---- how M's rows are split ---------------------------------------------------------------

// Rows of rank r's shard: the first M % P ranks hold ceil(M / P) rows, the others floor(M / P)
// (M < P leaves the last ranks with none).
constexpr std::int64_t shard_rows(std::int64_t M, int ranks, int rank) {
  return M / ranks + (rank < M % ranks ? 1 : 0);
}

// The first row of rank r's shard in the whole M.
constexpr std::int64_t shard_offset(std::int64_t M, int ranks, int rank) {
  const std::int64_t base = M / ranks, extra = M % ranks;
  return base * rank + (rank < extra ? rank : extra);
}

// ---- the steps ----------------------------------------------------------------------------

struct Step {
  int k = 0;          // 0: the rank's own block (no transfer)
  int send_to = 0;    // the rank this one sends its block to at step k
  int recv_from = 0;  // the rank this one receives a block from at step k
};

constexpr int mod_ranks(int x, int ranks) { return ((x % ranks) + ranks) % ranks; }

constexpr Step exchange_step(int ranks, int rank, int k) {
  return Step{k, mod_ranks(rank + k, ranks), mod_ranks(rank - k, ranks)};
}

// All-gather + GEMM on rank r: the shards in the order its GEMMs run (own first, then the
// shard step k receives, k = 1..P-1).
inline std::vector<int> all_gather_gemm_order(int ranks, int rank) {
  std::vector<int> order;
  for (int k = 0; k < ranks; ++k) order.push_back(exchange_step(ranks, rank, k).recv_from);
  return order;
}

// GEMM + reduce-scatter on rank r: the row blocks (named by the rank that owns them) in the
// order its GEMMs compute them: the block step k sends (k = 1..P-1), then its own.
inline std::vector<int> gemm_reduce_scatter_order(int ranks, int rank) {
  std::vector<int> order;
  for (int k = 1; k < ranks; ++k) order.push_back(exchange_step(ranks, rank, k).send_to);
  order.push_back(rank);
  return order;
}

// GEMM + reduce-scatter: where the partial of peer q for this rank's shard lands. The own
// partial stays in the partial buffer; peer q's (q != r) arrives at step k = (r - q) % P, in
// receive buffer k - 1.
constexpr int receive_slot(int ranks, int rank, int peer) { return mod_ranks(rank - peer, ranks) - 1; }

// ---- overlapped or serial -----------------------------------------------------------------

enum class Mode { kAuto, kOverlapped, kSerial };
enum class ModeReason { kForced, kOneRank, kSmallShards, kOverlap };

// What a caller may ask of an operation.
struct Options {
  Mode mode = Mode::kAuto;  // kOverlapped / kSerial force one path (tests, benchmarks)
};

struct ModeChoice {
  Mode mode = Mode::kSerial;
  ModeReason reason = ModeReason::kOneRank;
};

// The rule (a design choice, not a threshold taken from benchmarks). The overlapped pipeline runs one GEMM
// per shard; the serial fallback runs the whole exchange, then one GEMM over all M rows.
//   one rank:            nothing to exchange, so nothing to overlap: serial (one GEMM);
//   shards under 128 rows (ceil(M / P) < kMinOverlapRows): each per-shard GEMM is less than
//                        one row of the 128-row tiles the large GEMM configurations use, so
//                        splitting M multiplies launches and half-empty tile rows while the
//                        transfer it would hide is small: serial;
//   otherwise:           overlapped.
struct ModeRule {
  static constexpr std::int64_t kMinOverlapRows = 128;

  static ModeChoice choose(std::int64_t M, int ranks, Mode requested = Mode::kAuto) {
    if (requested != Mode::kAuto) return {requested, ModeReason::kForced};
    if (ranks <= 1) return {Mode::kSerial, ModeReason::kOneRank};
    if (shard_rows(M, ranks, 0) < kMinOverlapRows) return {Mode::kSerial, ModeReason::kSmallShards};
    return {Mode::kOverlapped, ModeReason::kOverlap};
  }
};

inline const char* mode_name(Mode m) {
  switch (m) {
    case Mode::kAuto: return "auto";
    case Mode::kOverlapped: return "overlapped";
    case Mode::kSerial: return "serial";
  }
  return "unknown";
}

// "overlapped, because ..." in words.
inline std::string explain_mode(std::int64_t M, int ranks, ModeChoice c) {
  std::string s = mode_name(c.mode);
  s += ", because ";
  switch (c.reason) {
    case ModeReason::kForced:
      s += "the caller asked for it (Options::mode)";
      break;
    case ModeReason::kOneRank:
      s += "there is one rank: nothing to exchange, one GEMM";
      break;
    case ModeReason::kSmallShards:
      s += "the shards (" + std::to_string(shard_rows(M, ranks, 0)) + " rows at most) are under " +
           std::to_string(ModeRule::kMinOverlapRows) +
           " rows, less than one row of large tiles per GEMM: the exchange first, then one GEMM over all " +
           std::to_string(M) + " rows";
      break;
    case ModeReason::kOverlap:
      s += "the shards (" + std::to_string(shard_rows(M, ranks, 0)) + " rows at most) are at least " +
           std::to_string(ModeRule::kMinOverlapRows) + " rows: one GEMM per shard, each overlapping the transfer of another shard";
      break;
  }
  return s;
}

}  // namespace tessera::tp
