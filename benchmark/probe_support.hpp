// What the quick tuning probes (wgmma_tune.cu, stream_k_probe.cu) share: shape lists, the
// L2-flushed event timing, the relative difference of two bf16 results, and the cuBLASLt
// baseline (the best of its heuristic's top 8 algorithms). The project's reported numbers come
// from tessera_bench; these tools are for choosing quickly. CUDA only.
#pragma once
#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tessera/core/numeric.hpp"
#include "tessera/runtime/gpu.hpp"

#define PROBE_CUBLAS_CHECK(call)                                                                     \
  do {                                                                                               \
    const cublasStatus_t s_ = (call);                                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cublasGetStatusName(s_));  \
      std::exit(1);                                                                                  \
    }                                                                                                \
  } while (0)

namespace probe {

using bf16 = tessera::bfloat16_t;

struct Extents {
  std::int64_t M, N, K;
};

// "4096x4096x4096,8192x8192x8192" -> extents.
inline std::vector<Extents> parse_shapes(const char* text) {
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

// How a probe times: `reps` launches after one warm-up, each after a memset of `flush_bytes`
// at `flush` (outside the timed events); the median.
struct Timing {
  int reps = 20;
  void* flush = nullptr;
  std::size_t flush_bytes = std::size_t(256) << 20;
};

inline float median_ms(const std::function<void()>& launch, const Timing& timing) {
  namespace gpu = tessera::gpu;
  gpu::event_t start, stop;
  TESSERA_GPU_CHECK(gpu::event_create(&start));
  TESSERA_GPU_CHECK(gpu::event_create(&stop));
  launch();  // warm-up
  TESSERA_GPU_CHECK(gpu::device_synchronize());
  std::vector<float> ms;
  for (int r = 0; r < timing.reps; ++r) {
    TESSERA_GPU_CHECK(gpu::memset_async(timing.flush, r & 0xff, timing.flush_bytes, nullptr));
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
inline double rel_diff(const bf16* x, const bf16* y, std::size_t n) {
  namespace gpu = tessera::gpu;
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

// cuBLASLt on row-major bf16 D (M x N, ld N) = A (M x K, ld K) B, B row-major (ld N) or
// column-major (ld K), fp32 accumulation: the best median of its heuristic's top 8
// algorithms with a 64 MiB workspace. *found: how many it offered. D holds the last one's.
inline float blas_lt_best_ms(cublasLtHandle_t lt, const Extents& s, bool b_row_major, const bf16* a, const bf16* b,
                             bf16* d, const Timing& timing, int* found) {
  namespace gpu = tessera::gpu;
  // Column-major, as cuBLAS sees it: D^T = B^T A^T.
  const float one = 1.0f, zero = 0.0f;
  const cublasOperation_t opb = b_row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  const std::int64_t ldb = b_row_major ? s.N : s.K;
  cublasLtMatmulDesc_t desc;
  PROBE_CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  PROBE_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opb, sizeof opb));
  cublasLtMatrixLayout_t lb, la, ld;
  PROBE_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, b_row_major ? s.N : s.K, b_row_major ? s.K : s.N, ldb));
  PROBE_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, s.K, s.M, s.K));
  PROBE_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, s.N, s.M, s.N));
  cublasLtMatmulPreference_t pref;
  PROBE_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
  std::size_t ws_bytes = std::size_t(64) << 20;
  void* ws = nullptr;
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&ws, ws_bytes));
  PROBE_CUBLAS_CHECK(
      cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof ws_bytes));
  cublasLtMatmulHeuristicResult_t heur[8];
  *found = 0;
  PROBE_CUBLAS_CHECK(cublasLtMatmulAlgoGetHeuristic(lt, desc, lb, la, ld, ld, pref, 8, heur, found));
  float best = 1e30f;
  for (int i = 0; i < *found; ++i) {
    auto run = [&] {
      PROBE_CUBLAS_CHECK(cublasLtMatmul(lt, desc, &one, b, lb, a, la, &zero, d, ld, d, ld, &heur[i].algo, ws, ws_bytes,
                                        nullptr));
    };
    best = std::min(best, median_ms(run, timing));
  }
  TESSERA_GPU_CHECK(gpu::free_bytes(ws));
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
  return best;
}

// One problem's device buffers: random A (M x K, row-major) and B (K x N, row-major or
// column-major), D for the tested kernels and `ref` for cuBLAS's result.
struct Operands {
  bf16 *a = nullptr, *b = nullptr, *d = nullptr, *ref = nullptr;
  std::size_t na = 0, nb = 0, nd = 0;
  explicit Operands(const Extents& s)
      : na(std::size_t(s.M * s.K)), nb(std::size_t(s.K * s.N)), nd(std::size_t(s.M * s.N)) {
    namespace gpu = tessera::gpu;
    TESSERA_GPU_CHECK(gpu::malloc_elements(&a, na));
    TESSERA_GPU_CHECK(gpu::malloc_elements(&b, nb));
    TESSERA_GPU_CHECK(gpu::malloc_elements(&d, nd));
    TESSERA_GPU_CHECK(gpu::malloc_elements(&ref, nd));
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<bf16> h(std::max(na, nb));
    for (std::size_t i = 0; i < na; ++i) h[i] = bf16(u(rng));
    TESSERA_GPU_CHECK(gpu::copy_to_device(a, h.data(), na * 2));
    for (std::size_t i = 0; i < nb; ++i) h[i] = bf16(u(rng));
    TESSERA_GPU_CHECK(gpu::copy_to_device(b, h.data(), nb * 2));
  }
  ~Operands() {
    namespace gpu = tessera::gpu;
    (void)gpu::free_bytes(a);
    (void)gpu::free_bytes(b);
    (void)gpu::free_bytes(d);
    (void)gpu::free_bytes(ref);
  }
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;
};

struct Row {
  std::string name;
  float ms;
  double err;
};

// cublasGemmEx's result into o.ref (the reference every other row is compared with) and, when
// `timed`, the two baselines' rows: cublasGemmEx, and cublasLtMatmul's best of 8 (its D in o.d).
inline void baselines(cublasHandle_t blas, cublasLtHandle_t lt, const Extents& s, bool b_row_major, Operands& o,
                      const Timing& timing, bool timed, std::vector<Row>& rows) {
  // Column-major, as cuBLAS sees it: row-major D = A B is D^T = B^T A^T; B^T is B viewed
  // column-major when B is row-major (no transpose), else transposed.
  const float one = 1.0f, zero = 0.0f;
  const cublasOperation_t opb = b_row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  auto gemm_ex = [&] {
    PROBE_CUBLAS_CHECK(cublasGemmEx(blas, opb, CUBLAS_OP_N, int(s.N), int(s.M), int(s.K), &one, o.b, CUDA_R_16BF,
                                    int(b_row_major ? s.N : s.K), o.a, CUDA_R_16BF, int(s.K), &zero, o.ref,
                                    CUDA_R_16BF, int(s.N), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  gemm_ex();
  if (!timed) return;
  rows.push_back({"cublasGemmEx", median_ms(gemm_ex, timing), 0.0});
  int found = 0;
  const float best = blas_lt_best_ms(lt, s, b_row_major, o.a, o.b, o.d, timing, &found);
  rows.push_back({"cublasLtMatmul (best of " + std::to_string(found) + ")", best, rel_diff(o.d, o.ref, o.nd)});
}

// The table of one shape: time, TFLOP/s, ratio to `reference_ms`, difference from cuBLAS.
inline void print_rows(const std::vector<Row>& rows, double flops, float reference_ms, int name_width) {
  for (const Row& r : rows) {
    std::printf("  %-*s %9.4f ms %8.1f TFLOP/s  x%.3f  err %.2e\n", name_width, r.name.c_str(), r.ms,
                flops / r.ms * 1e-9, reference_ms / r.ms, r.err);
  }
}

}  // namespace probe
