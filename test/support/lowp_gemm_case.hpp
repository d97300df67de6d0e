// The host half of one low-precision GEMM check (fp8, fp6 and fp4 operands, with operand
// scales), for the emulated MFMA tests (and any suite that runs such a configuration):
// fresh random operands as format codes (every value finite, never all zero), random
// scales (MX: e8m0 exponents around 1; NVFP4: ue4m3 from 0.5 to 2; a row's padding filled with the NaN code 0xff so that
// a read past K shows; per-tensor: two floats), random C, D poisoned; the Arguments over
// any copy of them; and the float64 reference of the dequantized inputs, decoded from the
// formats' definitions (narrow_float_reference.hpp), not by the library's types.
//
// Storage: A row-major M x K, B column-major K x N (the only layouts these configurations
// take); fp8 one byte a value, fp4 two (float4_e2m1x2_t: the lower K in the low nibble),
// fp6 four in three bytes (float6_e2m3x4_t / e3m2x4: value v of the operand's stream, v =
// row * ld + k, in bits [6 v, 6 v + 6), written here bit by bit from that definition), lda
// and ldb counted in values as the Arguments count them.
#pragma once
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gemm_case_host.hpp"
#include "narrow_float_reference.hpp"
#include "reference_gemm.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/scale_factor.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::test {

// Guards after low-precision inputs and scales (emulated_gemm_case.hpp's GuardedBuffer): a
// byte no reader should reach (the OCP fp8 types' poison, a negative NaN, is reference_gemm.hpp's).
template <> inline std::uint8_t poison_value<std::uint8_t>() { return 0xa5; }
template <> inline float8_e4m3fnuz_t poison_value<float8_e4m3fnuz_t>() { return float8_e4m3fnuz_t::from_bits(0xa5); }
template <> inline float8_e5m2fnuz_t poison_value<float8_e5m2fnuz_t>() { return float8_e5m2fnuz_t::from_bits(0xa5); }
template <> inline float4_e2m1x2_t poison_value<float4_e2m1x2_t>() { return float4_e2m1x2_t::from_bits(0xa5); }
template <> inline float6_e2m3x4_t poison_value<float6_e2m3x4_t>() { return float6_e2m3x4_t::from_bits24(0xa5a5a5); }
template <> inline float6_e3m2x4_t poison_value<float6_e3m2x4_t>() { return float6_e3m2x4_t::from_bits24(0xa5a5a5); }

template <class T>
const reference::Format& lowp_format() {
  if constexpr (std::is_same_v<T, float8_e4m3_t>) return reference::kE4M3;
  else if constexpr (std::is_same_v<T, float8_e5m2_t>) return reference::kE5M2;
  else if constexpr (std::is_same_v<T, float8_e4m3fnuz_t>) return reference::kE4M3Fnuz;
  else if constexpr (std::is_same_v<T, float8_e5m2fnuz_t>) return reference::kE5M2Fnuz;
  else if constexpr (std::is_same_v<T, float6_e2m3x4_t>) return reference::kE2M3;
  else if constexpr (std::is_same_v<T, float6_e3m2x4_t>) return reference::kE3M2;
  else return reference::kE2M1;  // float4_e2m1x2_t
}

// The scale cases of a shape: padded scale rows, a leading dimension that is not a multiple
// of 4 (byte-wise scale loads), the scale tensors one byte into their allocation.
struct ScaleLayout {
  std::int64_t ld_pad = 0;
  bool misaligned = false;
};

template <class Config>
struct LowpHostCase {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using ED = typename Config::ElementD;
  using LC = typename Config::LayoutC;
  using Mode = typename Config::OperandScales;
  using Args = gemm::Arguments<EA, EB, EC, ED, typename Config::Epilogue::Arguments>;
  static constexpr bool kBlock = Mode::kBlock;

  CaseShape shape;
  ScaleLayout scales;
  std::int64_t lda, ldb, ldc, ldd;  // values (lda, ldb) or elements
  std::int64_t off;                 // elements (bytes; fp6: 3-byte groups) each operand starts into its allocation
  std::vector<std::uint8_t> a_codes, b_codes;  // one code per value, [m][k] and [n][k]
  std::vector<EA> a;
  std::vector<EB> b;
  std::vector<EC> c;
  std::vector<ED> d;
  std::vector<std::uint8_t> scale_a, scale_b;  // block modes: [row][block], ld_scale apart
  std::int64_t ld_scale = 0, scale_off = 0;
  float tensor_scale[2] = {0.75f, 1.5f};       // per-tensor mode

  // Values of K a block scale covers: 32 (MX, e8m0) or 16 (NVFP4, ue4m3).
  static constexpr int kBlockValues = kBlock ? gemm::detail::scale_block_values<Mode>() : 1;
  static constexpr bool kUe4m3 = kBlockValues == 16;
  static std::int64_t blocks(std::int64_t K) { return kBlock ? (K + kBlockValues - 1) / kBlockValues : 0; }

  LowpHostCase(const CaseShape& s, std::uint64_t seed, ScaleLayout sl = {})
      : shape(s),
        scales(sl),
        lda(case_ld(s, RowMajor::min_ld(s.M, s.K), s.pad)),
        ldb(case_ld(s, ColumnMajor::min_ld(s.K, s.N), s.pad)),
        ldc(case_ld(s, LC::min_ld(s.M, s.N), s.pad)),
        ldd(s.in_place ? ldc : case_ld(s, LC::min_ld(s.M, s.N), 2 * s.pad)),
        off(s.offset_pointers ? 1 : 0) {
    // Packed types: leading dimensions of whole elements (the libraries refuse others).
    lda += (values_per_element<EA> - lda % values_per_element<EA>) % values_per_element<EA>;
    ldb += (values_per_element<EB> - ldb % values_per_element<EB>) % values_per_element<EB>;
    std::mt19937_64 rng(seed);
    a_codes = random_codes(lowp_format<EA>(), s.M, s.K, rng);
    b_codes = random_codes(lowp_format<EB>(), s.N, s.K, rng);
    a = pack<EA>(a_codes, s.M, s.K, lda);
    b = pack<EB>(b_codes, s.N, s.K, ldb);
    c.resize(std::size_t(off + std::max<std::int64_t>(matrix_span<LC>(s.M, s.N, ldc), 1)));
    d.resize(std::size_t(off + std::max<std::int64_t>(matrix_span<LC>(s.M, s.N, ldd), 1)));
    fill_random(c, seed + 7);
    poison(d);
    if constexpr (std::is_same_v<EC, ED>) {
      if (s.in_place) d = c;
    }
    if constexpr (kBlock) {
      ld_scale = blocks(s.K) + sl.ld_pad + (sl.misaligned ? 1 : 0);
      scale_off = sl.misaligned ? 1 : 0;
      scale_a = random_scales(s.M, s.K, rng);
      scale_b = random_scales(s.N, s.K, rng);
    }
  }

  // Codes of the format with values in [-2, 2], never zero (subnormals included): the sums
  // stay inside a 16-bit D's range. The last value of every row is at least 0.5 in
  // magnitude, so that an operand's last element lost on its way (the end of a row is where
  // the copies have edge code) changes D by more than the tolerance.
  static std::vector<std::uint8_t> random_codes(const reference::Format& f, std::int64_t rows, std::int64_t K,
                                                std::mt19937_64& rng) {
    std::vector<std::uint8_t> out(std::size_t(rows * K));
    for (std::size_t i = 0; i < out.size(); ++i) {
      const double least = std::int64_t(i) % K == K - 1 ? 0.5 : 0.0;
      unsigned code;
      double v;
      do {
        code = unsigned(rng() % f.codes());
        v = f.is_nan(code) || f.is_inf(code) ? 0.0 : std::fabs(f.decode(code));
      } while (v == 0.0 || v > 2.0 || v < least);
      out[i] = std::uint8_t(code);
    }
    return out;
  }

  // Row r (of A; column r of B) of K values at r * ld values from the allocation's start
  // plus `off` elements: value v of the operand at bits v * b .. v * b + b - 1 of the bytes
  // (b bits a value: a little-endian bit stream, the packed types' layout, written bit by bit
  // here); padding bytes hold codes that decode to large values, never read.
  template <class T>
  std::vector<T> pack(const std::vector<std::uint8_t>& codes, std::int64_t rows, std::int64_t K, std::int64_t ld) const {
    constexpr int kBits = value_bits<T>;
    const std::int64_t values = rows == 0 ? 0 : (rows - 1) * ld + K;
    // Whole elements covering every bit of the last value (an fp6 row may end inside a group).
    const std::int64_t value_bytes = (values * kBits + 7) / 8;
    const std::int64_t elements = (value_bytes + std::int64_t(sizeof(T)) - 1) / std::int64_t(sizeof(T));
    std::vector<std::uint8_t> bytes(std::size_t(off + std::max<std::int64_t>(elements, 1)) * sizeof(T), 0x77);
    std::uint8_t* data = bytes.data() + off * std::int64_t(sizeof(T));
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t k = 0; k < K; ++k) {
        const std::uint8_t code = codes[std::size_t(r * K + k)];
        for (int j = 0; j < kBits; ++j) {
          const std::int64_t bit = (r * ld + k) * kBits + j;
          const auto mask = std::uint8_t(1u << (bit % 8));
          std::uint8_t& byte = data[bit / 8];
          byte = ((code >> j) & 1u) ? std::uint8_t(byte | mask) : std::uint8_t(byte & ~mask);
        }
      }
    }
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(static_cast<void*>(out.data()), bytes.data(), bytes.size());
    return out;
  }

  // Scale codes (e8m0 127 +- 2: 1/4 .. 4; ue4m3 0.5 .. 2); the row padding (and the
// allocation's tail) 0xff, NaN either way.
  std::vector<std::uint8_t> random_scales(std::int64_t rows, std::int64_t K, std::mt19937_64& rng) const {
    std::vector<std::uint8_t> out(std::size_t(scale_off + std::max<std::int64_t>(rows * ld_scale, 1)), 0xff);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t kb = 0; kb < blocks(K); ++kb) {
        // e8m0 2^-2 .. 2^2; ue4m3 the 17 codes from 0.5 (0x30) to 2 (0x40).
        out[std::size_t(scale_off + r * ld_scale + kb)] = kUe4m3 ? std::uint8_t(0x30 + rng() % 17) : std::uint8_t(125 + rng() % 5);
      }
    }
    return out;
  }

  // The Arguments over copies of the operands (and scales) that start where these vectors do.
  Args arguments(const EA* A, const EB* B, const EC* C, ED* D, const std::uint8_t* sa = nullptr,
                 const std::uint8_t* sb = nullptr, const float* tensor = nullptr) const {
    ED* out = D;
    if constexpr (std::is_same_v<EC, ED>) {
      if (shape.in_place) out = const_cast<ED*>(C);
    }
    Args args{shape.M, shape.N, shape.K, A + off, lda, B + off, ldb, C + off, ldc, out + off, ldd,
              shape.alpha, shape.beta};
    if constexpr (kBlock) {
      using S = typename Mode::ScaleType;
      args.epilogue.scales.a = {reinterpret_cast<const S*>(sa + scale_off), ld_scale, shape.M * ld_scale};
      args.epilogue.scales.b = {reinterpret_cast<const S*>(sb + scale_off), ld_scale, shape.N * ld_scale};
    } else if constexpr (Mode::kPerTensor) {
      args.epilogue.scales.a = {tensor};
      args.epilogue.scales.b = {tensor + 1};
    }
    return args;
  }

  // D = alpha * (scaled A B) + beta * C in float64, laid out like D, and each element's
  // magnitude (|alpha tensor| sum_k |scaled a_mk b_kn| + |beta c|, what its bound scales
  // with). Each value decoded once and multiplied by its scale (a power of two, or ue4m3
  // times an fp4 value: exact in double), then the products summed.
  Reference reference() const {
    const std::vector<double> sa = dequantized(lowp_format<EA>(), a_codes, scale_a, shape.M);
    const std::vector<double> sb = dequantized(lowp_format<EB>(), b_codes, scale_b, shape.N);
    const std::size_t size = std::size_t(std::max<std::int64_t>(matrix_span<LC>(shape.M, shape.N, ldd), 1));
    Reference ref{std::vector<double>(size, 0.0), std::vector<double>(size, 0.0)};
    const double tensor = Mode::kPerTensor ? double(tensor_scale[0]) * double(tensor_scale[1]) : 1.0;
    for (std::int64_t m = 0; m < shape.M; ++m) {
      for (std::int64_t n = 0; n < shape.N; ++n) {
        double acc = 0.0, abs_sum = 0.0;
        const double* x = sa.data() + m * shape.K;
        const double* y = sb.data() + n * shape.K;
        for (std::int64_t k = 0; k < shape.K; ++k) {
          const double p = x[k] * y[k];
          acc += p;
          abs_sum += std::fabs(p);
        }
        double v = double(shape.alpha) * tensor * acc;
        double magnitude = std::fabs(double(shape.alpha) * tensor) * abs_sum;
        if (shape.beta != 0.0f) {
          const double bc = double(shape.beta) * to_double(c[std::size_t(off + LC::offset(m, n, ldc))]);
          v += bc;
          magnitude += std::fabs(bc);
        }
        ref.value[std::size_t(LC::offset(m, n, ldd))] = v;
        ref.magnitude[std::size_t(LC::offset(m, n, ldd))] = magnitude;
      }
    }
    return ref;
  }

  // rows x K values: each code's value times its block's scale 2^(s - 127) (block modes).
  std::vector<double> dequantized(const reference::Format& f, const std::vector<std::uint8_t>& codes,
                                  const std::vector<std::uint8_t>& scales, std::int64_t rows) const {
    double value[256];
    for (unsigned c = 0; c < f.codes(); ++c) value[c] = f.decode(c);
    std::vector<double> out(codes.size());
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t k = 0; k < shape.K; ++k) {
        const std::size_t i = std::size_t(r * shape.K + k);
        out[i] = value[codes[i]];
        if constexpr (kBlock) {
          const std::uint8_t sc = scales[std::size_t(scale_off + r * ld_scale + k / kBlockValues)];
          // ue4m3: e4m3's non-negative codes (bit 7 not part of the format).
          out[i] *= kUe4m3 ? reference::kE4M3.decode(sc & 0x7fu) : std::ldexp(1.0, int(sc) - 127);
        }
      }
    }
    return out;
  }

  // `out`: the output allocation as it came back (C's in place, else D's), `guard`
  // poisoned elements after it included.
  CaseOutcome check_output(const std::vector<ED>& out, std::size_t guard) const {
    // The products of the dequantized values are exact in fp32 (few significant bits), so the
    // error model of fp32-accumulating kernels with exact products holds (the float rule).
    return output_outcome<LC>(shape, off, ldd, out, guard, [this] { return reference(); }, tolerance<float, ED>(shape.K),
                              element_bound<float, ED>(shape.K));
  }

  std::string describe(std::uint64_t seed) const {
    std::ostringstream o;
    o << "M=" << shape.M << " N=" << shape.N << " K=" << shape.K << " lda=" << lda << " ldb=" << ldb << " ldc=" << ldc
      << " ldd=" << ldd << " alpha=" << shape.alpha << " beta=" << shape.beta << " in_place=" << shape.in_place
      << " offset=" << shape.offset_pointers << " scales: " << Mode::kName << " ld " << ld_scale
      << (scales.misaligned ? " misaligned" : "") << " seed=" << seed << " A=" << type_name<EA>::value
      << " B=" << type_name<EB>::value << " D=" << type_name<ED>::value;
    return o.str();
  }
};

}  // namespace tessera::test
