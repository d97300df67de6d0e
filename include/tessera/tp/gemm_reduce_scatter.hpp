// GemmReduceScatter<Config, ElementD>: D_shard = reduce_scatter_rows(A @ W) over the ranks,
// the local GEMM a Tessera configuration writing fp32 partials (Config's D must be float),
// the partials exchanged by NCCL point-to-point transfers on the communicator's stream into
// one receive buffer per peer, summed in rank order by sum_partials.hpp (same bits every run).
//
//   tp::GemmReduceScatter<Cfg, bf16>::Call call{&comm, args, workspace, workspace_bytes, stream};
//   Status s = tp::GemmReduceScatter<Cfg, bf16>::run(call);   // or run(calls, n) for n GPUs
//
// Overlapped (plan.hpp's rule): the rank computes the rows it sends at step 1 first, then
// those of step 2..., its own last; step k sends block (rank + k) % P as soon as its GEMM is
// done (an event per block) while the next block's GEMM runs. Serial: one GEMM over all M
// rows, then the exchange. Either way the sum starts when the last step has arrived.
// Nothing has been run on GPUs yet: compiled and host-tested only (docs/tensor-parallel.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/gemm/gemm.hpp"
#include "tessera/tp/arguments.hpp"
#include "tessera/tp/communicator.hpp"
#include "tessera/tp/explain.hpp"
#include "tessera/tp/plan.hpp"
#include "tessera/tp/sum_partials.hpp"

namespace tessera::tp {

template <class Config, class ElementD>
struct GemmReduceScatter {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using Args = GemmReduceScatterArguments<EA, EB, ElementD>;
  using GemmArgs = gemm::ConfigArguments<Config>;
  static_assert(std::is_same_v<typename Config::ElementD, float>,
                "Tessera tp::GemmReduceScatter: the partials are summed in fp32, so the GEMM configuration's D must "
                "be float (e.g. Auto<bf16, RowMajor, bf16, ColumnMajor, float, RowMajor>)");
  static_assert(Config::LayoutC::kIsRowMajor,
                "Tessera tp::GemmReduceScatter: partials are sent as blocks of rows, so the GEMM configuration's C "
                "must be row-major");

  struct Call {
    Communicator* comm = nullptr;
    Args args{};
    void* workspace = nullptr;  // workspace_size(args) bytes: the partials and receive buffers
    std::size_t workspace_bytes = 0;
    cudaStream_t stream = nullptr;  // the caller's stream: GEMMs and the sum run here
    Status status = Status::kSuccess;
  };

  static float* partial(const Call& c) { return static_cast<float*>(c.workspace); }
  static float* receive_buffer(const Call& c, int slot) {
    const ReduceScatterLayout l = reduce_scatter_layout(c.args.M, c.args.N, c.args.rows, c.args.ranks);
    return reinterpret_cast<float*>(static_cast<char*>(c.workspace) + l.receive_offset(slot));
  }

  // The GEMM of rows [offset, offset + rows) of A into the same rows of the partial.
  static GemmArgs block_gemm(const Call& c, std::int64_t offset, std::int64_t rows) {
    const Args& a = c.args;
    GemmArgs g;
    g.M = rows;
    g.N = a.N;
    g.K = a.K;
    g.A = a.A == nullptr ? nullptr : a.A + Config::LayoutA::offset(offset, 0, a.lda);
    g.lda = a.lda;
    g.B = a.W;
    g.ldb = a.ldw;
    g.D = partial(c) + offset * a.N;
    g.ldd = a.N;
    g.alpha = a.alpha;
    g.beta = 0.0f;
    return g;
  }

  static Status check(const Call& c) {
    if (c.comm == nullptr || !c.comm->valid()) return Status::kErrorCommunicatorNull;
    const Args& a = c.args;
    const int P = c.comm->size();
    if (P > kMaxRanks) return Status::kErrorCommunicatorSize;
    Status s = check_local(a, P, c.comm->rank(), c.workspace_bytes, c.workspace);
    if (!ok(s) || a.M == 0 || a.N == 0) return s;
    s = gemm::Gemm<Config>::can_implement(block_gemm(c, 0, a.M));
    for (int q = 0; q < P && ok(s); ++q) {
      const std::int64_t rows = shard_rows(a.M, P, q);
      if (rows > 0) s = gemm::Gemm<Config>::can_implement(block_gemm(c, shard_offset(a.M, P, q), rows));
    }
    return s;
  }

  static Status run(Call& c, Options o = {}) { return run(&c, 1, o); }

  static Status run(Call* calls, int count, Options o = {}) {
    const Status agreed = agree(calls, count, [](const Call& c) { return check(c); });
    if (!ok(agreed)) return agreed;
    // Every rank agrees on M and N: with no output, nothing moves.
    if (calls[0].args.M == 0 || calls[0].args.N == 0) return Status::kSuccess;
    return enqueue(calls, count, ModeRule::choose(calls[0].args.M, calls[0].comm->size(), o.mode).mode);
  }

  static std::string explain(const Call& c, Options o = {}) {
    const Args& a = c.args;
    return explain_operation<Config>("GEMM + reduce-scatter", a.M, a.N, a.K, check(c), c.comm, o,
                                     "; partials summed in rank order",
                                     [&](std::int64_t rows) { return block_gemm(c, 0, rows); });
  }

 private:
  static Status enqueue(Call* calls, int count, Mode mode) {
    Status first = Status::kSuccess;
    auto note = [&](Call& c, Status s) {
      if (ok(c.status)) c.status = s;
      if (ok(first)) first = s;
    };
    const int P = calls[0].comm->size();
    // GEMMs on the caller's stream; event k marks the block step k sends (serial: every event
    // marks the whole partial). Event 0 first: the exchange overwrites receive buffers an
    // earlier call's sum on this stream may still read.
    for (int i = 0; i < count; ++i) {
      Call& c = calls[i];
      const Args& a = c.args;
      const int r = c.comm->rank();
      DeviceScope scope(c.comm->device());
      note(c, order_after(*c.comm, c.comm->stream(), c.stream, 0));
      if (mode == Mode::kSerial) note(c, gemm::Gemm<Config>::run(block_gemm(c, 0, a.M), nullptr, c.stream));
      for (int k = 1; k < P; ++k) {
        if (mode == Mode::kOverlapped) {
          const int d = exchange_step(P, r, k).send_to;
          const std::int64_t rows = shard_rows(a.M, P, d);
          if (rows > 0) note(c, gemm::Gemm<Config>::run(block_gemm(c, shard_offset(a.M, P, d), rows), nullptr, c.stream));
        }
        note(c, status_from_cuda(cudaEventRecord(c.comm->event(k), c.stream)));
      }
      if (mode == Mode::kOverlapped && a.rows > 0) {
        note(c, gemm::Gemm<Config>::run(block_gemm(c, shard_offset(a.M, P, r), a.rows), nullptr, c.stream));
      }
    }
    for (int k = 1; k < P; ++k) {
      for (int i = 0; i < count; ++i) {
        DeviceScope scope(calls[i].comm->device());
        note(calls[i], status_from_cuda(cudaStreamWaitEvent(calls[i].comm->stream(), calls[i].comm->event(k), 0)));
      }
      Status s = status_from_nccl(ncclGroupStart());
      for (int i = 0; i < count && ok(s); ++i) {
        Call& c = calls[i];
        const Args& a = c.args;
        const Step step = exchange_step(P, c.comm->rank(), k);
        const std::int64_t send_rows = shard_rows(a.M, P, step.send_to);
        if (send_rows > 0) {
          s = status_from_nccl(ncclSend(partial(c) + shard_offset(a.M, P, step.send_to) * a.N, std::size_t(send_rows * a.N),
                                        ncclFloat32, step.send_to, c.comm->nccl(), c.comm->stream()));
        }
        if (ok(s) && a.rows > 0) {
          s = status_from_nccl(ncclRecv(receive_buffer(c, k - 1), std::size_t(a.rows * a.N), ncclFloat32, step.recv_from,
                                        c.comm->nccl(), c.comm->stream()));
        }
      }
      const Status end = status_from_nccl(ncclGroupEnd());
      for (int i = 0; i < count; ++i) note(calls[i], ok(s) ? end : s);
    }
    for (int i = 0; i < count; ++i) {
      Call& c = calls[i];
      const Args& a = c.args;
      const int r = c.comm->rank();
      DeviceScope scope(c.comm->device());
      note(c, order_after(*c.comm, c.stream, c.comm->stream(), P));
      SumPartials<ElementD> p{};
      p.ranks = P;
      for (int q = 0; q < P; ++q) {
        p.part[q] = q == r ? partial(c) + shard_offset(a.M, P, r) * a.N : receive_buffer(c, receive_slot(P, r, q));
      }
      p.rows = a.rows;
      p.N = a.N;
      p.D = a.D_shard;
      p.ldd = a.ldd;
      note(c, sum_partials(p, c.stream));
    }
    return first;
  }
};

}  // namespace tessera::tp
