// The host half of tessera_bench_hip's low-precision problems (suite_lowp.hpp), kept free of
// the GPU runtime so that a host test (test_lowp_bench_data.cpp) checks it against the
// emulated kernels: operand codes and scales drawn from a seed, the bytes the device reads,
// the dequantized values the naive reference multiplies, and rows of D in float64.
//
// Codes: every value a random code of its format with 0 < |v| <= 2 (no zeros, NaN or
// infinities), element i of a stream from splitmix64(seed ^ splitmix64(i)); A [m][k], B
// [n][k] (B's columns), one code per value. fp4 is stored two values a byte, the lower K in
// the low nibble (float4_e2m1x2_t). Scales: per tensor, two floats with 4 significant bits
// (random_scale); MX, one e8m0 code per row of A / column of B per 32 values of K,
// 127 +- 2 (2^-2 .. 2^2), stored [row][ceil(K/32)]: the layout Tessera reads (operand_scales.hpp)
// and hipBLASLt's VEC32_UE8M0 takes. Decoding follows the formats' definitions
// (test/support/narrow_float_reference.hpp), not the library's types.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "bench_host.hpp"
#include "lowp_elements.hpp"
#include "narrow_float_reference.hpp"

namespace {

// What a configuration's inputs are, as run-time values (one class serves every
// configuration, so that the host code is compiled once).
struct LowpKind {
  const char* arch;                // gfx942, gfx950
  const reference::Format* a;      // operand formats
  const reference::Format* b;
  int values_per_byte;             // 2: fp4
  bool mx, per_tensor, row_major_d;
};

struct LowpHostData {
  LowpKind kind{};
  std::int64_t M = 0, N = 0, K = 0, scale_ld = 0;  // scale_ld: MX, ceil(K / 32)
  std::vector<std::uint8_t> a_codes, b_codes;      // [m][k], [n][k]
  std::vector<std::uint8_t> sa, sb;                // MX: [row][kb]
  float tensor[2] = {1.0f, 1.0f};                  // per tensor: A's, B's

  // Fresh inputs from three seeds (operands A and B, scales).
  void generate(const LowpKind& k, std::int64_t m, std::int64_t n, std::int64_t kk, std::uint64_t seed_a,
                std::uint64_t seed_b, std::uint64_t seed_s) {
    kind = k;
    M = m, N = n, K = kk;
    a_codes = random_codes(*kind.a, M, seed_a);
    b_codes = random_codes(*kind.b, N, seed_b);
    scale_ld = kind.mx ? (K + 31) / 32 : 0;
    sa.assign(kind.mx ? std::size_t(M * scale_ld) : 0, 0);
    sb.assign(kind.mx ? std::size_t(N * scale_ld) : 0, 0);
    for (std::size_t i = 0; i < sa.size(); ++i) sa[i] = std::uint8_t(125 + splitmix64(seed_s ^ (2 * i)) % 5);
    for (std::size_t i = 0; i < sb.size(); ++i) sb[i] = std::uint8_t(125 + splitmix64(seed_s ^ (2 * i + 1)) % 5);
    if (kind.per_tensor) {
      tensor[0] = random_scale(splitmix64(seed_s));
      tensor[1] = random_scale(splitmix64(seed_s + 1));
    }
  }

  // The dequantizing factor of value k of row r of A (of column r of B), 1 without MX: the
  // e8m0 code c means 2^(c - 127) (OCP MX v1.0; the suite never draws 0xff, NaN).
  double block_scale(const std::vector<std::uint8_t>& scales, std::int64_t r, std::int64_t k) const {
    static const std::vector<double> power = [] {
      std::vector<double> t(256);
      for (int c = 0; c < 256; ++c) t[std::size_t(c)] = std::ldexp(1.0, c - 127);
      return t;
    }();
    return kind.mx ? power[scales[std::size_t(r * scale_ld + k / 32)]] : 1.0;
  }

  // The codes as the device reads them, rows K values (K / 2 bytes for fp4, K even) apart.
  std::vector<std::uint8_t> packed(const std::vector<std::uint8_t>& codes) const {
    if (kind.values_per_byte == 1) return codes;
    std::vector<std::uint8_t> out(codes.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::uint8_t((codes[2 * i] & 0xf) | (codes[2 * i + 1] << 4));
    return out;
  }

  // rows x K values in fp32, exact (a code's value times a power of two): A's with `sa`, or
  // B's columns with `sb`.
  std::vector<float> dequantized(const reference::Format& f, const std::vector<std::uint8_t>& codes,
                                 const std::vector<std::uint8_t>& scales) const {
    double value[256] = {};
    for (unsigned c = 0; c < f.codes(); ++c) value[c] = f.decode(c);
    std::vector<float> out(codes.size());
    parallel_slices(out.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t r = std::int64_t(i) / K, k = std::int64_t(i) % K;
        out[i] = float(value[codes[i]] * block_scale(scales, r, k));
      }
    });
    return out;
  }

  // Rows `rows` of D = (scaled A)(scaled B) in float64, row-major rows.size() x N.
  std::vector<double> rows_f64(const std::vector<std::int64_t>& rows) const {
    double va[256] = {}, vb[256] = {};
    for (unsigned c = 0; c < kind.a->codes(); ++c) va[c] = kind.a->decode(c);
    for (unsigned c = 0; c < kind.b->codes(); ++c) vb[c] = kind.b->decode(c);
    std::vector<double> out(rows.size() * std::size_t(N), 0.0);
    const double tensor_product = double(tensor[0]) * double(tensor[1]);
    parallel_for(rows.size(), [&](std::size_t r) {
      const std::int64_t i = rows[r];
      for (std::int64_t j = 0; j < N; ++j) {
        double sum = 0.0;
        for (std::int64_t k = 0; k < K; ++k) {
          sum += va[a_codes[std::size_t(i * K + k)]] * block_scale(sa, i, k) * vb[b_codes[std::size_t(j * K + k)]] *
                 block_scale(sb, j, k);
        }
        out[r * std::size_t(N) + std::size_t(j)] = sum * tensor_product;
      }
    });
    return out;
  }

 private:
  // rows x K codes of a format with 0 < |v| <= 2.
  std::vector<std::uint8_t> random_codes(const reference::Format& f, std::int64_t rows, std::uint64_t seed) const {
    std::vector<std::uint8_t> valid;
    for (unsigned c = 0; c < f.codes(); ++c) {
      const double v = std::fabs(f.decode(c));
      if (std::isfinite(v) && v > 0.0 && v <= 2.0) valid.push_back(std::uint8_t(c));
    }
    std::vector<std::uint8_t> codes(std::size_t(rows * K));
    parallel_slices(codes.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
      for (std::size_t i = begin; i < end; ++i) codes[i] = valid[splitmix64(seed ^ splitmix64(i)) % valid.size()];
    });
    return codes;
  }
};

// A configuration's LowpKind (examples/mfma_lowp_configs.hpp and the like).
template <class Config>
LowpKind lowp_kind() {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using Mode = typename Config::OperandScales;
  return {Config::Arch::kName, &LowpElement<EA>::format(), &LowpElement<EB>::format(), LowpElement<EA>::kValuesPerByte,
          Mode::kBlock, Mode::kPerTensor, Config::LayoutC::kIsRowMajor};
}

}  // namespace
