// Example: one AMD MFMA GEMM through Tessera's host API (clang -x hip, gfx942 and gfx950),
// bf16 A (row-major) x bf16 B (column-major) -> fp32 D, the four-cluster ping-pong
// schedule at 256x256x64, checked against a float64 host reference on sampled outputs.
//
//   mfma_gemm [M N K]      (default 4096 4096 4096)
//
// Exit status 0: verified; 77: no AMD GPU (nothing ran). No AMD GPU was available where
// this was written: the kernels are compiled and checked (test/isa), not run.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "example_support.hpp"
#include "mfma_configs.hpp"
#include "tessera/gemm/select/dispatch.hpp"
#include "tessera/gemm/mfma/mfma.hpp"
#include "tessera/runtime/gpu.hpp"

namespace gpu = tessera::gpu;
#define CHECK_GPU TESSERA_GPU_CHECK

using Gemm = tessera::gemm::Dispatch<examples::mfma::FourClusters<tessera::Gfx942>,
                                     examples::mfma::FourClusters<tessera::Gfx950>>;

int main(int argc, char** argv) {
  const examples::ProblemSize size = examples::parse_problem_size(argc, argv);
  const std::int64_t M = size.m, N = size.n, K = size.k;
  int devices = 0;
  if (gpu::get_device_count(&devices) != gpu::kSuccess || devices == 0) {
    std::printf("mfma_gemm: no GPU found; nothing was run\n");
    return 77;
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<tessera::bfloat16_t> a(std::size_t(M * K)), b(std::size_t(K * N));
  for (auto& x : a) x = tessera::bfloat16_t(dist(rng));
  for (auto& x : b) x = tessera::bfloat16_t(dist(rng));
  tessera::bfloat16_t* dA = examples::upload(a);
  tessera::bfloat16_t* dB = examples::upload(b);
  float* dD;
  CHECK_GPU(gpu::malloc_elements(&dD, std::size_t(M * N)));
  CHECK_GPU(gpu::memset_bytes(dD, 0xff, std::size_t(M * N) * 4));  // NaN: every output must be written

  // A is M x K row-major (lda = K), B is K x N column-major (ldb = K), D row-major.
  const tessera::gemm::Arguments<tessera::bfloat16_t, tessera::bfloat16_t, float> args{
      M, N, K, dA, K, dB, K, nullptr, N, dD, N, 1.0f, 0.0f};
  const tessera::Status s = Gemm::run(args);
  if (!tessera::ok(s)) {
    std::printf("Tessera: %s: %s\n", tessera::status_name(s), tessera::status_message(s));
    return 1;
  }
  CHECK_GPU(gpu::device_synchronize());
  std::vector<float> d(std::size_t(M * N));
  CHECK_GPU(gpu::copy_to_host(d.data(), dD, d.size() * 4));

  // float64 reference on 4096 sampled outputs (bf16 inputs are exact in double).
  auto reference = [&](std::int64_t i, std::int64_t j) {
    double r = 0;
    for (std::int64_t k = 0; k < K; ++k) r += double(float(a[i * K + k])) * double(float(b[j * K + k]));
    return r;
  };
  const auto points = examples::sample_outputs(M, N, rng, /*edges=*/false);
  const double rel =
      examples::relative_error_at(points, reference, [&](std::int64_t i, std::int64_t j) { return double(d[i * N + j]); });
  const std::size_t unwritten = examples::count_unwritten(d);
  const bool pass = unwritten == 0 && rel < 1e-5 * std::sqrt(double(K) / 64.0) + 1e-6;
  std::printf("mfma_gemm %lldx%lldx%lld bf16 -> f32: relative error %.3e, %zu unwritten: %s\n",
              (long long)M, (long long)N, (long long)K, rel, unwritten, pass ? "PASS" : "FAIL");
  CHECK_GPU(gpu::free_bytes(dA));
  CHECK_GPU(gpu::free_bytes(dB));
  CHECK_GPU(gpu::free_bytes(dD));
  return pass ? 0 : 1;
}
