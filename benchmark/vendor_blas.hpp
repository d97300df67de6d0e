// The vendor BLAS baseline of tessera_bench: cuBLAS under CUDA, rocBLAS under HIP when
// the build defines TESSERA_HAVE_ROCBLAS. The two APIs differ in more than their
// spelling, so unlike the runtime calls (tessera/runtime/gpu.hpp) each is written out here.
//
// TESSERA_BENCH_HAS_BLAS says whether there is one; without it (HIP, no rocBLAS) run_blas
// only returns an error, and tessera_bench registers no vendor benchmarks.
#pragma once

#include "bench_harness.hpp"

#if defined(TESSERA_HIP)
#if defined(TESSERA_HAVE_ROCBLAS)
// NOT COMPILED HERE: the build machine has no rocBLAS. Written from rocBLAS's documented
// API; only a syntax check against a stub header that declares the same signatures was
// done. rocBLAS 5.2+ installs rocblas/rocblas.h; older releases only rocblas.h.
#if __has_include(<rocblas/rocblas.h>)
#include <rocblas/rocblas.h>
#else
#include <rocblas.h>
#endif
#define TESSERA_BENCH_HAS_BLAS 1
#else
#define TESSERA_BENCH_HAS_BLAS 0
#endif
#else
#include <cublas_v2.h>
#define TESSERA_BENCH_HAS_BLAS 1
#endif

#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/core/numeric.hpp"
#include "tessera/gemm/arguments.hpp"

namespace {

// The vendor BLAS, by name: benchmark names use the lower-case one, messages the other.
#if defined(TESSERA_HIP)
constexpr const char* kBlasName = "rocBLAS";
constexpr const char* kBlasKindName = "rocblas";
#else
constexpr const char* kBlasName = "cuBLAS";
constexpr const char* kBlasKindName = "cublas";
#endif

// ---- errors (the runtime's are in bench_harness.hpp) --------------------------------------

#if defined(TESSERA_CUDA)
Error blas_error(cublasStatus_t s, const char* expr, const char* file, int line) {
  return std::string("cuBLAS error ") + cublasGetStatusName(s) + " (" + cublasGetStatusString(s) +
         ") from " + expr + " at " + source_line(file, line);
}
#define BENCH_BLAS_OK(status) ((status) == CUBLAS_STATUS_SUCCESS)
#elif TESSERA_BENCH_HAS_BLAS
Error blas_error(rocblas_status s, const char* expr, const char* file, int line) {
  return std::string("rocBLAS error ") + rocblas_status_to_string(s) + " (" + std::to_string(int(s)) +
         ") from " + expr + " at " + source_line(file, line);
}
#define BENCH_BLAS_OK(status) ((status) == rocblas_status_success)
#endif

#define BENCH_BLAS(...)                                                                          \
  do {                                                                                           \
    const auto bench_s_ = (__VA_ARGS__);                                                         \
    if (!BENCH_BLAS_OK(bench_s_)) return blas_error(bench_s_, #__VA_ARGS__, __FILE__, __LINE__); \
  } while (0)

// ---- the handles, on the harness's stream ---------------------------------------------------

struct VendorBlas {
#if defined(TESSERA_CUDA)
  cublasHandle_t pedantic = nullptr;  // SGEMM: IEEE FP32 FMA only, no TF32
  cublasHandle_t tensor = nullptr;    // GemmEx for 16-bit inputs: tensor cores allowed
#elif TESSERA_BENCH_HAS_BLAS
  // One handle serves both: rocBLAS's default math mode is full FP32 for sgemm (reduced
  // precision, xf32, is opt-in through rocblas_set_math_mode), and gemm_ex picks matrix
  // cores for 16-bit inputs by itself.
  rocblas_handle blas = nullptr;
#endif
};
VendorBlas g_blas;

// After init_device: the handles run on g_dev.stream.
Error init_blas() {
#if defined(TESSERA_CUDA)
  BENCH_BLAS(cublasCreate(&g_blas.pedantic));
  BENCH_BLAS(cublasSetStream(g_blas.pedantic, g_dev.stream));
  BENCH_BLAS(cublasSetMathMode(g_blas.pedantic, CUBLAS_PEDANTIC_MATH));
  BENCH_BLAS(cublasCreate(&g_blas.tensor));
  BENCH_BLAS(cublasSetStream(g_blas.tensor, g_dev.stream));
  BENCH_BLAS(cublasSetMathMode(g_blas.tensor, CUBLAS_DEFAULT_MATH));
#elif TESSERA_BENCH_HAS_BLAS
  BENCH_BLAS(rocblas_create_handle(&g_blas.blas));
  BENCH_BLAS(rocblas_set_stream(g_blas.blas, g_dev.stream));
#endif
  return {};
}

void release_blas() {  // errors at teardown: nothing useful to do with them
#if defined(TESSERA_CUDA)
  cublasDestroy(g_blas.pedantic);
  cublasDestroy(g_blas.tensor);
#elif TESSERA_BENCH_HAS_BLAS
  (void)rocblas_destroy_handle(g_blas.blas);
#endif
}

// ---- the GEMM --------------------------------------------------------------------------------

#if TESSERA_BENCH_HAS_BLAS
// The vendor BLAS's name for an element type (cudaDataType_t / rocblas_datatype).
template <class T> struct BlasType;
#if defined(TESSERA_CUDA)
template <> struct BlasType<float> { static constexpr cudaDataType_t value = CUDA_R_32F; };
template <> struct BlasType<tessera::half_t> { static constexpr cudaDataType_t value = CUDA_R_16F; };
template <> struct BlasType<tessera::bfloat16_t> { static constexpr cudaDataType_t value = CUDA_R_16BF; };
#else
template <> struct BlasType<float> { static constexpr rocblas_datatype value = rocblas_datatype_f32_r; };
template <> struct BlasType<tessera::half_t> { static constexpr rocblas_datatype value = rocblas_datatype_f16_r; };
template <> struct BlasType<tessera::bfloat16_t> {
  static constexpr rocblas_datatype value = rocblas_datatype_bf16_r;
};
#endif

// cuBLAS and rocBLAS are column-major. A column-major D is op(A) * op(B) directly. A
// row-major D is the column-major D^T = B^T * A^T: swap the operands and M with N.
// Either way, an operand stored in the same layout as D is passed untransposed, the
// other transposed (a row-major X viewed column-major is X^T, with the same leading
// dimension). X is the BLAS call's first operand, Y its second.
struct ColumnMajorGemm {
  int m = 0, n = 0, k = 0;
  const void* x = nullptr;
  const void* y = nullptr;
  int ldx = 0, ldy = 0, ldd = 0;
  bool x_transposed = false, y_transposed = false;
};

template <class LA, class LB, class LC, class EA, class EB, class EC>
Error as_column_major(const tessera::gemm::Arguments<EA, EB, EC>& a, ColumnMajorGemm& g) {
  if (a.beta != 0.0f && static_cast<const void*>(a.C) != static_cast<const void*>(a.D)) {
    return std::string(kBlasName) + " baseline: beta != 0 needs C == D (" + kBlasName + " has no separate D)";
  }
  const bool big = a.M > INT32_MAX || a.N > INT32_MAX || a.K > INT32_MAX || a.lda > INT32_MAX ||
                   a.ldb > INT32_MAX || a.ldd > INT32_MAX;
  if (big) return std::string(kBlasName) + " baseline: sizes beyond 32 bits";
  constexpr bool row_c = LC::kIsRowMajor;
  g.m = int(row_c ? a.N : a.M);
  g.n = int(row_c ? a.M : a.N);
  g.k = int(a.K);
  g.x = row_c ? static_cast<const void*>(a.B) : static_cast<const void*>(a.A);
  g.y = row_c ? static_cast<const void*>(a.A) : static_cast<const void*>(a.B);
  g.ldx = int(row_c ? a.ldb : a.lda);
  g.ldy = int(row_c ? a.lda : a.ldb);
  g.ldd = int(a.ldd);
  g.x_transposed = row_c ? LB::kIsRowMajor != LC::kIsRowMajor : LA::kIsRowMajor != LC::kIsRowMajor;
  g.y_transposed = row_c ? LA::kIsRowMajor != LC::kIsRowMajor : LB::kIsRowMajor != LC::kIsRowMajor;
  return {};
}
#endif

// The vendor BLAS baseline: fp32 through SGEMM, 16-bit inputs through the mixed-type
// entry point with fp32 compute.
template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_blas(const tessera::gemm::Arguments<EA, EB, EC>& a) {
#if TESSERA_BENCH_HAS_BLAS
  ColumnMajorGemm g;
  BENCH_TRY(as_column_major<LA, LB, LC>(a, g));
  constexpr bool row_c = LC::kIsRowMajor;
  constexpr auto tx = row_c ? BlasType<EB>::value : BlasType<EA>::value;
  constexpr auto ty = row_c ? BlasType<EA>::value : BlasType<EB>::value;
  constexpr bool all_fp32 = std::is_same_v<EA, float> && std::is_same_v<EB, float> && std::is_same_v<EC, float>;
  const float alpha = a.alpha, beta = a.beta;  // host scalars: both libraries' default pointer mode
#if defined(TESSERA_CUDA)
  const cublasOperation_t opx = g.x_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t opy = g.y_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  if constexpr (all_fp32) {
    BENCH_BLAS(cublasSgemm(g_blas.pedantic, opx, opy, g.m, g.n, g.k, &alpha, static_cast<const float*>(g.x),
                           g.ldx, static_cast<const float*>(g.y), g.ldy, &beta, a.D, g.ldd));
  } else {
    BENCH_BLAS(cublasGemmEx(g_blas.tensor, opx, opy, g.m, g.n, g.k, &alpha, g.x, tx, g.ldx, g.y, ty, g.ldy,
                            &beta, a.D, BlasType<EC>::value, g.ldd, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
#else
  // NOT COMPILED HERE (no rocBLAS on the build machine): written from rocBLAS's
  // documented API and syntax-checked against a stub header only.
  const rocblas_operation opx = g.x_transposed ? rocblas_operation_transpose : rocblas_operation_none;
  const rocblas_operation opy = g.y_transposed ? rocblas_operation_transpose : rocblas_operation_none;
  if constexpr (all_fp32) {
    BENCH_BLAS(rocblas_sgemm(g_blas.blas, opx, opy, g.m, g.n, g.k, &alpha, static_cast<const float*>(g.x),
                             g.ldx, static_cast<const float*>(g.y), g.ldy, &beta, a.D, g.ldd));
  } else {
    // gemm_ex writes D and reads C; with beta == 0 or C == D (checked above) they are
    // one matrix, which rocBLAS allows when C's and D's type and ld are the same.
    // Solution index 0 and flags 0: rocBLAS's own choice of kernel, no special modes.
    BENCH_BLAS(rocblas_gemm_ex(g_blas.blas, opx, opy, g.m, g.n, g.k, &alpha, g.x, tx, g.ldx, g.y, ty, g.ldy,
                               &beta, a.D, BlasType<EC>::value, g.ldd, a.D, BlasType<EC>::value, g.ldd,
                               rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0));
  }
#endif
  return {};
#else
  (void)a;
  return std::string(kBlasName) + " baseline not built (" + kBlasName + " was not available at build time)";
#endif
}

// ---- context: the library's version and what the baselines are --------------------------

Error add_blas_context() {
#if defined(TESSERA_CUDA)
  int cublas = 0;
  BENCH_BLAS(cublasGetVersion(g_blas.pedantic, &cublas));
  benchmark::AddCustomContext("cublas", std::to_string(cublas / 10000) + "." +
                                            std::to_string((cublas / 100) % 100) + "." +
                                            std::to_string(cublas % 100));
  benchmark::AddCustomContext("baselines", "cuBLAS SGEMM pedantic (no TF32); cuBLAS GemmEx, GemmGroupedBatchedEx "
                                           "and GemmStridedBatchedEx COMPUTE_32F for 16-bit inputs; naive 16x16 "
                                           "FMA kernel");
#elif TESSERA_BENCH_HAS_BLAS
  char rocblas_version[128] = {};
  BENCH_BLAS(rocblas_get_version_string(rocblas_version, sizeof rocblas_version));
  benchmark::AddCustomContext("rocblas", rocblas_version);
  benchmark::AddCustomContext("baselines", "rocBLAS sgemm (default math mode: full FP32, no xf32); rocBLAS "
                                           "gemm_ex f32 compute for 16-bit inputs; naive 16x16 FMA kernel");
#else
  benchmark::AddCustomContext("rocblas", "not available at build time");
  benchmark::AddCustomContext("baselines", "naive 16x16 FMA kernel only (rocBLAS not available at build time; "
                                           "outputs are checked against the naive kernel and float64 rows)");
#endif
  return {};
}

}  // namespace
