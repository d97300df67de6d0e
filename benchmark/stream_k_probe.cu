// stream_k_probe: the tuning probe of scheduler::StreamK<>. Times, on a few shapes, the wgmma
// family's data-parallel default beside its StreamK configurations with each decomposition
// forced (data-parallel, split-K at several slice counts, stream-K) and with the rule's own
// choice, and cuBLAS (cublasGemmEx, and cublasLtMatmul with the best of its heuristic's top 8,
// 64 MiB workspace) in the same process. Each timed launch follows an L2 flush (a 256 MB
// memset, outside the timed events); medians of --reps launches; bf16 in and out, A row-major,
// B = W[N][K] (column-major K x N), D row-major (the LLM suite's layout). Every Tessera output
// is compared with cuBLAS's (relative Frobenius difference). The project's reported numbers
// come from tessera_bench; this is for calibrating the rule (benchmark/notes/stream_k.md).
//
//   nvcc -std=c++17 -O3 -Iinclude -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr \
//        benchmark/stream_k_probe.cu -o stream_k_probe -lcublasLt -lcublas
//   stream_k_probe [--reps N] [--shapes 512x512x16384,...] [--quick] [--pingpong]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "probe_support.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"
#include "tessera/runtime/gpu.hpp"

using namespace tessera;
using bf16 = bfloat16_t;
using gemm::Decomposition;
using gemm::SplitRequest;
using probe::Extents;

namespace {

probe::Timing g_timing{15};
bool g_quick = false;     // the rule's plans only (no requested decompositions)
bool g_pingpong = false;  // also the 128x128 Pingpong configuration

float time_ms(const std::function<void()>& launch) { return probe::median_ms(launch, g_timing); }

using probe::Row;

struct Problem {
  Extents s;
  probe::Operands o;
  explicit Problem(const Extents& e) : s(e), o(e) {}
  gemm::Arguments<bf16, bf16, bf16> args(const SplitRequest& split) const {
    gemm::Arguments<bf16, bf16, bf16> a{s.M, s.N, s.K, o.a, s.K, o.b, s.K, nullptr, s.N, o.d, s.N, 1.0f, 0.0f};
    a.split = split;
    return a;
  }
};

// The plan a 1x1 StreamK configuration takes on `sms` SMs, in words.
template <class Config>
std::string plan_text(const Extents& s, int sms, const SplitRequest& split) {
  const gemm::TileGrid g{s.M, s.N, s.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
  std::int64_t workers = gemm::scheduler::StreamK<>::units(g);
  if (workers > sms) workers = sms;
  const auto k = gemm::scheduler::StreamK<>::make(g, int(workers), split);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s: dp %lld, granule %d, splits %d, sk workers %d", gemm::decomposition_name(k.plan.mode),
                (long long)k.plan.dp_tiles, k.plan.granule, k.plan.splits, k.plan.sk_workers);
  return buf;
}

template <class Config>
void run_tessera(const std::string& name, Problem& p, std::vector<Row>& rows, int sms, const SplitRequest& split = {}) {
  using G = gemm::Gemm<Config>;
  const auto args = p.args(split);
  std::string label = name;
  if constexpr (gemm::scheduler_has_fixup<typename Config::Scheduler>) {
    label += " [" + plan_text<Config>(p.s, sms, split) + "]";
  }
  const std::size_t ws_bytes = G::workspace_size(args);
  void* ws = nullptr;
  if (ws_bytes > 0) TESSERA_GPU_CHECK(gpu::malloc_bytes(&ws, ws_bytes));
  TESSERA_GPU_CHECK(gpu::memset_bytes(p.o.d, 0xff, p.o.nd * 2));
  const Status st = G::run(args, ws);
  if (!ok(st)) {
    std::printf("  %-70s %s\n", label.c_str(), status_name(st));
  } else {
    TESSERA_GPU_CHECK(gpu::device_synchronize());
    const double err = probe::rel_diff(p.o.d, p.o.ref, p.o.nd);
    const float ms = time_ms([&] { (void)G::run(args, ws); });
    rows.push_back({label, ms, err});
  }
  if (ws != nullptr) TESSERA_GPU_CHECK(gpu::free_bytes(ws));
}

template <class Config>
void run_decompositions(const std::string& name, Problem& p, std::vector<Row>& rows, int sms) {
  run_tessera<Config>(name + " rule", p, rows, sms);
  if (g_quick) return;
  run_tessera<Config>(name + " data-parallel", p, rows, sms, {Decomposition::kDataParallel});
  run_tessera<Config>(name + " stream-K", p, rows, sms, {Decomposition::kStreamK});
  for (int splits : {2, 3, 4, 6, 8, 11, 16, 32, 64}) {
    const SplitRequest split{Decomposition::kSplitK, splits};
    const gemm::TileGrid g{p.s.M, p.s.N, p.s.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
    const auto k = gemm::scheduler::StreamK<>::make(g, sms, split);
    if (k.plan.mode != Decomposition::kSplitK || k.plan.splits != splits) continue;
    run_tessera<Config>(name + " split-K " + std::to_string(splits), p, rows, sms, split);
  }
}

void run_shape(Extents s, cublasHandle_t blas, cublasLtHandle_t lt, int sms) {
  Problem p(s);
  std::vector<Row> rows;
  probe::baselines(blas, lt, s, false, p.o, g_timing, true, rows);
  using gemm::ClusterShape;
  using Sk = gemm::option::Scheduler<gemm::scheduler::StreamK<>>;
  using Dp256 = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor>;
  using Sk256 = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor,
                                  gemm::option::Tile<GemmShape<128, 256, 64>>,
                                  gemm::option::Schedule<schedule::Cooperative>, Sk>;
  using Sk128 = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor,
                                  gemm::option::Tile<GemmShape<128, 128, 64>>,
                                  gemm::option::Schedule<schedule::Cooperative>, Sk>;
  using Sk128Pp = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor,
                                    gemm::option::Tile<GemmShape<128, 128, 64>>,
                                    gemm::option::Schedule<schedule::Pingpong>, Sk>;
  run_tessera<Dp256>("wgmma 128x256 DataParallel", p, rows, sms);
  run_decompositions<Sk256>("StreamK 128x256", p, rows, sms);
  run_decompositions<Sk128>("StreamK 128x128 coop", p, rows, sms);
  if (g_pingpong) run_decompositions<Sk128Pp>("StreamK 128x128 pingpong", p, rows, sms);
  std::printf("%lldx%lldx%lld\n", (long long)s.M, (long long)s.N, (long long)s.K);
  probe::print_rows(rows, 2.0 * double(s.M) * double(s.N) * double(s.K), std::min(rows[0].ms, rows[1].ms), 86);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<Extents> shapes = {{256, 256, 65536},  {512, 512, 16384},   {1024, 1024, 32768}, {1024, 1024, 1024},
                                 {1000, 1000, 1000}, {2048, 2048, 2048},  {2048, 2304, 4096},  {4096, 14336, 4096},
                                 {4096, 4096, 4096}};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) g_timing.reps = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = probe::parse_shapes(argv[++i]);
    if (!std::strcmp(argv[i], "--quick")) g_quick = true;
    if (!std::strcmp(argv[i], "--pingpong")) g_pingpong = true;
  }
  gpu::device_prop_t prop;
  TESSERA_GPU_CHECK(gpu::get_device_properties(&prop, 0));
  std::printf("device: %s, %d SMs; bf16 in/out, fp32 accumulate; A row-major, B = W[N][K], D row-major; L2 "
              "flushed; median of %d\n",
              prop.name, prop.multiProcessorCount, g_timing.reps);
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&g_timing.flush, g_timing.flush_bytes));
  cublasHandle_t blas;
  cublasLtHandle_t lt;
  PROBE_CUBLAS_CHECK(cublasCreate(&blas));
  PROBE_CUBLAS_CHECK(cublasLtCreate(&lt));
  for (const Extents& s : shapes) run_shape(s, blas, lt, prop.multiProcessorCount);
  return 0;
}
