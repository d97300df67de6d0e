// The host half of tessera_bench_hip's low-precision problems (suite_lowp.hpp), kept free of
// the GPU runtime so that a host test (test_lowp_bench_data.cpp) checks it against the
// emulated kernels: operand codes and scales drawn from a seed, the bytes the device reads,
// the dequantized values the naive reference multiplies, and rows of D in float64.
//
// Codes: every value a random code of its format with 0 < |v| <= 2 (no zeros, NaN or
// infinities), element i of a stream from splitmix64(seed ^ splitmix64(i)); A [m][k], B
// [n][k] (B's columns), one code per value. The device bytes are one bit stream per operand,
// value v = r * K + k at bits [b v, b v + b) (b = the format's bits, low bits first): fp8 a
// byte each; fp4 two a byte, the lower K in the low nibble (float4_e2m1x2_t); fp6 four in
// three bytes (float6_e2m3x4_t / float6_e3m2x4_t, core/float6.hpp), rows ld = K values apart,
// so K must be a multiple of 4 (Tessera refuses another ld: kErrorPackedFp6Ld). The same
// stream is what hipDNN hands hipBLASLt for fp6 (ROCm/rocm-libraries, hipdnn_data_sdk
// PackedFp6Tensor: "a dense LSB-first 6-bit bitstream, four values per three bytes, element i
// at bits [6i, 6i+6)", pull request 11069, validated on gfx950). Scales: per tensor, two floats with 4 significant bits
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
  int bits_a, bits_b;              // bits per value: 8, 6 (fp6) or 4 (fp4)
  bool mx, per_tensor, row_major_d;

  // K (and so each row) must fill whole bytes of both operands: 2 values for fp4, 4 for fp6.
  static constexpr int whole_bytes(int bits) { return bits == 8 ? 1 : bits == 4 ? 2 : 4; }
  int k_multiple() const {
    const int a = whole_bytes(bits_a), b = whole_bytes(bits_b);
    return a > b ? a : b;  // 1, 2 or 4: the larger is a multiple of the smaller
  }
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

  // A's and B's codes as the device reads them: rows K values (K * bits / 8 bytes) apart.
  std::vector<std::uint8_t> packed_a() const { return packed(a_codes, kind.bits_a); }
  std::vector<std::uint8_t> packed_b() const { return packed(b_codes, kind.bits_b); }

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
  // The bit stream of `codes`, value v at bits [bits v, bits v + bits), the low bits first
  // (K a multiple of k_multiple(): every row ends on a byte).
  static std::vector<std::uint8_t> packed(const std::vector<std::uint8_t>& codes, int bits) {
    if (bits == 8) return codes;
    std::vector<std::uint8_t> out(codes.size() * std::size_t(bits) / 8, 0);
    const unsigned mask = (1u << bits) - 1u;
    for (std::size_t v = 0; v < codes.size(); ++v) {
      const std::size_t bit = v * std::size_t(bits);
      const unsigned field = (codes[v] & mask) << (bit % 8);  // at most 14 bits wide
      out[bit / 8] |= std::uint8_t(field & 0xffu);
      if ((field >> 8) != 0) out[bit / 8 + 1] |= std::uint8_t(field >> 8);
    }
    return out;
  }

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
  return {Config::Arch::kName, &LowpElement<EA>::format(), &LowpElement<EB>::format(), tessera::value_bits<EA>,
          tessera::value_bits<EB>, Mode::kBlock, Mode::kPerTensor, Config::LayoutC::kIsRowMajor};
}

}  // namespace
