// The arguments of the two tensor-parallel operations, and the checks every rank makes
// before any rank moves data. NCCL-free and GPU-free (host unit tests use it directly).
//
// All-gather + GEMM (column-parallel layer after a sequence-parallel region):
//   D[M, N] = allgather_rows(A_shard)[M, K] @ W[K, N]     on every rank, W and D its own.
// GEMM + reduce-scatter (row-parallel layer before a sequence-parallel region):
//   D_shard[rows, N] = rows of this rank in sum over ranks q of (A_q[M, K_q] @ W_q[K_q, N]).
// Rows are split by tp::shard_rows (plan.hpp); `rows` must be this rank's share, so that a
// call planned for another number of ranks is refused by name (kErrorShardRows).
//
// A refusal must not hang the other ranks: every rank first exchanges a small record (its
// own Status and its shapes, Handshake below) over the communicator, and every rank then
// returns an error without launching anything if any rank refused or the shapes disagree.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/status.hpp"
#include "tessera/tp/plan.hpp"

namespace tessera::tp {

template <class ElementA, class ElementB, class ElementD>
struct AllGatherGemmArguments {
  int ranks = 0;                      // ranks the layer is planned for (the communicator's size)
  std::int64_t M = 0, N = 0, K = 0;   // M: rows of the whole A; N: this rank's columns of W and D
  std::int64_t rows = 0;              // this rank's rows of A: shard_rows(M, ranks, rank)
  const ElementA* A_shard = nullptr;  // rows x K, row-major, packed (row stride K)
  const ElementB* W = nullptr;        // K x N, in the GEMM configuration's layout of B
  std::int64_t ldw = 0;
  ElementD* D = nullptr;              // M x N, in the configuration's layout of C
  std::int64_t ldd = 0;
  ElementA* A_gathered = nullptr;     // M x K row-major packed: the whole A after the call;
                                      // null: it is kept in the workspace instead
  float alpha = 1.0f;
};

template <class ElementA, class ElementB, class ElementD>
struct GemmReduceScatterArguments {
  int ranks = 0;                     // ranks the layer is planned for (the communicator's size)
  std::int64_t M = 0, N = 0, K = 0;  // K: this rank's slice of the contraction (may differ per rank)
  std::int64_t rows = 0;             // this rank's rows of D: shard_rows(M, ranks, rank)
  const ElementA* A = nullptr;       // M x K, in the configuration's layout of A
  std::int64_t lda = 0;
  const ElementB* W = nullptr;       // K x N, in the configuration's layout of B
  std::int64_t ldw = 0;
  ElementD* D_shard = nullptr;       // rows x N row-major: this rank's rows of the sum
  std::int64_t ldd = 0;
  float alpha = 1.0f;                // applied to each rank's partial before the sum
};

// ---- workspace ----------------------------------------------------------------------------

// All-gather + GEMM: the gathered A, when A_gathered does not hold it.
template <class EA, class EB, class ED>
std::size_t workspace_size(const AllGatherGemmArguments<EA, EB, ED>& a) {
  if (a.A_gathered != nullptr || a.M <= 0 || a.K <= 0) return 0;
  return std::size_t(a.M) * std::size_t(a.K) * sizeof(EA);
}

// GEMM + reduce-scatter: this rank's fp32 partial of all M rows, then one receive buffer of
// its shard's rows per peer. Each part starts on a 256-byte boundary (TMA, NCCL).
constexpr std::size_t align_up(std::size_t x, std::size_t a) { return (x + a - 1) / a * a; }

struct ReduceScatterLayout {
  std::size_t partial_bytes = 0;  // M x N floats
  std::size_t receive_bytes = 0;  // rows x N floats, per peer
  std::size_t total = 0;
  std::size_t receive_offset(int slot) const { return align_up(partial_bytes, 256) + std::size_t(slot) * align_up(receive_bytes, 256); }
};

inline ReduceScatterLayout reduce_scatter_layout(std::int64_t M, std::int64_t N, std::int64_t rows, int ranks) {
  ReduceScatterLayout l;
  if (M <= 0 || N <= 0 || ranks <= 0) return l;
  l.partial_bytes = std::size_t(M) * std::size_t(N) * sizeof(float);
  l.receive_bytes = std::size_t(rows > 0 ? rows : 0) * std::size_t(N) * sizeof(float);
  l.total = align_up(l.partial_bytes, 256) + std::size_t(ranks - 1) * align_up(l.receive_bytes, 256);
  return l;
}

template <class EA, class EB, class ED>
std::size_t workspace_size(const GemmReduceScatterArguments<EA, EB, ED>& a) {
  return reduce_scatter_layout(a.M, a.N, a.rows, a.ranks).total;
}

// ---- this rank's checks (the GEMM's own checks are the operation's) -------------------------

template <class EA, class EB, class ED>
Status check_local(const AllGatherGemmArguments<EA, EB, ED>& a, int comm_size, int rank,
                   std::size_t workspace_bytes, const void* workspace) {
  if (a.ranks != comm_size) return Status::kErrorCommunicatorSize;
  if (a.M < 0 || a.N < 0 || a.K < 0 || a.rows < 0) return Status::kErrorNegativeSize;
  if (a.rows != shard_rows(a.M, comm_size, rank)) return Status::kErrorShardRows;
  if (a.A_shard == nullptr && a.rows > 0 && a.K > 0) return Status::kErrorNullA;
  const std::size_t need = workspace_size(a);
  if (need > 0 && (workspace == nullptr || workspace_bytes < need)) return Status::kErrorTpWorkspaceTooSmall;
  return Status::kSuccess;
}

template <class EA, class EB, class ED>
Status check_local(const GemmReduceScatterArguments<EA, EB, ED>& a, int comm_size, int rank,
                   std::size_t workspace_bytes, const void* workspace) {
  if (a.ranks != comm_size) return Status::kErrorCommunicatorSize;
  if (a.M < 0 || a.N < 0 || a.K < 0 || a.rows < 0) return Status::kErrorNegativeSize;
  if (a.rows != shard_rows(a.M, comm_size, rank)) return Status::kErrorShardRows;
  if (a.D_shard == nullptr && a.rows > 0 && a.N > 0) return Status::kErrorNullD;
  if (a.rows > 0 && a.ldd < a.N) return Status::kErrorLeadingDimD;
  const std::size_t need = workspace_size(a);
  if (need > 0 && (workspace == nullptr || workspace_bytes < need)) return Status::kErrorTpWorkspaceTooSmall;
  return Status::kSuccess;
}

// ---- the handshake ------------------------------------------------------------------------

enum class Operation : std::int64_t { kAllGatherGemm = 1, kGemmReduceScatter = 2 };

// What each rank tells the others before anything moves: its Status and what every rank must
// agree on (M, and K for all-gather + GEMM, whose ranks exchange rows of A; N for GEMM +
// reduce-scatter, whose ranks sum M x N partials).
struct Handshake {
  static constexpr int kWords = 4;
  std::int64_t status = 0, operation = 0, M = 0, shared_dim = 0;
};

template <class EA, class EB, class ED>
Handshake handshake_of(const AllGatherGemmArguments<EA, EB, ED>& a, Status local) {
  return {std::int64_t(local), std::int64_t(Operation::kAllGatherGemm), a.M, a.K};
}
template <class EA, class EB, class ED>
Handshake handshake_of(const GemmReduceScatterArguments<EA, EB, ED>& a, Status local) {
  return {std::int64_t(local), std::int64_t(Operation::kGemmReduceScatter), a.M, a.N};
}

// The Status every rank returns, from every rank's record (records[q] is rank q's): this
// rank's own refusal first, then any other rank's (kErrorPeerRefused), then disagreement
// (kErrorRanksDisagree). All ranks see the same records, so all go ahead or none does.
inline Status evaluate_handshake(const Handshake* records, int ranks, int rank) {
  if (records[rank].status != std::int64_t(Status::kSuccess)) return Status(records[rank].status);
  for (int q = 0; q < ranks; ++q) {
    if (records[q].status != std::int64_t(Status::kSuccess)) return Status::kErrorPeerRefused;
  }
  for (int q = 1; q < ranks; ++q) {
    if (records[q].operation != records[0].operation || records[q].M != records[0].M ||
        records[q].shared_dim != records[0].shared_dim) {
      return Status::kErrorRanksDisagree;
    }
  }
  return Status::kSuccess;
}

}  // namespace tessera::tp
