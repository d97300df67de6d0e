// Which kernels a call runs, for a profiler (a probe for looking, not a reported benchmark):
// per shape, one call of Gemm<Auto<...>> (given workspace_size(args) bytes) and one of
// cublasGemmEx (COMPUTE_32F), each after a warm-up call; bf16, A row-major, D row-major,
// B = W[N][K] ("bt", the default) or K x N row-major ("bn"), beta 0 or 1 (C == D). Run it under
// Nsight Compute to read each kernel's name (cuBLAS's names carry its tile), grid, cluster and
// duration, e.g.
//   ncu --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y \
//       kernel_probe 1446x1536x3584_b0_bt,16x768x1792_b0_bt
// and its own output names Auto's entry per shape.
// Build: nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude
//        benchmark/kernel_probe.cu -lcublas
#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tessera/gemm/select/auto.hpp"
#include "tessera/runtime/gpu.hpp"

using namespace tessera;
using bf16 = bfloat16_t;

#define PROBE_CHECK(ok_expr, what)                    \
  do {                                                \
    if (!(ok_expr)) {                                 \
      std::fprintf(stderr, "%s failed\n", what);      \
      std::exit(1);                                   \
    }                                                 \
  } while (0)

template <class LB>
void run_shape(cublasHandle_t blas, long long M, long long N, long long K, bool beta1) {
  using G = gemm::Auto<bf16, RowMajor, bf16, LB, bf16, RowMajor>;
  bf16 *a = nullptr, *b = nullptr, *d = nullptr;
  TESSERA_GPU_CHECK(gpu::malloc_elements(&a, std::size_t(M * K)));
  TESSERA_GPU_CHECK(gpu::malloc_elements(&b, std::size_t(K * N)));
  TESSERA_GPU_CHECK(gpu::malloc_elements(&d, std::size_t(M * N)));
  // Contents do not matter for which kernels run; zeros keep the probe short.
  TESSERA_GPU_CHECK(gpu::memset_async(a, 0, std::size_t(M * K) * 2, nullptr));
  TESSERA_GPU_CHECK(gpu::memset_async(b, 0, std::size_t(K * N) * 2, nullptr));
  TESSERA_GPU_CHECK(gpu::memset_async(d, 0, std::size_t(M * N) * 2, nullptr));
  const long long ldb = LB::kIsRowMajor ? N : K;
  const float beta = beta1 ? 1.0f : 0.0f, alpha = 1.0f;
  typename gemm::Gemm<G>::Args args{M, N, K, a, K, b, ldb, d, N, d, N, alpha, beta};
  const std::size_t bytes = gemm::Gemm<G>::workspace_size(args);
  void* workspace = nullptr;
  if (bytes > 0) TESSERA_GPU_CHECK(gpu::malloc_bytes(&workspace, bytes));
  std::printf("%lldx%lldx%lld_b%d_%s: %s\n", M, N, K, beta1 ? 1 : 0, LB::kIsRowMajor ? "bn" : "bt",
              gemm::explain<G>(args, workspace).c_str());
  for (int i = 0; i < 2; ++i) PROBE_CHECK(ok(gemm::Gemm<G>::run(args, workspace, nullptr)), "Auto");
  // cuBLAS is column-major: D^T (N x M) = B^T A^T.
  const cublasOperation_t opb = LB::kIsRowMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  for (int i = 0; i < 2; ++i) {
    PROBE_CHECK(cublasGemmEx(blas, opb, CUBLAS_OP_N, int(N), int(M), int(K), &alpha, b, CUDA_R_16BF, int(ldb), a,
                             CUDA_R_16BF, int(K), &beta, d, CUDA_R_16BF, int(N), CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS,
                "cublasGemmEx");
  }
  TESSERA_GPU_CHECK(gpu::device_synchronize());
  (void)gpu::free_bytes(workspace);
  (void)gpu::free_bytes(a);
  (void)gpu::free_bytes(b);
  (void)gpu::free_bytes(d);
}

int main(int argc, char** argv) {
  const std::string list = argc > 1 ? argv[1] : "1446x1536x3584_b0_bt,16x768x1792_b0_bt";
  cublasHandle_t blas;
  PROBE_CHECK(cublasCreate(&blas) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t end = list.find(',', at) == std::string::npos ? list.size() : list.find(',', at);
    long long m, n, k;
    int beta;
    char layout[3] = {};
    if (std::sscanf(list.substr(at, end - at).c_str(), "%lldx%lldx%lld_b%d_%2s", &m, &n, &k, &beta, layout) == 5) {
      if (std::string(layout) == "bn") {
        run_shape<RowMajor>(blas, m, n, k, beta != 0);
      } else {
        run_shape<ColumnMajor>(blas, m, n, k, beta != 0);
      }
    }
    at = end + 1;
  }
  cublasDestroy(blas);
  return 0;
}
