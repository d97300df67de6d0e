// The cuBLASLt baselines of tessera_bench: cublasLtMatmul with the fastest of the
// algorithms its heuristic proposes (what PyTorch calls). The issues ask for the faster of
// this and cublasGemmEx as the baseline; both are kept in the JSON.
//
// One plan per (problem, implementation), held in the implementation's ImplSlot: the
// descriptors (types, transposes, fp8 scale modes and pointers, an epilogue and its bias)
// and the algorithm, chosen the first time it runs (in the untimed check): every proposal
// of the heuristic's top 8, with a 64 MiB workspace, run 3 times on the harness's stream,
// the fastest by median event time kept. A proposal that fails to run is passed over.
// CUDA only; under HIP there is no Lt baseline.
#pragma once

#if defined(TESSERA_CUDA)
#include <cublasLt.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "vendor_blas.hpp"

namespace {

#define BENCH_LT(...)                                                                              \
  do {                                                                                             \
    const cublasStatus_t bench_lt_s_ = (__VA_ARGS__);                                              \
    if (bench_lt_s_ != CUBLAS_STATUS_SUCCESS) return blas_error(bench_lt_s_, #__VA_ARGS__, __FILE__, __LINE__); \
  } while (0)

constexpr std::size_t kLtWorkspaceBytes = std::size_t(64) << 20;
constexpr int kLtCandidates = 8;

// One column-major operand as cuBLASLt sees it: stored rows x cols with leading dimension ld.
struct LtOperand {
  cudaDataType_t type = CUDA_R_32F;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0;
};

// D (m x n) = alpha op(X) op(Y) + beta C, C == D (in place) when beta != 0. X and Y are
// cuBLASLt's A and B: for a row-major D they are the problem's B and A (vendor_blas.hpp).
struct LtMatmulSpec {
  cublasOperation_t op_x = CUBLAS_OP_N, op_y = CUBLAS_OP_N;
  LtOperand x, y, d;
  // fp8: how cuBLASLt's A (X) and B (Y) are scaled; a null pointer leaves the attribute unset.
  cublasLtMatmulMatrixScale_t x_scale_mode = CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
  cublasLtMatmulMatrixScale_t y_scale_mode = CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
  const float* x_scale = nullptr;
  const float* y_scale = nullptr;
  bool fast_accumulation = false;  // fp8: CUBLASLT_MATMUL_DESC_FAST_ACCUM (no promotion of partial sums)
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void* bias = nullptr;  // CUBLASLT_EPILOGUE_*BIAS: one per row of D (m), D's type
};

struct LtPlan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t x = nullptr, y = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  DeviceBuffer<char> workspace;
  int candidates = 0;
  LtPlan() = default;
  LtPlan(const LtPlan&) = delete;
  LtPlan& operator=(const LtPlan&) = delete;
  ~LtPlan() {  // errors at teardown: nothing useful to do with them
    if (d) cublasLtMatrixLayoutDestroy(d);
    if (y) cublasLtMatrixLayoutDestroy(y);
    if (x) cublasLtMatrixLayoutDestroy(x);
    if (desc) cublasLtMatmulDescDestroy(desc);
  }
};

struct LtState {
  cublasLtHandle_t handle = nullptr;
};
LtState g_lt;

Error init_blas_lt() {
  BENCH_LT(cublasLtCreate(&g_lt.handle));
  return {};
}
void release_blas_lt() {
  if (g_lt.handle) cublasLtDestroy(g_lt.handle);
}

cublasStatus_t lt_matmul_status(const LtPlan& plan, const cublasLtMatmulAlgo_t& algo, const void* x, const void* y,
                                void* d, float alpha, float beta) {
  return cublasLtMatmul(g_lt.handle, plan.desc, &alpha, x, plan.x, y, plan.y, &beta, d, plan.d, d, plan.d, &algo,
                        plan.workspace.ptr, plan.workspace.count, g_dev.stream);
}

Error lt_describe(const LtMatmulSpec& s, LtPlan& plan) {
  BENCH_LT(cublasLtMatmulDescCreate(&plan.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_TRANSA, &s.op_x, sizeof s.op_x));
  BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_TRANSB, &s.op_y, sizeof s.op_y));
  if (s.x_scale) {
    const std::int32_t mode = s.x_scale_mode;
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode));
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &s.x_scale,
                                            sizeof s.x_scale));
  }
  if (s.y_scale) {
    const std::int32_t mode = s.y_scale_mode;
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode));
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &s.y_scale,
                                            sizeof s.y_scale));
  }
  if (s.fast_accumulation) {
    const std::int8_t fast = 1;
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
  }
  if (s.epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
    BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &s.epilogue, sizeof s.epilogue));
    if (s.bias) {
      BENCH_LT(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &s.bias, sizeof s.bias));
    }
  }
  BENCH_LT(cublasLtMatrixLayoutCreate(&plan.x, s.x.type, s.x.rows, s.x.cols, s.x.ld));
  BENCH_LT(cublasLtMatrixLayoutCreate(&plan.y, s.y.type, s.y.rows, s.y.cols, s.y.ld));
  BENCH_LT(cublasLtMatrixLayoutCreate(&plan.d, s.d.type, s.d.rows, s.d.cols, s.d.ld));
  return {};
}

// The plan of `s`, its algorithm the fastest proposal (see the top of the file), run on
// the operands given (D is overwritten by the trials).
Error lt_make_plan(const LtMatmulSpec& s, const void* x, const void* y, void* d, float alpha, float beta,
                   std::shared_ptr<LtPlan>& out) {
  auto plan = std::make_shared<LtPlan>();
  BENCH_TRY(lt_describe(s, *plan));
  BENCH_TRY(plan->workspace.allocate(kLtWorkspaceBytes));
  cublasLtMatmulPreference_t pref;
  BENCH_LT(cublasLtMatmulPreferenceCreate(&pref));
  const std::size_t ws = plan->workspace.count;
  cublasLtMatmulHeuristicResult_t found[kLtCandidates];
  int count = 0;
  cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  if (st == CUBLAS_STATUS_SUCCESS) {
    st = cublasLtMatmulAlgoGetHeuristic(g_lt.handle, plan->desc, plan->x, plan->y, plan->d, plan->d, pref,
                                        kLtCandidates, found, &count);
  }
  const cublasStatus_t destroyed = cublasLtMatmulPreferenceDestroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS) return blas_error(st, "cublasLtMatmulAlgoGetHeuristic", __FILE__, __LINE__);
  BENCH_LT(destroyed);
  if (count == 0) return "cuBLASLt proposed no algorithm for this problem";
  plan->candidates = count;

  int best = -1;
  BENCH_TRY(fastest_candidate(
      "cuBLASLt", count,
      [&](int i) -> Error {
        BENCH_LT(lt_matmul_status(*plan, found[i].algo, x, y, d, alpha, beta));
        return {};
      },
      best));
  plan->algo = found[best].algo;
  out = std::move(plan);
  return {};
}

// One call with the slot's plan, made (and its algorithm chosen) on the first call.
Error lt_run(ImplSlot& slot, const LtMatmulSpec& s, const void* x, const void* y, void* d, float alpha, float beta) {
  if (!slot.state) {
    std::shared_ptr<LtPlan> plan;
    BENCH_TRY(lt_make_plan(s, x, y, d, alpha, beta, plan));
    slot.state = plan;
  }
  const auto& plan = *std::static_pointer_cast<LtPlan>(slot.state);
  BENCH_LT(lt_matmul_status(plan, plan.algo, x, y, d, alpha, beta));
  return {};
}

// The plain GEMM of Arguments through cuBLASLt (16-bit inputs), row-major D handled as
// for cuBLAS (the transposed problem).
template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_blas_lt(const tessera::gemm::Arguments<EA, EB, EC>& a, ImplSlot& slot) {
  static_assert(!std::is_same_v<EA, float>, "the cuBLASLt baseline is for 16-bit inputs");
  ColumnMajorGemm g;
  BENCH_TRY(as_column_major<LA, LB, LC>(a, g));
  constexpr bool row_c = LC::kIsRowMajor;
  LtMatmulSpec s;
  s.op_x = g.x_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  s.op_y = g.y_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  // X is m x k (k x m when transposed) with ld ldx; Y is k x n (n x k); D is m x n.
  s.x = {row_c ? BlasType<EB>::value : BlasType<EA>::value, std::uint64_t(g.x_transposed ? g.k : g.m),
         std::uint64_t(g.x_transposed ? g.m : g.k), g.ldx};
  s.y = {row_c ? BlasType<EA>::value : BlasType<EB>::value, std::uint64_t(g.y_transposed ? g.n : g.k),
         std::uint64_t(g.y_transposed ? g.k : g.n), g.ldy};
  s.d = {BlasType<EC>::value, std::uint64_t(g.m), std::uint64_t(g.n), g.ldd};
  return lt_run(slot, s, g.x, g.y, a.D, a.alpha, a.beta);
}

Error add_blas_lt_context() {
  benchmark::AddCustomContext("cublaslt", "cublasLtMatmul COMPUTE_32F, fastest of the heuristic's top 8 with a 64 MiB "
                                          "workspace (chosen once per problem, 3 untimed runs each)");
  return {};
}

}  // namespace

#endif  // TESSERA_CUDA
