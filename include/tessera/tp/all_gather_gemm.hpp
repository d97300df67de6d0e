// AllGatherGemm<Config>: D[M, N] = allgather_rows(A_shard) @ W on every rank, the local GEMM
// a Tessera configuration (Gemm<Auto<...>> picks its kernel per shard), the gather NCCL
// point-to-point transfers on the communicator's stream.
//
//   tp::AllGatherGemm<Cfg>::Call call{&comm, args, workspace, workspace_bytes, stream};
//   Status s = tp::AllGatherGemm<Cfg>::run(call);          // one rank (one process per GPU)
//   Status s = tp::AllGatherGemm<Cfg>::run(calls, n);      // n ranks driven by this thread
//
// Overlapped (plan.hpp's rule): the GEMM of the rank's own shard starts at once, on A_shard;
// step k of the exchange brings shard (rank - k) % P into A_gathered while the GEMM of the
// shard step k - 1 brought runs; an event per step lets that shard's GEMM start as soon as
// its rows are there. Serial: the exchange, then one GEMM over all M rows.
// Every communication step is enqueued whatever a GEMM launch returns, so a failed launch on
// one rank never leaves the others waiting for a transfer; the first error is returned.
// Nothing has been run on GPUs yet: compiled and host-tested only (docs/tensor-parallel.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/gemm/gemm.hpp"
#include "tessera/tp/arguments.hpp"
#include "tessera/tp/communicator.hpp"
#include "tessera/tp/explain.hpp"
#include "tessera/tp/plan.hpp"

namespace tessera::tp {

template <class Config>
struct AllGatherGemm {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using ED = typename Config::ElementD;
  using Args = AllGatherGemmArguments<EA, EB, ED>;
  using GemmArgs = gemm::ConfigArguments<Config>;
  static_assert(Config::LayoutA::kIsRowMajor,
                "Tessera tp::AllGatherGemm: A is gathered by rows, so the GEMM configuration's A must be row-major");

  struct Call {
    Communicator* comm = nullptr;
    Args args{};
    void* workspace = nullptr;  // workspace_size(args) bytes (0 when A_gathered is given)
    std::size_t workspace_bytes = 0;
    cudaStream_t stream = nullptr;  // the caller's stream: the GEMMs run here; it waits for the exchange
    Status status = Status::kSuccess;  // this call's own result (run returns the first error)
  };

  static EA* gathered(const Call& c) {
    return c.args.A_gathered != nullptr ? c.args.A_gathered : static_cast<EA*>(c.workspace);
  }

  // The GEMM of `rows` rows starting at row `offset` of the whole A, reading them at `A`.
  static GemmArgs shard_gemm(const Args& a, const EA* A, std::int64_t offset, std::int64_t rows) {
    GemmArgs g;
    g.M = rows;
    g.N = a.N;
    g.K = a.K;
    g.A = A;
    g.lda = a.K;
    g.B = a.W;
    g.ldb = a.ldw;
    g.D = a.D + Config::LayoutC::offset(offset, 0, a.ldd);
    g.ldd = a.ldd;
    g.alpha = a.alpha;
    g.beta = 0.0f;
    return g;
  }

  // This rank's checks: its arguments, and every GEMM it would run (each shard's, and the
  // whole one of the serial path), before any rank moves data.
  static Status check(const Call& c) {
    if (c.comm == nullptr || !c.comm->valid()) return Status::kErrorCommunicatorNull;
    const Args& a = c.args;
    const int P = c.comm->size(), r = c.comm->rank();
    Status s = check_local(a, P, r, c.workspace_bytes, c.workspace);
    if (!ok(s) || a.M == 0 || a.N == 0) return s;
    const EA* g = gathered(c);
    s = gemm::Gemm<Config>::can_implement(shard_gemm(a, g, 0, a.M));
    for (int q = 0; q < P && ok(s); ++q) {
      const std::int64_t rows = shard_rows(a.M, P, q), off = shard_offset(a.M, P, q);
      if (rows == 0) continue;
      const EA* A = q == r ? a.A_shard : g + off * a.K;
      s = gemm::Gemm<Config>::can_implement(shard_gemm(a, A, off, rows));
    }
    return s;
  }

  static Status run(Call& c, Options o = {}) { return run(&c, 1, o); }

  static Status run(Call* calls, int count, Options o = {}) {
    const Status agreed = agree(calls, count, [](const Call& c) { return check(c); });
    if (!ok(agreed)) return agreed;
    // Every rank agrees on M: with none, nothing moves. (N may be 0 on one rank only: it
    // still sends its shard to the others.)
    if (calls[0].args.M == 0) return Status::kSuccess;
    return enqueue(calls, count, ModeRule::choose(calls[0].args.M, calls[0].comm->size(), o.mode).mode);
  }

  // In words: which path, why, and the local GEMM's choice (for Gemm<Auto<...>>).
  static std::string explain(const Call& c, Options o = {}) {
    const Args& a = c.args;
    return explain_operation<Config>("all-gather + GEMM", a.M, a.N, a.K, check(c), c.comm, o, "",
                                     [&](std::int64_t rows) { return shard_gemm(a, gathered(c), 0, rows); });
  }

 private:
  static Status enqueue(Call* calls, int count, Mode mode) {
    Status first = Status::kSuccess;
    auto note = [&](Call& c, Status s) {
      if (ok(c.status)) c.status = s;
      if (ok(first)) first = s;
    };
    // The exchange reads A_shard and overwrites the gathered buffer: after what the caller's
    // stream has enqueued (A_shard's producer, an earlier call's GEMMs on the same buffer).
    for (int i = 0; i < count; ++i) {
      Call& c = calls[i];
      const Args& a = c.args;
      const int P = c.comm->size(), r = c.comm->rank();
      DeviceScope scope(c.comm->device());
      note(c, order_after(*c.comm, c.comm->stream(), c.stream, 0));
      const std::size_t bytes = std::size_t(a.rows * a.K) * sizeof(EA);
      if (bytes > 0) {
        note(c, status_from_cuda(cudaMemcpyAsync(gathered(c) + shard_offset(a.M, P, r) * a.K, a.A_shard, bytes,
                                                 cudaMemcpyDeviceToDevice, c.comm->stream())));
      }
      if (mode == Mode::kOverlapped && a.rows > 0) {
        note(c, gemm::Gemm<Config>::run(shard_gemm(a, a.A_shard, shard_offset(a.M, P, r), a.rows), nullptr, c.stream));
      }
    }
    const int P = calls[0].comm->size();
    for (int k = 1; k < P; ++k) {
      Status s = status_from_nccl(ncclGroupStart());
      for (int i = 0; i < count && ok(s); ++i) {
        Call& c = calls[i];
        const Args& a = c.args;
        const Step step = exchange_step(P, c.comm->rank(), k);
        const std::size_t send_bytes = std::size_t(a.rows * a.K) * sizeof(EA);
        const std::size_t recv_bytes = std::size_t(shard_rows(a.M, P, step.recv_from) * a.K) * sizeof(EA);
        if (send_bytes > 0) s = status_from_nccl(ncclSend(a.A_shard, send_bytes, ncclUint8, step.send_to, c.comm->nccl(), c.comm->stream()));
        if (ok(s) && recv_bytes > 0) {
          s = status_from_nccl(ncclRecv(gathered(c) + shard_offset(a.M, P, step.recv_from) * a.K, recv_bytes, ncclUint8,
                                        step.recv_from, c.comm->nccl(), c.comm->stream()));
        }
      }
      const Status end = status_from_nccl(ncclGroupEnd());
      for (int i = 0; i < count; ++i) {
        note(calls[i], ok(s) ? end : s);
        DeviceScope scope(calls[i].comm->device());
        note(calls[i], status_from_cuda(cudaEventRecord(calls[i].comm->event(k), calls[i].comm->stream())));
      }
    }
    for (int i = 0; i < count; ++i) {
      Call& c = calls[i];
      const Args& a = c.args;
      const int r = c.comm->rank();
      DeviceScope scope(c.comm->device());
      if (mode == Mode::kOverlapped) {
        for (int k = 1; k < P; ++k) {
          const int q = exchange_step(P, r, k).recv_from;
          const std::int64_t rows = shard_rows(a.M, P, q), off = shard_offset(a.M, P, q);
          note(c, status_from_cuda(cudaStreamWaitEvent(c.stream, c.comm->event(k), 0)));
          if (rows > 0) note(c, gemm::Gemm<Config>::run(shard_gemm(a, gathered(c) + off * a.K, off, rows), nullptr, c.stream));
        }
      }
      // The caller's stream waits for the whole exchange: the gathered A is complete and
      // A_shard has been sent once the stream gets past this point.
      note(c, order_after(*c.comm, c.stream, c.comm->stream(), P));
      if (mode == Mode::kSerial) {
        note(c, gemm::Gemm<Config>::run(shard_gemm(a, gathered(c), 0, a.M), nullptr, c.stream));
      }
    }
    return first;
  }
};

}  // namespace tessera::tp
