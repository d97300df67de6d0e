// GEMM + reduce-scatter on every GPU (tp::GemmReduceScatter over Gemm<Auto<bf16 ... float>>,
// bf16 D): every rank's rows of D against the float64 sum over ranks of A_q @ W_q, the same
// bits over three runs, both paths and the rule's choice, and refused arguments (each rank's
// Status named, nothing launched, no hang).
#include <cstring>
#include <string>

#include "reference_gemm.hpp"
#include "tessera/tp/gemm_reduce_scatter.hpp"
#include "tp_case.hpp"

namespace tessera::test::tp_case {
namespace {

using Cfg = gemm::Auto<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor>;
using Op = tp::GemmReduceScatter<Cfg, bfloat16_t>;
using tp::Mode;

constexpr std::uint64_t kSeedA = 0x51a7, kSeedW = 0x90d3;

// Rank q's slice of K: K differs per rank (K tails), a multiple of 8 (TMA's 16-byte rows).
std::int64_t depth(std::int64_t K0, int q) { return K0 + 8 * q; }

struct Operands {
  std::vector<bfloat16_t> A, W;  // A: M x K row-major (ld K); W: K x N column-major (ld K)
};

Operands operands(std::int64_t M, std::int64_t N, std::int64_t K, int q) {
  Operands o;
  o.A.resize(std::size_t(M * K));
  o.W.resize(std::size_t(K * N));
  fill_random(o.A, kSeedA + std::uint64_t(q) + std::uint64_t(M));
  fill_random(o.W, kSeedW + std::uint64_t(q));
  return o;
}

struct RankState {
  int rank = 0, P = 0;
  std::int64_t rows = 0, K = 0, ldd = 0;
  DeviceBuffer<bfloat16_t> d_A, d_W, d_D;
  DeviceBuffer<char> d_workspace;
  RankState(int device, int r, int p, std::int64_t M, std::int64_t N, std::int64_t K0)
      : rank(r), P(p), rows(tp::shard_rows(M, p, r)), K(depth(K0, r)), ldd(N + 8),
        d_A(device, std::size_t(M * K)), d_W(device, std::size_t(K * N)), d_D(device, std::size_t(rows * ldd)),
        d_workspace(device, tp::reduce_scatter_layout(M, N, rows, p).total) {}
};

Op::Call make_call(Ranks& R, int i, RankState& s, std::int64_t M, std::int64_t N) {
  Op::Call call;
  call.comm = R.comms[std::size_t(i)];
  call.stream = R.streams[std::size_t(i)];
  call.args = {s.P, M, N, s.K, s.rows, s.d_A.ptr, s.K, s.d_W.ptr, s.K, s.d_D.ptr, s.ldd};
  call.workspace = s.d_workspace.ptr;
  call.workspace_bytes = tp::workspace_size(call.args);
  poison_device(s.d_D, std::size_t(s.rows * s.ldd));
  return call;
}

void one_shape(Ranks& R, std::int64_t M, std::int64_t N, std::int64_t K0, Mode mode) {
  const int P = R.comms[0]->size();
  // The whole layer's float64 result: sum over every rank q of A_q @ W_q.
  std::vector<double> ref(std::size_t(M * N), 0.0), part(std::size_t(M * N));
  std::int64_t K_total = 0;
  for (int q = 0; q < P; ++q) {
    const std::int64_t K = depth(K0, q);
    const Operands o = operands(M, N, K, q);
    reference_gemm<RowMajor, ColumnMajor, RowMajor>(M, N, K, o.A.data(), K, o.W.data(), K,
                                                    static_cast<const double*>(nullptr), N, part.data(), N, 1.0, 0.0);
    for (std::size_t e = 0; e < ref.size(); ++e) ref[e] += part[e];
    K_total += K;
  }
  std::vector<std::unique_ptr<RankState>> st;
  std::vector<Op::Call> calls;
  for (int i = 0; i < R.size(); ++i) {
    tp::Communicator* c = R.comms[std::size_t(i)];
    st.push_back(std::make_unique<RankState>(c->device(), c->rank(), P, M, N, K0));
    RankState& s = *st.back();
    const Operands o = operands(M, N, s.K, s.rank);
    s.d_A.upload(o.A);
    s.d_W.upload(o.W);
    calls.push_back(make_call(R, i, s, M, N));
  }
  if (calls[0].comm->rank() == 0) check_explained<Op>(calls[0], M, mode);
  const char* path = tp::mode_name(tp::ModeRule::choose(M, P, mode).mode);
  run_three_times<Op>(
      R, calls, mode, [&](std::size_t i) { return st[i]->d_D.download(std::size_t(st[i]->rows * st[i]->ldd)); },
      [&](std::size_t i, const std::vector<bfloat16_t>& D) {
        const RankState& r = *st[i];
        const double* ref_rows = ref.data() + tp::shard_offset(M, P, r.rank) * N;
        const CompareResult c = compare<RowMajor>(r.rows, N, D.data(), r.ldd, ref_rows, N);
        TP_CHECK(c.passed(tolerance<bfloat16_t, bfloat16_t>(K_total)), "rank %d M=%lld N=%lld %s: %s", r.rank,
                 (long long)M, (long long)N, path, c.describe().c_str());
      });
}

void refusals(Ranks& R) {
  const std::int64_t M = 517, N = 136, K0 = 200;
  const int P = R.comms[0]->size();
  const Refusal cases[] = {
      {"rank 1's rows are not its share", 1, Status::kErrorShardRows, Status::kErrorPeerRefused},
      {"the last rank's N differs", P - 1, Status::kErrorRanksDisagree, Status::kErrorRanksDisagree},
      {"rank 0's workspace is one byte short", 0, Status::kErrorTpWorkspaceTooSmall, Status::kErrorPeerRefused},
      {"rank 0's ldd is below N", 0, Status::kErrorLeadingDimD, Status::kErrorPeerRefused},
      {"the layer was planned for one rank more", -1, Status::kErrorCommunicatorSize, Status::kErrorCommunicatorSize},
  };
  for (const Refusal& k : cases) {
    std::vector<std::unique_ptr<RankState>> st;
    std::vector<Op::Call> calls;
    for (int i = 0; i < R.size(); ++i) {
      tp::Communicator* c = R.comms[std::size_t(i)];
      st.push_back(std::make_unique<RankState>(c->device(), c->rank(), P, M, N, K0));
      RankState& s = *st.back();
        Op::Call call = make_call(R, i, s, M, N);
      const bool bad = k.applies_to(c->rank());
      if (bad && k.own == Status::kErrorShardRows) call.args.rows += 1;
      if (bad && k.own == Status::kErrorRanksDisagree) call.args.N += 8;
      if (bad && k.own == Status::kErrorTpWorkspaceTooSmall) call.workspace_bytes -= 1;
      if (bad && k.own == Status::kErrorLeadingDimD) call.args.ldd = N - 1;
      if (bad && k.own == Status::kErrorCommunicatorSize) call.args.ranks = P + 1;
      calls.push_back(call);
    }
    const std::vector<Status> s = run_calls<Op>(R, calls, {});
    for (std::size_t i = 0; i < st.size(); ++i) {
      check_refused(k, st[i]->rank, s[i], st[i]->d_D.download(std::size_t(st[i]->rows * st[i]->ldd)));
    }
  }
}

}  // namespace

void gemm_reduce_scatter_cases(Ranks& R) {
  std::printf("GEMM + reduce-scatter: refusals\n");
  refusals(R);
  // M odd, a multiple of neither the rank count nor a tile; N 136 (an N tail); K 200 + 8 *
  // rank (K tails, a different depth per rank); D's rows 8 elements apart beyond N.
  for (Mode mode : {Mode::kOverlapped, Mode::kSerial, Mode::kAuto}) {
    std::printf("GEMM + reduce-scatter M=517 N=136, %s\n", tp::mode_name(mode));
    one_shape(R, 517, 136, 200, mode);
  }
  std::printf("GEMM + reduce-scatter M=1031 N=264, the rule's choice; M=37 (serial by the rule); M=3 overlapped\n");
  one_shape(R, 1031, 264, 64, Mode::kAuto);
  one_shape(R, 37, 136, 200, Mode::kAuto);
  one_shape(R, 3, 136, 64, Mode::kOverlapped);
}

}  // namespace tessera::test::tp_case
