// What the Hopper tensor core keeps when it sums fp8 products, measured through Tessera's
// fp8 GEMM (fp32 D, per-tensor scales of 1): the numbers behind benchmark/notes/fp8.md's
// accuracy section and the error bound the GPU suite checks (test/gpu/fp8_case.hpp).
//
//   1. Kept bits: D(0,0) = 16 x 16 + x with x = +-2^t a single product, placed in the same
//      k32 step as the 256, in the next step (Accumulation::kFast: the accumulator carries
//      256), or in the next 128-deep K tile (promoted: the 256 is already in fp32). Which t
//      survive, and how (truncated or rounded), is the accumulator's width.
//   2. Many small addends: 32 products of 2^t in the step after the 256: are they summed
//      before the alignment (their sum survives) or each aligned on its own (lost)?
//   3. Long sums: random operands (all positive, and of either sign), K up to 16384: the
//      normwise error of fast and promoted accumulation against float64.
//
//   nvcc -std=c++17 -O3 -Iinclude -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr \
//        benchmark/fp8_precision.cu -o fp8_precision && ./fp8_precision
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "tessera/gemm/wgmma/wgmma.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {

template <class Mode, class Tile>
using PerTensorF32 = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                                 option::Tile<Tile>, option::Scales<Mode>>;
using Fast = PerTensorF32<scale::Fast<scale::PerTensor>, GemmShape<128, 256, 128>>;
using Promoted = PerTensorF32<scale::PerTensor, GemmShape<128, 128, 128>>;

#define CHECK_CUDA(x)                                                                    \
  do {                                                                                   \
    const cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// D = A (M x K, row-major) B (N x K rows: column-major K x N), fp32, scales 1.
template <class Config>
std::vector<float> run(const std::vector<float8_e4m3_t>& a, const std::vector<float8_e4m3_t>& b, std::int64_t M,
                       std::int64_t N, std::int64_t K) {
  float8_e4m3_t *da, *db;
  float *dd, *ds;
  CHECK_CUDA(cudaMalloc(&da, a.size()));
  CHECK_CUDA(cudaMalloc(&db, b.size()));
  CHECK_CUDA(cudaMalloc(&dd, std::size_t(M * N) * 4));
  CHECK_CUDA(cudaMalloc(&ds, 4));
  const float one = 1.0f;
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(ds, &one, 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dd, 0xff, std::size_t(M * N) * 4));
  typename Gemm<Config>::Args args{M, N, K, da, K, db, K, nullptr, N, dd, N, 1.0f, 0.0f,
                                   {{ds, 0, 1}, {ds, 0, 1}, nullptr, nullptr}};
  const Status s = Gemm<Config>::run(args);
  if (!ok(s)) {
    std::fprintf(stderr, "Gemm::run: %s\n", status_name(s));
    std::exit(1);
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> d(std::size_t(M * N));
  CHECK_CUDA(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dd));
  CHECK_CUDA(cudaFree(ds));
  return d;
}

float8_e4m3_t pow2(int e) { return float8_e4m3_t(std::ldexp(1.0f, e)); }

// D(0, 0) = 256 + sum of `count` products sign * 2^t placed from k = at, as computed by Config.
template <class Config>
double probe(std::int64_t K, std::int64_t at, int t, int count, float sign) {
  const std::int64_t M = 128, N = 128;
  std::vector<float8_e4m3_t> a(std::size_t(M * K), float8_e4m3_t(0.0f)), b(std::size_t(N * K), float8_e4m3_t(0.0f));
  a[0] = pow2(4);
  b[0] = pow2(4);
  const int ea = t >= 0 ? t / 2 : -((-t + 1) / 2), eb = t - ea;  // both within e4m3's range
  for (int i = 0; i < count; ++i) {
    a[std::size_t(at + i)] = float8_e4m3_t(sign * std::ldexp(1.0f, ea));
    b[std::size_t(at + i)] = pow2(eb);
  }
  return double(run<Config>(a, b, M, N, K)[0]) - 256.0;
}

// "+1" when x == 2^t exactly, else x in units of 2^t.
void print_kept(double got, int t) {
  std::printf(" %7.3g", got / std::ldexp(1.0, t));
}

double rel_fro(const std::vector<float>& d, const std::vector<double>& ref) {
  double e = 0.0, r = 0.0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    e += (double(d[i]) - ref[i]) * (double(d[i]) - ref[i]);
    r += ref[i] * ref[i];
  }
  return std::sqrt(e / r);
}

}  // namespace

int main() {
  std::printf("1. D(0,0) = 256 + x, x = +-2^t: the computed x in units of 2^t (1 = kept exactly, 0 = lost)\n");
  std::printf("%4s %9s %9s %9s %9s %9s %9s\n", "t", "+same", "-same", "+next", "-next", "+tile", "-tile");
  std::printf("%4s %9s %9s %9s %9s %9s %9s\n", "", "k32 step", "", "step", "(fast)", "promoted", "");
  for (int t = 0; t >= -16; --t) {
    std::printf("%4d ", t);
    for (float sign : {1.0f, -1.0f}) print_kept(probe<Fast>(64, 1, t, 1, sign), t);
    for (float sign : {1.0f, -1.0f}) print_kept(probe<Fast>(64, 32, t, 1, sign), t);
    for (float sign : {1.0f, -1.0f}) print_kept(probe<Promoted>(256, 128, t, 1, sign), t);
    std::printf("\n");
  }
  std::printf("\n1b. x = +-0.75 and +-1.75 units of 2^-5 (the last unit kept at 256): the computed x in those units\n");
  std::printf("    (truncation toward 0: 0, 1; rounding to nearest: 1, 2; toward -inf: -1, -2 for negative x)\n");
  for (const int sevenths : {3, 7}) {  // x = sevenths x 2^-7 = (sevenths / 4) x 2^-5
    for (const float sign : {1.0f, -1.0f}) {
      const auto place = [&](std::int64_t at) {
        const std::int64_t M = 128, N = 128, K = 64;
        std::vector<float8_e4m3_t> a(std::size_t(M * K), float8_e4m3_t(0.0f)), b(std::size_t(N * K), float8_e4m3_t(0.0f));
        a[0] = pow2(4);
        b[0] = pow2(4);
        a[std::size_t(at)] = float8_e4m3_t(sign * float(sevenths) * 0.0625f);  // sevenths x 2^-4
        b[std::size_t(at)] = pow2(-3);
        return (double(run<Fast>(a, b, M, N, K)[0]) - 256.0) / 0x1p-5;
      };
      std::printf("    x = %+5.2f units: same k32 step %g, next step %g\n", sign * sevenths / 4.0, place(1), place(32));
    }
  }

  std::printf("\n2. 32 products of +2^t in the k32 step after the 256 (fast): the sum in units of 2^t (32 = kept)\n");
  for (int t = -3; t >= -12; --t) {
    std::printf("   t = %3d: %g\n", t, probe<Fast>(64, 32, t, 32, 1.0f) / std::ldexp(1.0, t));
  }

  std::printf("\n3. Long sums, 256 x 256 x K, fp32 D: ||D - D64|| / ||D64||\n");
  std::printf("%7s %14s %14s %14s %14s\n", "K", "fast, >0", "promoted, >0", "fast, +-", "promoted, +-");
  std::mt19937_64 gen(12345);
  for (std::int64_t K : {128, 512, 2048, 8192, 16384}) {
    const std::int64_t M = 256, N = 256;
    std::printf("%7lld", (long long)K);
    for (bool positive : {true, false}) {
      std::uniform_real_distribution<double> dist(positive ? 0.5 : -2.0, 2.0);
      std::vector<float8_e4m3_t> a(std::size_t(M * K)), b(std::size_t(N * K));
      for (auto& x : a) x = float8_e4m3_t(float(dist(gen)));
      for (auto& x : b) x = float8_e4m3_t(float(dist(gen)));
      std::vector<double> ref(std::size_t(M * N));
      for (std::int64_t m = 0; m < M; ++m)
        for (std::int64_t n = 0; n < N; ++n) {
          double s = 0.0;
          for (std::int64_t k = 0; k < K; ++k) s += double(float(a[std::size_t(m * K + k)])) * double(float(b[std::size_t(n * K + k)]));
          ref[std::size_t(m * N + n)] = s;
        }
      std::printf(" %14.3e %14.3e", rel_fro(run<Fast>(a, b, M, N, K), ref), rel_fro(run<Promoted>(a, b, M, N, K), ref));
    }
    std::printf("\n");
  }
  return 0;
}
