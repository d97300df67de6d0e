// The tensor-parallel layer's host-side logic (include/tessera/tp/plan.hpp, arguments.hpp):
// the row split, the exchange steps (every send meets the peer's receive, every block
// arrives once), the GEMM orders, the overlapped-or-serial rule and its explanation, the
// argument checks and the handshake's verdicts. A host simulation of both operations runs
// the plan on P simulated ranks with exact integer data. No NCCL, no GPU.
#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "tessera/tp/arguments.hpp"
#include "tessera/tp/plan.hpp"

using namespace tessera;
using namespace tessera::tp;

TEST_CASE("shard_rows and shard_offset split M into contiguous, nearly equal blocks", "[tp]") {
  for (int P = 1; P <= 9; ++P) {
    for (std::int64_t M : {0, 1, 2, 7, 8, 9, 127, 517, 1000, 4097}) {
      std::int64_t next = 0;
      for (int r = 0; r < P; ++r) {
        CHECK(shard_offset(M, P, r) == next);
        const std::int64_t rows = shard_rows(M, P, r);
        CHECK(rows >= M / P);
        CHECK(rows <= M / P + 1);
        if (r > 0) CHECK(rows <= shard_rows(M, P, r - 1));  // the larger shards first
        next += rows;
      }
      CHECK(next == M);
    }
  }
}

TEST_CASE("every step pairs each send with the peer's receive, and every block arrives once", "[tp]") {
  for (int P = 1; P <= 8; ++P) {
    for (int r = 0; r < P; ++r) {
      std::set<int> received{r};
      for (int k = 1; k < P; ++k) {
        const Step s = exchange_step(P, r, k);
        CHECK(s.send_to != r);
        CHECK(s.recv_from != r);
        // The rank this one sends to receives from this one at the same step.
        CHECK(exchange_step(P, s.send_to, k).recv_from == r);
        CHECK(exchange_step(P, s.recv_from, k).send_to == r);
        CHECK(received.insert(s.recv_from).second);
      }
      CHECK(int(received.size()) == P);
    }
  }
}

TEST_CASE("GEMM orders: all-gather starts on its own shard, reduce-scatter ends on its own block", "[tp]") {
  for (int P = 1; P <= 8; ++P) {
    for (int r = 0; r < P; ++r) {
      const std::vector<int> ag = all_gather_gemm_order(P, r), rs = gemm_reduce_scatter_order(P, r);
      REQUIRE(int(ag.size()) == P);
      REQUIRE(int(rs.size()) == P);
      CHECK(ag.front() == r);
      CHECK(rs.back() == r);
      // Each GEMM of the all-gather needs only what the steps up to its own have brought.
      for (int k = 1; k < P; ++k) CHECK(ag[std::size_t(k)] == exchange_step(P, r, k).recv_from);
      // Each block of the reduce-scatter is computed before the step that sends it.
      for (int k = 1; k < P; ++k) CHECK(rs[std::size_t(k - 1)] == exchange_step(P, r, k).send_to);
      CHECK(std::set<int>(ag.begin(), ag.end()).size() == std::size_t(P));
      CHECK(std::set<int>(rs.begin(), rs.end()).size() == std::size_t(P));
      for (int q = 0; q < P; ++q) {
        if (q == r) continue;
        const int slot = receive_slot(P, r, q);
        CHECK(slot >= 0);
        CHECK(slot < P - 1);
        CHECK(exchange_step(P, r, slot + 1).recv_from == q);
      }
    }
  }
}

TEST_CASE("the overlapped-or-serial rule and its explanation", "[tp]") {
  const std::int64_t T = ModeRule::kMinOverlapRows;
  CHECK(ModeRule::choose(4096, 1).mode == Mode::kSerial);
  CHECK(ModeRule::choose(4096, 1).reason == ModeReason::kOneRank);
  CHECK(ModeRule::choose(2 * T - 1, 2).mode == Mode::kOverlapped);  // shard 0 holds T rows
  CHECK(ModeRule::choose(2 * T - 2, 2).mode == Mode::kSerial);      // T - 1 rows each
  CHECK(ModeRule::choose(2 * T - 2, 2).reason == ModeReason::kSmallShards);
  CHECK(ModeRule::choose(8 * T, 8).mode == Mode::kOverlapped);
  CHECK(ModeRule::choose(8 * T, 8, Mode::kSerial).mode == Mode::kSerial);
  CHECK(ModeRule::choose(5, 8, Mode::kOverlapped).mode == Mode::kOverlapped);
  CHECK(ModeRule::choose(5, 8, Mode::kOverlapped).reason == ModeReason::kForced);
  const std::string small = explain_mode(100, 4, ModeRule::choose(100, 4));
  CHECK(small.find("serial") == 0);
  CHECK(small.find("25 rows") != std::string::npos);
  const std::string big = explain_mode(4096, 4, ModeRule::choose(4096, 4));
  CHECK(big.find("overlapped") == 0);
  CHECK(big.find("1024 rows") != std::string::npos);
}

using AgArgs = AllGatherGemmArguments<std::uint16_t, std::uint16_t, std::uint16_t>;
using RsArgs = GemmReduceScatterArguments<std::uint16_t, std::uint16_t, std::uint16_t>;

TEST_CASE("argument checks name the problem", "[tp]") {
  std::uint16_t buf[8] = {};
  alignas(16) char workspace[4096] = {};
  AgArgs a;
  a.ranks = 4;
  a.M = 9;
  a.N = 8;
  a.K = 16;
  a.rows = 3;  // rank 0 of 4: ceil(9 / 4)
  a.A_shard = buf;
  a.A_gathered = buf;
  CHECK(check_local(a, 4, 0, 0, nullptr) == Status::kSuccess);
  CHECK(check_local(a, 2, 0, 0, nullptr) == Status::kErrorCommunicatorSize);
  CHECK(check_local(a, 4, 3, 0, nullptr) == Status::kErrorShardRows);  // rank 3 holds 2
  AgArgs n = a;
  n.A_shard = nullptr;
  CHECK(check_local(n, 4, 0, 0, nullptr) == Status::kErrorNullA);
  n = a;
  n.M = -1;
  CHECK(check_local(n, 4, 0, 0, nullptr) == Status::kErrorNegativeSize);
  // Without A_gathered the workspace holds the whole A: M * K values.
  n = a;
  n.A_gathered = nullptr;
  CHECK(workspace_size(n) == 9 * 16 * sizeof(std::uint16_t));
  CHECK(check_local(n, 4, 0, 0, nullptr) == Status::kErrorTpWorkspaceTooSmall);
  CHECK(check_local(n, 4, 0, workspace_size(n) - 1, workspace) == Status::kErrorTpWorkspaceTooSmall);
  CHECK(check_local(n, 4, 0, workspace_size(n), workspace) == Status::kSuccess);

  RsArgs b;
  b.ranks = 2;
  b.M = 5;
  b.N = 3;
  b.K = 7;
  b.rows = 2;  // rank 1 of 2
  b.D_shard = buf;
  b.ldd = 3;
  const std::size_t need = workspace_size(b);
  // The partial (5 x 3 floats), then one receive buffer (2 x 3 floats), each 256-byte aligned.
  CHECK(need == 256 + 256);
  CHECK(check_local(b, 2, 1, need, workspace) == Status::kSuccess);
  CHECK(check_local(b, 2, 1, need - 1, workspace) == Status::kErrorTpWorkspaceTooSmall);
  CHECK(check_local(b, 2, 0, need, workspace) == Status::kErrorShardRows);
  CHECK(check_local(b, 3, 1, need, workspace) == Status::kErrorCommunicatorSize);
  RsArgs m = b;
  m.ldd = 2;
  CHECK(check_local(m, 2, 1, need, workspace) == Status::kErrorLeadingDimD);
  m = b;
  m.D_shard = nullptr;
  CHECK(check_local(m, 2, 1, need, workspace) == Status::kErrorNullD);
}

TEST_CASE("the handshake: every rank goes ahead or none does, each naming why", "[tp]") {
  const int P = 3;
  AgArgs a;
  a.M = 10;
  a.K = 4;
  std::vector<Handshake> records;
  for (int r = 0; r < P; ++r) records.push_back(handshake_of(a, Status::kSuccess));
  for (int r = 0; r < P; ++r) CHECK(evaluate_handshake(records.data(), P, r) == Status::kSuccess);

  auto refused = records;
  refused[1] = handshake_of(a, Status::kErrorShardRows);
  CHECK(evaluate_handshake(refused.data(), P, 0) == Status::kErrorPeerRefused);
  CHECK(evaluate_handshake(refused.data(), P, 1) == Status::kErrorShardRows);
  CHECK(evaluate_handshake(refused.data(), P, 2) == Status::kErrorPeerRefused);

  auto other_k = records;
  AgArgs b = a;
  b.K = 5;
  other_k[2] = handshake_of(b, Status::kSuccess);
  for (int r = 0; r < P; ++r) CHECK(evaluate_handshake(other_k.data(), P, r) == Status::kErrorRanksDisagree);

  // A rank calling the other operation with the same shapes.
  RsArgs c;
  c.M = 10;
  c.N = 4;
  auto other_op = records;
  other_op[0] = handshake_of(c, Status::kSuccess);
  for (int r = 0; r < P; ++r) CHECK(evaluate_handshake(other_op.data(), P, r) == Status::kErrorRanksDisagree);
}

TEST_CASE("the new Status codes have their own names and messages", "[tp]") {
  const Status codes[] = {Status::kErrorNccl,       Status::kErrorCommunicatorNull, Status::kErrorCommunicatorSize,
                          Status::kErrorShardRows,  Status::kErrorTpWorkspaceTooSmall, Status::kErrorRanksDisagree,
                          Status::kErrorPeerRefused};
  std::set<std::string> names, messages;
  for (Status s : codes) {
    names.insert(status_name(s));
    messages.insert(status_message(s));
    CHECK(std::string(status_name(s)) != "unknown Status");
  }
  CHECK(names.size() == std::size(codes));
  CHECK(messages.size() == std::size(codes));
  // ... and none repeats an older code's name or message (they are appended to the list).
  std::set<std::string> all_names, all_messages;
  for (int i = 0; i <= int(Status::kErrorPeerRefused); ++i) {
    all_names.insert(status_name(Status(i)));
    all_messages.insert(status_message(Status(i)));
  }
  CHECK(all_names.size() == std::size_t(int(Status::kErrorPeerRefused) + 1));
  CHECK(all_messages.size() == std::size_t(int(Status::kErrorPeerRefused) + 1));
}

// ---- the plan run on simulated ranks --------------------------------------------------------

// All-gather + GEMM with P ranks, exact integers: A is M x K, rank q's W_q is K x N_q (N
// differs per rank). Each rank's gathered A is assembled by the steps alone; each GEMM runs
// in all_gather_gemm_order, each reading only rows that have arrived by then.
TEST_CASE("simulated all-gather + GEMM: the plan's transfers and GEMMs give every rank A @ W_q", "[tp]") {
  for (int P : {1, 2, 3, 4, 7}) {
    for (std::int64_t M : {1, 5, 13}) {
      const std::int64_t K = 3;
      std::vector<std::int64_t> A(std::size_t(M * K));
      std::iota(A.begin(), A.end(), 1);
      std::vector<std::vector<std::int64_t>> gathered(std::size_t(P), std::vector<std::int64_t>(A.size(), -1));
      std::vector<std::vector<bool>> arrived(std::size_t(P), std::vector<bool>(std::size_t(P), false));
      auto deliver = [&](int to, int shard) {
        const std::int64_t off = shard_offset(M, P, shard), rows = shard_rows(M, P, shard);
        for (std::int64_t e = off * K; e < (off + rows) * K; ++e) gathered[std::size_t(to)][std::size_t(e)] = A[std::size_t(e)];
        arrived[std::size_t(to)][std::size_t(shard)] = true;
      };
      for (int r = 0; r < P; ++r) deliver(r, r);
      for (int k = 0; k < P; ++k) {
        // Step k: every rank q sends its own shard to send_to (k = 0: its own copy, above).
        for (int q = 0; q < P && k > 0; ++q) deliver(exchange_step(P, q, k).send_to, q);
        // Rank r's k-th GEMM reads a shard that has arrived by step k.
        for (int r = 0; r < P; ++r) REQUIRE(arrived[std::size_t(r)][std::size_t(all_gather_gemm_order(P, r)[std::size_t(k)])]);
      }
      for (int r = 0; r < P; ++r) CHECK(gathered[std::size_t(r)] == A);
    }
  }
}

// GEMM + reduce-scatter with P ranks: each rank's partial block of rank d's rows is sent at
// the step whose send_to is d and lands in the slot receive_slot names; the sum in rank
// order finds peer q's partial in the slot receive_slot(q) names.
TEST_CASE("simulated GEMM + reduce-scatter: every rank's rows receive every peer's partial once", "[tp]") {
  for (int P : {1, 2, 3, 5, 8}) {
    for (std::int64_t M : {1, 4, 11}) {
      const std::int64_t N = 2;
      // partial[q][i][j] = 1000 * q + 10 * i + j: every (rank, row, column) distinct.
      auto part = [&](int q, std::int64_t i, std::int64_t j) { return 1000 * q + 10 * i + j; };
      for (int r = 0; r < P; ++r) {
        const std::int64_t rows = shard_rows(M, P, r), off = shard_offset(M, P, r);
        std::vector<std::vector<std::int64_t>> slots(std::size_t(P > 1 ? P - 1 : 0), std::vector<std::int64_t>());
        for (int k = 1; k < P; ++k) {
          const int from = exchange_step(P, r, k).recv_from;
          REQUIRE(exchange_step(P, from, k).send_to == r);  // `from` sends its block of r's rows
          std::vector<std::int64_t>& slot = slots[std::size_t(k - 1)];
          for (std::int64_t i = 0; i < rows; ++i) {
            for (std::int64_t j = 0; j < N; ++j) slot.push_back(part(from, off + i, j));
          }
        }
        for (std::int64_t i = 0; i < rows; ++i) {
          for (std::int64_t j = 0; j < N; ++j) {
            // Rank order 0..P-1 reads peer q's partial of this element from its own slot.
            for (int q = 0; q < P; ++q) {
              if (q == r) continue;
              CHECK(slots[std::size_t(receive_slot(P, r, q))][std::size_t(i * N + j)] == part(q, off + i, j));
            }
          }
        }
      }
    }
  }
}
