// Example: the MFMA example's GEMM (examples/mfma_gemm.cpp: bf16 A row-major x bf16 B
// column-major -> fp32 D, four-cluster ping-pong at 256x256x64, gfx942) on the AMD wave
// emulator (docs/emulator.md), every output checked against a float64 host reference.
// EMULATED: this runs the kernel's instructions on the host, not on an AMD GPU.
//
//   mfma_gemm_emulated [M N K]      (default 96 80 72: one partial tile, a K tail)
//
// Exit status 0: every output within the tolerance and the emulator reported nothing.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "mfma_gemm_emulated.hpp"
#include "tessera/emulator/emulator.hpp"

namespace emu = tessera::amd::emulation;

int main(int argc, char** argv) {
  std::int64_t size[3] = {96, 80, 72};
  // Emulation runs every lane on the host: sizes stay small (up to 1024 each).
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    const long long v = std::strtoll(argv[i], &end, 10);
    if (argc != 4 || end == argv[i] || *end != '\0' || v < 1 || v > 1024) {
      std::fprintf(stderr, "usage: %s [M N K]   (each from 1 to 1024; default 96 80 72)\n", argv[0]);
      return 2;
    }
    size[i - 1] = v;
  }
  const std::int64_t M = size[0], N = size[1], K = size[2];
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<tessera::bfloat16_t> a(std::size_t(M * K)), b(std::size_t(K * N));
  for (auto& x : a) x = tessera::bfloat16_t(dist(rng));
  for (auto& x : b) x = tessera::bfloat16_t(dist(rng));
  std::vector<float> d(std::size_t(M * N), std::nanf(""));  // NaN: every output must be written

  emu::Options options;
  options.target = emu::Target::kGfx942;
  emu::ScopedOptions scope(options);
  emu::clear_reports();
  // The emulator checks every access against the registered allocations.
  emu::ScopedAllocation ra(a.data(), a.size() * sizeof(a[0]), "A");
  emu::ScopedAllocation rb(b.data(), b.size() * sizeof(b[0]), "B");
  emu::ScopedAllocation rd(d.data(), d.size() * sizeof(d[0]), "D");
  // A is M x K row-major (lda = K), B is K x N column-major (ldb = K), D row-major.
  const examples::emulated::MfmaArgs args{M, N, K, a.data(), K, b.data(), K, nullptr, N, d.data(), N, 1.0f, 0.0f};
  const tessera::Status s = examples::emulated::run_mfma_gemm(args);
  if (!tessera::ok(s)) {
    std::printf("Tessera: %s: %s\n", tessera::status_name(s), tessera::status_message(s));
    return 1;
  }
  // float64 reference over every output (bf16 inputs are exact in double).
  double err = 0, ref = 0;
  std::size_t unwritten = 0;
  for (std::int64_t i = 0; i < M; ++i) {
    for (std::int64_t j = 0; j < N; ++j) {
      double r = 0;
      for (std::int64_t k = 0; k < K; ++k) r += double(float(a[i * K + k])) * double(float(b[j * K + k]));
      const float v = d[i * N + j];
      if (std::isnan(v)) ++unwritten;
      err += (double(v) - r) * (double(v) - r);
      ref += r * r;
    }
  }
  const double rel = std::sqrt(err / (ref > 0 ? ref : 1));
  const std::string reports = emu::describe_all();
  const bool pass = unwritten == 0 && rel < 1e-5 * std::sqrt(double(K) / 64.0) + 1e-6 && emu::reports().empty();
  std::printf("mfma_gemm (EMULATED, gfx942, four-cluster ping-pong 256x256x64) %lldx%lldx%lld bf16 -> f32:\n"
              "  every output against float64: relative error %.3e, %zu unwritten, emulator reports: %s -> %s\n",
              (long long)M, (long long)N, (long long)K, rel, unwritten, reports.c_str(),
              pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
