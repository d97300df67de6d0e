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
#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tessera/gemm/wgmma_gemm.hpp"
#include "tessera/runtime/gpu.hpp"

using namespace tessera;
using bf16 = bfloat16_t;

#define CUBLAS_CHECK(call)                                                                     \
  do {                                                                                         \
    const cublasStatus_t s_ = (call);                                                          \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cublasGetStatusName(s_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

namespace {

struct Extents {
  std::int64_t M, N, K;
};

int g_reps = 20;
const char* g_filter = nullptr;  // run only the Tessera variants whose name contains this
bool g_no_blas = false;           // skip the cuBLAS timings (profiling one variant)
bool g_skip_generic = false;      // where a workspace helps, time only the packed path
void* g_flush = nullptr;
constexpr std::size_t kFlushBytes = std::size_t(256) << 20;

// Median milliseconds of g_reps launches, each after an L2 flush.
float time_ms(const std::function<void()>& launch) {
  gpu::event_t start, stop;
  TESSERA_GPU_CHECK(gpu::event_create(&start));
  TESSERA_GPU_CHECK(gpu::event_create(&stop));
  launch();  // warm-up
  TESSERA_GPU_CHECK(gpu::device_synchronize());
  std::vector<float> ms;
  for (int r = 0; r < g_reps; ++r) {
    TESSERA_GPU_CHECK(gpu::memset_async(g_flush, r & 0xff, kFlushBytes, nullptr));
    TESSERA_GPU_CHECK(gpu::event_record(start, nullptr));
    launch();
    TESSERA_GPU_CHECK(gpu::event_record(stop, nullptr));
    TESSERA_GPU_CHECK(gpu::event_synchronize(stop));
    float t = 0;
    TESSERA_GPU_CHECK(gpu::event_elapsed_ms(&t, start, stop));
    ms.push_back(t);
  }
  TESSERA_GPU_CHECK(gpu::get_last_error());
  TESSERA_GPU_CHECK(gpu::event_destroy(start));
  TESSERA_GPU_CHECK(gpu::event_destroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Relative Frobenius difference of two device bf16 matrices of n elements.
double rel_diff(const bf16* x, const bf16* y, std::size_t n) {
  std::vector<bf16> hx(n), hy(n);
  TESSERA_GPU_CHECK(gpu::copy_to_host(hx.data(), x, n * 2));
  TESSERA_GPU_CHECK(gpu::copy_to_host(hy.data(), y, n * 2));
  double e = 0, r = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = float(hx[i]), b = float(hy[i]);
    e += (a - b) * (a - b);
    r += b * b;
  }
  return std::sqrt(e / (r > 0 ? r : 1));
}

struct Row {
  std::string name;
  float ms;
  double err;
};

template <class LB>
struct Problem {
  Extents s;
  bf16 *a, *b, *d, *ref;
  std::int64_t lda, ldb, ldd;
  gemm::Arguments<bf16, bf16, bf16> args() const { return {s.M, s.N, s.K, a, lda, b, ldb, nullptr, ldd, d, ldd, 1.0f, 0.0f}; }
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
    const gemm::WgmmaPath path = gemm::wgmma_path<Config>(args, workspace);
    std::string label = name;
    if (path != gemm::WgmmaPath::kTma) {
      label += std::string(" [") + gemm::path_name(path) + (workspace != nullptr ? ", workspace]" : "]");
    }
    TESSERA_GPU_CHECK(gpu::memset_bytes(p.d, 0xff, std::size_t(p.s.M * p.ldd) * 2));  // poison: NaN
    const Status st = G::run(args, workspace);
    if (!ok(st)) {
      std::printf("  %-44s %s\n", label.c_str(), status_name(st));
      continue;
    }
    TESSERA_GPU_CHECK(gpu::device_synchronize());
    const double err = rel_diff(p.d, p.ref, std::size_t(p.s.M * p.ldd));
    const float ms = time_ms([&] { (void)G::run(args, workspace); });
    rows.push_back({label, ms, err});
    if (ws == nullptr) break;
  }
  if (ws != nullptr) TESSERA_GPU_CHECK(gpu::free_bytes(ws));
}

template <class LB>
void run_shape(Extents s, cublasHandle_t blas, cublasLtHandle_t lt) {
  constexpr bool kRowB = LB::kIsRowMajor;
  Problem<LB> p{s};
  p.lda = s.K;
  p.ldb = kRowB ? s.N : s.K;
  p.ldd = s.N;
  const std::size_t na = std::size_t(s.M * s.K), nb = std::size_t(s.K * s.N), nd = std::size_t(s.M * s.N);
  TESSERA_GPU_CHECK(gpu::malloc_elements(&p.a, na));
  TESSERA_GPU_CHECK(gpu::malloc_elements(&p.b, nb));
  TESSERA_GPU_CHECK(gpu::malloc_elements(&p.d, nd));
  TESSERA_GPU_CHECK(gpu::malloc_elements(&p.ref, nd));
  {
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<bf16> h(std::max(na, nb));
    for (std::size_t i = 0; i < na; ++i) h[i] = bf16(u(rng));
    TESSERA_GPU_CHECK(gpu::copy_to_device(p.a, h.data(), na * 2));
    for (std::size_t i = 0; i < nb; ++i) h[i] = bf16(u(rng));
    TESSERA_GPU_CHECK(gpu::copy_to_device(p.b, h.data(), nb * 2));
  }
  const double flops = 2.0 * double(s.M) * double(s.N) * double(s.K);
  std::vector<Row> rows;
  // cuBLAS (column-major): row-major D = A B is D^T = B^T A^T. B^T is B viewed
  // column-major when B is row-major (no transpose), else transposed.
  const float one = 1.0f, zero = 0.0f;
  const cublasOperation_t opb = kRowB ? CUBLAS_OP_N : CUBLAS_OP_T;
  auto gemm_ex = [&] {
    CUBLAS_CHECK(cublasGemmEx(blas, opb, CUBLAS_OP_N, int(s.N), int(s.M), int(s.K), &one, p.b, CUDA_R_16BF,
                              int(p.ldb), p.a, CUDA_R_16BF, int(p.lda), &zero, p.ref, CUDA_R_16BF, int(p.ldd),
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  gemm_ex();  // the reference output
  if (!g_no_blas) rows.push_back({"cublasGemmEx", time_ms(gemm_ex), 0.0});
  if (!g_no_blas) {
    cublasLtMatmulDesc_t desc;
    CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opb, sizeof opb));
    cublasLtMatrixLayout_t lb, la, ld;
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, kRowB ? s.N : s.K, kRowB ? s.K : s.N, p.ldb));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, s.K, s.M, p.lda));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, s.N, s.M, p.ldd));
    cublasLtMatmulPreference_t pref;
    CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    std::size_t ws_bytes = std::size_t(64) << 20;
    void* ws = nullptr;
    TESSERA_GPU_CHECK(gpu::malloc_bytes(&ws, ws_bytes));
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                                      sizeof ws_bytes));
    cublasLtMatmulHeuristicResult_t heur[8];
    int found = 0;
    CUBLAS_CHECK(cublasLtMatmulAlgoGetHeuristic(lt, desc, lb, la, ld, ld, pref, 8, heur, &found));
    float best = 1e30f;
    for (int i = 0; i < found; ++i) {
      auto lt_run = [&] {
        CUBLAS_CHECK(cublasLtMatmul(lt, desc, &one, p.b, lb, p.a, la, &zero, p.d, ld, p.d, ld, &heur[i].algo, ws,
                                    ws_bytes, nullptr));
      };
      best = std::min(best, time_ms(lt_run));
    }
    rows.push_back({"cublasLtMatmul (best of " + std::to_string(found) + ")", best, rel_diff(p.d, p.ref, nd)});
    TESSERA_GPU_CHECK(gpu::free_bytes(ws));
  }
  using schedule::Cooperative;
  using schedule::Pingpong;
  using gemm::ClusterShape;
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<128, 256, 64>, Cooperative>>(
      "Cooperative 128x256 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<128, 256, 64>, Cooperative,
                                ClusterShape<2, 1>>>("Cooperative 128x256 2x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<128, 256, 64>, Cooperative,
                                ClusterShape<1, 2>>>("Cooperative 128x256 1x2", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<256, 128, 64>, Cooperative,
                                ClusterShape<1, 2>>>("Cooperative 256x128 1x2", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<256, 128, 64>, Cooperative>>(
      "Cooperative 256x128 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<128, 128, 64>, Pingpong>>(
      "Pingpong 128x128 1x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<64, 256, 64>, Pingpong,
                                ClusterShape<2, 1>>>("Pingpong 64x256 2x1", p, rows);
  run_tessera<gemm::WgmmaConfig<bf16, RowMajor, bf16, LB, bf16, RowMajor, GemmShape<128, 128, 64>, Pingpong,
                                ClusterShape<2, 1>>>("Pingpong 128x128 2x1", p, rows);
  std::printf("%lldx%lldx%lld  B %s-major\n", (long long)s.M, (long long)s.N, (long long)s.K, kRowB ? "row" : "col");
  const float blas_best = g_no_blas ? 1.0f : std::min(rows[0].ms, rows[1].ms);
  for (const Row& r : rows) {
    std::printf("  %-44s %9.4f ms %8.1f TFLOP/s  x%.3f  err %.2e\n", r.name.c_str(), r.ms, flops / r.ms * 1e-9,
                blas_best / r.ms, r.err);
  }
  TESSERA_GPU_CHECK(gpu::free_bytes(p.a));
  TESSERA_GPU_CHECK(gpu::free_bytes(p.b));
  TESSERA_GPU_CHECK(gpu::free_bytes(p.d));
  TESSERA_GPU_CHECK(gpu::free_bytes(p.ref));
}

std::vector<Extents> parse_shapes(const char* text) {
  std::vector<Extents> out;
  std::string s(text);
  std::size_t at = 0;
  while (at < s.size()) {
    const std::size_t end = s.find(',', at) == std::string::npos ? s.size() : s.find(',', at);
    long long m, n, k;
    if (std::sscanf(s.substr(at, end - at).c_str(), "%lldx%lldx%lld", &m, &n, &k) == 3) out.push_back({m, n, k});
    at = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines reach a pipe as they are printed
  std::vector<Extents> shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048}, {4097, 4095, 4103}};
  bool nn = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) g_reps = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = parse_shapes(argv[++i]);
    if (!std::strcmp(argv[i], "--layout") && i + 1 < argc) nn = std::strcmp(argv[++i], "tn") != 0;
    if (!std::strcmp(argv[i], "--filter") && i + 1 < argc) g_filter = argv[++i];
    if (!std::strcmp(argv[i], "--no-blas")) g_no_blas = true;
    if (!std::strcmp(argv[i], "--packed-only")) g_skip_generic = true;
  }
  gpu::device_prop_t prop;
  TESSERA_GPU_CHECK(gpu::get_device_properties(&prop, 0));
  std::printf("device: %s, %d SMs; bf16 in/out, fp32 accumulate; row-major A and D; L2 flushed; median of %d\n",
              prop.name, prop.multiProcessorCount, g_reps);
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&g_flush, kFlushBytes));
  cublasHandle_t blas;
  cublasLtHandle_t lt;
  CUBLAS_CHECK(cublasCreate(&blas));
  CUBLAS_CHECK(cublasLtCreate(&lt));
  for (const Extents& s : shapes) {
    if (nn) {
      run_shape<RowMajor>(s, blas, lt);
    } else {
      run_shape<ColumnMajor>(s, blas, lt);
    }
  }
  return 0;
}
