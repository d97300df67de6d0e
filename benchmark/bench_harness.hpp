// The measuring harness of tessera_bench, independent of what is measured: errors as
// messages, the options and the command line, the device with its one stream, device
// buffers and their fills, the L2 flush and the spin before each timed launch, the
// event-timed loop with its counters, and the JSON context describing the device.
//
// Like the rest of tessera_bench's headers, it is meant for the one translation unit
// tessera_bench.cu: everything is in an unnamed namespace and the device state is global.
#pragma once

#include <benchmark/benchmark.h>

#include "tessera/runtime/gpu.hpp"  // first of ours: it includes the runtime and sets TESSERA_HIP/CUDA

namespace gpu = tessera::gpu;

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_host.hpp"
#include "reference_gemm.hpp"
#include "tessera/core/numeric.hpp"

namespace {

// ---- errors: every runtime/BLAS call is checked; a failure becomes a message ------------

// Empty means success. Helpers return one; benchmarks turn it into SkipWithError.
using Error = std::string;

// "<file>:<line>" for a message: __FILE__ without its directories.
std::string source_line(const char* file, int line) {
  const char* slash = std::strrchr(file, '/');
  return std::string(slash ? slash + 1 : file) + ":" + std::to_string(line);
}

Error gpu_error(gpu::error_t e, const char* expr, const char* file, int line) {
  return std::string(gpu::kRuntimeName) + " error " + gpu::error_name(e) + " (" + gpu::error_string(e) +
         ") from " + expr + " at " + source_line(file, line);
}

#define BENCH_GPU(...)                                                                           \
  do {                                                                                           \
    const gpu::error_t bench_e_ = (__VA_ARGS__);                                                 \
    if (bench_e_ != gpu::kSuccess) return gpu_error(bench_e_, #__VA_ARGS__, __FILE__, __LINE__); \
  } while (0)
#define BENCH_TRY(...)                           \
  do {                                            \
    Error bench_err_ = (__VA_ARGS__);                    \
    if (!bench_err_.empty()) return bench_err_;   \
  } while (0)
// In a benchmark function: abandon this benchmark (not the run) with the error text.
#define BENCH_OR_SKIP(state, ...)                    \
  do {                                                \
    Error bench_err_ = (__VA_ARGS__);                        \
    if (!bench_err_.empty()) {                        \
      (state).SkipWithError(bench_err_.c_str());      \
      return;                                         \
    }                                                 \
  } while (0)

// ---- options ----------------------------------------------------------------------------

struct Options {
  bool hot = false;          // no L2 flush between iterations
  int repetitions = 5;       // median over these
  double target_ms = 50.0;   // aim for this much timed work per repetition...
  int min_iters = 10;        // ...within these bounds on iterations
  int max_iters = 100;
  std::uint64_t seed = 0;    // 0: fresh per run
  std::string shapes;        // --shapes: the LLM suite's shapes instead of its own (MxNxK,...)
  bool timing_given = false; // --reps, --target-ms or --*-iters given (else the sweep takes its own)
  std::uint64_t sweep_seed = 1;  // --sweep-seed: which shapes the sweep suite draws
  int sweep_count = 300;         // --sweep-count
  std::int64_t sweep_max_m = 0;  // --sweep-max-m: only the drawn shapes with M <= this (0: all)
  bool sweep_entries = false;    // --sweep-entries: also every entry of Auto's table
};
Options g_opt;

std::uint64_t next_seed() {
  static std::uint64_t seed = g_opt.seed ? g_opt.seed : tessera::test::fresh_seed();
  return seed++;
}

// ---- the device, one stream, the L2 flush buffer ------------------------------------------
// (the vendor BLAS handles, bound to this stream, are in vendor_blas.hpp)

struct Device {
  int id = 0;
  gpu::device_prop_t prop{};
  gpu::stream_t stream = nullptr;
  void* flush = nullptr;
  std::size_t flush_bytes = 0;
};
Device g_dev;

Error init_device() {
  BENCH_GPU(gpu::set_device(g_dev.id));
  BENCH_GPU(gpu::get_device_properties(&g_dev.prop, g_dev.id));
  BENCH_GPU(gpu::stream_create(&g_dev.stream));
  // Twice the L2: writing it evicts every line the previous iteration left behind.
  g_dev.flush_bytes = std::size_t(std::max(g_dev.prop.l2CacheSize, 1 << 20)) * 2;
  BENCH_GPU(gpu::malloc_bytes(&g_dev.flush, g_dev.flush_bytes));
  return {};
}

void release_device() {
  (void)gpu::free_bytes(g_dev.flush);  // errors at teardown: nothing useful to do with them
  (void)gpu::stream_destroy(g_dev.stream);
}

Error flush_l2(int iteration) {
  BENCH_GPU(gpu::memset_async(g_dev.flush, iteration & 0xff, g_dev.flush_bytes, g_dev.stream));
  return {};
}

// Keeps the GPU busy for a while before the start event, so that by the time it gets
// there the timed launch is already queued: otherwise, after an idle GPU (hot runs),
// the host's launch latency would be timed as if it were kernel time.
__global__ void spin_kernel(std::uint64_t ns) {
  const std::uint64_t t0 = gpu::clock_ns();
  while (gpu::clock_ns() - t0 < ns) {
  }
}

Error spin_before_timing() {
  spin_kernel<<<1, 1, 0, g_dev.stream>>>(50000);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

// ---- device buffers and fills -------------------------------------------------------------

// A copy in any direction, queued on the harness's stream (unified addressing tells the
// runtime the direction).
inline gpu::error_t copy_on_stream(void* dst, const void* src, std::size_t bytes) {
#if defined(TESSERA_HIP)
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, g_dev.stream);
#else
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, g_dev.stream);
#endif
}

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr) (void)gpu::free_bytes(ptr);  // nothing useful to do with an error at teardown
  }
  Error allocate(std::size_t n) {
    count = n;
    BENCH_GPU(gpu::malloc_elements(&ptr, std::max<std::size_t>(n, 1)));
    return {};
  }
  Error to_host(std::vector<T>& out) const { return to_host(out, 0, count); }
  // Elements [first, first + n) only (a few rows or batches of a large output).
  Error to_host(std::vector<T>& out, std::size_t first, std::size_t n) const {
    if (first + n > count) return "DeviceBuffer::to_host: range beyond the buffer";
    out.resize(n);
    BENCH_GPU(gpu::copy_to_host_async(out.data(), ptr + first, n * sizeof(T), g_dev.stream));
    BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
    return {};
  }
  // Host data in, on the harness's stream (gpu.hpp's copy_to_device uses the legacy
  // stream, which the harness's non-blocking stream does not wait for).
  Error from_host(const std::vector<T>& in) {
    if (in.size() != count) return "DeviceBuffer::from_host: size mismatch";
    BENCH_GPU(copy_on_stream(ptr, in.data(), count * sizeof(T)));
    BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
    return {};
  }
  // Another buffer's contents, queued on the harness's stream (no wait).
  Error copy_from(const DeviceBuffer<T>& src) {
    if (src.count != count) return "DeviceBuffer::copy_from: size mismatch";
    BENCH_GPU(copy_on_stream(ptr, src.ptr, count * sizeof(T)));
    return {};
  }
};

// The fill kernels' block size. A constant rather than blockDim, and the grid size an
// argument rather than gridDim: HIP reads both through ockl, which the HIP build lacks.
constexpr unsigned kFillThreads = 256;

// Uniform in [-1, 1) from a counter-based hash: reproducible from the seed, different
// for every seed, and never zero after rounding to T (zeros hide indexing bugs).
template <class T>
__global__ void fill_random_kernel(T* p, std::size_t n, std::uint64_t seed, unsigned blocks) {
  for (std::size_t i = gpu::block_x() * std::size_t(kFillThreads) + gpu::thread_x(); i < n;
       i += std::size_t(blocks) * kFillThreads) {
    const std::uint64_t h = splitmix64(seed ^ splitmix64(i));
    const float u = float(h >> 40) * 0x1p-24f;  // [0, 1)
    T t = T(2.0f * u - 1.0f);
    if (tessera::to_float(t) == 0.0f) t = T(0.5f);
    p[i] = t;
  }
}

template <class T>
__global__ void fill_value_kernel(T* p, std::size_t n, T value, unsigned blocks) {
  for (std::size_t i = gpu::block_x() * std::size_t(kFillThreads) + gpu::thread_x(); i < n;
       i += std::size_t(blocks) * kFillThreads) {
    p[i] = value;
  }
}

unsigned fill_blocks(std::size_t n) {
  return unsigned(std::min<std::size_t>((n + kFillThreads - 1) / kFillThreads,
                                        std::size_t(g_dev.prop.multiProcessorCount) * 32));
}

template <class T>
Error fill_random(DeviceBuffer<T>& b, std::uint64_t seed) {
  const unsigned blocks = fill_blocks(b.count);
  fill_random_kernel<<<blocks, kFillThreads, 0, g_dev.stream>>>(b.ptr, b.count, seed, blocks);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

template <class T>
Error fill_poison(DeviceBuffer<T>& b) {
  const unsigned blocks = fill_blocks(b.count);
  fill_value_kernel<<<blocks, kFillThreads, 0, g_dev.stream>>>(
      b.ptr, b.count, tessera::test::poison_value<T>(), blocks);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

// ---- the timed loop ------------------------------------------------------------------------

struct Events {
  gpu::event_t start = nullptr, stop = nullptr;
  Events() = default;
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  Error create() {
    BENCH_GPU(gpu::event_create(&start));
    BENCH_GPU(gpu::event_create(&stop));
    return {};
  }
  ~Events() {
    if (start) (void)gpu::event_destroy(start);  // HIP marks its errors nodiscard
    if (stop) (void)gpu::event_destroy(stop);
  }
};

// One call of `launch` between two events: the L2 flushed first (unless --hot) and the
// spin queued, both before the start event, so neither is timed.
template <class Launch>
Error timed_call(const Events& ev, int iteration, const Launch& launch, double& seconds) {
  if (!g_opt.hot) BENCH_TRY(flush_l2(iteration));
  BENCH_TRY(spin_before_timing());
  BENCH_GPU(gpu::event_record(ev.start, g_dev.stream));
  BENCH_TRY(launch());
  BENCH_GPU(gpu::event_record(ev.stop, g_dev.stream));
  BENCH_GPU(gpu::event_synchronize(ev.stop));
  float ms = 0.0f;
  BENCH_GPU(gpu::event_elapsed_ms(&ms, ev.start, ev.stop));
  seconds = double(ms) * 1e-3;
  return {};
}

// Times one call of `launch` (returning Error) per benchmark iteration, as manual time,
// and sets the TFLOP/s (when flops > 0) and GB/s counters from `flops` and `bytes` per
// call; `mean_seconds`, when given, receives the mean time per call. An error in the loop
// skips the benchmark there; an error before it (the events) is returned, with nothing
// timed.
template <class Launch>
Error time_iterations(benchmark::State& state, double flops, double bytes, const Launch& launch,
                      double* mean_seconds = nullptr) {
  Events ev;
  BENCH_TRY(ev.create());
  int iteration = 0;
  double total = 0.0;
  for (auto _ : state) {
    double seconds = 0.0;
    const Error err = timed_call(ev, iteration++, launch, seconds);
    if (!err.empty()) {
      state.SkipWithError(err.c_str());
      break;
    }
    state.SetIterationTime(seconds);
    total += seconds;
  }
  if (total > 0.0) {
    const double n = double(state.iterations());
    if (flops > 0.0) state.counters["TFLOP/s"] = benchmark::Counter(flops * n / total / 1e12);
    state.counters["GB/s"] = benchmark::Counter(bytes * n / total / 1e9);
    if (mean_seconds) *mean_seconds = total / n;
  }
  return {};
}

// The median time of `runs` calls of `launch`, each timed as above (for a reference
// measured while a problem is set up, outside any benchmark).
template <class Launch>
Error median_seconds(int runs, const Launch& launch, double& median) {
  Events ev;
  BENCH_TRY(ev.create());
  std::vector<double> t(std::size_t(std::max(runs, 1)));
  for (std::size_t i = 0; i < t.size(); ++i) BENCH_TRY(timed_call(ev, int(i), launch, t[i]));
  std::sort(t.begin(), t.end());
  median = t[t.size() / 2];
  return {};
}

// The fastest of `count` candidates (the algorithms a vendor library proposes): launch(i)
// queues one call of candidate i on the harness's stream, timed 3 times between events (no
// flush), and `best` gets the smallest median. A candidate whose launch fails is passed
// over; when none ran, the error names `vendor` and the last failure.
template <class Launch>
Error fastest_candidate(const char* vendor, int count, const Launch& launch, int& best) {
  Events ev;
  BENCH_TRY(ev.create());
  float best_ms = 0.0f;
  best = -1;
  Error last_failure;
  for (int i = 0; i < count; ++i) {
    std::vector<float> ms;
    for (int r = 0; r < 3; ++r) {
      BENCH_GPU(gpu::event_record(ev.start, g_dev.stream));
      last_failure = launch(i);
      if (!last_failure.empty()) break;
      BENCH_GPU(gpu::event_record(ev.stop, g_dev.stream));
      BENCH_GPU(gpu::event_synchronize(ev.stop));
      float t = 0.0f;
      BENCH_GPU(gpu::event_elapsed_ms(&t, ev.start, ev.stop));
      ms.push_back(t);
    }
    if (ms.size() < 3) continue;
    std::sort(ms.begin(), ms.end());
    if (best < 0 || ms[1] < best_ms) {
      best_ms = ms[1];
      best = i;
    }
  }
  BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
  if (best < 0) return std::string("no algorithm ") + vendor + " proposed ran: " + last_failure;
  return {};
}

// ---- context: what the numbers were measured on ------------------------------------------

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (keep) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "unknown_device" : out;
}

std::string version(int v) {  // the runtime's encoding -> "13.0" (CUDA), "5.2.21153" (HIP)
  char b[32];
  gpu::format_version(v, b, sizeof b);
  return b;
}

// The device, its runtime and the harness's settings; the vendor BLAS and Tessera add
// their own entries (vendor_blas.hpp, tessera_bench.cu).
Error add_device_context() {
  const gpu::device_prop_t& p = g_dev.prop;
  int sm_khz = 0, mem_khz = 0, bus_bits = 0, driver = 0, runtime = 0;
  BENCH_GPU(gpu::sm_clock_khz(&sm_khz, g_dev.id));
  BENCH_GPU(gpu::mem_clock_khz(&mem_khz, g_dev.id));
  BENCH_GPU(gpu::mem_bus_bits(&bus_bits, g_dev.id));
  BENCH_GPU(gpu::driver_version(&driver));
  BENCH_GPU(gpu::runtime_version(&runtime));
  auto fmt = [](double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", x);
    return std::string(b);
  };
  benchmark::AddCustomContext("device", p.name);
  benchmark::AddCustomContext("device_file_name", sanitize(p.name));
#if defined(TESSERA_CUDA)
  // FP32 FMA peak: 128 FP32 lanes per SM on sm_80 and later, 2 flops per FMA.
  const double fp32_peak = double(p.multiProcessorCount) * 128 * 2 * sm_khz * 1e3 / 1e12;
  benchmark::AddCustomContext("compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor));
  benchmark::AddCustomContext("sm_count", std::to_string(p.multiProcessorCount));
#else
  // FP32 vector peak as AMD quotes it for CDNA3/CDNA4: 256 flops per clock per CU, which
  // counts packed FP32 (v_pk_fma_f32, two FMAs per lane); plain v_fma_f32 reaches half.
  const double fp32_peak = double(p.multiProcessorCount) * 256 * sm_khz * 1e3 / 1e12;
  benchmark::AddCustomContext("gcn_arch", p.gcnArchName);
  benchmark::AddCustomContext("cu_count", std::to_string(p.multiProcessorCount));
#endif
  benchmark::AddCustomContext("sm_clock_max_mhz", std::to_string(sm_khz / 1000));
  benchmark::AddCustomContext("mem_clock_max_mhz", std::to_string(mem_khz / 1000));
  benchmark::AddCustomContext("mem_bus_bits", std::to_string(bus_bits));
  benchmark::AddCustomContext("l2_bytes", std::to_string(p.l2CacheSize));
  benchmark::AddCustomContext("global_mem_gib", fmt(double(p.totalGlobalMem) / (1ull << 30)));
  benchmark::AddCustomContext("fp32_fma_peak_tflops", fmt(fp32_peak));
#if defined(TESSERA_CUDA)
  benchmark::AddCustomContext("cuda_driver", version(driver));
  benchmark::AddCustomContext("cuda_runtime", version(runtime));
#else
  benchmark::AddCustomContext("hip_driver", version(driver));
  benchmark::AddCustomContext("hip_runtime", version(runtime));
#endif
  benchmark::AddCustomContext("l2_flush", g_opt.hot ? "off (--hot)"
                                                    : "on (memset of " + std::to_string(g_dev.flush_bytes >> 20) +
                                                          " MiB before each iteration)");
  benchmark::AddCustomContext("repetitions", std::to_string(g_opt.repetitions));
  benchmark::AddCustomContext("seed", std::to_string(next_seed()));
  return {};
}

// ---- the command line ---------------------------------------------------------------------

void usage() {
  std::printf(
      "tessera_bench [tessera options] [Google Benchmark options]\n"
      "  --suite=A,B       the suites to register (names below, or all)\n"
      "  --hot             no L2 flush between iterations (env TESSERA_BENCH_HOT=1)\n"
      "  --reps=N          repetitions per benchmark, median reported (default 5)\n"
      "  --target-ms=T     timed work per repetition used to pick iterations (default 50)\n"
      "  --min-iters=N     --max-iters=N   bounds on iterations (default 10, 100)\n"
      "  --seed=S          fixed input seed (default: fresh every run)\n"
      "  --shapes=MxNxK,.. the llm suite's shapes instead of its list (e.g. --shapes=2048x2304x4096,1536x1536x16384)\n"
      "  --sweep-seed=S --sweep-count=N   the sweep suite's shapes (default 1, 300)\n"
      "  --sweep-max-m=M   of those, only the shapes with M <= M (an A/B of one regime, same labels)\n"
      "  --sweep-entries   the sweep also times every entry of Auto's table (calibration)\n"
      "  --device-name     print the device name as used in result file names, and exit\n"
      "  e.g. --suite=llm --benchmark_filter='^llm_bf16/' --benchmark_out=r.json --benchmark_out_format=json\n\n");
}

struct CommandLine {
  bool print_device_name = false;
  bool list_only = false;
  bool help = false;
  std::string suites;       // --suite: empty for the build's default
  std::vector<char*> rest;  // argv[0] and what Google Benchmark is to see
};

// Our flags into g_opt (and the suites into the command line); what is left goes to
// Google Benchmark.
CommandLine parse_command_line(int argc, char** argv) {
  CommandLine cl;
  cl.rest = {argv[0]};
  if (const char* h = std::getenv("TESSERA_BENCH_HOT")) g_opt.hot = std::strcmp(h, "0") != 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) { return a.substr(std::strlen(flag)); };
    if (a == "--hot") {
      g_opt.hot = true;
    } else if (a.rfind("--suite=", 0) == 0) {
      cl.suites = value("--suite=");
    } else if (a.rfind("--reps=", 0) == 0) {
      g_opt.timing_given = true;
      g_opt.repetitions = std::max(1, std::atoi(value("--reps=").c_str()));
    } else if (a.rfind("--target-ms=", 0) == 0) {
      g_opt.timing_given = true;
      g_opt.target_ms = std::atof(value("--target-ms=").c_str());
    } else if (a.rfind("--min-iters=", 0) == 0) {
      g_opt.timing_given = true;
      g_opt.min_iters = std::max(1, std::atoi(value("--min-iters=").c_str()));
    } else if (a.rfind("--max-iters=", 0) == 0) {
      g_opt.timing_given = true;
      g_opt.max_iters = std::max(1, std::atoi(value("--max-iters=").c_str()));
    } else if (a.rfind("--shapes=", 0) == 0) {
      g_opt.shapes = value("--shapes=");
    } else if (a.rfind("--seed=", 0) == 0) {
      g_opt.seed = std::strtoull(value("--seed=").c_str(), nullptr, 0);
    } else if (a.rfind("--sweep-seed=", 0) == 0) {
      g_opt.sweep_seed = std::strtoull(value("--sweep-seed=").c_str(), nullptr, 0);
    } else if (a.rfind("--sweep-count=", 0) == 0) {
      g_opt.sweep_count = std::max(1, std::atoi(value("--sweep-count=").c_str()));
    } else if (a.rfind("--sweep-max-m=", 0) == 0) {
      g_opt.sweep_max_m = std::max<std::int64_t>(0, std::atoll(value("--sweep-max-m=").c_str()));
    } else if (a == "--sweep-entries") {
      g_opt.sweep_entries = true;
    } else if (a == "--device-name") {
      cl.print_device_name = true;
    } else {
      if (a == "--help" || a == "-h") {
        usage();
        cl.help = true;
      }
      if (a == "--benchmark_list_tests" || a == "--benchmark_list_tests=true") cl.list_only = true;
      cl.rest.push_back(argv[i]);
    }
  }
  g_opt.max_iters = std::max(g_opt.max_iters, g_opt.min_iters);
  return cl;
}

}  // namespace
