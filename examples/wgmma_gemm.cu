// Example: one bf16 GEMM on Hopper tensor cores through Tessera's host API, checked
// against a float64 host reference and timed beside cuBLAS (cublasGemmEx, fp32 compute).
//
//   wgmma_gemm [M N K]      (default 4096 4096 4096; bf16 in and out, fp32 accumulation,
//                            row-major A, B and D with ld = the row length)
//
// Leading dimensions TMA cannot describe (an odd K or N, as in 4097 4095 4103) take the
// realigning path (gemm/wgmma/wgmma.hpp); the example says which. Exit status 0 means the
// result was verified; 77 means no sm_90 GPU was found (nothing ran).
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "example_support.hpp"
#include "example_configs.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"
#include "tessera/runtime/gpu.hpp"

namespace gpu = tessera::gpu;
using tessera::bfloat16_t;
using Config = examples::WgmmaBf16RowMajor;
using Gemm = tessera::gemm::Gemm<Config>;

int main(int argc, char** argv) {
  const examples::ProblemSize size = examples::parse_problem_size(argc, argv);
  const std::int64_t M = size.m, N = size.n, K = size.k;
  tessera::DeviceInfo info;
  if (!tessera::ok(tessera::current_device(&info)) || !Gemm::supports(info)) {
    std::printf("wgmma_gemm: no sm_90 GPU (H100/H200) found; nothing was run\n");
    return 77;
  }
  gpu::device_prop_t prop;
  TESSERA_GPU_CHECK(gpu::get_device_properties(&prop, 0));
  std::printf("device: %s\nproblem: D = alpha*A*B + beta*C, bf16 in/out, fp32 accumulate, row-major, "
              "M=%lld N=%lld K=%lld\n", prop.name, (long long)M, (long long)N, (long long)K);

  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<bfloat16_t> a(std::size_t(M * K)), b(std::size_t(K * N)), c(std::size_t(M * N));
  for (auto& x : a) x = bfloat16_t(dist(rng));
  for (auto& x : b) x = bfloat16_t(dist(rng));
  for (auto& x : c) x = bfloat16_t(dist(rng));
  const float alpha = 1.25f, beta = -0.5f;

  bfloat16_t* dA = examples::upload(a);
  bfloat16_t* dB = examples::upload(b);
  bfloat16_t* dC = examples::upload(c);
  bfloat16_t* dD;
  TESSERA_GPU_CHECK(gpu::malloc_elements(&dD, c.size()));
  TESSERA_GPU_CHECK(gpu::memset_bytes(dD, 0xff, c.size() * 2));  // poison: NaN everywhere

  const tessera::gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> args{M, N, K, dA, K, dB, N, dC, N, dD, N,
                                                                          alpha, beta};
  // The workspace the call may use: none when TMA can describe A, B and D; with an odd
  // leading dimension, room for 128-byte-pitched copies of them (the packed path).
  const std::size_t workspace_bytes = Gemm::workspace_size(args);
  void* workspace = nullptr;
  if (workspace_bytes > 0) TESSERA_GPU_CHECK(gpu::malloc_bytes(&workspace, workspace_bytes));
  const tessera::gemm::TmaPath path = tessera::gemm::tma_path<Config>(args, workspace);
  std::printf("configuration: WgmmaConfig 128x256x64 %s, %s path%s\n", Config::Schedule::kName,
              tessera::gemm::path_name(path),
              path != tessera::gemm::TmaPath::kPacked ? ""
              : workspace != nullptr ? " (operands TMA cannot describe go through 128-byte-pitched copies)"
                                     : " (D written with direct stores)");
  const tessera::Status s = Gemm::run(args, workspace);
  if (!tessera::ok(s)) {
    std::printf("Tessera: %s: %s\n", tessera::status_name(s), tessera::status_message(s));
    return 1;
  }
  TESSERA_GPU_CHECK(gpu::device_synchronize());
  std::vector<bfloat16_t> d(c.size());
  TESSERA_GPU_CHECK(gpu::copy_to_host(d.data(), dD, d.size() * 2));

  // float64 reference on the last row and column (the edges) and 4096 random outputs;
  // every output must have been written (no NaN).
  auto reference = [&](std::int64_t i, std::int64_t j) {
    double acc = 0;
    for (std::int64_t k = 0; k < K; ++k) acc += double(float(a[i * K + k])) * double(float(b[k * N + j]));
    return double(alpha) * acc + double(beta) * double(float(c[i * N + j]));
  };
  const auto points = examples::sample_outputs(M, N, rng, /*edges=*/true);
  const double rel = examples::relative_error_at(
      points, reference, [&](std::int64_t i, std::int64_t j) { return double(float(d[i * N + j])); });
  const std::size_t unwritten = examples::count_unwritten(d);
  const double tol = 0x1p-8 + 16.0 * std::sqrt(double(K)) * 0x1p-24;  // bf16 output rounding + fp32 sums
  const bool pass = unwritten == 0 && rel < tol;
  std::printf("verification: %zu sampled outputs vs float64, relative error %.3e (tolerance %.1e), "
              "%zu unwritten: %s\n", points.size(), rel, tol, unwritten, pass ? "PASS" : "FAIL");

  const double flops = 2.0 * double(M) * double(N) * double(K);
  const float t_tessera = examples::median_ms([&] { (void)Gemm::run(args, workspace); }, 20);
  std::printf("%-36s %9.3f ms  %7.2f TFLOP/s\n", "Tessera wgmma (bf16)", t_tessera, flops / t_tessera * 1e-9);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::printf("cuBLAS could not be initialised\n");
    return 1;
  }
  // Row-major D = A*B is column-major D^T = B^T * A^T (beta reads D: the comparison runs
  // on D's own contents, which only changes its values, not its speed).
  auto gemm_ex = [&] {
    if (cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(N), int(M), int(K), &alpha, dB, CUDA_R_16BF, int(N), dA,
                     CUDA_R_16BF, int(K), &beta, dD, CUDA_R_16BF, int(N), CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
      std::printf("cublasGemmEx failed\n");
      std::exit(1);
    }
  };
  gemm_ex();
  TESSERA_GPU_CHECK(gpu::device_synchronize());
  const float t_cublas = examples::median_ms(gemm_ex, 20);
  std::printf("%-36s %9.3f ms  %7.2f TFLOP/s\n", "cuBLAS GemmEx (bf16, fp32 compute)", t_cublas,
              flops / t_cublas * 1e-9);
  std::printf("Tessera / cuBLAS: %.3f\n", t_cublas / t_tessera);
  cublasDestroy(handle);
  TESSERA_GPU_CHECK(gpu::free_bytes(dA));
  TESSERA_GPU_CHECK(gpu::free_bytes(dB));
  TESSERA_GPU_CHECK(gpu::free_bytes(dC));
  TESSERA_GPU_CHECK(gpu::free_bytes(dD));
  if (workspace != nullptr) TESSERA_GPU_CHECK(gpu::free_bytes(workspace));
  return pass ? 0 : 1;
}
