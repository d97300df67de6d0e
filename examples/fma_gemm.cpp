// Example: one FMA GEMM through Tessera's host API, checked against a float64 host
// reference and timed beside the vendor BLAS.
//
//   fma_gemm [M N K]      (default 4096 4096 4096; fp32, row-major A, B, C)
//
// The same file builds with nvcc (-x cu) and with clang -x hip. Exit status 0 means the
// result was verified; 77 means no GPU was found (nothing ran).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "example_support.hpp"
#include "example_configs.hpp"
#include "tessera/gemm/fma/fma.hpp"

#include "tessera/runtime/gpu.hpp"
#if !defined(TESSERA_HIP)
#include <cublas_v2.h>
#endif

namespace gpu = tessera::gpu;
#define CHECK_GPU TESSERA_GPU_CHECK

// The configuration for this device, chosen at run time from those compiled in.
using Gemm = examples::FmaExample;

int main(int argc, char** argv) {
  const examples::ProblemSize size = examples::parse_problem_size(argc, argv);
  const std::int64_t M = size.m, N = size.n, K = size.k;
  int devices = 0;
  if (gpu::get_device_count(&devices) != gpu::kSuccess || devices == 0) {
    std::printf("fma_gemm: no GPU found; nothing was run\n");
    return 77;
  }
  gpu::device_prop_t prop;
  CHECK_GPU(gpu::get_device_properties(&prop, 0));
  std::printf("device: %s\nproblem: D = alpha*A*B + beta*C, fp32, row-major, M=%lld N=%lld K=%lld\n",
              prop.name, (long long)M, (long long)N, (long long)K);

  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(std::size_t(M * K)), b(std::size_t(K * N)), c(std::size_t(M * N));
  for (auto& x : a) x = dist(rng);
  for (auto& x : b) x = dist(rng);
  for (auto& x : c) x = dist(rng);
  const float alpha = 1.25f, beta = -0.5f;

  float* dA = examples::upload(a);
  float* dB = examples::upload(b);
  float* dC = examples::upload(c);
  float* dD;
  CHECK_GPU(gpu::malloc_elements(&dD, c.size()));
  CHECK_GPU(gpu::memset_bytes(dD, 0xff, c.size() * 4));  // poison: NaN everywhere

  const tessera::gemm::Arguments<float, float, float> args{M, N, K, dA, K, dB, N, dC, N, dD, N,
                                                           alpha, beta};
  tessera::DeviceInfo info;
  if (const tessera::Status found = tessera::current_device(&info); !tessera::ok(found)) {
    std::printf("Tessera: %s: %s\n", tessera::status_name(found), tessera::status_message(found));
    return 1;
  }
  const char* arch = Gemm::chosen_arch(info);
  std::printf("configuration: FmaConfig<%s> (of those compiled in, the one for %s)\n",
              arch ? arch : "none", info.arch_name);
  tessera::Status s = Gemm::run(args);
  if (!tessera::ok(s)) {
    std::printf("Tessera: %s: %s\n", tessera::status_name(s), tessera::status_message(s));
    return 1;
  }
  CHECK_GPU(gpu::device_synchronize());
  std::vector<float> d(c.size());
  CHECK_GPU(gpu::copy_to_host(d.data(), dD, d.size() * 4));

  // float64 reference on every output of the last tile row and column (the edges) and on
  // 4096 random outputs elsewhere; every output must also have been written (no NaN).
  auto reference = [&](std::int64_t i, std::int64_t j) {
    double acc = 0;
    for (std::int64_t k = 0; k < K; ++k) acc += double(a[i * K + k]) * double(b[k * N + j]);
    return double(alpha) * acc + double(beta) * double(c[i * N + j]);
  };
  const auto points = examples::sample_outputs(M, N, rng, /*edges=*/true);
  const double rel =
      examples::relative_error_at(points, reference, [&](std::int64_t i, std::int64_t j) { return double(d[i * N + j]); });
  const std::size_t unwritten = examples::count_unwritten(d);
  const double tol = 1e-5 * std::sqrt(double(K) / 64.0) + 1e-6;
  const bool pass = unwritten == 0 && rel < tol;
  std::printf("verification: %zu sampled outputs vs float64, relative error %.3e (tolerance %.1e), "
              "%zu unwritten: %s\n", points.size(), rel, tol, unwritten, pass ? "PASS" : "FAIL");

  const double flops = 2.0 * double(M) * double(N) * double(K);
  const float t_tessera = examples::median_ms([&] { (void)Gemm::run(args); }, 20);
  std::printf("%-28s %9.3f ms  %7.2f TFLOP/s\n", "Tessera FMA (fp32)", t_tessera,
              flops / t_tessera * 1e-9);
#if !defined(TESSERA_HIP)
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
      cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
    std::printf("cuBLAS could not be initialised\n");
    return 1;
  }
  // Row-major D = A*B is column-major D^T = B^T * A^T.
  auto sgemm = [&] {
    if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(N), int(M), int(K), &alpha, dB, int(N), dA,
                    int(K), &beta, dD, int(N)) != CUBLAS_STATUS_SUCCESS) {
      std::printf("cublasSgemm failed\n");
      std::exit(1);
    }
  };
  sgemm();
  CHECK_GPU(gpu::device_synchronize());
  const float t_cublas = examples::median_ms(sgemm, 20);
  std::printf("%-28s %9.3f ms  %7.2f TFLOP/s\n", "cuBLAS SGEMM (pedantic fp32)", t_cublas,
              flops / t_cublas * 1e-9);
  std::printf("Tessera / cuBLAS: %.3f\n", t_cublas / t_tessera);
  cublasDestroy(handle);
#else
  std::printf("rocBLAS comparison: not built (no rocBLAS package on the build machine)\n");
#endif
  CHECK_GPU(gpu::free_bytes(dA));
  CHECK_GPU(gpu::free_bytes(dB));
  CHECK_GPU(gpu::free_bytes(dC));
  CHECK_GPU(gpu::free_bytes(dD));
  return pass ? 0 : 1;
}
