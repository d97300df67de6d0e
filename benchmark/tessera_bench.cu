// tessera_bench: Tessera's GEMMs against the vendor BLAS and a naive kernel, on one GPU.
//
// Every benchmark times one GEMM per iteration with GPU events (manual time), with the
// L2 cache flushed before each iteration unless --hot is given, and reports the median
// of several repetitions. Before a shape is timed, each implementation's output is
// checked once: against the vendor BLAS on the whole matrix and against a float64 host
// reference on a few sampled rows. A failed check skips that benchmark with the reason.
// See benchmark/README.md for flags and examples.
//
// One source, two builds: nvcc (CUDA, cuBLAS) and clang -x hip (HIP, AMD). Runtime calls
// go through tessera/runtime/gpu.hpp. Under HIP the vendor BLAS is rocBLAS, compiled in only when
// the build defines TESSERA_HAVE_ROCBLAS; without it the vendor benchmarks are not
// registered and the naive kernel is the full-matrix reference instead.
//
// The parts, one translation unit:
//   runtime/gpu.hpp    the CUDA/HIP runtime calls, spelled once for each (the library's)
//   bench_harness.hpp  errors, options and flags, the device, buffers and fills, L2 flush,
//                      the event-timed loop and counters, the device's JSON context
//   vendor_blas.hpp    the cuBLAS/rocBLAS baseline (row-major as the transposed problem)
//   naive_gemm.hpp     the naive baseline kernel
//   checks.hpp         the problem (inputs, references) and the checks before timing
//   tessera_bench.cu   the shapes, the Tessera runs, registration and main
#include <benchmark/benchmark.h>

#include "tessera/runtime/gpu.hpp"  // first of ours: it includes the runtime and sets TESSERA_HIP/CUDA

#include "bench_harness.hpp"
#include "checks.hpp"
#include "naive_gemm.hpp"
#include "vendor_blas.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/layout/matrix_layout.hpp"

// The Tessera kernels are written alongside this harness; without them the baselines
// still build and run, so the harness itself can be tried first.
#if __has_include("tessera/gemm/fma_gemm.hpp")
#include "tessera/gemm/dispatch.hpp"
#include "tessera/gemm/fma_gemm.hpp"
#define TESSERA_BENCH_HAS_FMA 1
#else
#define TESSERA_BENCH_HAS_FMA 0
#endif
// The Hopper tensor-core family, for 16-bit inputs (CUDA builds for sm_90a only: its
// kernels exist only there).
#if defined(TESSERA_CUDA) && __has_include("tessera/gemm/wgmma_gemm.hpp")
#include "tessera/gemm/wgmma_gemm.hpp"
#include "vendor_blas_lt.hpp"
#define TESSERA_BENCH_HAS_WGMMA 1
#else
#define TESSERA_BENCH_HAS_WGMMA 0
#endif
// The AMD MFMA GEMM (HIP builds, 16-bit inputs): the default 256x256x64 tile, four-cluster
// ping-pong, the device picking gfx942 or gfx950.
#if defined(TESSERA_HIP) && __has_include("tessera/gemm/mfma_gemm.hpp")
#include "tessera/gemm/mfma_gemm.hpp"
#define TESSERA_BENCH_HAS_MFMA 1
#else
#define TESSERA_BENCH_HAS_MFMA 0
#endif

namespace {

using tessera::bfloat16_t;
using tessera::half_t;
using tessera::RowMajor;

// ld = the matrix's own contiguous extent everywhere: 4097x4095x4103 is deliberately
// unaligned (odd leading dimensions, rows not on 16-byte boundaries).
const std::vector<Shape> kShapes = {
    {1024, 1024, 1024, true},  {2048, 2048, 2048, true},   {4096, 4096, 4096, true},
    {8192, 8192, 8192, false}, {4097, 4095, 4103, true},   {16, 8192, 8192, true},
    {8192, 8192, 512, true},   {512, 512, 16384, true},
};

// ---- the implementations ------------------------------------------------------------------

#if TESSERA_BENCH_HAS_FMA
// One configuration per target the build carries; the device picks at run time.
#if defined(TESSERA_HIP)
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraFma = tessera::gemm::Dispatch<tessera::gemm::FmaConfig<tessera::Gfx942, EA, LA, EB, LB, EC, LC>,
                                           tessera::gemm::FmaConfig<tessera::Gfx950, EA, LA, EB, LB, EC, LC>>;
#else
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraFma = tessera::gemm::Dispatch<tessera::gemm::FmaConfig<tessera::Sm90, EA, LA, EB, LB, EC, LC>,
                                           tessera::gemm::FmaConfig<tessera::Sm100, EA, LA, EB, LB, EC, LC>>;
#endif

std::string status_text(tessera::Status s) {
  return std::string(tessera::status_name(s)) + ": " + tessera::status_message(s);
}
#endif

#if TESSERA_BENCH_HAS_WGMMA
// The default WgmmaConfig: 128 x 256 x 64 tiles, the schedule the rule picks (Cooperative),
// no cluster (benchmark/notes/wgmma.md says why).
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraWgmma = tessera::gemm::Gemm<tessera::gemm::WgmmaConfig<EA, LA, EB, LB, EC, LC>>;
#endif

// A Tessera GEMM through its host API: arguments checked and the workspace sized on the
// first call (untimed), then run on the harness's stream.
template <class G, class P, class Args>
Error run_tessera(P& p, Kind kind, const Args& a) {
  auto& ws = p.workspace[kind];
  if (!ws) {
    const tessera::Status can = G::can_implement(a);
    if (!tessera::ok(can)) return "Tessera can_implement: " + status_text(can);
    ws = std::make_unique<DeviceBuffer<char>>();
    BENCH_TRY(ws->allocate(G::workspace_size(a)));
  }
  const tessera::Status s = G::run(a, ws->count ? ws->ptr : nullptr, g_dev.stream);
  if (!tessera::ok(s)) return "Tessera run: " + status_text(s);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

#if TESSERA_BENCH_HAS_MFMA
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraMfma = tessera::gemm::Dispatch<tessera::gemm::MfmaConfig<tessera::Gfx942, EA, LA, EB, LB, EC, LC>,
                                            tessera::gemm::MfmaConfig<tessera::Gfx950, EA, LA, EB, LB, EC, LC>>;
#endif

template <class EA, class EB, class EC, class LA, class LB, class LC>
Error launch(Problem<EA, EB, EC, LA, LB, LC>& p, Kind kind) {
  const auto a = p.args();
  switch (kind) {
    case Kind::kNaive:
      return run_naive<LA, LB, LC>(a);
    case Kind::kBlas:
      return run_blas<LA, LB, LC>(a);
    case Kind::kBlasLt:
#if TESSERA_BENCH_HAS_WGMMA
      if constexpr (!std::is_same_v<EA, float>) return run_blas_lt<LA, LB, LC>(a);
#endif
      return "cuBLASLt baseline: 16-bit inputs under CUDA only";
    case Kind::kTesseraFma:
#if TESSERA_BENCH_HAS_FMA
      return run_tessera<TesseraFma<EA, EB, EC, LA, LB, LC>>(p, kind, a);
#else
      return "Tessera FMA GEMM not built (tessera/gemm/fma_gemm.hpp missing at build time)";
#endif
    case Kind::kTesseraWgmma:
#if TESSERA_BENCH_HAS_WGMMA
      if constexpr (!std::is_same_v<EA, float>) return run_tessera<TesseraWgmma<EA, EB, EC, LA, LB, LC>>(p, kind, a);
#endif
      return "Tessera wgmma GEMM: 16-bit inputs under CUDA only";
    case Kind::kTesseraMfma:
#if TESSERA_BENCH_HAS_MFMA
      if constexpr (!std::is_same_v<EA, float>) return run_tessera<TesseraMfma<EA, EB, EC, LA, LB, LC>>(p, kind, a);
#endif
      return "Tessera MFMA GEMM: HIP builds, f16/bf16 inputs only";
  }
  return "unknown implementation";
}

// ---- the benchmark body ------------------------------------------------------------------

int iterations_for(const Shape& s, Kind kind, bool tensor_cores) {
  // A rough speed guess per implementation, only to size the iteration count so that
  // small shapes get many iterations and large ones about min_iters.
  // The same guesses serve the HIP build: they only set iteration counts.
  double tflops = 40.0;  // CUDA-core FP32 FMA, cuBLAS or Tessera
  if (kind == Kind::kNaive) tflops = 3.0;
  if ((kind == Kind::kBlas || kind == Kind::kBlasLt || kind == Kind::kTesseraWgmma) && tensor_cores) tflops = 500.0;
  if (kind == Kind::kTesseraMfma) tflops = 500.0;
  const double est_ms = s.flops() / (tflops * 1e12) * 1e3;
  const double n = g_opt.target_ms / std::max(est_ms, 1e-3);
  return int(std::clamp(n, double(g_opt.min_iters), double(g_opt.max_iters)));
}

template <class EA, class EB, class EC, class LA, class LB, class LC>
void bench_gemm(benchmark::State& state, Kind kind, Shape shape) {
  Problem<EA, EB, EC, LA, LB, LC>* p = nullptr;
  BENCH_OR_SKIP(state, make_problem(shape, p));
  BENCH_OR_SKIP(state, check(*p, kind));
  // Warm-up outside the timing: first-launch costs, vendor BLAS heuristics, clocks.
  BENCH_OR_SKIP(state, launch(*p, kind));
  BENCH_OR_SKIP(state, [] {
    BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
    return Error{};
  }());
  BENCH_OR_SKIP(state, time_iterations(state, shape.flops(), p->bytes(), [&] { return launch(*p, kind); }));
  state.SetLabel(std::string(TypeName<EA>::value) + "->" + TypeName<EC>::value + " ld=" +
                 std::to_string(p->lda) + "," + std::to_string(p->ldb) + "," + std::to_string(p->ldd));
}

template <class EA, class EC, class LA = RowMajor, class LB = RowMajor, class LC = RowMajor>
void register_type() {
  const std::string tag = type_tag<EA, EC, LA, LB, LC>();
  constexpr bool tensor = !std::is_same_v<EA, float>;
  for (const Shape& s : kShapes) {
    std::vector<Kind> kinds;
    // 16-bit inputs on CUDA: the tensor-core family against both cuBLAS entry points (the
    // FMA family's 16-bit numbers are in the earlier results). fp32: the FMA family.
    const bool tensor_family = TESSERA_BENCH_HAS_WGMMA && !std::is_same_v<EA, float>;
    if (TESSERA_BENCH_HAS_FMA && !tensor_family) kinds.push_back(Kind::kTesseraFma);
    if (tensor_family) kinds.push_back(Kind::kTesseraWgmma);
    if (TESSERA_BENCH_HAS_MFMA && tensor) kinds.push_back(Kind::kTesseraMfma);
    if (TESSERA_BENCH_HAS_BLAS) kinds.push_back(Kind::kBlas);
    if (tensor_family) kinds.push_back(Kind::kBlasLt);
    if (s.naive && std::is_same_v<EA, float>) kinds.push_back(Kind::kNaive);
    for (Kind k : kinds) {
      const std::string name = tag + "/" + kind_name(k) + "/" + s.str();
      benchmark::RegisterBenchmark(name.c_str(),
                                   [k, s](benchmark::State& st) { bench_gemm<EA, EA, EC, LA, LB, LC>(st, k, s); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(iterations_for(s, k, tensor))
          ->Repetitions(g_opt.repetitions)
          ->ReportAggregatesOnly(true);
    }
  }
}

// ---- context: what the numbers were measured on ------------------------------------------

Error add_context() {
  BENCH_TRY(add_device_context());
  BENCH_TRY(add_blas_context());
#if TESSERA_BENCH_HAS_WGMMA
  benchmark::AddCustomContext("tessera_wgmma", "WgmmaConfig<...> defaults: 128x256x64 Cooperative, no cluster");
  benchmark::AddCustomContext("cublaslt", "cublasLtMatmul COMPUTE_32F, fastest of the heuristic's top 8 (chosen once per problem)");
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
  int rest_argc = int(cl.rest.size());
  cl.rest.push_back(nullptr);
  benchmark::Initialize(&rest_argc, cl.rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, cl.rest.data())) return 1;

  // Registration needs no device, so that the list of benchmarks can be shown anywhere.
  register_type<float, float>();
#if defined(TESSERA_BENCH_16BIT_OUT_SAME)
  register_type<half_t, half_t>();
  register_type<bfloat16_t, bfloat16_t>();
#else
  register_type<half_t, float>();
  register_type<bfloat16_t, float>();
#endif
  if (!TESSERA_BENCH_HAS_BLAS) {  // HIP without rocBLAS: say why the baseline is absent
    std::fprintf(stderr, "tessera_bench: rocBLAS was not available at build time: no rocblas "
                         "benchmarks; outputs are checked against the naive kernel\n");
  }
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
#if TESSERA_BENCH_HAS_WGMMA
  if (setup.empty()) setup = init_blas_lt();
#endif
  if (!setup.empty()) {
    std::fprintf(stderr, "tessera_bench: setting up the device failed: %s\n", setup.c_str());
    return 2;
  }
  if (cl.print_device_name) {
    std::printf("%s\n", sanitize(g_dev.prop.name).c_str());
    return 0;
  }
  if (const Error err = add_context(); !err.empty()) {
    std::fprintf(stderr, "tessera_bench: %s\n", err.c_str());
    return 2;
  }
  if (!TESSERA_BENCH_HAS_FMA) {
    std::fprintf(stderr, "tessera_bench: tessera/gemm/fma_gemm.hpp was missing at build time: "
                         "running the baselines only\n");
  }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_problem.reset();  // device memory goes before the context does
#if TESSERA_BENCH_HAS_WGMMA
  release_blas_lt();
#endif
  release_blas();
  release_device();
  return 0;
}
