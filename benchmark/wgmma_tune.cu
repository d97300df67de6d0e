// wgmma_tune: the tuning probe of the Hopper family. Times several WgmmaConfig variants
// beside cuBLAS (cublasGemmEx, and cublasLtMatmul with the best of its heuristic's top
// algorithms) on a few shapes, in one process, and prints a table. Each timed launch is
// preceded by an L2 flush (a 256 MB memset, outside the timed events); medians of --reps
// launches. Every Tessera output is compared with cuBLAS's (relative Frobenius error).
// The reported numbers of the project come from tessera_bench (Google Benchmark); this
// tool is for choosing tiles and schedules quickly (benchmark/notes/wgmma.md).
//
//   wgmma_tune [--reps N] [--shapes 4096x4096x4096,...] [--layout tn|nn] [--filter TEXT]
//              [--no-blas] [--packed-only]
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
using probe::Extents;

namespace {

probe::Timing g_timing;           // 20 repetitions, 256 MB flush
const char* g_filter = nullptr;  // run only the Tessera variants whose name contains this
bool g_no_blas = false;           // skip the cuBLAS timings (profiling one variant)
bool g_skip_generic = false;      // where a workspace helps, time only the packed path

float time_ms(const std::function<void()>& launch) { return probe::median_ms(launch, g_timing); }

using probe::Row;

template <class LB>
struct Problem {
  Extents s;
  probe::Operands o;
  std::int64_t lda, ldb, ldd;
  explicit Problem(const Extents& e) : s(e), o(e), lda(e.K), ldb(LB::kIsRowMajor ? e.N : e.K), ldd(e.N) {}
  gemm::Arguments<bf16, bf16, bf16> args() const {
    return {s.M, s.N, s.K, o.a, lda, o.b, ldb, nullptr, ldd, o.d, ldd, 1.0f, 0.0f};
  }
};

// Times the configuration on the path the arguments take without a workspace and, where
// its workspace_size is not 0 (an operand TMA cannot describe), again with that workspace
// (the packed path: the copies are inside the timed interval).
template <class Config, class LB>
void run_tessera(const char* name, Problem<LB>& p, std::vector<Row>& rows) {
  using G = gemm::Gemm<Config>;
  if (g_filter != nullptr && std::strstr(name, g_filter) == nullptr) return;
  const auto args = p.args();
  const std::size_t ws_bytes = G::workspace_size(args);
  void* ws = nullptr;
  if (ws_bytes > 0) TESSERA_GPU_CHECK(gpu::malloc_bytes(&ws, ws_bytes));
  for (void* workspace : {static_cast<void*>(nullptr), ws}) {
    if (workspace == nullptr && ws != nullptr && g_skip_generic) continue;
    const gemm::TmaPath path = gemm::tma_path<Config>(args, workspace);
    std::string label = name;
    if (path != gemm::TmaPath::kTma) {
      label += std::string(" [") + gemm::path_name(path) + (workspace != nullptr ? ", workspace]" : "]");
    }
    TESSERA_GPU_CHECK(gpu::memset_bytes(p.o.d, 0xff, p.o.nd * 2));  // poison: NaN
    const Status st = G::run(args, workspace);
    if (!ok(st)) {
      std::printf("  %-44s %s\n", label.c_str(), status_name(st));
      continue;
    }
    TESSERA_GPU_CHECK(gpu::device_synchronize());
    const double err = probe::rel_diff(p.o.d, p.o.ref, p.o.nd);
    const float ms = time_ms([&] { (void)G::run(args, workspace); });
    rows.push_back({label, ms, err});
    if (ws == nullptr) break;
  }
  if (ws != nullptr) TESSERA_GPU_CHECK(gpu::free_bytes(ws));
}

template <class LB>
void run_shape(Extents s, cublasHandle_t blas, cublasLtHandle_t lt) {
  constexpr bool kRowB = LB::kIsRowMajor;
  Problem<LB> p(s);
  std::vector<Row> rows;
  probe::baselines(blas, lt, s, kRowB, p.o, g_timing, !g_no_blas, rows);
  using schedule::Cooperative;
  using schedule::Pingpong;
  using gemm::ClusterShape;
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 256, 64>>,
                                gemm::option::Schedule<Cooperative>>>(
      "Cooperative 128x256 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 256, 64>>,
                                gemm::option::Schedule<Cooperative>,
                                gemm::option::Cluster<2, 1>>>("Cooperative 128x256 2x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 256, 64>>,
                                gemm::option::Schedule<Cooperative>,
                                gemm::option::Cluster<1, 2>>>("Cooperative 128x256 1x2", p, rows);
  // Wave-filling widths between 128 and 256 (what cuBLAS's kernels do on mid-size shapes:
  // benchmark/notes/sweep.md, "What cuBLAS runs where it is faster").
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 192, 64>>,
                                gemm::option::Schedule<Cooperative>>>("Cooperative 128x192 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 192, 64>>,
                                gemm::option::Schedule<Cooperative>,
                                gemm::option::Cluster<1, 2>>>("Cooperative 128x192 1x2", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 128, 64>>,
                                gemm::option::Schedule<Cooperative>>>("Cooperative 128x128 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 128, 64>>,
                                gemm::option::Schedule<Cooperative>,
                                gemm::option::Cluster<2, 1>>>("Cooperative 128x128 2x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<256, 128, 64>>,
                                gemm::option::Schedule<Cooperative>,
                                gemm::option::Cluster<1, 2>>>("Cooperative 256x128 1x2", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<256, 128, 64>>,
                                gemm::option::Schedule<Cooperative>>>(
      "Cooperative 256x128 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 128, 64>>,
                                gemm::option::Schedule<Pingpong>>>(
      "Pingpong 128x128 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<64, 256, 64>>,
                                gemm::option::Schedule<Pingpong>,
                                gemm::option::Cluster<2, 1>>>("Pingpong 64x256 2x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 128, 64>>,
                                gemm::option::Schedule<Pingpong>,
                                gemm::option::Cluster<2, 1>>>("Pingpong 128x128 2x1", p, rows);
  // Small problems: tiles of 64 rows or 64 columns, for more CTAs than 128 x 128 gives (cuBLAS
  // runs such shapes on 64 x 64 to 64 x 96 tiles in 8-CTA clusters: benchmark/notes/sweep.md).
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 64, 64>>,
                                gemm::option::Schedule<Cooperative>>>("Cooperative 128x64 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<64, 128, 64>>,
                                gemm::option::Schedule<Pingpong>>>("Pingpong 64x128 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<64, 64, 64>>,
                                gemm::option::Schedule<Pingpong>>>("Pingpong 64x64 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, gemm::option::Tile<GemmShape<64, 128, 64>>,
                                gemm::option::Schedule<Pingpong>,
                                gemm::option::Cluster<2, 1>>>("Pingpong 64x128 2x1", p, rows);
  std::printf("%lldx%lldx%lld  B %s-major\n", (long long)s.M, (long long)s.N, (long long)s.K, kRowB ? "row" : "col");
  probe::print_rows(rows, 2.0 * double(s.M) * double(s.N) * double(s.K),
                    g_no_blas ? 1.0f : std::min(rows[0].ms, rows[1].ms), 44);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines reach a pipe as they are printed
  std::vector<Extents> shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048}, {4097, 4095, 4103}};
  bool nn = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) g_timing.reps = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = probe::parse_shapes(argv[++i]);
    if (!std::strcmp(argv[i], "--layout") && i + 1 < argc) nn = std::strcmp(argv[++i], "tn") != 0;
    if (!std::strcmp(argv[i], "--filter") && i + 1 < argc) g_filter = argv[++i];
    if (!std::strcmp(argv[i], "--no-blas")) g_no_blas = true;
    if (!std::strcmp(argv[i], "--packed-only")) g_skip_generic = true;
  }
  gpu::device_prop_t prop;
  TESSERA_GPU_CHECK(gpu::get_device_properties(&prop, 0));
  std::printf("device: %s, %d SMs; bf16 in/out, fp32 accumulate; row-major A and D; L2 flushed; median of %d\n",
              prop.name, prop.multiProcessorCount, g_timing.reps);
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&g_timing.flush, g_timing.flush_bytes));
  cublasHandle_t blas;
  cublasLtHandle_t lt;
  PROBE_CUBLAS_CHECK(cublasCreate(&blas));
  PROBE_CUBLAS_CHECK(cublasLtCreate(&lt));
  for (const Extents& s : shapes) {
    if (nn) {
      run_shape<RowMajor>(s, blas, lt);
    } else {
      run_shape<ColumnMajor>(s, blas, lt);
    }
  }
  return 0;
}
