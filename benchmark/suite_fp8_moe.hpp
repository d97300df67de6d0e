// The fp8moe suite of tessera_bench: fp8 where a mixture-of-experts model spends it. e4m3 x
// e4m3 -> bf16, fp32 accumulation, block scales (A per 1 x 128 per token, B per 128 x 128 per
// expert, DeepSeek-V3's scheme) unless a group says "tensor". Four parts:
//
//  fp8moe_grouped/<impl>/<E>e_zipf_<rows>xNxK    (prefill: the contiguous MoE layout)
//    tessera_grouped  Tessera's grouped fp8 GEMM, scheduler::Grouped<group_layout::Contiguous>
//    cublaslt_loop    one cuBLASLt block-scaled fp8 call per expert with rows, back to back on
//                     the stream, timed together as one iteration (the goal: tessera_grouped
//                     >= 2x this)
//    dense_tessera    one dense Tessera fp8 GEMM of all the rows (M = total rows, one expert's
//                     weights): the floor the goal compares with (tessera_grouped >= 0.95x this)
//    dense_cublaslt   the same dense GEMM through cuBLASLt, for reference
//  Problems: 64 experts, 32768 rows (4096 tokens routed top-8), and 8 experts, 8192 rows;
//  each with N = 4096, K = 7168 (gate+up of DeepSeek-V3's experts) and N = 7168, K = 2048
//  (down). Sizes: a multinomial draw of the rows over the experts with Zipf weights
//  1/(rank+1)^0.5, the ranks a random permutation of the experts (mt19937_64 seeded with
//  experts * 1000 + 1, Fisher-Yates by gen() % (i + 1); each row by inverse CDF of
//  (gen() >> 11) 2^-53): the hottest of 64 experts gets ~4x the mean, the coldest ~0.5x.
//  (Routing draws distinct experts per token; the draw here is per row, which only matters
//  past 4096 rows per expert, far above these sizes.) The sizes are in the JSON context
//  (fp8moe_sizes_<name>) and each label. 64e_zipf_a128: the 64-expert draw with each expert's
//  rows rounded up to a multiple of 128, as DeepGEMM's contiguous layout requires of its
//  callers: no unit holds a partial tile, so grouped / dense (of the padded rows) measures what
//  the groups cost beside the padding.
//
//  fp8moe_masked/<impl>/<E>e_<how>_max<R>_<rows>xNxK    (decode: the masked layout)
//    tessera_masked   scheduler::Grouped<group_layout::Masked>: expert g's rows are the first
//                     group_rows[g] of its slab of R rows; 64 x 128 tiles, Pingpong
//    tessera_masked_128  the same with the contiguous layout's 128 x 128 Cooperative tiles
//    cublaslt_loop    as above, one call per expert on its slab
//    floor            a streaming read of every expert's weights once (stream_floor.hpp), the
//                     bound a decode MoE layer cannot beat; every benchmark of the group
//                     carries weights_GB/s and floor_fraction (floor's median time / its
//                     own; the goal: tessera_masked >= 0.8)
//  Problems: 64 experts x 32 rows each, R = 32 ("32t"), and 64 experts with 2048 rows drawn
//  uniformly (multinomial, mean 32), R = 64 ("uniform"); N x K = 4096 x 7168 and 7168 x 2048.
//
//  fp8moe_gelu_bias_block/<impl>/MxNxK, fp8moe_gelu_bias_tensor/...    (a fused epilogue)
//    tessera_gelu_bias  option::Epilogue<Compose<LinearCombination, ColumnBias<bf16>, GeluTanh>>:
//                       D = GELU(alpha acc + bias[n]), acc carrying A's and B's scales
//    plain_tessera      Tessera's fp8 GEMM (the fp8 suite's tessera_wgmma), D = alpha acc
//    cublaslt           cuBLASLt fp8 with CUBLASLT_EPILOGUE_GELU_BIAS (bias bf16, D's type).
//                       Whether cuBLASLt has such a kernel for e4m3 with block (or tensor)
//                       scales its heuristic says on the device: one that proposes nothing
//                       skips the benchmark with "cuBLASLt proposed no algorithm" (not known
//                       here: no GPU where this was written)
//    plain_cublaslt     cuBLASLt fp8, D = alpha acc
//  4096^3 and 8192^3 with block scales, 4096^3 per tensor. alpha is the power of two nearest
//  1 / rms(acc) over the float64 rows, so that the pre-activations are about unit normal,
//  where GELU differs from the identity and from ReLU; the bias is uniform in [-1, 1).
//
//  fp8moe_decode_block/<impl>/MxNxK, fp8moe_decode_tensor/...          (split K, small M)
//    tessera_streamk   Tessera's fp8 GEMM with scheduler::StreamK<> (Fp8DecodeTile below)
//    tessera_split     gemm::WgmmaFp8SmallM, D^T = B^T A^T with K split over a
//                      cluster, 128 weight rows x 16, 32 or 64 tokens a tile (the narrowest >= M)
//    tessera_wgmma     the fp8 suite's 128 x 128 x 128 data-parallel configuration
//    cublaslt          cuBLASLt fp8 (block scales only where M is a multiple of 4: its 1 x 128
//                      scales' leading dimension is M, which it requires so)
//    floor             the streaming read of W's bytes; weights_GB/s and floor_fraction as above
//  M = 1, 16, 32, 64 with N x K = 7168 x 2048 and 4096 x 4096.
//
// Layouts as in the fp8 suite (suite_fp8.hpp): A row-major (tokens x K), each expert's
// W[N][K] (K-major; B is [experts][N][K]), D row-major. Block scales, Tessera's layouts
// (gemm/scale_mode.hpp):
//   contiguous: A's [kb][ld_a] over the whole A's rows (ld_a = rows rounded up to 4);
//   masked:     expert g's at scale_a + g * (K/128 * R), each [kb][R];
//   both:       expert g's B scales at scale_b + g * (N/128 * L4), each [nb][L4] (L4 = K/128
//               rounded up to 4), which is also cuBLASLt's BLK128x128_32F layout.
// cuBLASLt's 1 x 128 scales (VEC128_32F) have no leading dimension of their own (it is the
// call's M) and M must be a multiple of 4, so the loop gives each call its own copy of its
// rows' scales ([kb][m4], m4 = the expert's rows rounded up to 4), made when the problem is
// set up (a real MoE layer's quantization kernel would write them so), and runs each expert
// on m4 rows: in the contiguous layout the up to 3 extra rows are the next expert's first
// tokens (their outputs are overwritten by the next expert's call, which comes later on the
// same stream; A and D have 4 spare rows at the end for the last expert), in the masked
// layout spare rows of the expert's own slab (R is a multiple of 4).
//
// Inputs and checks as in the fp8 suite: random e4m3 codes of values in [-2, 2), never 0,
// scales with 4 significant bits (every dequantized value exact in bf16); each output, on a
// poisoned D, against float64 of the decoded inputs on sampled rows (grouped: the first and
// last row of four experts: the first and last with rows, the largest, a random one) and
// against cuBLAS's bf16 GEMM (fp32 D) of the dequantized inputs, expert by expert, over every
// valid row (the masked layout's unused slab rows are not judged), within fp8_tolerance(K).
// CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <cublasLt.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "stream_floor.hpp"
#include "suite_epilogue.hpp"  // gelu_tanh
#include "suite_fp8.hpp"
#include "suite_grouped.hpp"  // join
#include "tessera_variants.hpp"
#include "vendor_blas.hpp"
#include "vendor_blas_lt.hpp"

// Tessera's entries need the wgmma family's grouped fp8, fused fp8 epilogue and fp8 stream-K
// (branch fp8-moe); -DTESSERA_BENCH_HAS_FP8_MOE=0 builds the suite with the baselines only.
#if !defined(TESSERA_BENCH_HAS_FP8_MOE)
#define TESSERA_BENCH_HAS_FP8_MOE TESSERA_BENCH_HAS_WGMMA
#endif

namespace {

// ---- Tessera's configurations (each one costs compile time: few) ----------------------------

#if TESSERA_BENCH_HAS_FP8_MOE
namespace fp8moe {
using tessera::bfloat16_t;
using tessera::GemmShape;
using E8 = tessera::float8_e4m3_t;
namespace gemm = tessera::gemm;

template <class... Options>
using Fp8Config = gemm::WgmmaConfig<E8, tessera::RowMajor, E8, tessera::ColumnMajor, bfloat16_t, tessera::RowMajor,
                                    Options...>;

// Grouped (both layouts): 128 x 128 x 128 unless given, block scales.
using GroupedTile = GemmShape<128, 128, 128>;
template <class Layout, class Tile = GroupedTile, class... Options>
using Grouped = gemm::Gemm<Fp8Config<gemm::option::Tile<Tile>, gemm::option::Scales<gemm::scale::Blockwise>,
                                     gemm::option::Scheduler<gemm::scheduler::Grouped<Layout>>, Options...>>;
using GroupedContiguous = Grouped<gemm::group_layout::Contiguous>;
using GroupedMasked = Grouped<gemm::group_layout::Masked>;
// Masked (decode: 64 or fewer rows an expert): 64-row tiles, Pingpong (GroupedMasked: 128 rows,
// the contiguous layout's tile, for comparison).
using GroupedMasked64 = Grouped<gemm::group_layout::Masked, GemmShape<64, 128, 128>,
                                gemm::option::Schedule<tessera::schedule::Pingpong>>;

// Fused bias + GELU (tanh): the plain configuration's tile (the fp8 suite's Fp8Wgmma).
using GeluBias = gemm::Compose<gemm::LinearCombination, gemm::ColumnBias<bfloat16_t>, gemm::GeluTanh>;
template <class Scales>
using GeluBiasConfig = Fp8Config<gemm::option::Tile<GemmShape<128, 128, 128>>, gemm::option::Scales<Scales>,
                                 gemm::option::Epilogue<GeluBias>>;

// Decode: stream-K over a small-M tile. The one place to change the tile.
using Fp8DecodeTile = GemmShape<64, 128, 128>;
template <class Scales>
using DecodeConfig = Fp8Config<gemm::option::Tile<Fp8DecodeTile>, gemm::option::Scales<Scales>,
                               gemm::option::Scheduler<gemm::scheduler::StreamK<>>>;
// Decode: the transposed K split over a cluster (gemm/select/small_m.hpp), 128 weight rows x
// kTileM tokens a tile.
template <class Scales, int kTileM>
using DecodeSplit = gemm::WgmmaFp8SmallM<E8, E8, bfloat16_t, Scales, kTileM>;
}  // namespace fp8moe
#endif

// ---- sizes ---------------------------------------------------------------------------------

// `rows` rows drawn one by one over `experts` experts with weights 1/(rank+1)^s, the ranks a
// random permutation of the experts (see the top of the file); s = 0: uniform.
std::vector<std::int64_t> zipf_sizes(int experts, std::int64_t rows, double s, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<int> rank(std::size_t(experts), 0);
  std::iota(rank.begin(), rank.end(), 0);
  for (int i = experts - 1; i > 0; --i) std::swap(rank[std::size_t(i)], rank[std::size_t(gen() % std::uint64_t(i + 1))]);
  std::vector<double> cdf(static_cast<std::size_t>(experts), 0.0);
  double total = 0.0;
  for (int e = 0; e < experts; ++e) cdf[std::size_t(e)] = total += std::pow(double(rank[std::size_t(e)] + 1), -s);
  std::vector<std::int64_t> sizes(std::size_t(experts), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    const double u = double(gen() >> 11) * 0x1p-53 * total;
    const std::size_t e = std::size_t(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    ++sizes[std::min(e, sizes.size() - 1)];
  }
  return sizes;
}

std::int64_t round_up4(std::int64_t x) { return (x + 3) / 4 * 4; }

// Each expert's rows rounded up to a multiple of `step` (the padded rows are ordinary rows of A).
std::vector<std::int64_t> rounded_up(std::vector<std::int64_t> sizes, std::int64_t step) {
  for (auto& s : sizes) s = (s + step - 1) / step * step;
  return sizes;
}

// ---- the grouped problem (both layouts) ------------------------------------------------------

struct Fp8MoeSpec {
  std::string name;                 // "64e_zipf", "64e_32t_max32", ...
  std::vector<std::int64_t> sizes;  // rows per expert
  std::int64_t N = 0, K = 0;
  std::int64_t max_rows = 0;  // masked layout: each expert's slab of rows (0: the contiguous layout)
  bool masked() const { return max_rows > 0; }
  std::int64_t experts() const { return std::int64_t(sizes.size()); }
  std::int64_t total() const { return std::accumulate(sizes.begin(), sizes.end(), std::int64_t(0)); }
  std::int64_t rows() const { return masked() ? experts() * max_rows : total(); }  // A's and D's rows
  std::string label() const {
    return name + "_" + std::to_string(total()) + "x" + std::to_string(N) + "x" + std::to_string(K);
  }
  double flops() const { return 2.0 * double(total()) * double(N) * double(K); }
  std::string key() const { return "fp8moe/" + label() + "/" + std::to_string(max_rows) + "/" + join(sizes); }
};

struct Fp8MoeProblem : ProblemBase {
  using Spec = Fp8MoeSpec;
  static constexpr std::int64_t kSpareRows = 4;  // after A's and D's rows: the cuBLASLt loop's last call
  Fp8MoeSpec spec;
  std::int64_t k_blocks = 0, n_blocks = 0, sb_ld = 0, sa_ld = 0;
  std::vector<std::int64_t> first_row;  // expert e's first row of A and D
  std::vector<std::uint8_t> qa, qb;     // codes: A (rows() + spare rows) x K, B [experts][N][K]
  std::vector<float> sa, sb;            // Tessera's layouts (the top of the file)
  DeviceBuffer<std::uint8_t> A, B;
  DeviceBuffer<float> scale_a, scale_b;
  DeviceBuffer<std::int32_t> group_ends, group_rows;
  DeviceBuffer<tessera::bfloat16_t> D;
  std::vector<std::int64_t> valid_rows;  // the rows of D that hold an answer, in order
  std::vector<float> ref_host;           // those rows (valid_rows.size() x N) from cuBLAS
  SampledRows sampled;                   // float64; rows are indices into valid_rows
  // The cuBLASLt loop: one call per expert with rows, on round_up4(rows) rows from row0.
  struct LtCall {
    std::int64_t expert, row0, rows;
    std::size_t scale_offset;  // its A scales in lt_scale_a: [kb][rows]
  };
  std::vector<LtCall> lt_calls;
  DeviceBuffer<float> lt_scale_a;
  // Masked (decode): the streaming read of every expert's weights.
  double floor_seconds = 0.0;
  Error floor_error;
  StreamFloor floor;

  explicit Fp8MoeProblem(const Fp8MoeSpec& s) : spec(s) {}

  std::int64_t expert_of(std::int64_t row) const {  // the expert a valid row belongs to
    if (spec.masked()) return row / spec.max_rows;
    return std::int64_t(std::upper_bound(first_row.begin(), first_row.end(), row) - first_row.begin()) - 1;
  }
  std::size_t a_scale_index(std::int64_t row, std::int64_t kb) const {
    if (!spec.masked()) return std::size_t(kb * sa_ld + row);
    const std::int64_t e = row / spec.max_rows;
    return std::size_t(e * k_blocks * spec.max_rows + kb * spec.max_rows + row % spec.max_rows);
  }
  float b_scale(std::int64_t e, std::int64_t n, std::int64_t kb) const {
    return sb[std::size_t((e * n_blocks + n / kFp8Block) * sb_ld + kb)];
  }
  std::int64_t experts_with_rows() const {
    return std::int64_t(std::count_if(spec.sizes.begin(), spec.sizes.end(), [](std::int64_t m) { return m > 0; }));
  }
  double weight_bytes() const { return double(experts_with_rows()) * double(spec.N) * double(spec.K); }

  Error build();

  Error check(const Impl<Fp8MoeProblem>& impl, ImplSlot& slot) {
    if (impl.is_floor) return floor_seconds > 0.0 ? Error{} : floor_error;
    BENCH_TRY(fill_poison(D));
    std::vector<tessera::bfloat16_t> out, valid(valid_rows.size() * std::size_t(spec.N));
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    for (std::size_t r = 0; r < valid_rows.size(); ++r)
      std::copy_n(out.begin() + valid_rows[r] * spec.N, spec.N, valid.begin() + std::ptrdiff_t(r) * spec.N);
    return judge_output<tessera::RowMajor>(std::int64_t(valid_rows.size()), spec.N, valid, spec.N, ref_host,
                                           "cuBLAS bf16 GEMM (fp32 D) of the dequantized inputs, per expert",
                                           sampled, fp8_tolerance(spec.K));
  }
  double flops(const Impl<Fp8MoeProblem>& impl) const { return impl.is_floor ? 0.0 : spec.flops(); }
  // The weights of every expert with rows, the valid rows of A and D once, the scales.
  double bytes(const Impl<Fp8MoeProblem>& impl) const {
    if (impl.is_floor) return double(B.count);
    return weight_bytes() + double(spec.total()) * double(spec.K + 2 * spec.N) +
           4.0 * double(scale_a.count + scale_b.count);
  }
  void add_counters(benchmark::State& state, const Impl<Fp8MoeProblem>&, double seconds) const {
    if (!spec.masked()) return;
    state.counters["weights_GB/s"] = benchmark::Counter(weight_bytes() / seconds / 1e9);
    if (floor_seconds > 0.0) state.counters["floor_fraction"] = benchmark::Counter(floor_seconds / seconds);
  }
  std::string label(const Impl<Fp8MoeProblem>& impl) const {
    if (impl.is_floor) return "streaming read of every expert's W (" + std::to_string(B.count >> 20) + " MiB)";
    return std::to_string(spec.experts()) + " experts" +
           (spec.masked() ? ", masked, slabs of " + std::to_string(spec.max_rows) : std::string(", contiguous")) +
           ", rows " + join(spec.sizes);
  }
};

Error Fp8MoeProblem::build() {
  const std::int64_t E = spec.experts(), N = spec.N, K = spec.K, rows = spec.rows();
  for (std::int64_t m : spec.sizes) {
    if (m < 0 || (spec.masked() && m > spec.max_rows)) return "an expert size outside [0, max_rows]";
  }
  if (spec.masked() && spec.max_rows % 4 != 0) return "max_rows must be a multiple of 4 (the cuBLASLt loop)";
  if (experts_with_rows() == 0) return "no expert has rows";
  k_blocks = (K + kFp8Block - 1) / kFp8Block;
  n_blocks = (N + kFp8Block - 1) / kFp8Block;
  sb_ld = (k_blocks + 3) / 4 * 4;
  sa_ld = round_up4(rows);
  for (std::int64_t e = 0, off = 0; e < E; ++e) {
    first_row.push_back(spec.masked() ? e * spec.max_rows : off);
    off += spec.sizes[std::size_t(e)];
  }
  for (std::int64_t e = 0; e < E; ++e)
    for (std::int64_t i = 0; i < spec.sizes[std::size_t(e)]; ++i) valid_rows.push_back(first_row[std::size_t(e)] + i);
  {
    std::vector<std::int32_t> ends, counts;
    for (std::int64_t e = 0; e < E; ++e) {
      ends.push_back(std::int32_t(first_row[std::size_t(e)] + spec.sizes[std::size_t(e)]));
      counts.push_back(std::int32_t(spec.sizes[std::size_t(e)]));
    }
    BENCH_TRY(group_ends.allocate(ends.size()));
    BENCH_TRY(group_ends.from_host(ends));
    BENCH_TRY(group_rows.allocate(counts.size()));
    BENCH_TRY(group_rows.from_host(counts));
  }

  // Codes (A's spare rows 0) and scales, on the host.
  const std::uint64_t seed_a = next_seed(), seed_b = next_seed(), seed_s = next_seed();
  qa.assign(std::size_t((rows + kSpareRows) * K), 0);
  qb.resize(std::size_t(E * N * K));
  parallel_slices(std::size_t(rows * K), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) qa[i] = random_e4m3(seed_a, i);
  });
  parallel_slices(qb.size(), [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) qb[i] = random_e4m3(seed_b, i);
  });
  sa.resize(spec.masked() ? std::size_t(E * k_blocks * spec.max_rows) : std::size_t(k_blocks * sa_ld));
  for (std::size_t i = 0; i < sa.size(); ++i) sa[i] = random_scale(splitmix64(seed_s ^ (2 * i)));
  sb.assign(std::size_t(E * n_blocks * sb_ld), 1.0f);  // padding (K blocks past the last) stays 1
  for (std::int64_t e = 0; e < E; ++e)
    for (std::int64_t nb = 0; nb < n_blocks; ++nb)
      for (std::int64_t kb = 0; kb < k_blocks; ++kb) {
        const std::size_t i = std::size_t((e * n_blocks + nb) * sb_ld + kb);
        sb[i] = random_scale(splitmix64(seed_s ^ (2 * i + 1)));
      }
  BENCH_TRY(A.allocate(qa.size()));
  BENCH_TRY(B.allocate(qb.size()));
  BENCH_TRY(scale_a.allocate(sa.size()));
  BENCH_TRY(scale_b.allocate(sb.size()));
  BENCH_TRY(D.allocate(std::size_t((rows + kSpareRows) * N)));
  BENCH_TRY(A.from_host(qa));
  BENCH_TRY(B.from_host(qb));
  BENCH_TRY(scale_a.from_host(sa));
  BENCH_TRY(scale_b.from_host(sb));

  // The cuBLASLt loop's calls and their own copies of A's scales (spare rows: scale 1).
  {
    std::vector<float> lt_sa;
    for (std::int64_t e = 0; e < E; ++e) {
      const std::int64_t m = spec.sizes[std::size_t(e)];
      if (m == 0) continue;
      const LtCall call{e, first_row[std::size_t(e)], round_up4(m), lt_sa.size()};
      for (std::int64_t kb = 0; kb < k_blocks; ++kb)
        for (std::int64_t i = 0; i < call.rows; ++i) lt_sa.push_back(i < m ? sa[a_scale_index(call.row0 + i, kb)] : 1.0f);
      lt_calls.push_back(call);
    }
    BENCH_TRY(lt_scale_a.allocate(lt_sa.size()));
    BENCH_TRY(lt_scale_a.from_host(lt_sa));
  }

  // The full reference: cuBLAS's bf16 GEMM (fp32 D) of the dequantized inputs (exact in
  // bf16), expert by expert, each expert's weights dequantized and uploaded in turn.
  const std::vector<float>& value = e4m3_values();
  std::vector<std::int64_t> inexact(kSlices, 0);
  {
    using tessera::bfloat16_t;
    std::vector<bfloat16_t> a_deq(std::size_t(rows * K)), w_deq(std::size_t(N * K));
    parallel_slices(a_deq.size(), [&](std::size_t begin, std::size_t end, std::size_t t) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t row = std::int64_t(i) / K, kb = (std::int64_t(i) % K) / kFp8Block;
        const float v = value[qa[i]] * sa[a_scale_index(row, kb)];
        a_deq[i] = bfloat16_t(v);
        inexact[t] += float(a_deq[i]) != v;
      }
    });
    DeviceBuffer<bfloat16_t> a_dev, w_dev;
    DeviceBuffer<float> d_ref;
    BENCH_TRY(a_dev.allocate(a_deq.size()));
    BENCH_TRY(w_dev.allocate(w_deq.size()));
    BENCH_TRY(d_ref.allocate(std::size_t(rows * N)));
    BENCH_TRY(a_dev.from_host(a_deq));
    BENCH_TRY(fill_poison(d_ref));
    for (std::int64_t e = 0; e < E; ++e) {
      const std::int64_t m = spec.sizes[std::size_t(e)];
      if (m == 0) continue;
      parallel_slices(w_deq.size(), [&](std::size_t begin, std::size_t end, std::size_t t) {
        for (std::size_t i = begin; i < end; ++i) {
          const std::int64_t n = std::int64_t(i) / K, kb = (std::int64_t(i) % K) / kFp8Block;
          const float v = value[qb[std::size_t(e * N * K) + i]] * b_scale(e, n, kb);
          w_deq[i] = bfloat16_t(v);
          inexact[t] += float(w_deq[i]) != v;
        }
      });
      BENCH_TRY(w_dev.from_host(w_deq));  // waits for the previous expert's GEMM (same stream)
      const std::int64_t r0 = first_row[std::size_t(e)];
      BENCH_TRY((run_blas<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(
          weights_layout_args(m, N, K, a_dev.ptr + r0 * K, w_dev.ptr, d_ref.ptr + r0 * N))));
    }
    std::vector<float> all;
    BENCH_TRY(d_ref.to_host(all));
    ref_host.resize(valid_rows.size() * std::size_t(N));
    for (std::size_t r = 0; r < valid_rows.size(); ++r)
      std::copy_n(all.begin() + valid_rows[r] * N, N, ref_host.begin() + std::ptrdiff_t(r) * N);
  }
  std::int64_t total_inexact = 0;
  for (std::int64_t n : inexact) total_inexact += n;
  if (total_inexact) return std::to_string(total_inexact) + " dequantized values are not exact in bf16";

  // float64: the first and last row of the first and last experts with rows, the largest
  // and a random one.
  {
    std::vector<std::int64_t> with_rows;
    for (std::int64_t e = 0; e < E; ++e)
      if (spec.sizes[std::size_t(e)] > 0) with_rows.push_back(e);
    std::mt19937_64 gen(next_seed());
    const std::int64_t largest =
        std::int64_t(std::max_element(spec.sizes.begin(), spec.sizes.end()) - spec.sizes.begin());
    std::vector<std::int64_t> experts = {with_rows.front(), with_rows.back(), largest,
                                         with_rows[std::size_t(gen() % with_rows.size())]};
    std::sort(experts.begin(), experts.end());
    experts.erase(std::unique(experts.begin(), experts.end()), experts.end());
    for (std::int64_t e : experts) {
      const std::int64_t first = first_row[std::size_t(e)], last = first + spec.sizes[std::size_t(e)] - 1;
      for (std::int64_t row : {first, last}) {
        const std::int64_t index =
            std::int64_t(std::lower_bound(valid_rows.begin(), valid_rows.end(), row) - valid_rows.begin());
        if (sampled.rows.empty() || sampled.rows.back() != index) sampled.rows.push_back(index);
      }
    }
    sampled.values.assign(sampled.rows.size() * std::size_t(N), 0.0);
    parallel_for(sampled.rows.size(), [&](std::size_t r) {
      const std::int64_t row = valid_rows[std::size_t(sampled.rows[r])], e = expert_of(row);
      for (std::int64_t j = 0; j < N; ++j) {
        double sum = 0.0;
        for (std::int64_t k0 = 0; k0 < K; k0 += kFp8Block) {
          double part = 0.0;
          for (std::int64_t k = k0; k < std::min(k0 + kFp8Block, K); ++k) {
            part += double(value[qa[std::size_t(row * K + k)]]) * double(value[qb[std::size_t((e * N + j) * K + k)]]);
          }
          sum += part * double(sa[a_scale_index(row, k0 / kFp8Block)]) * double(b_scale(e, j, k0 / kFp8Block));
        }
        sampled.values[r * std::size_t(N) + std::size_t(j)] = sum;
      }
    });
  }

  // Decode (masked): the floor over every expert's weights, checked, then timed (median of 30).
  if (spec.masked()) {
    floor_error = floor.measure(B.ptr, qb.data(), qb.size(), floor_seconds);
  }
  return {};
}

// One cuBLASLt block-scaled fp8 call per expert with rows (the calls in row order, so that a
// call's spare rows are rewritten by the next expert's), each with its own plan.
Error launch_moe_cublaslt_loop(Fp8MoeProblem& p, ImplSlot& slot) {
  if (!slot.state) slot.state = std::make_shared<std::vector<ImplSlot>>(p.lt_calls.size());
  auto& slots = *std::static_pointer_cast<std::vector<ImplSlot>>(slot.state);
  const std::int64_t N = p.spec.N, K = p.spec.K;
  for (std::size_t c = 0; c < p.lt_calls.size(); ++c) {
    const Fp8MoeProblem::LtCall& call = p.lt_calls[c];
    const LtMatmulSpec s = fp8_lt_spec(call.rows, N, K, true, p.lt_scale_a.ptr + call.scale_offset,
                                       p.scale_b.ptr + call.expert * p.n_blocks * p.sb_ld);
    BENCH_TRY(lt_run(slots[c], s, p.B.ptr + call.expert * N * K, p.A.ptr + call.row0 * K, p.D.ptr + call.row0 * N,
                     1.0f, 0.0f));
  }
  return {};
}

#if TESSERA_BENCH_HAS_FP8_MOE
// Tessera's grouped fp8 GEMM on the problem: M = A's rows (contiguous: every expert's; masked:
// one slab), the sizes in device memory, the scales as at the top of the file.
template <class G>
Error launch_moe_tessera(Fp8MoeProblem& p, ImplSlot& slot) {
  using E8 = tessera::float8_e4m3_t;
  const Fp8MoeSpec& s = p.spec;
  typename G::Args a{s.masked() ? s.max_rows : s.rows(), s.N, s.K, reinterpret_cast<const E8*>(p.A.ptr), s.K,
                     reinterpret_cast<const E8*>(p.B.ptr), s.K, nullptr, s.N, p.D.ptr, s.N, 1.0f, 0.0f};
  a.problems.count = s.experts();
  a.problems.stride_b = s.N * s.K;
  if (s.masked()) {
    a.problems.stride_a = s.max_rows * s.K;
    a.problems.stride_d = s.max_rows * s.N;
    a.problems.group_rows = p.group_rows.ptr;
    a.epilogue.a = {p.scale_a.ptr, s.max_rows, std::int64_t(p.scale_a.count), p.k_blocks * s.max_rows};
  } else {
    a.problems.group_ends = p.group_ends.ptr;
    a.epilogue.a = {p.scale_a.ptr, p.sa_ld, std::int64_t(p.scale_a.count), 0};
  }
  a.epilogue.b = {p.scale_b.ptr, p.sb_ld, std::int64_t(p.scale_b.count), p.n_blocks * p.sb_ld};
  return run_tessera<G>(a, slot);
}
#endif

std::vector<Impl<Fp8MoeProblem>> fp8_moe_grouped_impls(bool masked) {
  std::vector<Impl<Fp8MoeProblem>> impls;
#if TESSERA_BENCH_HAS_FP8_MOE
  if (masked) {
    impls.push_back({"tessera_masked", 800.0, &launch_moe_tessera<fp8moe::GroupedMasked64>});
    impls.push_back({"tessera_masked_128", 800.0, &launch_moe_tessera<fp8moe::GroupedMasked>});
  } else {
    impls.push_back({"tessera_grouped", 1000.0, &launch_moe_tessera<fp8moe::GroupedContiguous>});
  }
#endif
  impls.push_back({"cublaslt_loop", masked ? 300.0 : 700.0, &launch_moe_cublaslt_loop});
  if (masked) {
    Impl<Fp8MoeProblem> f{"floor", 0.0, nullptr};
    f.launch = [](Fp8MoeProblem& p, ImplSlot&) -> Error {
      if (!p.floor_error.empty()) return p.floor_error;
      return p.floor.launch();
    };
    f.is_floor = true;
    impls.push_back(f);
  }
  return impls;
}

// ---- fp8 with a fused bias + GELU --------------------------------------------------------------

struct Fp8EpilogueProblem : Fp8Problem {
  float alpha = 1.0f;
  DeviceBuffer<tessera::bfloat16_t> bias;
  std::vector<float> fused_ref;  // GELU(alpha acc + bias) from the fp32 reference; ref_host becomes alpha acc
  SampledRows fused_rows;        // likewise; `sampled` becomes alpha acc

  explicit Fp8EpilogueProblem(const Fp8Spec& s) : Fp8Problem(s) {}
  static bool is_plain(const Impl<Fp8EpilogueProblem>& impl) { return impl.name.rfind("plain_", 0) == 0; }

  Error build() {
    BENCH_TRY(Fp8Problem::build());
    const std::int64_t N = spec.N;
    double squares = 0.0;
    for (double v : sampled.values) squares += v * v;
    const double rms = std::sqrt(squares / double(std::max<std::size_t>(sampled.values.size(), 1)));
    alpha = rms > 0.0 ? std::ldexp(1.0f, -int(std::lround(std::log2(rms)))) : 1.0f;  // a power of two: exact
    BENCH_TRY(bias.allocate(std::size_t(N)));
    BENCH_TRY(fill_random(bias, next_seed()));
    std::vector<tessera::bfloat16_t> b;
    BENCH_TRY(bias.to_host(b));
    for (float& v : ref_host) v *= alpha;
    for (double& v : sampled.values) v *= double(alpha);
    fused_ref.resize(ref_host.size());
    for (std::size_t i = 0; i < ref_host.size(); ++i)
      fused_ref[i] = float(gelu_tanh(double(ref_host[i]) + double(float(b[i % std::size_t(N)]))));
    fused_rows = sampled;
    for (std::size_t i = 0; i < fused_rows.values.size(); ++i)
      fused_rows.values[i] = gelu_tanh(fused_rows.values[i] + double(float(b[i % std::size_t(N)])));
    return {};
  }

  Error check(const Impl<Fp8EpilogueProblem>& impl, ImplSlot& slot) {
    BENCH_TRY(fill_poison(D));
    std::vector<tessera::bfloat16_t> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    const bool plain = is_plain(impl);
    return judge_output<tessera::RowMajor>(
        spec.M, spec.N, out, spec.N, plain ? ref_host : fused_ref,
        plain ? "alpha x cuBLAS bf16 GEMM (fp32 D) of the dequantized inputs"
              : "GELU(alpha x cuBLAS bf16 GEMM (fp32 D) of the dequantized inputs + bias) on the host",
        plain ? sampled : fused_rows, fp8_tolerance(spec.K));
  }
  double flops(const Impl<Fp8EpilogueProblem>&) const { return spec.flops(); }
  double bytes(const Impl<Fp8EpilogueProblem>& impl) const {
    return double(A.count + B.count) + double(scale_a.count + scale_b.count) * 4.0 +
           double(D.count + (is_plain(impl) ? 0 : bias.count)) * 2.0;
  }
  void add_counters(benchmark::State&, const Impl<Fp8EpilogueProblem>&, double) const {}
  std::string label(const Impl<Fp8EpilogueProblem>& impl) const {
    return std::string("e4m3 x e4m3 -> bf16, ") + (spec.block ? "block" : "per-tensor") + " scales, D = " +
           (is_plain(impl) ? "alpha A B" : "GELU(alpha A B + bias)") + ", alpha = " + std::to_string(alpha);
  }
};

Error launch_fp8_gelu_bias_cublaslt(Fp8EpilogueProblem& p, ImplSlot& slot) {
  if (!lt_takes_fp8_shape(p.spec)) return "cuBLASLt block scales (VEC128_32F) need M a multiple of 4";
  LtMatmulSpec s = p.lt_spec();
  s.epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
  s.bias = p.bias.ptr;  // one per row of cuBLASLt's D = per column of ours; bf16 (D's type)
  return lt_run(slot, s, p.B.ptr, p.A.ptr, p.D.ptr, p.alpha, 0.0f);
}

Error launch_fp8_plain_cublaslt(Fp8EpilogueProblem& p, ImplSlot& slot) {
  if (!lt_takes_fp8_shape(p.spec)) return "cuBLASLt block scales (VEC128_32F) need M a multiple of 4";
  return lt_run(slot, p.lt_spec(), p.B.ptr, p.A.ptr, p.D.ptr, p.alpha, 0.0f);
}

#if TESSERA_BENCH_HAS_WGMMA
// The fp8 suite's tessera_wgmma with alpha (the same configurations: no new kernels).
Error launch_fp8_plain_tessera(Fp8EpilogueProblem& p, ImplSlot& slot) {
  namespace scale = tessera::gemm::scale;
  auto go = [&](auto config) -> Error {
    using G = tessera::gemm::Gemm<decltype(config)>;
    return run_tessera<G>(fp8_tessera_args<G>(p, p.alpha), slot);
  };
  return p.spec.block ? go(Fp8Wgmma<scale::Blockwise>{}) : go(Fp8Wgmma<scale::PerTensor>{});
}
#endif

#if TESSERA_BENCH_HAS_FP8_MOE
Error launch_fp8_gelu_bias_tessera(Fp8EpilogueProblem& p, ImplSlot& slot) {
  namespace scale = tessera::gemm::scale;
  auto go = [&](auto config) -> Error {
    using G = tessera::gemm::Gemm<decltype(config)>;
    typename G::Args a = fp8_tessera_args<G>(p, p.alpha);
    a.epilogue.then = {{}, {p.bias.ptr}, {}};  // LinearCombination, ColumnBias, GeluTanh
    return run_tessera<G>(a, slot);
  };
  return p.spec.block ? go(fp8moe::GeluBiasConfig<scale::Blockwise>{})
                      : go(fp8moe::GeluBiasConfig<scale::PerTensor>{});
}
#endif

std::vector<Impl<Fp8EpilogueProblem>> fp8_moe_epilogue_impls() {
  std::vector<Impl<Fp8EpilogueProblem>> impls;
#if TESSERA_BENCH_HAS_FP8_MOE
  impls.push_back({"tessera_gelu_bias", 1000.0, &launch_fp8_gelu_bias_tessera});
#endif
#if TESSERA_BENCH_HAS_WGMMA
  impls.push_back({"plain_tessera", 1000.0, &launch_fp8_plain_tessera});
#endif
  impls.push_back({"cublaslt", 1000.0, &launch_fp8_gelu_bias_cublaslt});
  impls.push_back({"plain_cublaslt", 1000.0, &launch_fp8_plain_cublaslt});
  return impls;
}

// ---- decode: split K -----------------------------------------------------------------------------

#if TESSERA_BENCH_HAS_FP8_MOE
// The transposed split's token tile: the narrowest that holds M (16, 32, 64; larger M takes
// several tiles of 64).
template <int kTileM>
Error launch_fp8_decode_split_tile(Fp8Problem& p, ImplSlot& slot) {
  namespace scale = tessera::gemm::scale;
  return launch_fp8_tessera<fp8moe::DecodeSplit<scale::PerTensor, kTileM>, fp8moe::DecodeSplit<scale::Blockwise, kTileM>>(
      p, slot);
}
Error launch_fp8_decode_split(Fp8Problem& p, ImplSlot& slot) {
  if (p.spec.M <= 16) return launch_fp8_decode_split_tile<16>(p, slot);
  if (p.spec.M <= 32) return launch_fp8_decode_split_tile<32>(p, slot);
  return launch_fp8_decode_split_tile<64>(p, slot);
}
#endif

std::vector<Impl<Fp8Problem>> fp8_moe_decode_impls(const Fp8Spec& s) {
  std::vector<Impl<Fp8Problem>> impls;
#if TESSERA_BENCH_HAS_FP8_MOE
  {
    namespace scale = tessera::gemm::scale;
    impls.push_back({"tessera_streamk", 100.0,
                     &launch_fp8_tessera<fp8moe::DecodeConfig<scale::PerTensor>, fp8moe::DecodeConfig<scale::Blockwise>>});
    impls.push_back({"tessera_split", 100.0, &launch_fp8_decode_split});
  }
#endif
#if TESSERA_BENCH_HAS_WGMMA
  {
    namespace scale = tessera::gemm::scale;
    impls.push_back({"tessera_wgmma", 100.0, &launch_fp8_tessera<Fp8Wgmma<scale::PerTensor>, Fp8Wgmma<scale::Blockwise>>});
  }
#endif
  if (lt_takes_fp8_shape(s)) impls.push_back({"cublaslt", 100.0, &launch_fp8_cublaslt});
  impls.push_back(floor_impl<Fp8Problem>());
  return impls;
}

// ---- registration ----------------------------------------------------------------------------------

std::vector<Fp8MoeSpec> fp8_moe_grouped_specs() {
  std::vector<Fp8MoeSpec> specs;
  const std::vector<std::int64_t> zipf64 = zipf_sizes(64, 4096 * 8, 0.5, 64 * 1000 + 1);
  const std::vector<std::int64_t> zipf8 = zipf_sizes(8, 8192, 0.5, 8 * 1000 + 1);
  for (const auto& nk : {std::pair<std::int64_t, std::int64_t>{4096, 7168}, {7168, 2048}}) {
    specs.push_back({"64e_zipf", zipf64, nk.first, nk.second});
    specs.push_back({"8e_zipf", zipf8, nk.first, nk.second});
    specs.push_back({"64e_zipf_a128", rounded_up(zipf64, 128), nk.first, nk.second});
  }
  return specs;
}

std::vector<Fp8MoeSpec> fp8_moe_masked_specs() {
  std::vector<Fp8MoeSpec> specs;
  for (const auto& nk : {std::pair<std::int64_t, std::int64_t>{4096, 7168}, {7168, 2048}}) {
    specs.push_back({"64e_32t_max32", std::vector<std::int64_t>(64, 32), nk.first, nk.second, 32});
    specs.push_back({"64e_uniform_max64", zipf_sizes(64, 64 * 32, 0.0, 64 * 1000 + 2), nk.first, nk.second, 64});
  }
  return specs;
}

void register_fp8_moe_suite() {
  // 1. Grouped, contiguous: beside each, the dense GEMM of its total rows (Tessera's and cuBLASLt's).
  for (const Fp8MoeSpec& g : fp8_moe_grouped_specs()) {
    for (const auto& impl : fp8_moe_grouped_impls(false)) {
      register_benchmark<Fp8MoeProblem>("fp8moe_grouped", g.label(), impl, g, g.flops() / (impl.tflops_guess * 1e12));
    }
    Fp8Spec dense{g.total(), g.N, g.K, true};
    std::vector<Impl<Fp8Problem>> dense_impls;
#if TESSERA_BENCH_HAS_WGMMA
    {
      namespace scale = tessera::gemm::scale;
      dense_impls.push_back(
          {"dense_tessera", 1000.0, &launch_fp8_tessera<Fp8Wgmma<scale::PerTensor>, Fp8Wgmma<scale::Blockwise>>});
    }
#endif
    dense_impls.push_back({"dense_cublaslt", 1000.0, &launch_fp8_cublaslt});
    for (const auto& impl : dense_impls) {
      register_benchmark<Fp8Problem>("fp8moe_grouped", g.label(), impl, dense, dense.flops() / (impl.tflops_guess * 1e12));
    }
    benchmark::AddCustomContext("fp8moe_sizes_" + g.label(), join(g.sizes));
  }
  // 2. Masked (decode), with the floor.
  for (const Fp8MoeSpec& g : fp8_moe_masked_specs()) {
    for (const auto& impl : fp8_moe_grouped_impls(true)) {
      const double est = impl.is_floor ? double(g.experts() * g.N * g.K) / 3e12 : g.flops() / (impl.tflops_guess * 1e12);
      register_benchmark<Fp8MoeProblem>("fp8moe_masked", g.label(), impl, g, est);
    }
    benchmark::AddCustomContext("fp8moe_sizes_" + g.label(), join(g.sizes));
  }
  // 3. Fused bias + GELU against the plain GEMM.
  for (const Fp8Spec& s : {Fp8Spec{4096, 4096, 4096, true}, Fp8Spec{8192, 8192, 8192, true},
                           Fp8Spec{4096, 4096, 4096, false}}) {
    for (const auto& impl : fp8_moe_epilogue_impls()) {
      register_benchmark<Fp8EpilogueProblem>(s.block ? "fp8moe_gelu_bias_block" : "fp8moe_gelu_bias_tensor", s.shape(),
                                             impl, s, s.flops() / (impl.tflops_guess * 1e12));
    }
  }
  // 4. Decode shapes, split K, with the floor.
  for (bool block : {true, false}) {
    for (std::int64_t M : {1, 16, 32, 64}) {
      for (const auto& nk : {std::pair<std::int64_t, std::int64_t>{7168, 2048}, {4096, 4096}}) {
        const Fp8Spec s{M, nk.first, nk.second, block, true};
        for (const auto& impl : fp8_moe_decode_impls(s)) {
          const double est = impl.is_floor ? double(s.N * s.K) / 3e12 : s.flops() / (impl.tflops_guess * 1e12);
          register_benchmark<Fp8Problem>(block ? "fp8moe_decode_block" : "fp8moe_decode_tensor", s.shape(), impl, s,
                                         est);
        }
      }
    }
  }
  benchmark::AddCustomContext(
      "fp8moe_suite",
      std::string("e4m3 x e4m3 -> bf16; block scales A 1x128 per token, B 128x128 per expert; grouped sizes: "
                  "multinomial over experts with Zipf(0.5) weights on a seeded permutation (mt19937_64, seed "
                  "experts*1000+1); cuBLASLt loop: one VEC128/BLK128x128 call per expert with rows, rows rounded up "
                  "to 4; Tessera: ") +
          (TESSERA_BENCH_HAS_FP8_MOE ? "built" : "not built (TESSERA_BENCH_HAS_FP8_MOE=0)"));
}

}  // namespace

#endif  // TESSERA_CUDA
