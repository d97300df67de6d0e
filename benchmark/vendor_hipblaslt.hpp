// The hipBLASLt baseline of tessera_bench_hip's low-precision suite (suite_lowp.hpp):
// hipblasLtMatmul with fp8 / fp4 operands, per-tensor or MX (VEC32_UE8M0) scales, fp32
// compute, with the fastest of the algorithms its heuristic proposes. Compiled only when the
// build found hipBLASLt (TESSERA_HAVE_HIPBLASLT); without it init/release do nothing and no
// hipblaslt benchmark is registered. HIP only (the CUDA build's Lt is vendor_blas_lt.hpp).
//
// NOT COMPILED OR RUN HERE: no ROCm install exists on the build machine. Written from
// hipBLASLt's public header (library/include/hipblaslt.h of ROCm/hipBLASLt and its 1.0
// successor in ROCm 7: hipblasLtMatmulDescCreate(desc, HIPBLAS_COMPUTE_32F, HIP_R_32F);
// HIPBLASLT_MATMUL_DESC_TRANSA/B; HIPBLASLT_MATMUL_DESC_A/B_SCALE_POINTER (device pointers:
// a float per tensor, or the scale tensor); HIPBLASLT_MATMUL_DESC_A/B_SCALE_MODE = 31/32 with
// HIPBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0 = 2, "an 8-bit R_8F_UE8M0 value for each
// 32-element block in the innermost dimension" (hipBLASLt 1.0, ROCm 7.0, changelog: "Support
// for block scaling ..."; also FP4 on gfx950); hipblasLtMatrixLayoutCreate(layout, type, rows,
// cols, ld); hipblasLtMatmulAlgoGetHeuristic; hipblasLtMatmul(handle, desc, &alpha, A, Adesc,
// B, Bdesc, &beta, C, Cdesc, D, Ddesc, &algo, workspace, bytes, stream)), and checked only
// against a stub header declaring those with the same signatures. The MX scale layout,
// [row][K/32] with K/32 contiguous ("unswizzled"), is the one PyTorch's torch._scaled_mm
// passes to hipBLASLt's VEC32_UE8M0 mode (pytorch/pytorch pull request 190290, which adds the
// pre-swizzled 32x8 alternative BLK32_UE8M0_32_8_EXT beside it). MX needs hipBLASLt >= 1.0
// (HIPBLASLT_VERSION_MAJOR); with an older one the MX benchmarks say so and skip.
#pragma once

#include "bench_harness.hpp"
#include "bench_registry.hpp"

#if defined(TESSERA_HIP) && defined(TESSERA_HAVE_HIPBLASLT)
#include <hipblaslt/hipblaslt.h>
#define TESSERA_BENCH_HAS_HIPBLASLT 1
#else
#define TESSERA_BENCH_HAS_HIPBLASLT 0
#endif

#include <cstdint>
#include <memory>
#include <string>

namespace {

#if TESSERA_BENCH_HAS_HIPBLASLT

// hipblasStatus_t's names (hipblas-common.h), for messages.
std::string hiplt_error(hipblasStatus_t s, const char* expr, const char* file, int line) {
  static const char* const names[] = {"SUCCESS",         "NOT_INITIALIZED", "ALLOC_FAILED",  "INVALID_VALUE",
                                      "MAPPING_ERROR",   "EXECUTION_FAILED", "INTERNAL_ERROR", "NOT_SUPPORTED",
                                      "ARCH_MISMATCH",   "HANDLE_IS_NULLPTR", "INVALID_ENUM", "UNKNOWN"};
  const int i = int(s);
  return std::string("hipBLASLt error HIPBLAS_STATUS_") + (i >= 0 && i < 12 ? names[i] : "?") + " (" +
         std::to_string(i) + ") from " + expr + " at " + source_line(file, line);
}
#define BENCH_HIPLT(...)                                                             \
  do {                                                                               \
    const hipblasStatus_t bench_hiplt_s_ = (__VA_ARGS__);                            \
    if (bench_hiplt_s_ != HIPBLAS_STATUS_SUCCESS) {                                  \
      return hiplt_error(bench_hiplt_s_, #__VA_ARGS__, __FILE__, __LINE__);          \
    }                                                                                \
  } while (0)

constexpr std::size_t kHipLtWorkspaceBytes = std::size_t(64) << 20;
constexpr int kHipLtCandidates = 8;

// A column-major operand as hipBLASLt sees it: `type` a hipDataType value (lowp_elements.hpp).
struct HipLtOperand {
  int type = 0;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0;
};

// D (m x n, column-major) = op(X) op(Y) with X transposed and Y not ("TN"), alpha 1, beta 0.
// Scales: none (both null), one float each, or MX (block_scales).
struct HipLtSpec {
  HipLtOperand x, y, d;
  const void* x_scale = nullptr;
  const void* y_scale = nullptr;
  bool block_scales = false;
};

struct HipLtPlan {
  hipblasLtMatmulDesc_t desc = nullptr;
  hipblasLtMatrixLayout_t x = nullptr, y = nullptr, d = nullptr;
  hipblasLtMatmulAlgo_t algo{};
  DeviceBuffer<char> workspace;
  HipLtPlan() = default;
  HipLtPlan(const HipLtPlan&) = delete;
  HipLtPlan& operator=(const HipLtPlan&) = delete;
  ~HipLtPlan() {  // errors at teardown: nothing useful to do with them
    if (d) (void)hipblasLtMatrixLayoutDestroy(d);
    if (y) (void)hipblasLtMatrixLayoutDestroy(y);
    if (x) (void)hipblasLtMatrixLayoutDestroy(x);
    if (desc) (void)hipblasLtMatmulDescDestroy(desc);
  }
};

hipblasLtHandle_t g_hiplt = nullptr;

Error init_blas_lt() {
  BENCH_HIPLT(hipblasLtCreate(&g_hiplt));
  return {};
}
void release_blas_lt() {
  if (g_hiplt) (void)hipblasLtDestroy(g_hiplt);
}
Error add_blas_lt_context() {
  benchmark::AddCustomContext("hipblaslt", std::to_string(HIPBLASLT_VERSION_MAJOR) + "." +
                                               std::to_string(HIPBLASLT_VERSION_MINOR) + "." +
                                               std::to_string(HIPBLASLT_VERSION_PATCH) +
                                               ": hipblasLtMatmul COMPUTE_32F, fastest of the heuristic's top 8 with "
                                               "a 64 MiB workspace (chosen once per problem, 3 untimed runs each)");
  return {};
}

hipblasStatus_t hiplt_matmul(const HipLtPlan& plan, const hipblasLtMatmulAlgo_t& algo, const void* x, const void* y,
                             void* d) {
  const float alpha = 1.0f, beta = 0.0f;
  return hipblasLtMatmul(g_hiplt, plan.desc, &alpha, x, plan.x, y, plan.y, &beta, d, plan.d, d, plan.d, &algo,
                         plan.workspace.ptr, plan.workspace.count, g_dev.stream);
}

Error hiplt_describe(const HipLtSpec& s, HipLtPlan& plan) {
  BENCH_HIPLT(hipblasLtMatmulDescCreate(&plan.desc, HIPBLAS_COMPUTE_32F, HIP_R_32F));
  const hipblasOperation_t op_x = HIPBLAS_OP_T, op_y = HIPBLAS_OP_N;
  BENCH_HIPLT(hipblasLtMatmulDescSetAttribute(plan.desc, HIPBLASLT_MATMUL_DESC_TRANSA, &op_x, sizeof op_x));
  BENCH_HIPLT(hipblasLtMatmulDescSetAttribute(plan.desc, HIPBLASLT_MATMUL_DESC_TRANSB, &op_y, sizeof op_y));
  if (s.block_scales) {
#if HIPBLASLT_VERSION_MAJOR >= 1
    const hipblasLtMatmulMatrixScale_t mode = HIPBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0;
    BENCH_HIPLT(hipblasLtMatmulDescSetAttribute(plan.desc, HIPBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode));
    BENCH_HIPLT(hipblasLtMatmulDescSetAttribute(plan.desc, HIPBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode));
#else
    return "hipBLASLt " + std::to_string(HIPBLASLT_VERSION_MAJOR) + "." + std::to_string(HIPBLASLT_VERSION_MINOR) +
           " predates MX block scales (hipBLASLt 1.0, ROCm 7.0)";
#endif
  }
  if (s.x_scale) {  // the default mode, SCALAR_32F, reads one float
    BENCH_HIPLT(hipblasLtMatmulDescSetAttribute(plan.desc, HIPBLASLT_MATMUL_DESC_A_SCALE_POINTER, &s.x_scale,
                                                sizeof s.x_scale));
  }
  if (s.y_scale) {
    BENCH_HIPLT(hipblasLtMatmulDescSetAttribute(plan.desc, HIPBLASLT_MATMUL_DESC_B_SCALE_POINTER, &s.y_scale,
                                                sizeof s.y_scale));
  }
  auto layout = [](hipblasLtMatrixLayout_t* out, const HipLtOperand& o) {
    return hipblasLtMatrixLayoutCreate(out, static_cast<hipDataType>(o.type), o.rows, o.cols, o.ld);
  };
  BENCH_HIPLT(layout(&plan.x, s.x));
  BENCH_HIPLT(layout(&plan.y, s.y));
  BENCH_HIPLT(layout(&plan.d, s.d));
  return {};
}

// The plan of `s`, its algorithm the fastest of the heuristic's proposals, tried on the
// operands given (D is overwritten by the trials).
Error hiplt_make_plan(const HipLtSpec& s, const void* x, const void* y, void* d, std::shared_ptr<HipLtPlan>& out) {
  auto plan = std::make_shared<HipLtPlan>();
  BENCH_TRY(hiplt_describe(s, *plan));
  BENCH_TRY(plan->workspace.allocate(kHipLtWorkspaceBytes));
  hipblasLtMatmulPreference_t pref = nullptr;
  BENCH_HIPLT(hipblasLtMatmulPreferenceCreate(&pref));
  const std::uint64_t ws = plan->workspace.count;
  hipblasLtMatmulHeuristicResult_t found[kHipLtCandidates];
  int count = 0;
  hipblasStatus_t st =
      hipblasLtMatmulPreferenceSetAttribute(pref, HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  if (st == HIPBLAS_STATUS_SUCCESS) {
    st = hipblasLtMatmulAlgoGetHeuristic(g_hiplt, plan->desc, plan->x, plan->y, plan->d, plan->d, pref,
                                         kHipLtCandidates, found, &count);
  }
  const hipblasStatus_t destroyed = hipblasLtMatmulPreferenceDestroy(pref);
  if (st != HIPBLAS_STATUS_SUCCESS) return hiplt_error(st, "hipblasLtMatmulAlgoGetHeuristic", __FILE__, __LINE__);
  BENCH_HIPLT(destroyed);
  if (count == 0) return "hipBLASLt proposed no algorithm for this problem";
  int best = -1;
  BENCH_TRY(fastest_candidate(
      "hipBLASLt", count,
      [&](int i) -> Error {
        BENCH_HIPLT(hiplt_matmul(*plan, found[i].algo, x, y, d));
        return {};
      },
      best));
  plan->algo = found[best].algo;
  out = std::move(plan);
  return {};
}

// One call with the slot's plan, made (and its algorithm chosen) on the first call.
Error hiplt_run(ImplSlot& slot, const HipLtSpec& s, const void* x, const void* y, void* d) {
  if (!slot.state) {
    std::shared_ptr<HipLtPlan> plan;
    BENCH_TRY(hiplt_make_plan(s, x, y, d, plan));
    slot.state = plan;
  }
  const auto& plan = *std::static_pointer_cast<HipLtPlan>(slot.state);
  BENCH_HIPLT(hiplt_matmul(plan, plan.algo, x, y, d));
  return {};
}

#elif defined(TESSERA_HIP)

Error init_blas_lt() { return {}; }
void release_blas_lt() {}
Error add_blas_lt_context() {
  benchmark::AddCustomContext("hipblaslt", "not available at build time");
  return {};
}

#endif

}  // namespace
