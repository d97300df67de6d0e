// tessera_bench: Tessera's GEMMs against the vendor BLAS (and a naive kernel), on one GPU.
//
// Every benchmark times one call per iteration with GPU events (manual time), with the
// L2 cache flushed before each iteration unless --hot is given, and reports the median
// of several repetitions. Before a problem is timed, each implementation's output is
// checked once: against a full-matrix reference and against a float64 host reference on
// a few sampled rows. A failed check skips that benchmark with the reason.
// See benchmark/README.md for the suites, flags and examples.
//
// One source, two builds: nvcc (CUDA, cuBLAS) and clang -x hip (HIP, AMD). Runtime calls
// go through tessera/runtime/gpu.hpp. Under HIP the vendor BLAS is rocBLAS, compiled in only when
// the build defines TESSERA_HAVE_ROCBLAS; without it the vendor benchmarks are not
// registered and the naive kernel is the full-matrix reference instead. The HIP build has
// the classic suite and the low-precision one (fp8 / MX MFMA beside hipBLASLt when the build
// defines TESSERA_HAVE_HIPBLASLT); the other suites are CUDA only.
//
// The parts, one translation unit:
//   runtime/gpu.hpp        the CUDA/HIP runtime calls, spelled once for each (the library's)
//   bench_harness.hpp      errors, options and flags, the device, buffers and fills, L2
//                          flush, the event-timed loop and counters, the device's JSON context
//   bench_registry.hpp     problems, implementations, the benchmark body, registration
//   vendor_blas.hpp        the cuBLAS/rocBLAS baseline (row-major as the transposed problem)
//   vendor_blas_lt.hpp     the cuBLASLt baselines (plain, fp8 scaled, fused epilogue)
//   vendor_hipblaslt.hpp   the hipBLASLt baseline of the low-precision suite (HIP)
//   naive_gemm.hpp         the naive baseline kernel
//   stream_floor.hpp       the decode floor: a streaming read of the weights
//   checks.hpp             the GEMM problem (inputs, references) and the output verdict
//   gemm_impls.hpp         the implementations a GEMM problem can time
//   tessera_variants.hpp   the Tessera GEMMs timed, one line each
//   suite_llm.hpp, suite_sweep.hpp, suite_fp8.hpp, suite_grouped.hpp, suite_batched.hpp, suite_epilogue.hpp,
//   suite_fp8_moe.hpp (fp8 grouped/masked MoE, fused bias+GELU, decode split K), suite_chain.hpp
//                          (dependent GEMMs back to back: programmatic dependent launch)
//   suite_lowp.hpp         (HIP) Tessera's fp8 / MX MFMA configurations; lowp_elements.hpp
//   tessera_bench.cu       the classic suite, the suite choice and main
#include <benchmark/benchmark.h>

#include "tessera/runtime/gpu.hpp"  // first of ours: it includes the runtime and sets TESSERA_HIP/CUDA

#include "bench_harness.hpp"
#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "tessera_variants.hpp"
#include "vendor_blas.hpp"
#if defined(TESSERA_CUDA)
#include "suite_batched.hpp"
#include "suite_chain.hpp"
#include "suite_epilogue.hpp"
#include "suite_fp8.hpp"
#include "suite_fp8_moe.hpp"
#include "suite_grouped.hpp"
#include "suite_llm.hpp"
#include "suite_sweep.hpp"
#include "vendor_blas_lt.hpp"
#else
#include "suite_lowp.hpp"
#include "vendor_hipblaslt.hpp"
#endif

#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/core/numeric.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace {

using tessera::bfloat16_t;
using tessera::half_t;
using tessera::RowMajor;

// ---- the classic suite: every operand row-major -------------------------------------------

struct ClassicShape {
  std::int64_t M, N, K;
  bool naive;  // the naive kernel is slow: only where it finishes in reasonable time
};

// ld = the matrix's own contiguous extent everywhere: 4097x4095x4103 is deliberately
// unaligned (odd leading dimensions, rows not on 16-byte boundaries).
const std::vector<ClassicShape> kClassicShapes = {
    {1024, 1024, 1024, true},  {2048, 2048, 2048, true},   {4096, 4096, 4096, true},
    {8192, 8192, 8192, false}, {4097, 4095, 4103, true},   {16, 8192, 8192, true},
    {8192, 8192, 512, true},   {512, 512, 16384, true},
};

// fp32 with few rows of A (the FMA family's small-M kernel, fma/small_m_kernel.hpp): B is
// streamed once, so these are bound by memory; registered with B row-major (group fp32) and
// column-major (fp32_rcr), cuBLAS SGEMM beside each.
const std::vector<ClassicShape> kSmallMShapes = {
    {1, 4096, 4096, false}, {8, 4096, 4096, false}, {16, 4096, 4096, false},
    {32, 4096, 4096, false}, {8, 8192, 8192, false},
};

// fp32: the FMA family against SGEMM and the naive kernel. 16-bit inputs: under CUDA the
// tensor-core variants against both cuBLAS entry points; under HIP the FMA and MFMA
// families against rocBLAS (when built).
template <class EA, class EC, class LA = RowMajor, class LB = RowMajor, class LC = RowMajor>
void register_classic_type(const std::vector<ClassicShape>& shapes = kClassicShapes) {
  using P = GemmProblem<EA, EA, EC, LA, LB, LC>;
  constexpr bool fp32 = std::is_same_v<EA, float>;
  const std::string group = type_tag<EA, EC, LA, LB, LC>();
  std::vector<Impl<P>> impls;
  if (fp32 || !TESSERA_BENCH_HAS_WGMMA) tessera_fma_variants(impls);
  if constexpr (!fp32) tessera_gemm_variants(impls);
  if (TESSERA_BENCH_HAS_BLAS) impls.push_back(blas_impl<P>());
#if defined(TESSERA_CUDA)
  if constexpr (!fp32) impls.push_back(blas_lt_impl<P>());
#endif
  for (const ClassicShape& x : shapes) {
    const GemmSpec spec{group, std::to_string(x.M) + "x" + std::to_string(x.N) + "x" + std::to_string(x.K), x.M, x.N,
                        x.K};
    std::vector<Impl<P>> here = impls;
    if (fp32 && x.naive) here.push_back(naive_impl<P>());
    for (const Impl<P>& impl : here) {
      register_benchmark<P>(group, spec.label, impl, spec, spec.flops() / (impl.tflops_guess * 1e12));
    }
  }
}

void register_classic_suite() {
  register_classic_type<float, float>();
  register_classic_type<float, float>(kSmallMShapes);
  register_classic_type<float, float, RowMajor, tessera::ColumnMajor, RowMajor>(kSmallMShapes);
#if defined(TESSERA_BENCH_16BIT_OUT_SAME)
  register_classic_type<half_t, half_t>();
  register_classic_type<bfloat16_t, bfloat16_t>();
#else
  register_classic_type<half_t, float>();
  register_classic_type<bfloat16_t, float>();
#endif
}

// ---- the suites --------------------------------------------------------------------------------

struct Suite {
  const char* name;
  const char* what;
  const char* filter;  // the same benchmarks as a --benchmark_filter
  void (*register_all)();
};

#if defined(TESSERA_CUDA)
void register_many_suite() {
  register_grouped_suite();
  register_batched_suite();
  register_epilogue_suite();
}
#endif

const std::vector<Suite>& suites() {
  static const std::vector<Suite> all = {
#if defined(TESSERA_CUDA)
      {"llm", "LLM shapes: squares, decode with the streaming floor, MLP/QKV, deep K, odd; bf16/fp16 in, "
              "16-bit/fp32 D, beta 0/1",
       "^llm_", &register_llm_suite},
      {"fp8", "cuBLASLt e4m3 GEMMs, per-tensor and block scales", "^fp8_", &register_fp8_suite},
      {"fp8moe", "fp8 for mixture of experts: grouped (contiguous) vs dense and a per-expert cuBLASLt loop, "
                 "masked decode vs the weights' streaming floor, fused bias+GELU, decode split K",
       "^fp8moe_", &register_fp8_moe_suite},
      {"many", "grouped (MoE) vs one dense GEMM, strided-batched, fused bias+GELU",
       "^(grouped|batched|epilogue_gelu_bias)/", &register_many_suite},
      {"sweep", "seeded transformer-like shapes (--sweep-seed, --sweep-count, --sweep-entries), Auto, AutoModel, "
                "the default tile, cuBLAS, cuBLASLt",
       "^sweep_", &register_sweep_suite},
      {"chain", "dependent GEMMs back to back (a model's layers): cuBLAS, cuBLASLt, Auto, and Auto with "
                "option::DependentLaunch (programmatic dependent launch)",
       "^chain/", &register_chain_suite},
#endif
      {"classic", "row-major fp32/fp16/bf16 on 8 shapes, FMA family and naive kernel included; fp32 small M "
                  "(1-32 x 4096 x 4096, 8 x 8192 x 8192) with B row- and column-major",
       "^(fp32|fp16|bf16)[/_]", &register_classic_suite},
#if defined(TESSERA_HIP) && TESSERA_BENCH_HAS_LOWP
      {"lowp", "Tessera's fp8 (gfx942) and OCP fp8 / MXFP8 / MXFP4 (gfx950) MFMA configurations on 7 shapes, "
               "hipBLASLt beside them; filter the device's: '^lowp942_' or '^lowp950_'",
       "^lowp9(42|50)_", &register_lowp_suite},
#endif
  };
  return all;
}

#if defined(TESSERA_CUDA)
const char* kDefaultSuites = "llm,fp8,many";
#else
const char* kDefaultSuites = "classic";
#endif

// "llm,fp8" or "all" -> the suites, in the order above; an unknown name is an error.
bool choose_suites(const std::string& list, std::vector<const Suite*>& chosen) {
  std::set<std::string> wanted;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (!name.empty()) wanted.insert(name);
  }
  for (const Suite& s : suites()) {
    if (wanted.count("all") || wanted.count(s.name)) chosen.push_back(&s);
  }
  for (const std::string& name : wanted) {
    bool known = name == "all";
    for (const Suite& s : suites()) known = known || name == s.name;
    if (!known) {
      std::fprintf(stderr, "tessera_bench: no suite '%s' in this build; suites:", name.c_str());
      for (const Suite& s : suites()) std::fprintf(stderr, " %s", s.name);
      std::fprintf(stderr, " (or all)\n");
      return false;
    }
  }
  return true;
}

void print_suites() {
  std::printf("suites (--suite=a,b or all; default %s):\n", kDefaultSuites);
  for (const Suite& s : suites()) std::printf("  %-8s %s\n           same as --benchmark_filter='%s'\n", s.name, s.what, s.filter);
}

// ---- context: what the numbers were measured on ------------------------------------------

Error add_context(const std::vector<const Suite*>& chosen) {
  BENCH_TRY(add_device_context());
  BENCH_TRY(add_blas_context());
  std::string names;
  for (const Suite* s : chosen) names += (names.empty() ? "" : ",") + std::string(s->name);
  benchmark::AddCustomContext("suites", names);
#if TESSERA_BENCH_HAS_WGMMA
  benchmark::AddCustomContext("tessera_wgmma", "WgmmaConfig<...> defaults: 128x256x64 Cooperative, no cluster; "
                                               "workspace_size(args) bytes of workspace");
#endif
  BENCH_TRY(add_blas_lt_context());
#if defined(TESSERA_CUDA)
  add_sweep_context();
#endif
#if defined(TESSERA_HIP)
  benchmark::AddCustomContext("tessera_config", "FmaConfig<Gfx942> or FmaConfig<Gfx950>, by the device");
#endif
  benchmark::AddCustomContext("tessera_fma", TESSERA_BENCH_HAS_FMA ? "built" : "not built (header missing)");
  benchmark::AddCustomContext("tessera_mfma", TESSERA_BENCH_HAS_MFMA ? "built (MfmaConfig<Gfx942|Gfx950>, default tile)"
                                                                     : "not built (CUDA build, or header missing)");
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine cl = parse_command_line(argc, argv);
  if (cl.help) print_suites();
  int rest_argc = int(cl.rest.size());
  cl.rest.push_back(nullptr);
  benchmark::Initialize(&rest_argc, cl.rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, cl.rest.data())) return 1;

  // Registration needs no device, so that the list of benchmarks can be shown anywhere.
  std::vector<const Suite*> chosen;
  if (!choose_suites(cl.suites.empty() ? kDefaultSuites : cl.suites, chosen)) return 1;
  for (const Suite* s : chosen) s->register_all();
  if (!TESSERA_BENCH_HAS_BLAS) {  // HIP without rocBLAS: say why the baseline is absent
    std::fprintf(stderr, "tessera_bench: rocBLAS was not available at build time: no rocblas "
                         "benchmarks; outputs are checked against the naive kernel\n");
  }
#if defined(TESSERA_HIP)
  if (!TESSERA_BENCH_HAS_HIPBLASLT) {
    std::fprintf(stderr, "tessera_bench: hipBLASLt was not available at build time: no hipblaslt benchmarks in "
                         "the lowp suite\n");
  }
#endif
  if (cl.list_only) {
    benchmark::RunSpecifiedBenchmarks();
    return 0;
  }

  int count = 0;
  const gpu::error_t e = gpu::get_device_count(&count);
  if (e != gpu::kSuccess || count == 0) {
    std::fprintf(stderr, "tessera_bench: no %s device (%s); nothing to measure\n", gpu::kRuntimeName,
                 e != gpu::kSuccess ? gpu::error_string(e) : "device count is 0");
    return 2;
  }
  Error setup = init_device();
  if (setup.empty()) setup = init_blas();  // the handles are bound to the device's stream
  if (setup.empty()) setup = init_blas_lt();
  if (!setup.empty()) {
    std::fprintf(stderr, "tessera_bench: setting up the device failed: %s\n", setup.c_str());
    return 2;
  }
  if (cl.print_device_name) {
    std::printf("%s\n", sanitize(g_dev.prop.name).c_str());
    return 0;
  }
  if (const Error err = add_context(chosen); !err.empty()) {
    std::fprintf(stderr, "tessera_bench: %s\n", err.c_str());
    return 2;
  }
  if (!TESSERA_BENCH_HAS_FMA) {
    std::fprintf(stderr, "tessera_bench: tessera/gemm/fma/fma.hpp was missing at build time: "
                         "running the baselines only\n");
  }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_problem.reset();  // device memory (and the Lt plans) go before the handles and the context
  release_blas_lt();
  release_blas();
  release_device();
  return 0;
}
