// The low-precision MFMAs (arch/amd/mfma_lowp.hpp) as wave-level operations: gfx942's
// v_mfma_f32_{32x32x16,16x16x32}_{fp8,bf8}_{fp8,bf8} and gfx950's v_mfma[_scale]_f32_
// {32x32x64,16x16x128}_f8f6f4 with fp8, bf8, fp6, bf6 or fp4 operands in any mix.
//
// Lane layouts, written in Composable Kernel's terms (xdlops_gemm.hpp mfma_type<> and its
// MX test, test/mx_mfma_op/mx_mfma_op.hpp, whose register maps list every lane's K values):
// the wave is cut into 64 / M blocks of M lanes; lane blk * M + t holds row t of A (column
// t of B), and:
//   gfx942 (k_per_blk 8)        bytes 0..7 are K = 8 blk .. 8 blk + 7 (AMD's matrix
//                               instruction calculator, CDNA3, says the same slot for slot);
//   f8f6f4, 8-bit operands      bytes 0..15 are K = 16 blk .. +15, bytes 16..31 are
//                               K = K/2 + 16 blk .. +15 (two chunks of 16; Triton's
//                               chooseScaledMfmaScaleLayout says the same);
//   f8f6f4, fp6 operands        six words hold K = 32 blk .. 32 blk + 31, value i in bits
//                               [6 i, 6 i + 6) of the words read as one little-endian 192-bit
//                               stream (CK's "Register Mapping for FP6" and f6_pk_t;
//                               HipKittens' fp6 GEMM: arch/amd/mfma_lowp.hpp has the sources);
//   f8f6f4, fp4 operands        bytes 0..15 hold K = 32 blk .. 32 blk + 31, two values a
//                               byte, the lower K in the low nibble.
// The two operands' maps follow their own formats: in a mix, value k of A meets value k of B.
// Scales (the scaled forms): lane M * b + t's scale register, byte op_sel, scales row t of
// A (column t of B) over K = 32 b .. 32 b + 31, whatever the format (CK's
// load_mx_B_col_major; Triton's scale layout). C and D as the 16-bit MFMAs (mfma.cpp).
//
// Values: gfx942's fp8/bf8 are e4m3fnuz / e5m2fnuz, gfx950's OCP e4m3 / e5m2 / e2m3 / e3m2 /
// e2m1, scales e8m0 (2^(c - 127); 0xff NaN: the OCP MX spec makes the whole block NaN).
// Arithmetic, for each D[i][j]: C[i][j] first, then for k = 0..K-1 in order the product
// A[i][k] B[k][j] times the two scales, rounded once to fp32 (a product of two such values
// is exact in fp32; scaling it is exact unless it leaves fp32's range), added with fp32
// rounding (nearest even). The hardware's adder order and internal width are not published
// (tests compare kernels with a rounding bound, and this model bit for bit with a scalar
// model of the same arithmetic). C and D subnormals follow HardwareChoices::mfma_denormals;
// 8-bit, fp6 and fp4 inputs are never flushed (the CDNA4 ISA guide: these formats keep their
// denormals). Not modelled (reported as kMisuse): gfx942's fp8 forms on gfx950, which there
// read OCP formats (Tessera uses the f8f6f4 forms on gfx950).
#include <cmath>
#include <cstring>
#include <string>

#include "state.hpp"
#include "tessera/arch/amd/mfma_lowp.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"

namespace tessera::amd::emulation {

namespace {

// Where value k of row (column) `row` of an operand of format f sits: the lane, and the
// value's index among the lane's values (bytes for 8-bit, nibbles for fp4, 6-bit fields).
MfmaSlot lowp_slot(const MfmaLowpCode& c, MfmaFormat f, int row, int k) {
  const int bits = mfma_format_bits(f);
  if (!c.f8f6f4()) return MfmaSlot{c.m * (k / 8) + row, k % 8};
  if (bits != 8) return MfmaSlot{c.m * (k / 32) + row, k % 32};  // fp6, fp4: one run of 32
  const int half = c.k / 2, chunk = k / half, r = k % half;
  return MfmaSlot{c.m * (r / 16) + row, 16 * chunk + r % 16};
}

// Operand words a lane holds for format f: 32 values of `bits` bits (gfx942: 8 bytes).
int lowp_words(const MfmaLowpCode& c, MfmaFormat f) {
  return c.m * c.k * mfma_format_bits(f) / 8 / 64 / 4;  // 64 lanes
}

}  // namespace

MfmaSlot mfma_lowp_a_slot(std::uint32_t code, int i, int k) {
  const MfmaLowpCode c = MfmaLowpCode::decode(code);
  return lowp_slot(c, c.a, i, k);
}
MfmaSlot mfma_lowp_b_slot(std::uint32_t code, int k, int j) {
  const MfmaLowpCode c = MfmaLowpCode::decode(code);
  return lowp_slot(c, c.b, j, k);
}
int mfma_lowp_scale_lane(std::uint32_t code, int row, int block) {
#if defined(TESSERA_EMULATOR_MUTANT_SCALE_LANE)
  // Mutation check: the scale of the next 32-value block; the scale tests must notice.
  block ^= 1;
#endif
  return MfmaLowpCode::decode(code).m * block + row;
}

namespace detail {

namespace {

// The value of an operand code of format f (gfx942: the fnuz variants).
float lowp_value(MfmaFormat f, bool f8f6f4, std::uint32_t code) {
  if (!f8f6f4) {
    return f == MfmaFormat::kFp8 ? float(float8_e4m3fnuz_t::from_bits(std::uint8_t(code)))
                                 : float(float8_e5m2fnuz_t::from_bits(std::uint8_t(code)));
  }
  switch (f) {
    case MfmaFormat::kFp8: return float(float8_e4m3_t::from_bits(std::uint8_t(code)));
    case MfmaFormat::kBf8: return float(float8_e5m2_t::from_bits(std::uint8_t(code)));
    case MfmaFormat::kFp6: return float(float6_e2m3_t::from_bits(std::uint8_t(code & 0x3fu)));
    case MfmaFormat::kBf6: return float(float6_e3m2_t::from_bits(std::uint8_t(code & 0x3fu)));
    default: return float(float4_e2m1_t::from_bits(std::uint8_t(code & 0xfu)));
  }
}

// Operand value `index` of a lane's words: the `bits`-wide field at bit index * bits of
// the words read as one little-endian stream (word 0 first), a field that crosses a word
// boundary taking its low bits from the lower word.
std::uint32_t lowp_code(const std::uint32_t* words, int index, int bits) {
#if defined(TESSERA_EMULATOR_MUTANT_FP6_FIELDS)
  // Mutation check: fp6 fields in the wrong order, each group of four from the top of its
  // 24 bits down; the fp6 instruction tests must notice.
  if (bits == 6) index = 4 * (index / 4) + 3 - index % 4;
#endif
  const int first = index * bits, word = first / 32, shift = first % 32;
  std::uint64_t pair = words[word];
  if (shift + bits > 32) pair |= std::uint64_t(words[word + 1]) << 32;
  return std::uint32_t(pair >> shift) & ((1u << bits) - 1u);
}

// 2^(c - 127) as an exponent, or a NaN flag for 0xff.
struct Scale {
  int exponent;
  bool nan;
};
Scale scale_of(std::uint32_t reg, int opsel) {
  const std::uint32_t c = (reg >> (8 * opsel)) & 0xffu;
  return {int(c) - 127, c == 0xffu};
}

float flush32(float x, bool flush) {
  return flush && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

}  // namespace

void resolve_mfma_lowp(Wave& w) {
  Workgroup& wg = emu().wg;
  const Lane& lane0 = wg.lanes[std::size_t(w.first_lane)];
  const MfmaLowpCode c = MfmaLowpCode::decode(lane0.call.a);
  if (!mfma_wave_is_full(w)) return;
  const std::string name = std::string(c.scaled ? "v_mfma_scale_f32_" : "v_mfma_f32_") + std::to_string(c.m) + "x" +
                           std::to_string(c.m) + "x" + std::to_string(c.k) + (c.f8f6f4() ? "_f8f6f4" : "_fp8");
  const int bits_a = mfma_format_bits(c.a), bits_b = mfma_format_bits(c.b);
  if (c.f8f6f4() != target_is_gfx950()) {
    report_mfma_misuse(w, lane0.call.pc,
                       c.f8f6f4() ? name + " exists only on gfx950; the emulator runs gfx942"
                                  : name + " is modelled for gfx942 (fnuz formats); on gfx950 it reads OCP "
                                           "formats, which the emulator does not model (use the f8f6f4 forms)");
    wg.aborted = true;
    return;
  }
  record(w, TraceKind::kMfma, lane0.call.pc, std::uint32_t(c.m), std::uint32_t(c.k),
         0x100u | std::uint32_t(c.a) << 4 | std::uint32_t(c.b) | (c.scaled ? 0x200u : 0u));

  const bool flush = emu().options.hardware.mfma_denormals == Denormals::kFlush;
  const int m = c.m, n = c.m, kd = c.k;
  auto lane = [&](int l) -> const Lane& { return wg.lanes[std::size_t(w.first_lane + l)]; };
  // A and B^T as doubles, each value times its row's (column's) block scale 2^(c - 127):
  // exact, and the product of two of them is the scaled product, exact in double.
  static double a[32][128], bt[32][128];
  float cm[32][32];
  double fa[32][4], fb[32][4];
  for (int r = 0; r < m; ++r) {
    for (int blk = 0; blk < kd / 32; ++blk) {
      fa[r][blk] = fb[r][blk] = 1.0;
      if (!c.scaled) continue;
      const Scale sa = scale_of(lane(mfma_lowp_scale_lane(lane0.call.a, r, blk)).mfma_scale_a, c.opsel_a);
      const Scale sb = scale_of(lane(mfma_lowp_scale_lane(lane0.call.a, r, blk)).mfma_scale_b, c.opsel_b);
      fa[r][blk] = sa.nan ? std::nan("") : std::ldexp(1.0, sa.exponent);
      fb[r][blk] = sb.nan ? std::nan("") : std::ldexp(1.0, sb.exponent);
    }
  }
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < kd; ++k) {
      const MfmaSlot s = lowp_slot(c, c.a, i, k);
      a[i][k] = double(lowp_value(c.a, c.f8f6f4(), lowp_code(lane(s.lane).mfma_a32, s.index, bits_a)));
      if (kd >= 32) a[i][k] *= fa[i][k / 32];
    }
  }
  for (int k = 0; k < kd; ++k) {
    for (int j = 0; j < n; ++j) {
      const MfmaSlot s = lowp_slot(c, c.b, j, k);
      bt[j][k] = double(lowp_value(c.b, c.f8f6f4(), lowp_code(lane(s.lane).mfma_b32, s.index, bits_b)));
      if (kd >= 32) bt[j][k] *= fb[j][k / 32];
    }
  }
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      const MfmaSlot s = mfma_c_slot(m, n, i, j);
      cm[i][j] = flush32(lane(s.lane).mfma_c[s.index], flush);
    }
  }
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float acc = cm[i][j];
      for (int k = 0; k < kd; ++k) acc = acc + float(a[i][k] * bt[j][k]);
      const MfmaSlot s = mfma_c_slot(m, n, i, j);
      wg.lanes[std::size_t(w.first_lane + s.lane)].mfma_c[s.index] = flush32(acc, flush);
    }
  }
}

}  // namespace detail

using namespace detail;

void mfma_lowp(std::uint32_t code, const std::uint32_t* a, const std::uint32_t* b, const float* c, float* d,
               std::uint32_t scale_a, std::uint32_t scale_b) {
  Lane& l = current_lane("MFMA");
  const MfmaLowpCode k = MfmaLowpCode::decode(code);
  const int words_a = lowp_words(k, k.a), words_b = lowp_words(k, k.b);
  const int accumulators = k.m * k.m / kWaveSize;
  for (int i = 0; i < 8; ++i) {
    l.mfma_a32[i] = i < words_a ? a[i] : 0u;
    l.mfma_b32[i] = i < words_b ? b[i] : 0u;
  }
  for (int i = 0; i < accumulators; ++i) l.mfma_c[i] = c[i];
  l.mfma_scale_a = scale_a;
  l.mfma_scale_b = scale_b;
  stop_at(l, Call::kMfmaLowp, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)), code);
  for (int i = 0; i < accumulators; ++i) d[i] = l.mfma_c[i];
}

}  // namespace tessera::amd::emulation
