// All-gather + GEMM on every GPU (tp::AllGatherGemm over Gemm<Auto<bf16 ...>>): every rank's
// D against the float64 product of the whole A and its own W, the gathered A bit for bit,
// the same bits over three runs, both paths (overlapped and serial) and the rule's own
// choice, and refused arguments (each rank's Status named, nothing launched, no hang).
#include <cstring>
#include <string>

#include "reference_gemm.hpp"
#include "tessera/tp/all_gather_gemm.hpp"
#include "tp_case.hpp"

namespace tessera::test::tp_case {
namespace {

using Cfg = gemm::Auto<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
using Op = tp::AllGatherGemm<Cfg>;
using tp::Mode;

constexpr std::uint64_t kSeedA = 0x7a11, kSeedW = 0x3e1d;

// Rank q's columns: N differs per rank (a layer need not split N evenly), never a tile multiple.
std::int64_t columns(std::int64_t N0, int q) { return N0 + 8 * q; }

struct RankState {
  int rank = 0, P = 0;
  std::int64_t rows = 0, N = 0;
  std::vector<bfloat16_t> W;  // K x N column-major (ld K)
  DeviceBuffer<bfloat16_t> d_shard, d_W, d_D, d_gathered;
  DeviceBuffer<char> d_workspace;
  RankState(int device, int r, int p, std::int64_t M, std::int64_t K, std::int64_t N0)
      : rank(r), P(p), rows(tp::shard_rows(M, p, r)), N(columns(N0, r)),
        d_shard(device, std::size_t(rows * K)), d_W(device, std::size_t(K * N)), d_D(device, std::size_t(M * N)),
        d_gathered(device, std::size_t(M * K), std::size_t(K)), d_workspace(device, std::size_t(M * K * 2) + 256) {}
};

Op::Call make_call(Ranks& R, int i, RankState& s, std::int64_t M, std::int64_t K, bool use_workspace) {
  Op::Call call;
  call.comm = R.comms[std::size_t(i)];
  call.stream = R.streams[std::size_t(i)];
  call.args = {s.P, M, s.N, K, s.rows, s.d_shard.ptr, s.d_W.ptr, K, s.d_D.ptr, s.N,
               use_workspace ? nullptr : s.d_gathered.ptr};
  if (use_workspace) {
    call.workspace = s.d_workspace.ptr;
    call.workspace_bytes = tp::workspace_size(call.args);
  }
  poison_device(s.d_D, std::size_t(M * s.N));
  return call;
}

void one_shape(Ranks& R, std::int64_t M, std::int64_t K, std::int64_t N0, Mode mode, bool use_workspace) {
  std::vector<bfloat16_t> A(std::size_t(M * K));
  fill_random(A, kSeedA + std::uint64_t(M));
  std::vector<std::unique_ptr<RankState>> st;
  std::vector<Op::Call> calls;
  for (int i = 0; i < R.size(); ++i) {
    tp::Communicator* c = R.comms[std::size_t(i)];
    st.push_back(std::make_unique<RankState>(c->device(), c->rank(), c->size(), M, K, N0));
    RankState& s = *st.back();
    s.W.resize(std::size_t(K * s.N));
    fill_random(s.W, kSeedW + std::uint64_t(s.rank));
    std::vector<bfloat16_t> shard(A.begin() + tp::shard_offset(M, s.P, s.rank) * K,
                                  A.begin() + (tp::shard_offset(M, s.P, s.rank) + s.rows) * K);
    s.d_shard.upload(shard);
    s.d_W.upload(s.W);
    calls.push_back(make_call(R, i, s, M, K, use_workspace));
  }
  if (calls[0].comm->rank() == 0) check_explained<Op>(calls[0], M, mode);

  const char* path = tp::mode_name(tp::ModeRule::choose(M, calls[0].comm->size(), mode).mode);
  run_three_times<Op>(
      R, calls, mode, [&](std::size_t i) { return st[i]->d_D.download(std::size_t(M * st[i]->N)); },
      [&](std::size_t i, const std::vector<bfloat16_t>& D) {
        const RankState& r = *st[i];
        std::vector<double> ref(std::size_t(M * r.N));
        reference_gemm<RowMajor, ColumnMajor, RowMajor>(M, r.N, K, A.data(), K, r.W.data(), K,
                                                        static_cast<const double*>(nullptr), r.N, ref.data(), r.N,
                                                        1.0, 0.0);
        const CompareResult c = compare<RowMajor>(M, r.N, D, r.N, ref, r.N);
        TP_CHECK(c.passed(tolerance<bfloat16_t, bfloat16_t>(K)), "rank %d M=%lld N=%lld K=%lld %s: %s", r.rank,
                 (long long)M, (long long)r.N, (long long)K, path, c.describe().c_str());
        const std::vector<bfloat16_t> g = use_workspace ? download<bfloat16_t>(r.d_workspace.device, r.d_workspace.ptr, A.size())
                                                        : r.d_gathered.download(A.size());
        TP_CHECK(std::memcmp(g.data(), A.data(), A.size() * sizeof(bfloat16_t)) == 0,
                 "rank %d: the gathered A is not the whole A", r.rank);
      });
}

// Each refusal: the Status every rank must return, and D untouched (nothing launched).
void refusals(Ranks& R) {
  const std::int64_t M = 517, K = 200, N0 = 136;
  const int P = R.comms[0]->size();
  const Refusal cases[] = {
      {"rank 1's rows are not its share", 1, Status::kErrorShardRows, Status::kErrorPeerRefused},
      {"the last rank's K differs", P - 1, Status::kErrorRanksDisagree, Status::kErrorRanksDisagree},
      {"rank 0's workspace is one byte short", 0, Status::kErrorTpWorkspaceTooSmall, Status::kErrorPeerRefused},
      {"the layer was planned for one rank more", -1, Status::kErrorCommunicatorSize, Status::kErrorCommunicatorSize},
  };
  for (const Refusal& k : cases) {
    std::vector<std::unique_ptr<RankState>> st;
    std::vector<Op::Call> calls;
    for (int i = 0; i < R.size(); ++i) {
      tp::Communicator* c = R.comms[std::size_t(i)];
      st.push_back(std::make_unique<RankState>(c->device(), c->rank(), P, M, K, N0));
      RankState& s = *st.back();
      Op::Call call = make_call(R, i, s, M, K, false);
      const bool bad = k.applies_to(c->rank());
      if (bad && k.own == Status::kErrorShardRows) call.args.rows += 1;
      if (bad && k.own == Status::kErrorRanksDisagree) call.args.K += 8;
      if (bad && k.own == Status::kErrorTpWorkspaceTooSmall) {
        call.args.A_gathered = nullptr;
        call.workspace = s.d_workspace.ptr;
        call.workspace_bytes = tp::workspace_size(call.args) - 1;
      }
      if (bad && k.own == Status::kErrorCommunicatorSize) call.args.ranks = P + 1;
      calls.push_back(call);
    }
    const std::vector<Status> s = run_calls<Op>(R, calls, {});
    for (std::size_t i = 0; i < st.size(); ++i) {
      check_refused(k, st[i]->rank, s[i], st[i]->d_D.download(std::size_t(M * st[i]->N)));
    }
  }
}

}  // namespace

void all_gather_gemm_cases(Ranks& R) {
  std::printf("all-gather + GEMM: refusals\n");
  refusals(R);
  // M odd, a multiple of neither the rank count nor a tile; K 200 (a K tile of 64 plus 8);
  // N 136 + 8 * rank (N tails). After the refusals: the communicators still work.
  for (Mode mode : {Mode::kOverlapped, Mode::kSerial, Mode::kAuto}) {
    std::printf("all-gather + GEMM M=517 K=200, %s\n", tp::mode_name(mode));
    one_shape(R, 517, 200, 136, mode, false);
  }
  std::printf("all-gather + GEMM M=1031 K=264 into the workspace, the rule's choice\n");
  one_shape(R, 1031, 264, 200, Mode::kAuto, true);
  std::printf("all-gather + GEMM M=37 (small shards: serial by the rule) and M=3 (ranks without rows), overlapped\n");
  one_shape(R, 37, 200, 136, Mode::kAuto, false);
  one_shape(R, 3, 64, 136, Mode::kOverlapped, false);
}

}  // namespace tessera::test::tp_case
