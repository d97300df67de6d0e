// The fp8 suite of tessera_bench: cuBLASLt with e4m3 A and B, bf16 D, fp32 accumulation,
// scaled per tensor (fp8_tensor/...) and per block (fp8_block/...: A 1 x 128, B 128 x 128,
// DeepSeek-V3's scheme), beside Tessera's fp8 GEMM (the wgmma family with e4m3 operands:
// fp8_impls() below, one line per variant).
//
// Layout as in the LLM suite: A row-major M x K, B = W[N][K] (K-major), D row-major.
// cuBLASLt computes the transposed problem (D^T = W A^T), so its "A" is our B and its
// "B" is our A, "TN" as its fp8 kernels require. Scales multiply (dequantize):
//   per tensor: A_SCALE_POINTER (our B's scale), B_SCALE_POINTER (our A's), one float each;
//   per block:  our B with CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F, one float per
//               128 x 128 block, stored sb[nb * L4 + kb] (L4 = K/128 rounded up to 4);
//               our A with CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F, one float per row
//               per 128 of K, stored sa[kb * M + m] (M-contiguous; M a multiple of 4).
// (Those are the layouts PyTorch's blockwise scaled_mm passes to cuBLASLt 12.9+; the
// check below would fail, and say which other layout the output matches, if they were
// not what cuBLASLt reads.)
//
// Inputs: random values in [-2, 2) encoded to e4m3 on the host (fp8_e4m3.hpp), never 0;
// scales random with 4 significant bits, so that every dequantized value (4 bits times 4
// bits) is exact in bf16. The checks: the sampled rows against float64 of the
// dequantized inputs, and the whole output against cuBLAS's bf16 GEMM (fp32 D) of the same
// dequantized inputs, with the tolerance fp8_tolerance derives. A shape with `floor` set
// (the decode shapes of the fp8moe suite) also has the streaming read of B's bytes timed
// beside it, as the LLM suite's decode shapes. CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <cublasLt.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "fp8_e4m3.hpp"
#include "gemm_impls.hpp"
#include "stream_floor.hpp"
#include "vendor_blas.hpp"
#include "vendor_blas_lt.hpp"

namespace {

constexpr std::int64_t kFp8Block = 128;

// Largest relative error (Frobenius, and 2x that elementwise against the largest
// reference entry, as tessera::test::compare counts) a correct fp8 GEMM with bf16 D
// may show against float64 of its dequantized inputs:
//  - D rounded to bf16: 2^-8;
//  - each 128-deep block of products summed by the tensor core with about 14 bits kept
//    (the DeepSeek-V3 report's measurement on Hopper), truncating: at most 128 steps of
//    2^-14 relative to the block's sum, 2^-7 in all, before the block is promoted to
//    fp32 (cuBLASLt's default; block scales require it);
//  - the blocks summed in fp32: 16 sqrt(K) 2^-24 as for 16-bit inputs
//    (tessera::test::tolerance).
// A wrong scale block or a skipped block errs by about 1/sqrt(K/128) >= 0.08 at the
// suite's deepest K (18432), 7x this bound at least; a wrong tensor scale by O(1).
double fp8_tolerance(std::int64_t K) {
  return 0x1p-8 + 0x1p-7 + 16.0 * std::sqrt(double(std::max<std::int64_t>(K, 1))) * 0x1p-24;
}

struct Fp8Spec {
  std::int64_t M = 0, N = 0, K = 0;
  bool block = false;  // block scales (else one scale per tensor)
  bool floor = false;  // decode: the streaming read of B's bytes measured beside it (stream_floor.hpp)
  std::string shape() const { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
  std::string key() const {
    return std::string(block ? "fp8_block/" : "fp8_tensor/") + shape() + (floor ? "/floor" : "");
  }
};

// A random e4m3 code for a value in [-2, 2), never +-0: element i of the stream `seed`.
std::uint8_t random_e4m3(std::uint64_t seed, std::uint64_t i) {
  for (std::uint64_t attempt = 0;; ++attempt) {
    const std::uint64_t h = splitmix64(seed ^ splitmix64(i * 0x100000001b3ull + attempt));
    const float u = float(h >> 40) * 0x1p-24f;  // [0, 1)
    const std::uint8_t code = bench_fp8::float_to_e4m3(4.0f * u - 2.0f);
    if ((code & 0x7f) != 0) return code;
  }
}

// Every code's value, for the host loops (decoding each time would dominate them).
const std::vector<float>& e4m3_values() {
  static const std::vector<float> table = [] {
    std::vector<float> t(256);
    for (int c = 0; c < 256; ++c) t[std::size_t(c)] = bench_fp8::e4m3_to_float(std::uint8_t(c));
    return t;
  }();
  return table;
}

// cuBLASLt's description of D (M x N, row-major, bf16) = A (M x K, row-major e4m3) times
// W[N][K] (e4m3), the transposed problem ("TN"), with the scales above: per tensor one
// float each, or block scales in the layouts at the top of the file (scale_a's ld M, a
// multiple of 4). Also the fp8moe suite's per-expert calls (suite_fp8_moe.hpp).
LtMatmulSpec fp8_lt_spec(std::int64_t M, std::int64_t N, std::int64_t K, bool block, const float* scale_a,
                         const float* scale_b) {
  LtMatmulSpec s;
  s.op_x = CUBLAS_OP_T;
  s.op_y = CUBLAS_OP_N;
  s.x = {CUDA_R_8F_E4M3, std::uint64_t(K), std::uint64_t(N), K};
  s.y = {CUDA_R_8F_E4M3, std::uint64_t(K), std::uint64_t(M), K};
  s.d = {CUDA_R_16BF, std::uint64_t(N), std::uint64_t(M), N};
  s.x_scale = scale_b;
  s.y_scale = scale_a;
  if (block) {
    s.x_scale_mode = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
    s.y_scale_mode = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
  }
  return s;
}

struct Fp8Problem : ProblemBase {
  using Spec = Fp8Spec;
  Fp8Spec spec;
  std::int64_t k_blocks = 0, n_blocks = 0, sb_ld = 0;  // sb_ld: L4
  std::vector<std::uint8_t> qa, qb;                    // host codes (kept for a diagnosis)
  std::vector<float> sa, sb;                           // host scales, as uploaded
  DeviceBuffer<std::uint8_t> A, B;
  DeviceBuffer<float> scale_a, scale_b;
  DeviceBuffer<tessera::bfloat16_t> D;
  std::vector<float> ref_host;  // cuBLAS's GEMM of the dequantized inputs, fp32 D
  SampledRows sampled;
  double floor_seconds = 0.0;  // spec.floor: the streaming read of B, median of 30 (0: none)
  Error floor_error;
  StreamFloor floor;

  explicit Fp8Problem(const Fp8Spec& s) : spec(s) {}

  // The dequantizing scale of A(i, k) and of B's row j (W[j][k]), as the layouts above
  // (or, for the diagnosis, the other layout of each) say.
  float a_scale(std::int64_t i, std::int64_t k, bool other_layout = false) const {
    if (!spec.block) return sa[0];
    const std::int64_t kb = k / kFp8Block;
    return other_layout ? sa[std::size_t(i * k_blocks + kb)] : sa[std::size_t(kb * spec.M + i)];
  }
  float b_scale(std::int64_t j, std::int64_t k, bool other_layout = false) const {
    if (!spec.block) return sb[0];
    const std::int64_t kb = k / kFp8Block, nb = j / kFp8Block;
    return other_layout ? sb[std::size_t(kb * n_blocks + nb)] : sb[std::size_t(nb * sb_ld + kb)];
  }

  LtMatmulSpec lt_spec() const { return fp8_lt_spec(spec.M, spec.N, spec.K, spec.block, scale_a.ptr, scale_b.ptr); }

  // Rows of D in float64 from the codes and the scales read through one layout choice.
  SampledRows rows_f64(const std::vector<std::int64_t>& rows, bool other_a, bool other_b) const {
    SampledRows out{rows, std::vector<double>(rows.size() * std::size_t(spec.N))};
    const std::vector<float>& value = e4m3_values();
    parallel_for(rows.size(), [&](std::size_t r) {
      const std::int64_t i = rows[r];
      for (std::int64_t j = 0; j < spec.N; ++j) {
        double sum = 0.0;
        for (std::int64_t k0 = 0; k0 < spec.K; k0 += kFp8Block) {
          double part = 0.0;
          for (std::int64_t k = k0; k < std::min(k0 + kFp8Block, spec.K); ++k) {
            part += double(value[qa[std::size_t(i * spec.K + k)]]) * double(value[qb[std::size_t(j * spec.K + k)]]);
          }
          sum += part * double(a_scale(i, k0, other_a)) * double(b_scale(j, k0, other_b));
        }
        out.values[r * std::size_t(spec.N) + std::size_t(j)] = sum;
      }
    });
    return out;
  }

  Error build();

  Error check(const Impl<Fp8Problem>& impl, ImplSlot& slot) {
    if (impl.is_floor) return floor_seconds > 0.0 ? Error{} : floor_error;
    BENCH_TRY(fill_poison(D));
    std::vector<tessera::bfloat16_t> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    return judge(out);
  }

  // The verdict on an output, with the diagnosis of a scale-layout mismatch.
  Error judge(const std::vector<tessera::bfloat16_t>& out) const {
    const double tol = fp8_tolerance(spec.K);
    Error verdict = judge_output<tessera::RowMajor>(spec.M, spec.N, out, spec.N, ref_host,
                                                    "cuBLAS bf16 GEMM (fp32 D) of the dequantized inputs", sampled, tol);
    const bool rows_failed = verdict.rfind("CHECK FAILED vs float64", 0) == 0;
    if (!rows_failed || !spec.block) return verdict;
    // Which layout of the scales would the output match? (One GPU run says it all.)
    for (int alt = 1; alt < 4; ++alt) {
      const bool other_a = alt & 1, other_b = alt & 2;
      const SampledRows rows = rows_f64(sampled.rows, other_a, other_b);
      if (judge_output<tessera::RowMajor>(spec.M, spec.N, out, spec.N, ref_host, "(diagnosis)", rows, tol).rfind(
              "CHECK FAILED vs float64", 0) != 0) {
        verdict += std::string("; the sampled rows match float64 when ") +
                   (other_a ? "A's scales are read sa[m * K/128 + kb]" : "") + (other_a && other_b ? " and " : "") +
                   (other_b ? "B's scales are read sb[kb * N/128 + nb]" : "") +
                   ": the harness's assumption of cuBLASLt's scale layout is wrong (suite_fp8.hpp)";
        break;
      }
    }
    return verdict;
  }

  double flops(const Impl<Fp8Problem>& impl) const { return impl.is_floor ? 0.0 : spec.flops(); }
  double bytes(const Impl<Fp8Problem>& impl) const {
    if (impl.is_floor) return double(B.count);
    return double(A.count + B.count) + double(scale_a.count + scale_b.count) * 4.0 + double(D.count) * 2.0;
  }
  // Decode shapes (spec.floor): the weights' bandwidth and the fraction of the floor's, as
  // in the LLM suite.
  void add_counters(benchmark::State& state, const Impl<Fp8Problem>&, double seconds) const {
    if (!spec.floor) return;
    state.counters["weights_GB/s"] = benchmark::Counter(double(B.count) / seconds / 1e9);
    if (floor_seconds > 0.0) state.counters["floor_fraction"] = benchmark::Counter(floor_seconds / seconds);
  }
  std::string label(const Impl<Fp8Problem>& impl) const {
    if (impl.is_floor) return "streaming read of B (" + std::to_string(B.count >> 20) + " MiB of e4m3)";
    return spec.block ? "e4m3 x e4m3 -> bf16, A 1x128 (VEC128_32F), B 128x128 (BLK128x128_32F) scales"
                      : "e4m3 x e4m3 -> bf16, per-tensor scales";
  }
};

Error Fp8Problem::build() {
  const std::int64_t M = spec.M, N = spec.N, K = spec.K;
  k_blocks = (K + kFp8Block - 1) / kFp8Block;
  n_blocks = (N + kFp8Block - 1) / kFp8Block;
  sb_ld = (k_blocks + 3) / 4 * 4;

  // Codes and scales on the host, in parallel slices (each element's value depends only
  // on the seed and its index).
  const std::uint64_t seed_a = next_seed(), seed_b = next_seed(), seed_s = next_seed();
  qa.resize(std::size_t(M * K));
  qb.resize(std::size_t(N * K));
  parallel_slices(qa.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) qa[i] = random_e4m3(seed_a, i);
  });
  parallel_slices(qb.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) qb[i] = random_e4m3(seed_b, i);
  });
  if (spec.block) {
    sa.resize(std::size_t(k_blocks * M));
    sb.assign(std::size_t(n_blocks * sb_ld), 1.0f);  // padding (unused K blocks) stays 1
    for (std::size_t i = 0; i < sa.size(); ++i) sa[i] = random_scale(splitmix64(seed_s ^ (2 * i)));
    for (std::int64_t nb = 0; nb < n_blocks; ++nb)
      for (std::int64_t kb = 0; kb < k_blocks; ++kb)
        sb[std::size_t(nb * sb_ld + kb)] = random_scale(splitmix64(seed_s ^ (2 * std::uint64_t(nb * sb_ld + kb) + 1)));
  } else {
    sa = {random_scale(splitmix64(seed_s))};
    sb = {random_scale(splitmix64(seed_s + 1))};
  }
  BENCH_TRY(A.allocate(qa.size()));
  BENCH_TRY(B.allocate(qb.size()));
  BENCH_TRY(scale_a.allocate(sa.size()));
  BENCH_TRY(scale_b.allocate(sb.size()));
  BENCH_TRY(D.allocate(std::size_t(M * N)));
  BENCH_TRY(A.from_host(qa));
  BENCH_TRY(B.from_host(qb));
  BENCH_TRY(scale_a.from_host(sa));
  BENCH_TRY(scale_b.from_host(sb));

  // The full-matrix reference: cuBLAS's bf16 GEMM of the dequantized inputs, exact in
  // bf16 (4 significant bits times 4), through the LLM suite's layouts.
  std::vector<tessera::bfloat16_t> a_deq(qa.size()), b_deq(qb.size());
  // Row-major M x K and N x K codes; each slice counts the values bf16 would round.
  std::vector<std::int64_t> inexact(2 * kSlices, 0);
  const std::vector<float>& value = e4m3_values();
  auto dequantize = [&](const std::vector<std::uint8_t>& q, std::vector<tessera::bfloat16_t>& out, bool is_a,
                        std::int64_t* counts) {
    parallel_slices(q.size(), [&](std::size_t begin, std::size_t end, std::size_t t) {
      std::int64_t n = 0;
      for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t row = std::int64_t(i) / K, k = std::int64_t(i) % K;
        const float v = value[q[i]] * (is_a ? a_scale(row, k) : b_scale(row, k));
        out[i] = tessera::bfloat16_t(v);
        n += float(out[i]) != v;
      }
      counts[t] = n;
    });
  };
  dequantize(qa, a_deq, true, inexact.data());
  dequantize(qb, b_deq, false, inexact.data() + kSlices);
  std::int64_t total_inexact = 0;
  for (std::int64_t n : inexact) total_inexact += n;
  if (total_inexact) return std::to_string(total_inexact) + " dequantized values are not exact in bf16";
  {
    DeviceBuffer<tessera::bfloat16_t> a_dev, b_dev;
    DeviceBuffer<float> d_ref;
    BENCH_TRY(a_dev.allocate(a_deq.size()));
    BENCH_TRY(b_dev.allocate(b_deq.size()));
    BENCH_TRY(d_ref.allocate(D.count));
    BENCH_TRY(a_dev.from_host(a_deq));
    BENCH_TRY(b_dev.from_host(b_deq));
    BENCH_TRY(fill_poison(d_ref));
    BENCH_TRY((run_blas<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(
        weights_layout_args(M, N, K, a_dev.ptr, b_dev.ptr, d_ref.ptr))));
    BENCH_TRY(d_ref.to_host(ref_host));
  }
  sampled = rows_f64(sample_rows(M, next_seed()), false, false);

  // Decode: the floor, checked (it read every byte) and then timed, median of 30.
  if (spec.floor) {
    floor_error = floor.measure(B.ptr, qb.data(), qb.size(), floor_seconds);
  }
  return {};
}

// cuBLASLt's 1 x 128 scales (VEC128_32F) need M a multiple of 4 (their leading dimension
// is M); such shapes do not register this baseline with block scales.
bool lt_takes_fp8_shape(const Fp8Spec& s) { return !s.block || s.M % 4 == 0; }

Error launch_fp8_cublaslt(Fp8Problem& p, ImplSlot& slot) {
  if (!lt_takes_fp8_shape(p.spec)) return "cuBLASLt block scales (VEC128_32F) need M a multiple of 4";
  return lt_run(slot, p.lt_spec(), p.B.ptr, p.A.ptr, p.D.ptr, 1.0f, 0.0f);
}

// The same with CUBLASLT_MATMUL_DESC_FAST_ACCUM: partial sums kept in the tensor core (per
// tensor only), the counterpart of Tessera's Accumulation::kFast.
Error launch_fp8_cublaslt_fast(Fp8Problem& p, ImplSlot& slot) {
  LtMatmulSpec s = p.lt_spec();
  s.fast_accumulation = true;
  return lt_run(slot, s, p.B.ptr, p.A.ptr, p.D.ptr, 1.0f, 0.0f);
}

// An implementation and the scale modes it is timed with.
struct Fp8Impl {
  Impl<Fp8Problem> impl;
  bool per_tensor = true, block = true;
};

#if TESSERA_BENCH_HAS_WGMMA
// Tessera's fp8 GEMM (WgmmaConfig with e4m3 A and B, bf16 D) on the suite's operands and
// scales, which are laid out as its scale modes read them (gemm/scale_mode.hpp): per tensor,
// one float each; block scales sa[kb * M + m] (ld M) and sb[nb * L4 + kb] (ld L4).
// The arguments of Tessera's fp8 GEMM G on the problem's operands and scales, D = alpha A B.
template <class G>
typename G::Args fp8_tessera_args(const Fp8Problem& p, float alpha = 1.0f) {
  using E8 = tessera::float8_e4m3_t;
  const Fp8Spec& s = p.spec;
  typename G::Args a{s.M, s.N, s.K, reinterpret_cast<const E8*>(p.A.ptr), s.K,
                     reinterpret_cast<const E8*>(p.B.ptr), s.K, nullptr, s.N, p.D.ptr, s.N, alpha, 0.0f};
  a.epilogue.a = {p.scale_a.ptr, s.block ? s.M : 0, std::int64_t(p.scale_a.count)};
  a.epilogue.b = {p.scale_b.ptr, s.block ? p.sb_ld : 0, std::int64_t(p.scale_b.count)};
  return a;
}

template <class TensorConfig, class BlockConfig>
Error launch_fp8_tessera(Fp8Problem& p, ImplSlot& slot) {
  auto go = [&](auto config) -> Error {
    using G = tessera::gemm::Gemm<decltype(config)>;
    return run_tessera<G>(fp8_tessera_args<G>(p), slot);
  };
  if (p.spec.block) {
    if constexpr (!std::is_void_v<BlockConfig>) return go(BlockConfig{});
  } else {
    if constexpr (!std::is_void_v<TensorConfig>) return go(TensorConfig{});
  }
  return "this Tessera variant does not take this scale mode";  // not registered so
}

template <class TensorConfig, class BlockConfig>
Fp8Impl tessera_fp8_impl(const std::string& name) {
  return {Impl<Fp8Problem>{name, 1000.0, &launch_fp8_tessera<TensorConfig, BlockConfig>},
          !std::is_void_v<TensorConfig>, !std::is_void_v<BlockConfig>};
}

template <class Scales, class Tile = tessera::GemmShape<128, 128, 128>,
          class Cluster = tessera::gemm::ClusterShape<1, 1>>
using Fp8Wgmma = tessera::gemm::WgmmaConfig<tessera::float8_e4m3_t, tessera::RowMajor, tessera::float8_e4m3_t,
                                            tessera::ColumnMajor, tessera::bfloat16_t, tessera::RowMajor,
                                            tessera::gemm::option::Tile<Tile>,
                                            tessera::gemm::option::Cluster<Cluster::kM, Cluster::kN>,
                                            tessera::gemm::option::Scales<Scales>>;
#endif

// The implementations of the fp8 suite, one line each, with the scale modes each takes.
std::vector<Fp8Impl> fp8_impls() {
  std::vector<Fp8Impl> impls = {{Impl<Fp8Problem>{"cublaslt", 1000.0, &launch_fp8_cublaslt}},
                                {Impl<Fp8Problem>{"cublaslt_fast", 1000.0, &launch_fp8_cublaslt_fast}, true, false}};
#if TESSERA_BENCH_HAS_WGMMA
  namespace scale = tessera::gemm::scale;
  using tessera::GemmShape;
  using tessera::gemm::Accumulation;
  // 128 x 128 x 128, Cooperative, promoted every 128 of K: per tensor and per block.
  impls.push_back(tessera_fp8_impl<Fp8Wgmma<scale::PerTensor>, Fp8Wgmma<scale::Blockwise>>("tessera_wgmma"));
  impls.push_back(tessera_fp8_impl<Fp8Wgmma<scale::PerTensor, GemmShape<128, 192, 128>>, void>("tessera_wgmma_n192"));
  impls.push_back(tessera_fp8_impl<Fp8Wgmma<scale::Fast<scale::PerTensor>, GemmShape<128, 256, 128>>, void>(
      "tessera_wgmma_fast"));
#endif
  return impls;
}

void register_fp8_suite() {
  const std::vector<Fp8Spec> shapes = {
      {4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048}, {4096, 14336, 4096},
      {4096, 7168, 18432}, {2048, 7168, 16384}, {64, 7168, 2048}, {16, 4096, 4096}, {1024, 1024, 1024},
  };
  for (bool block : {false, true}) {
    for (Fp8Spec s : shapes) {
      s.block = block;
      for (const Fp8Impl& f : fp8_impls()) {
        if (!(block ? f.block : f.per_tensor)) continue;
        register_benchmark<Fp8Problem>(block ? "fp8_block" : "fp8_tensor", s.shape(), f.impl, s,
                                       s.flops() / (f.impl.tflops_guess * 1e12));
      }
    }
  }
  benchmark::AddCustomContext("fp8_suite", "e4m3 A (row-major MxK) and B (W[N][K]), bf16 D, fp32 accumulation; "
                                           "cuBLASLt per-tensor scales, and block scales A 1x128 VEC128_32F "
                                           "(sa[kb*M+m]) x B 128x128 BLK128x128_32F (sb[nb*L4+kb])");
}

}  // namespace

#endif  // TESSERA_CUDA
