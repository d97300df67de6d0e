// The shapes of tessera_bench's sweep suite (suite_sweep.hpp): transformer-like GEMMs drawn
// from a seed, the same list for the same (seed, count) on every machine (the draws use the
// generator's raw 64-bit outputs, whose sequence the standard fixes, not <random>'s
// distributions, whose algorithms it leaves to the library). Host-only: the host test
// (test/unit/test_sweep_shapes.cpp) checks the mix.
//
//   M      log-uniform over 1 ... 16384 (decode tokens to long prefills)
//   N, K   a model width (768 ... 28672) or a tensor-parallel shard of one (/2, /4, /8); about
//          a tenth get a small odd offset (not a multiple of 64, rows not 16-byte aligned)
//   beta   1 for about a quarter (a residual read from C == D), else 0
//   B      row-major K x N (not K-major) for about a fifth, else W[N][K] (column-major K x N)
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tessera::bench {

struct SweepShape {
  std::int64_t M = 0, N = 0, K = 0;
  bool beta1 = false;
  bool b_row_major = false;
  // The benchmark name's third component: MxNxK, then _b1 (beta 1) and _bn (B row-major).
  std::string label() const {
    return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + (beta1 ? "_b1" : "_b0") +
           (b_row_major ? "_bn" : "_bt");
  }
};

inline constexpr std::int64_t kSweepWidths[] = {768,  1024, 1536,  2048,  2560,  3072,  4096,  5120,  6144, 7168,
                                                8192, 10240, 12288, 14336, 16384, 18432, 20480, 24576, 28672};
inline constexpr std::int64_t kSweepMaxM = 16384;

// A uniform double in [0, 1) from the generator's top 53 bits.
inline double sweep_unit(std::mt19937_64& g) { return double(g() >> 11) * (1.0 / 9007199254740992.0); }
// A uniform integer in [0, n) (the modulo bias is below 2^-50 for the small n used here).
inline std::uint64_t sweep_below(std::mt19937_64& g, std::uint64_t n) { return g() % n; }

inline std::int64_t sweep_width(std::mt19937_64& g) {
  constexpr std::uint64_t kWidths = sizeof(kSweepWidths) / sizeof(kSweepWidths[0]);
  const std::int64_t width = kSweepWidths[sweep_below(g, kWidths)];
  const std::int64_t shard = std::int64_t(1) << sweep_below(g, 4);  // 1, 2, 4, 8
  std::int64_t x = width / shard;
  if (sweep_below(g, 10) == 0) x += 1 + 2 * std::int64_t(sweep_below(g, 8));  // odd: 1, 3, ... 15
  return x;
}

inline std::vector<SweepShape> sweep_shapes(std::uint64_t seed, int count) {
  std::mt19937_64 g(seed);
  std::vector<SweepShape> shapes;
  shapes.reserve(std::size_t(count > 0 ? count : 0));
  for (int i = 0; i < count; ++i) {
    SweepShape s;
    s.M = std::int64_t(std::floor(std::exp(sweep_unit(g) * std::log(double(kSweepMaxM) + 1.0))));
    if (s.M < 1) s.M = 1;
    if (s.M > kSweepMaxM) s.M = kSweepMaxM;
    s.N = sweep_width(g);
    s.K = sweep_width(g);
    s.beta1 = sweep_below(g, 4) == 0;
    s.b_row_major = sweep_below(g, 5) == 0;
    shapes.push_back(s);
  }
  return shapes;
}

}  // namespace tessera::bench
