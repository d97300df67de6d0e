// The second cuBLAS baseline of tessera_bench, for 16-bit inputs: cublasLtMatmul with the
// fastest of the algorithms its heuristic proposes (what PyTorch calls). The issue asks for
// the faster of this and cublasGemmEx as the baseline; both are kept in the JSON.
//
// The algorithm is chosen once per problem (shape, types, layouts), the first time it runs:
// every proposed algorithm (up to 8) is run 3 times on the harness's stream and the
// fastest by median event time kept. That happens in the untimed correctness check.
// CUDA only; under HIP there is no Lt baseline.
#pragma once

#if defined(TESSERA_CUDA)
#include <cublasLt.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "vendor_blas.hpp"

namespace {

#define BENCH_LT(...)                                                                              \
  do {                                                                                             \
    const cublasStatus_t bench_lt_s_ = (__VA_ARGS__);                                              \
    if (bench_lt_s_ != CUBLAS_STATUS_SUCCESS) return blas_error(bench_lt_s_, #__VA_ARGS__, __FILE__, __LINE__); \
  } while (0)

struct LtPlan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t x = nullptr, y = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  DeviceBuffer<char> workspace;
  int candidates = 0;
  ~LtPlan() {
    if (d) cublasLtMatrixLayoutDestroy(d);
    if (y) cublasLtMatrixLayoutDestroy(y);
    if (x) cublasLtMatrixLayoutDestroy(x);
    if (desc) cublasLtMatmulDescDestroy(desc);
  }
};

struct LtState {
  cublasLtHandle_t handle = nullptr;
  std::map<std::string, std::unique_ptr<LtPlan>> plans;
};
LtState g_lt;

Error init_blas_lt() {
  BENCH_LT(cublasLtCreate(&g_lt.handle));
  return {};
}
void release_blas_lt() {
  g_lt.plans.clear();
  if (g_lt.handle) cublasLtDestroy(g_lt.handle);
}

// One matmul with the plan's algorithm.
template <class EC>
Error lt_matmul(LtPlan& plan, const ColumnMajorGemm& g, EC* D, float alpha, float beta) {
  BENCH_LT(cublasLtMatmul(g_lt.handle, plan.desc, &alpha, g.x, plan.x, g.y, plan.y, &beta, D, plan.d, D, plan.d,
                          &plan.algo, plan.workspace.ptr, plan.workspace.count, g_dev.stream));
  return {};
}

template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_blas_lt(const tessera::gemm::Arguments<EA, EB, EC>& a) {
  static_assert(!std::is_same_v<EA, float>, "the cuBLASLt baseline is for 16-bit inputs");
  ColumnMajorGemm g;
  BENCH_TRY(as_column_major<LA, LB, LC>(a, g));
  const std::string key = std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k) + "/" +
                          std::to_string(g.ldx) + "," + std::to_string(g.ldy) + "," + std::to_string(g.ldd) + "/" +
                          (g.x_transposed ? "T" : "N") + (g.y_transposed ? "T" : "N") + "/" +
                          std::to_string(int(BlasType<EA>::value)) + "," + std::to_string(int(BlasType<EC>::value));
  auto& slot = g_lt.plans[key];
  if (!slot) {
    auto plan = std::make_unique<LtPlan>();
    constexpr bool row_c = LC::kIsRowMajor;
    constexpr auto tx = row_c ? BlasType<EB>::value : BlasType<EA>::value;
    constexpr auto ty = row_c ? BlasType<EA>::value : BlasType<EB>::value;
    const cublasOperation_t opx = g.x_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t opy = g.y_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    BENCH_LT(cublasLtMatmulDescCreate(&plan->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSA, &opx, sizeof opx));
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSB, &opy, sizeof opy));
    // X is m x k (k x m when transposed) with ld ldx; Y is k x n (n x k); D is m x n.
    BENCH_LT(cublasLtMatrixLayoutCreate(&plan->x, tx, g.x_transposed ? g.k : g.m, g.x_transposed ? g.m : g.k, g.ldx));
    BENCH_LT(cublasLtMatrixLayoutCreate(&plan->y, ty, g.y_transposed ? g.n : g.k, g.y_transposed ? g.k : g.n, g.ldy));
    BENCH_LT(cublasLtMatrixLayoutCreate(&plan->d, BlasType<EC>::value, g.m, g.n, g.ldd));
    BENCH_TRY(plan->workspace.allocate(std::size_t(32) << 20));
    cublasLtMatmulPreference_t pref;
    BENCH_LT(cublasLtMatmulPreferenceCreate(&pref));
    const std::size_t ws = plan->workspace.count;
    BENCH_LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
    cublasLtMatmulHeuristicResult_t found[8];
    int count = 0;
    BENCH_LT(cublasLtMatmulAlgoGetHeuristic(g_lt.handle, plan->desc, plan->x, plan->y, plan->d, plan->d, pref, 8,
                                            found, &count));
    cublasLtMatmulPreferenceDestroy(pref);
    if (count == 0) return std::string("cuBLASLt proposed no algorithm for ") + key;
    plan->candidates = count;
    // The fastest proposal, by the median of 3 event-timed runs each.
    gpu::event_t start, stop;
    BENCH_GPU(gpu::event_create(&start));
    BENCH_GPU(gpu::event_create(&stop));
    float best = 1e30f;
    int best_index = 0;
    for (int i = 0; i < count; ++i) {
      plan->algo = found[i].algo;
      std::vector<float> ms;
      for (int r = 0; r < 3; ++r) {
        BENCH_GPU(gpu::event_record(start, g_dev.stream));
        BENCH_TRY(lt_matmul(*plan, g, a.D, a.alpha, a.beta));
        BENCH_GPU(gpu::event_record(stop, g_dev.stream));
        BENCH_GPU(gpu::event_synchronize(stop));
        float t = 0;
        BENCH_GPU(gpu::event_elapsed_ms(&t, start, stop));
        ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      if (ms[1] < best) {
        best = ms[1];
        best_index = i;
      }
    }
    plan->algo = found[best_index].algo;
    (void)gpu::event_destroy(start);
    (void)gpu::event_destroy(stop);
    slot = std::move(plan);
  }
  return lt_matmul(*slot, g, a.D, a.alpha, a.beta);
}

}  // namespace

#endif  // TESSERA_CUDA
