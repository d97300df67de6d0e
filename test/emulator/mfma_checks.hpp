// The two MFMA measurements the tests and the mutation checks share: one instruction
// against a scalar float64 product, and the MFMA GEMM kernel against float64. They
// measure and return; the callers decide what must hold (the tests: correct and no
// report; the mutation checks: that the emulator notices the break).
#pragma once
#include <cmath>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "mfma_kernels.hpp"
#include "reference_gemm.hpp"
#include "tessera/arch/amd/mfma.hpp"
#include "tessera/emulator/emulator.hpp"

namespace emu_test {

namespace emu = tessera::amd::emulation;

// Emulator options for one instruction's target (gfx942 where it exists there).
template <class Shape>
emu::Options options_for() {
  emu::Options o;
  o.target = Shape::kGfx950Only ? emu::Target::kGfx950 : emu::Target::kGfx942;
  return o;
}

template <class Shape>
using MfmaElement = std::conditional_t<Shape::kType == tessera::amd::MfmaType::kF16, tessera::half_t,
                                       tessera::bfloat16_t>;

template <class T>
std::vector<std::uint16_t> raw_bits(const std::vector<T>& v) {
  std::vector<std::uint16_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i].bits;
  return out;
}

struct OnceCheck {
  tessera::Status status;
  // max over D of |D - reference| / bound, where bound is what K + 1 fp32 additions of
  // exact products may be off by (half an ulp of the running sum each): <= 1 is right, a
  // wrong layout misses by whole products, orders of magnitude more.
  double worst_ratio = 0.0;
  std::string worst;
};

// One instruction on fresh random inputs (run under the instruction's target).
template <class Shape>
OnceCheck check_mfma_once(std::uint64_t seed) {
  constexpr int M = Shape::kM, K = Shape::kK;
  using E = MfmaElement<Shape>;
  std::vector<E> a(M * K), b(K * M);
  std::vector<float> c(M * M), d(M * M);
  tessera::test::fill_random(a, seed, -2.0, 2.0);
  tessera::test::fill_random(b, seed + 1, -2.0, 2.0);
  tessera::test::fill_random(c, seed + 2, -4.0, 4.0);
  tessera::test::poison(d);
  OnceCheck r;
  r.status = run_mfma_once<Shape>(raw_bits(a).data(), raw_bits(b).data(), c.data(), d.data());
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < M; ++j) {
      double ref = c[std::size_t(i * M + j)], magnitude = std::fabs(ref);
      for (int k = 0; k < K; ++k) {
        const double p = double(float(a[std::size_t(i * K + k)])) * double(float(b[std::size_t(k * M + j)]));
        ref += p;
        magnitude += std::fabs(p);
      }
      const double out = d[std::size_t(i * M + j)];
      const double ratio = std::fabs(out - ref) / (double(K + 1) * 0x1p-24 * magnitude);
      if (!(ratio <= r.worst_ratio)) {  // NaN counts as worst
        r.worst_ratio = ratio;
        std::ostringstream s;
        s << "D[" << i << "][" << j << "] = " << out << ", reference " << ref;
        r.worst = s.str();
      }
    }
  }
  return r;
}

struct TileCheck {
  tessera::Status status;
  tessera::test::CompareResult wave[2];
  double tolerance = 0.0;
  bool passed() const { return wave[0].passed(tolerance) && wave[1].passed(tolerance); }
};

// The MFMA GEMM kernel (mfma_kernels.hpp) on fresh random inputs, K = 6 steps, the last
// 3 rows of A left to the descriptor's range check. A and B^T are registered allocations.
template <class Shape>
TileCheck check_tile_gemm(std::uint64_t seed) {
  constexpr int M = Shape::kM, K = 6 * Shape::kK;
  using E = MfmaElement<Shape>;
  const int a_rows = M - 3;
  std::vector<E> a(std::size_t(a_rows * K)), bt(std::size_t(M * K));
  tessera::test::fill_random(a, seed);
  tessera::test::fill_random(bt, seed + 1);
  const std::vector<std::uint16_t> a_bits = raw_bits(a), bt_bits = raw_bits(bt);
  std::vector<float> d(std::size_t(2 * M * M));
  tessera::test::poison(d);
  TileCheck r;
  {
    emu::ScopedAllocation ra(a_bits.data(), a_bits.size() * 2, "A");
    emu::ScopedAllocation rb(bt_bits.data(), bt_bits.size() * 2, "B^T");
    r.status = run_tile_gemm<Shape>({a_bits.data(), a_rows, bt_bits.data(), K, d.data()});
  }
  std::vector<double> ref(std::size_t(M * M), 0.0), magnitude(std::size_t(M * M), 0.0);
  for (int i = 0; i < a_rows; ++i) {
    for (int j = 0; j < M; ++j) {
      for (int k = 0; k < K; ++k) {
        const double p = double(float(a[std::size_t(i * K + k)])) * double(float(bt[std::size_t(j * K + k)]));
        ref[std::size_t(i * M + j)] += p;
        magnitude[std::size_t(i * M + j)] += std::fabs(p);
      }
    }
  }
  for (int w = 0; w < 2; ++w) {
    r.wave[w] = tessera::test::compare<tessera::RowMajor>(M, M, d.data() + w * M * M, M, ref.data(), M,
                                                         magnitude.data(), tessera::test::element_bound<E, float>(K));
  }
  r.tolerance = tessera::test::tolerance<E, float>(K);
  return r;
}

}  // namespace emu_test
