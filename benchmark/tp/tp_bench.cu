// tp_bench: the tensor-parallel operations on every visible GPU of the host, one process
// driving all of them (tp::Communicator::init_all), per shape:
//   <op>/local_gemm   each GPU's GEMM alone on data already in place (no exchange): the floor
//   <op>/serial       NCCL first, then the Tessera GEMM (tp::Mode::kSerial)
//   <op>/overlapped   the pipelined operation (tp::Mode::kOverlapped)
// for all-gather + GEMM (ag: D[M, N/P] = A[M, K] @ W, A gathered by rows) and GEMM +
// reduce-scatter (rs: D[M/P, N] = sum of A[M, K/P] @ W[K/P, N]), bf16 operands, Gemm<Auto<...>>
// as the local GEMM. Time: wall clock from the first launch to every GPU's stream done, each
// call including the operations' handshake (a small all-gather and a host synchronisation).
// Counter TFLOP/s: the whole layer's 2 * M * N * K over that time. Run through
// test/tp/run_tp.sh (NVLink multicast off); PyTorch's AsyncTP counterpart: torch_async_tp.py.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "tessera/tp/tp.hpp"

namespace {

using namespace tessera;
using bf16 = bfloat16_t;
using AgCfg = gemm::Auto<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor>;
using RsCfg = gemm::Auto<bf16, RowMajor, bf16, ColumnMajor, float, RowMajor>;
using Ag = tp::AllGatherGemm<AgCfg>;
using Rs = tp::GemmReduceScatter<RsCfg, bf16>;

std::vector<tp::Communicator> g_comms;
std::vector<cudaStream_t> g_streams;

struct Allocation {
  void* ptr = nullptr;
  int device = 0;
  Allocation(int d, std::size_t bytes) : device(d) {
    tp::DeviceScope s(d);
    if (cudaMalloc(&ptr, bytes) != cudaSuccess) ptr = nullptr;
    else cudaMemset(ptr, 0, bytes);  // zeros: the timing does not depend on values
  }
  ~Allocation() {
    tp::DeviceScope s(device);
    cudaFree(ptr);
  }
};

void sync_all() {
  for (std::size_t i = 0; i < g_comms.size(); ++i) {
    tp::DeviceScope s(g_comms[i].device());
    cudaStreamSynchronize(g_streams[i]);
  }
}

enum class Variant { kLocalGemm, kSerial, kOverlapped };

// Times `issue` (which launches on every GPU) until every stream is done.
template <class Issue>
void time_loop(benchmark::State& state, double flops, Issue issue) {
  if (!ok(issue())) {
    state.SkipWithError("the operation refused its arguments or failed");
    return;
  }
  sync_all();
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = issue();
    sync_all();
    const auto t1 = std::chrono::steady_clock::now();
    if (!ok(s)) {
      state.SkipWithError(status_name(s));
      return;
    }
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
  }
  state.counters["TFLOP/s"] = benchmark::Counter(flops * 1e-12, benchmark::Counter::kIsIterationInvariantRate);
}

// All-gather + GEMM: M rows in all, K deep, N columns of the whole layer (N / P per rank).
void bench_ag(benchmark::State& state, std::int64_t M, std::int64_t N, std::int64_t K, Variant v) {
  const int P = int(g_comms.size());
  const std::int64_t n = N / P;
  std::vector<std::unique_ptr<Allocation>> mem;
  std::vector<Ag::Call> calls;
  std::vector<gemm::ConfigArguments<AgCfg>> local;
  for (int r = 0; r < P; ++r) {
    const int d = g_comms[std::size_t(r)].device();
    const std::int64_t rows = tp::shard_rows(M, P, r);
    auto alloc = [&](std::size_t bytes) { mem.push_back(std::make_unique<Allocation>(d, bytes)); return mem.back()->ptr; };
    Ag::Call c;
    c.comm = &g_comms[std::size_t(r)];
    c.stream = g_streams[std::size_t(r)];
    auto* gathered = static_cast<bf16*>(alloc(std::size_t(M * K) * 2));
    c.args = {P, M, n, K, rows, static_cast<bf16*>(alloc(std::size_t(rows * K) * 2)), static_cast<bf16*>(alloc(std::size_t(K * n) * 2)),
              K, static_cast<bf16*>(alloc(std::size_t(M * n) * 2)), n, gathered};
    calls.push_back(c);
    local.push_back(Ag::shard_gemm(c.args, gathered, 0, M));
  }
  const double flops = 2.0 * double(M) * double(n * P) * double(K);
  if (v == Variant::kLocalGemm) {
    time_loop(state, flops, [&] {
      Status first = Status::kSuccess;
      for (int r = 0; r < P; ++r) {
        tp::DeviceScope s(g_comms[std::size_t(r)].device());
        const Status e = gemm::Gemm<AgCfg>::run(local[std::size_t(r)], nullptr, g_streams[std::size_t(r)]);
        if (ok(first)) first = e;
      }
      return first;
    });
  } else {
    const tp::Options o{v == Variant::kSerial ? tp::Mode::kSerial : tp::Mode::kOverlapped};
    time_loop(state, flops, [&] { return Ag::run(calls.data(), P, o); });
  }
}

// GEMM + reduce-scatter: M rows, N columns, K deep in all (K / P per rank).
void bench_rs(benchmark::State& state, std::int64_t M, std::int64_t N, std::int64_t K, Variant v) {
  const int P = int(g_comms.size());
  const std::int64_t k = K / P;
  std::vector<std::unique_ptr<Allocation>> mem;
  std::vector<Rs::Call> calls;
  for (int r = 0; r < P; ++r) {
    const int d = g_comms[std::size_t(r)].device();
    const std::int64_t rows = tp::shard_rows(M, P, r);
    auto alloc = [&](std::size_t bytes) { mem.push_back(std::make_unique<Allocation>(d, bytes)); return mem.back()->ptr; };
    Rs::Call c;
    c.comm = &g_comms[std::size_t(r)];
    c.stream = g_streams[std::size_t(r)];
    c.args = {P, M, N, k, rows, static_cast<bf16*>(alloc(std::size_t(M * k) * 2)), k,
              static_cast<bf16*>(alloc(std::size_t(k * N) * 2)), k, static_cast<bf16*>(alloc(std::size_t(rows * N) * 2)), N};
    c.workspace_bytes = tp::workspace_size(c.args);
    c.workspace = alloc(c.workspace_bytes);
    calls.push_back(c);
  }
  const double flops = 2.0 * double(M) * double(N) * double(k * P);
  if (v == Variant::kLocalGemm) {
    time_loop(state, flops, [&] {
      Status first = Status::kSuccess;
      for (int r = 0; r < P; ++r) {
        tp::DeviceScope s(g_comms[std::size_t(r)].device());
        const Status e = gemm::Gemm<RsCfg>::run(Rs::block_gemm(calls[std::size_t(r)], 0, M), nullptr, g_streams[std::size_t(r)]);
        if (ok(first)) first = e;
      }
      return first;
    });
  } else {
    const tp::Options o{v == Variant::kSerial ? tp::Mode::kSerial : tp::Mode::kOverlapped};
    time_loop(state, flops, [&] { return Rs::run(calls.data(), P, o); });
  }
}

struct LayerShape {
  const char* name;
  std::int64_t M, N, K;
};

// Llama-3-70B-like layers (hidden 8192, MLP 28672) at several token counts, plus odd M.
const LayerShape kShapes[] = {
    {"mlp_up_T2048", 2048, 28672, 8192},   {"mlp_up_T8192", 8192, 28672, 8192},
    {"mlp_up_T16384", 16384, 28672, 8192}, {"mlp_up_T4097", 4097, 28672, 8192},
    {"qkv_T8192", 8192, 10240, 8192},      {"mlp_up_T256", 256, 28672, 8192},
};
const LayerShape kRsShapes[] = {
    {"mlp_down_T2048", 2048, 8192, 28672}, {"mlp_down_T8192", 8192, 8192, 28672},
    {"mlp_down_T16384", 16384, 8192, 28672}, {"mlp_down_T4097", 4097, 8192, 28672},
    {"attn_out_T8192", 8192, 8192, 8192},  {"mlp_down_T256", 256, 8192, 28672},
};

}  // namespace

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2) {
    std::printf("tp_bench needs two GPUs or more (%d visible)\n", devices);
    return 1;
  }
  std::vector<int> ids;
  for (int d = 0; d < devices; ++d) ids.push_back(d);
  if (const Status s = tp::Communicator::init_all(&g_comms, ids); !ok(s)) {
    std::printf("tp_bench: init_all: %s\n", status_name(s));
    return 1;
  }
  for (auto& c : g_comms) {
    tp::DeviceScope s(c.device());
    cudaStream_t st = nullptr;
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    g_streams.push_back(st);
  }
  const std::pair<const char*, Variant> variants[] = {
      {"local_gemm", Variant::kLocalGemm}, {"serial", Variant::kSerial}, {"overlapped", Variant::kOverlapped}};
  for (const LayerShape& s : kShapes) {
    for (const auto& [vname, v] : variants) {
      const std::string name = std::string("ag/") + s.name + "/P" + std::to_string(devices) + "/" + vname;
      benchmark::RegisterBenchmark(name.c_str(), [s, v = v](benchmark::State& st) { bench_ag(st, s.M, s.N, s.K, v); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  for (const LayerShape& s : kRsShapes) {
    for (const auto& [vname, v] : variants) {
      const std::string name = std::string("rs/") + s.name + "/P" + std::to_string(devices) + "/" + vname;
      benchmark::RegisterBenchmark(name.c_str(), [s, v = v](benchmark::State& st) { bench_rs(st, s.M, s.N, s.K, v); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (std::size_t i = 0; i < g_streams.size(); ++i) {
    tp::DeviceScope s(g_comms[i].device());
    cudaStreamDestroy(g_streams[i]);
  }
  return 0;
}
