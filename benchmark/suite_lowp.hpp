// The low-precision suite of tessera_bench_hip (HIP only): every fp8 / fp6 / MX MFMA
// configuration Tessera ships (examples/mfma_lowp_configs.hpp: fnuz fp8 on gfx942; OCP fp8,
// MXFP8, MXFP4, MXFP6 and the fp6 x fp8 mixes on gfx950), each on the shapes below, beside
// hipBLASLt on the same operands and scales where the build found hipBLASLt
// (vendor_hipblaslt.hpp).
//
// One templated problem, LowpProblem<Config>, serves every configuration: its operand
// types, scale mode, D type and D layout all come from the configuration. A row-major M x K,
// B column-major K x N (both K-contiguous, as these configurations require), D = A B
// (alpha 1, beta 0) in the configuration's type and layout, tight leading dimensions.
//
// Inputs (fresh seed per run) and scales by the configuration's mode: lowp_host_data.hpp
// (codes with 0 < |v| <= 2, packed as each operand's format says: fp4 two a byte, fp6 four in
// three bytes; per-tensor floats; MX e8m0 127 +- 2 stored [row][ceil(K/32)], the layout
// Tessera reads and hipBLASLt's VEC32_UE8M0 takes, see vendor_hipblaslt.hpp).
//
// The check before timing (the harness's style, checks.hpp): D poisoned; the sampled rows
// (first, middle, last, random) against float64 of the dequantized inputs; the whole output
// against the naive kernel's fp32 GEMM of the dequantized inputs (exact in fp32: a code times
// a power of two), within tolerance<float, D>(K) (test/support/reference_gemm.hpp: products exact,
// fp32 sums, one rounding to D). A configuration for the other gfx target is not set up: its
// benchmarks are skipped with a message naming the filter that selects the device's.
#pragma once

#include "tessera_variants.hpp"

#if TESSERA_BENCH_HAS_MFMA && __has_include("mfma_lowp_configs.hpp")
#define TESSERA_BENCH_HAS_LOWP 1

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "lowp_elements.hpp"
#include "lowp_host_data.hpp"
#include "mfma_lowp_configs.hpp"
#include "naive_gemm.hpp"
#include "reference_gemm.hpp"
#include "tessera/gemm/mfma/mfma.hpp"
#include "vendor_hipblaslt.hpp"

namespace {

struct LowpSpec {
  std::int64_t M = 0, N = 0, K = 0;
  std::string shape() const { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }
  std::string key() const { return shape(); }
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
};

// The shapes: squares, an MLP projection, deep K, decode-like small M, and odd M and N (K a
// multiple of 32: every MX block whole for hipBLASLt, fp4 and fp6 rows whole bytes).
const std::vector<LowpSpec> kLowpShapes = {
    {1024, 1024, 1024},  {4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 14336, 4096},
    {4096, 7168, 18432}, {64, 7168, 2048},   {4097, 4095, 4160},
};

// Speed guess (iteration counts only): between MI300X's dense fp8 and MI355X's fp4 peaks.
constexpr double kLowpTflopsGuess = 2000.0;

// The inputs of one problem (LowpHostData, lowp_host_data.hpp, and their device copies) and
// what outputs are checked against: the naive kernel's fp32 GEMM of the dequantized inputs
// (laid out as D, ld ldd) and the sampled rows in float64.
struct LowpInputs {
  LowpHostData host;
  std::int64_t ldd = 0;
  DeviceBuffer<std::uint8_t> A, B, scale_a, scale_b;  // packed operands; MX scale codes
  DeviceBuffer<float> tensor_scales;                  // per tensor: {A's, B's}
  std::vector<float> ref_host;
  SampledRows sampled;

  double bytes() const { return double(A.count + B.count + scale_a.count + scale_b.count); }
  Error build(const LowpSpec& s, const LowpKind& kind);

 private:
  Error naive_reference();
};

Error LowpInputs::build(const LowpSpec& s, const LowpKind& kind) {
  const std::string arch = kind.arch;
  if (std::strncmp(g_dev.prop.gcnArchName, arch.c_str(), arch.size()) != 0) {
    return "a " + arch + " configuration, and this device is " + g_dev.prop.gcnArchName +
           ": choose the device's with --benchmark_filter='^lowp" + std::string(g_dev.prop.gcnArchName).substr(3, 3) +
           "_'";
  }
  if (s.K % kind.k_multiple() != 0) {
    return "packed operands need K a multiple of " + std::to_string(kind.k_multiple()) + " (fp4: 2, fp6: 4)";
  }
  const std::uint64_t seed_a = next_seed(), seed_b = next_seed(), seed_s = next_seed();
  host.generate(kind, s.M, s.N, s.K, seed_a, seed_b, seed_s);
  ldd = kind.row_major_d ? s.N : s.M;
  auto upload = [](DeviceBuffer<std::uint8_t>& d, const std::vector<std::uint8_t>& h) -> Error {
    BENCH_TRY(d.allocate(h.size()));
    return d.from_host(h);
  };
  BENCH_TRY(upload(A, host.packed_a()));
  BENCH_TRY(upload(B, host.packed_b()));
  if (kind.mx) {
    BENCH_TRY(upload(scale_a, host.sa));
    BENCH_TRY(upload(scale_b, host.sb));
  } else if (kind.per_tensor) {
    BENCH_TRY(tensor_scales.allocate(2));
    BENCH_TRY(tensor_scales.from_host(std::vector<float>{host.tensor[0], host.tensor[1]}));
  }
  BENCH_TRY(naive_reference());
  sampled.rows = sample_rows(s.M, next_seed());
  sampled.values = host.rows_f64(sampled.rows);
  return {};
}

// The naive kernel on the dequantized values, A row-major M x K and B column-major K x N (its
// columns are B's rows of codes), alpha the tensor scales' product, D laid out as the
// configuration's.
Error LowpInputs::naive_reference() {
  const std::int64_t M = host.M, N = host.N, K = host.K;
  DeviceBuffer<float> a_deq, b_deq, d_ref;
  {
    const std::vector<float> a = host.dequantized(*host.kind.a, host.a_codes, host.sa);
    const std::vector<float> b = host.dequantized(*host.kind.b, host.b_codes, host.sb);
    BENCH_TRY(a_deq.allocate(a.size()));
    BENCH_TRY(b_deq.allocate(b.size()));
    BENCH_TRY(a_deq.from_host(a));
    BENCH_TRY(b_deq.from_host(b));
  }
  BENCH_TRY(d_ref.allocate(std::size_t(M * N)));
  BENCH_TRY(fill_poison(d_ref));
  const tessera::gemm::Arguments<float, float, float> r{M, N, K, a_deq.ptr, K, b_deq.ptr, K, d_ref.ptr, ldd, d_ref.ptr,
                                                        ldd, host.tensor[0] * host.tensor[1], 0.0f};
  if (host.kind.row_major_d) {
    BENCH_TRY((run_naive<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(r)));
  } else {
    BENCH_TRY((run_naive<tessera::RowMajor, tessera::ColumnMajor, tessera::ColumnMajor>(r)));
  }
  BENCH_TRY(d_ref.to_host(ref_host));
  std::int64_t unwritten = 0;  // tight ld: every element of the buffer is one of D's
  for (float x : ref_host) unwritten += tessera::test::is_poison(x);
  if (unwritten > 0) return "the naive reference left " + std::to_string(unwritten) + " elements unwritten";
  return {};
}

// One configuration's problem: its inputs (above) and D in the configuration's type.
template <class Config>
struct LowpProblem : ProblemBase {
  using Spec = LowpSpec;
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using ED = typename Config::ElementD;
  using LC = typename Config::LayoutC;
  using Mode = typename Config::OperandScales;
  using Gemm = tessera::gemm::Gemm<Config>;
  static constexpr bool kMx = Mode::kBlock, kPerTensor = Mode::kPerTensor;

  LowpSpec spec;
  LowpInputs in;
  DeviceBuffer<ED> D;

  explicit LowpProblem(const LowpSpec& s) : spec(s) {}

  // The benchmark group: lowp942_ / lowp950_, then the operand formats, the scales, D's type
  // and (column-major) layout, e.g. lowp950_mx_e4m3_e5m2_fp16_col.
  static std::string group() {
    std::string g = std::string("lowp") + (Config::Arch::kName + 3) + "_" + (kMx ? "mx_" : "") + LowpElement<EA>::kTag;
    if (!std::is_same_v<EA, EB>) g += std::string("_") + LowpElement<EB>::kTag;
    if (kPerTensor) g += "_tensor";
    g += std::string("_") + TypeName<ED>::value;
    if (!LC::kIsRowMajor) g += "_col";
    return g;
  }

  Error build() {
    BENCH_TRY(in.build(spec, lowp_kind<Config>()));
    return D.allocate(std::size_t(spec.M * spec.N));
  }

  Error check(const Impl<LowpProblem>& impl, ImplSlot& slot) {
    BENCH_TRY(fill_poison(D));
    std::vector<ED> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, D, out));
    return judge_output<LC>(spec.M, spec.N, out, in.ldd, in.ref_host,
                            "the naive kernel's fp32 GEMM of the dequantized inputs", in.sampled,
                            tessera::test::tolerance<float, ED>(spec.K));
  }

  double flops(const Impl<LowpProblem>&) const { return spec.flops(); }
  double bytes(const Impl<LowpProblem>&) const { return in.bytes() + double(D.count) * sizeof(ED); }
  void add_counters(benchmark::State&, const Impl<LowpProblem>&, double) const {}
  std::string label(const Impl<LowpProblem>&) const {
    return std::string(Config::Arch::kName) + " " + LowpElement<EA>::kTag + " x " + LowpElement<EB>::kTag + " -> " +
           TypeName<ED>::value + (LC::kIsRowMajor ? " row" : " col") + ", " + Mode::kName + " scales, Tessera " +
           std::to_string(Config::kBlockM) + "x" + std::to_string(Config::kBlockN) + "x" +
           std::to_string(Config::kBlockKValues) + " " + Config::Schedule::kName + ", MFMA " +
           std::to_string(Config::Atom::kM) + "x" + std::to_string(Config::Atom::kN) + "x" +
           std::to_string(Config::Atom::kK);
  }

  // Tessera's arguments over the problem's buffers: values of K for lda/ldb (fp4 and fp6 too:
  // K is a multiple of 4 here, as fp6's ld must be).
  typename Gemm::Args tessera_args() {
    typename Gemm::Args a{spec.M, spec.N, spec.K, reinterpret_cast<const EA*>(in.A.ptr), spec.K,
                          reinterpret_cast<const EB*>(in.B.ptr), spec.K, nullptr, in.ldd, D.ptr, in.ldd, 1.0f, 0.0f};
    if constexpr (kMx) {
      using S = typename Mode::ScaleType;
      const std::int64_t ld = in.host.scale_ld;
      a.epilogue.scales.a = {reinterpret_cast<const S*>(in.scale_a.ptr), ld, std::int64_t(in.scale_a.count)};
      a.epilogue.scales.b = {reinterpret_cast<const S*>(in.scale_b.ptr), ld, std::int64_t(in.scale_b.count)};
    } else if constexpr (kPerTensor) {
      a.epilogue.scales.a = {in.tensor_scales.ptr};
      a.epilogue.scales.b = {in.tensor_scales.ptr + 1};
    }
    return a;
  }
};

template <class Config>
Error launch_lowp_tessera(LowpProblem<Config>& p, ImplSlot& slot) {
  return run_tessera<tessera::gemm::Gemm<Config>>(p.tessera_args(), slot);
}

#if TESSERA_BENCH_HAS_HIPBLASLT
// hipBLASLt on the same buffers: D = A B as the column-major "TN" problem. A row-major D is
// computed as D^T (N x M) = B^T A, so hipBLASLt's A is our B (and its scale our B's);
// a column-major D is A^T-stored A times B directly. K-major operands are transposed
// column-major matrices with ld = K values. fp6 operands go in as HIP_R_6F_E2M3 / E3M2 in the
// packed stream above; MXFP6 (and the fp6 x fp8 mixes' instructions) came to hipBLASLt's
// gfx950 kernels with ROCm/rocm-libraries pull request 6499. Whether a given release takes a
// mix (or fp6 with per-tensor scales) through hipblasLtMatmul is not known here: where its
// heuristic proposes nothing, the benchmark says so and is skipped (hiplt_make_plan).
template <class Config>
Error launch_lowp_hipblaslt(LowpProblem<Config>& p, ImplSlot& slot) {
  using P = LowpProblem<Config>;
  constexpr bool row_d = P::LC::kIsRowMajor;
  const std::uint64_t M = std::uint64_t(p.spec.M), N = std::uint64_t(p.spec.N), K = std::uint64_t(p.spec.K);
  const LowpInputs& in = p.in;
  const HipLtOperand a{LowpElement<typename P::EA>::kHipDataType, K, M, p.spec.K};
  const HipLtOperand b{LowpElement<typename P::EB>::kHipDataType, K, N, p.spec.K};
  HipLtSpec s;
  s.x = row_d ? b : a;
  s.y = row_d ? a : b;
  s.d = {HipOutputType<typename P::ED>::value, row_d ? N : M, row_d ? M : N, in.ldd};
  const void* scale_a = P::kMx ? static_cast<const void*>(in.scale_a.ptr) : in.tensor_scales.ptr;
  const void* scale_b = P::kMx ? static_cast<const void*>(in.scale_b.ptr) : in.tensor_scales.ptr + 1;
  if (P::kMx || P::kPerTensor) {
    s.x_scale = row_d ? scale_b : scale_a;
    s.y_scale = row_d ? scale_a : scale_b;
    s.block_scales = P::kMx;
  }
  return hiplt_run(slot, s, row_d ? in.B.ptr : in.A.ptr, row_d ? in.A.ptr : in.B.ptr, p.D.ptr);
}
#endif

// One configuration on every shape: Tessera as tessera_<name>, hipBLASLt beside it.
template <class Config>
void register_lowp_config(const std::string& name) {
  using P = LowpProblem<Config>;
  std::vector<Impl<P>> impls = {Impl<P>{"tessera_" + name, kLowpTflopsGuess, &launch_lowp_tessera<Config>}};
#if TESSERA_BENCH_HAS_HIPBLASLT
  impls.push_back(Impl<P>{"hipblaslt", kLowpTflopsGuess, &launch_lowp_hipblaslt<Config>});
#endif
  for (const LowpSpec& s : kLowpShapes) {
    for (const Impl<P>& impl : impls) {
      register_benchmark<P>(P::group(), s.shape(), impl, s, s.flops() / (impl.tflops_guess * 1e12));
    }
  }
}

// The shipped configurations, one line each (examples/mfma_lowp_configs.hpp).
void register_lowp_suite() {
  namespace cfg = examples::mfma_lowp;
  register_lowp_config<cfg::Fp8Baseline942>("baseline");
  register_lowp_config<cfg::Fp8OneCluster942>("one_cluster");
  register_lowp_config<cfg::Fp8OneCluster16x942>("one_cluster_16x16");
  register_lowp_config<cfg::Fp8TwoClusters942>("two_clusters");
  register_lowp_config<cfg::Fp8FourClusters942>("four_clusters");
  register_lowp_config<cfg::Mxfp8Baseline950>("baseline");
  register_lowp_config<cfg::Fp8OneCluster950>("one_cluster");
  register_lowp_config<cfg::Mxfp8OneCluster16x950>("one_cluster_16x16");
  register_lowp_config<cfg::Mxfp8TwoClusters950>("two_clusters");
  register_lowp_config<cfg::Mxfp4TwoClusters950>("two_clusters");
  register_lowp_config<cfg::Mxfp4OneCluster16x950>("one_cluster_16x16");
  register_lowp_config<cfg::Mxfp6TwoClusters950>("two_clusters");
  register_lowp_config<cfg::Mxfp6Fp8OneCluster16x950>("one_cluster_16x16");
  register_lowp_config<cfg::Fp8Bf6Baseline950>("baseline");
  benchmark::AddCustomContext("lowp_suite", "A row-major, B column-major, D = A B in the configuration's type and "
                                            "layout; codes with 0 < |v| <= 2 (fp4 two a byte, fp6 four in three "
                                            "bytes, low bits first); per-tensor float scales, MX e8m0 127+-2 per "
                                            "32 values of K stored [row][ceil(K/32)]");
}

}  // namespace

#else
#define TESSERA_BENCH_HAS_LOWP 0
#endif
