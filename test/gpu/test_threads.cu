// The host API from many host threads (label `gpu`; needs an sm_90 device, skipped
// elsewhere): N threads x several calls of Gemm<Config>::run, each thread starting cold
// (no CUDA call of its own before its first Tessera call: buffers, streams and workspaces
// are made by the main thread), for the FMA and wgmma families on every path (FMA: vector,
// scalar and split-K; wgmma: TMA, packed with a workspace, packed with only D misaligned
// and no workspace, generic), results bitwise equal to the same call made by the main
// thread, which is checked against the float64 reference. Then the same calls captured into
// CUDA graphs by worker threads (cudaStreamCaptureModeThreadLocal and Global), a context the
// caller made current with the driver API, and the cost of the per-call context step.
//
// The worker threads run first, so the per-kernel caches (dynamic shared-memory opt-in,
// resident clusters) are filled by threads racing each other. Catch2's assertions are not
// thread-safe: workers record what they saw, the main thread checks it.
// Tags: [cold] the cold-thread cases (what the context step fixes), [capture], [driver],
// [cost], [sanitize] the reduced cross-section for compute-sanitizer.
#include "tessera/gemm/fma/fma.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"

#include "gemm_case.hpp"
#include "status_string.hpp"

#include <cuda.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "tessera/runtime/context.hpp"
#include "tessera/runtime/cuda_driver.hpp"

using namespace tessera;
using gemm::TmaPath;
using tessera::test::CaseShape;
using tessera::test::DeviceBuffer;

namespace {

constexpr int kThreads = 8;
constexpr int kCalls = 3;

using Fp32 = gemm::FmaConfig<Sm90, float, RowMajor, float, ColumnMajor, float, RowMajor>;
using Bf16Tn = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
using Bf16TnCluster = gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                        gemm::option::Tile<GemmShape<128, 256, 64>>,
                                        gemm::option::Schedule<schedule::Cooperative>, gemm::option::Cluster<2, 1>>;

enum class Mode { kDirect, kCaptureThreadLocal, kCaptureGlobal };
const char* mode_name(Mode m) {
  return m == Mode::kDirect ? "direct" : m == Mode::kCaptureThreadLocal ? "capture ThreadLocal" : "capture Global";
}

// std::barrier is C++20.
class Barrier {
 public:
  explicit Barrier(int count) : count_(count), left_(count) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const int generation = generation_;
    if (--left_ == 0) {
      ++generation_;
      left_ = count_;
      done_.notify_all();
      return;
    }
    done_.wait(lock, [&] { return generation != generation_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  int count_, left_, generation_ = 0;
};

bool context_is_current() {
  CUcontext context = nullptr;
  return ok(current_context(&context)) && context != nullptr;
}

CUcontext this_threads_context() {
  CUcontext context = nullptr;
  (void)current_context(&context);
  return context;
}

// What one worker thread saw.
struct Report {
  bool context_before = true;  // a context was current before its first Tessera call
  Status can_implement = Status::kErrorRuntime;
  std::size_t workspace_bytes = 0;
  std::vector<Status> runs;
  cudaError_t capture_end = cudaSuccess, graph = cudaSuccess, sync = cudaErrorUnknown;
  CUcontext context_after = nullptr;
  int device_after = -1;
};

// One case run from many threads: shared inputs, one poisoned D per (thread, call) and one
// for the main thread's run, one stream and one workspace per thread.
template <class Config>
struct ThreadedCase {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using Args = gemm::Arguments<EA, EB, EC>;
  using G = gemm::Gemm<Config>;

  CaseShape shape;
  int threads, calls;
  std::uint64_t seed;
  test::HostCase<Config> host;
  DeviceBuffer<EA> a;
  DeviceBuffer<EB> b;
  DeviceBuffer<EC> c;
  std::vector<std::unique_ptr<DeviceBuffer<EC>>> d;  // [0]: the main thread's; then thread t call i at 1 + t*calls + i
  std::size_t workspace_size = 0;   // what workspace_size(args) says on the main thread
  std::size_t workspace_bytes = 0;  // what each run gets: workspace_size, or 0 where the case gives none
  std::vector<void*> workspaces;          // [0]: the main thread's; [1 + t]: thread t's
  std::vector<cudaStream_t> streams;      // the same
  std::vector<Report> reports;

  ThreadedCase(const CaseShape& s, int threads_, int calls_)
      : shape(s), threads(threads_), calls(calls_), seed(test::fresh_seed()), host(s, seed), a(host.a), b(host.b),
        c(host.c) {
    for (int i = 0; i < 1 + threads * calls; ++i) d.push_back(std::make_unique<DeviceBuffer<EC>>(host.d));
    workspace_size = G::workspace_size(args(0));
    workspace_bytes = s.workspace ? workspace_size : 0;
    if (s.must_split) REQUIRE(workspace_bytes > 0);
    for (int t = 0; t <= threads; ++t) {
      void* w = nullptr;
      if (workspace_bytes > 0) {
        REQUIRE_CUDA(cudaMalloc(&w, workspace_bytes));
        REQUIRE_CUDA(cudaMemset(w, 0xff, workspace_bytes));  // NaN: what is read must be written first
      }
      workspaces.push_back(w);
      cudaStream_t st = nullptr;
      REQUIRE_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
      streams.push_back(st);
    }
    reports.resize(std::size_t(threads));
  }
  ~ThreadedCase() {
    for (void* w : workspaces) cudaFree(w);
    for (cudaStream_t st : streams) cudaStreamDestroy(st);
  }

  Args args(int index) const { return host.arguments(a.ptr, b.ptr, c.ptr, d[std::size_t(index)]->ptr); }
  int index(int thread, int call) const { return 1 + thread * calls + call; }

  // Thread t's work. Direct: its first Tessera call is run, workspace_size or can_implement
  // (by t % 3), so that each entry point is some thread's first. Captured: cudaStreamBegin-
  // Capture comes first (it binds the context itself), then the runs, captured.
  void work(int t, Mode mode, Barrier& start, Barrier& captured) {
    Report& r = reports[std::size_t(t)];
    r.context_before = context_is_current();
    cudaStream_t stream = streams[std::size_t(1 + t)];
    void* workspace = workspaces[std::size_t(1 + t)];
    const Args first = args(index(t, 0));
    bool sized = false, checked = false;
    start.arrive_and_wait();  // every thread makes its first call at once
    if (mode == Mode::kDirect && t % 3 == 1) r.workspace_bytes = G::workspace_size(first), sized = true;
    if (mode == Mode::kDirect && t % 3 == 2) r.can_implement = G::can_implement(first), checked = true;
    cudaGraph_t graph = nullptr;
    if (mode != Mode::kDirect) {
      const auto capture = mode == Mode::kCaptureGlobal ? cudaStreamCaptureModeGlobal : cudaStreamCaptureModeThreadLocal;
      r.graph = cudaStreamBeginCapture(stream, capture);
    }
    for (int i = 0; i < calls; ++i) r.runs.push_back(G::run(args(index(t, i)), workspace, stream));
    if (mode != Mode::kDirect) {
      r.capture_end = cudaStreamEndCapture(stream, &graph);
      // No thread instantiates or launches while another still captures (Global mode
      // forbids other threads' unsafe calls then; the library's own calls are what is tested).
      captured.arrive_and_wait();
      cudaGraphExec_t exec = nullptr;
      if (r.graph == cudaSuccess && r.capture_end == cudaSuccess) r.graph = cudaGraphInstantiate(&exec, graph, 0);
      if (r.graph == cudaSuccess) r.graph = cudaGraphLaunch(exec, stream);
      r.sync = cudaStreamSynchronize(stream);
      if (exec != nullptr) cudaGraphExecDestroy(exec);
      if (graph != nullptr) cudaGraphDestroy(graph);
    } else {
      r.sync = cudaStreamSynchronize(stream);
    }
    if (!sized) r.workspace_bytes = G::workspace_size(first);
    if (!checked) r.can_implement = G::can_implement(first);
    r.context_after = this_threads_context();
    cudaGetDevice(&r.device_after);
  }

  // The main thread's call, checked against the float64 reference; its output's bytes.
  std::vector<EC> run_on_main_thread() {
    const Status st = G::run(args(0), workspaces[0], streams[0]);
    INFO("main thread: " << status_name(st));
    REQUIRE(st == Status::kSuccess);
    REQUIRE_CUDA(cudaStreamSynchronize(streams[0]));
    std::vector<EC> out = d[0]->download_with_guard();
    const test::CaseOutcome r = host.check_output(out, DeviceBuffer<EC>::kGuard);
    CHECK_CASE_OUTCOME(shape, r);
    return out;
  }
};

template <class Config>
TmaPath path_of(const gemm::Arguments<typename Config::ElementA, typename Config::ElementB,
                                        typename Config::ElementC>& a,
                  const void* workspace) {
  if constexpr (std::is_same_v<typename Config::Family, gemm::WgmmaFamily>) {
    return gemm::tma_path<Config>(a, workspace);
  } else {
    return TmaPath::kRealigning;  // not asked of the FMA family
  }
}

enum class Workspace { kNone, kGiven };

// `workspace`: every run gets workspace_size(args) bytes, or none. `path`: the wgmma path the
// case must take (ignored for FMA). `cold`: every worker must start with no context current
// (false where a tool may bind one, e.g. under a sanitizer).
template <class Config>
void run_threaded(CaseShape s, Workspace workspace, Mode mode, TmaPath path = TmaPath::kRealigning,
                  int threads = kThreads, int calls = kCalls, bool cold = true) {
  s.workspace = workspace == Workspace::kGiven;
  // The main thread binds its context with the runtime itself, not with the library's step, so
  // that a broken step shows only where it matters: in the cold workers.
  int device = -1;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaSetDevice(device));
  const CUcontext main_context = this_threads_context();
  REQUIRE(main_context != nullptr);

  ThreadedCase<Config> tc(s, threads, calls);
  INFO(test::describe_case<Config>(s, tc.seed) << ", " << threads << " threads x " << calls << " calls, "
                                               << mode_name(mode) << ", workspace bytes " << tc.workspace_bytes);
  if constexpr (std::is_same_v<typename Config::Family, gemm::WgmmaFamily>) {
    INFO("path " << gemm::path_name(path_of<Config>(tc.args(0), tc.workspaces[0])));
    REQUIRE(path_of<Config>(tc.args(0), tc.workspaces[0]) == path);
  }
  Barrier start(threads), captured(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) workers.emplace_back([&, t] { tc.work(t, mode, start, captured); });
  for (std::thread& w : workers) w.join();

  const std::vector<typename Config::ElementC> expected = tc.run_on_main_thread();
  int cold_threads = 0;
  for (int t = 0; t < threads; ++t) {
    const Report& r = tc.reports[std::size_t(t)];
    INFO("thread " << t);
    cold_threads += r.context_before ? 0 : 1;
    if (cold && mode == Mode::kDirect) CHECK_FALSE(r.context_before);
    for (int i = 0; i < calls; ++i) {
      INFO("call " << i);
      CHECK(r.runs[std::size_t(i)] == Status::kSuccess);
    }
    CHECK(r.can_implement == Status::kSuccess);
    CHECK(r.workspace_bytes == tc.workspace_size);
    CHECK(r.capture_end == cudaSuccess);
    CHECK(r.graph == cudaSuccess);
    CHECK(r.sync == cudaSuccess);
    CHECK(r.context_after == main_context);  // the device's primary context, the runtime's
    CHECK(r.device_after == device);
    for (int i = 0; i < calls; ++i) {
      INFO("call " << i);
      const auto got = tc.d[std::size_t(tc.index(t, i))]->download_with_guard();
      REQUIRE(got.size() == expected.size());
      // Every byte of the allocation: the matrix, the padding and the guard after it.
      CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(got[0])) == 0);
    }
  }
  std::printf("threads: %-5s %s %lldx%lldx%lld pad %lld%s, %s, %d x %d calls: %d of %d threads started with no context\n",
              std::is_same_v<typename Config::Family, gemm::WgmmaFamily> ? "wgmma" : "fma",
              std::is_same_v<typename Config::Family, gemm::WgmmaFamily>
                  ? gemm::path_name(path_of<Config>(tc.args(0), tc.workspaces[0]))
                  : (s.workspace ? "split-K" : "direct"),
              (long long)s.M, (long long)s.N, (long long)s.K, (long long)s.pad, s.workspace ? " +workspace" : "",
              mode_name(mode), threads, calls, cold_threads, threads);
}

// The wgmma cases, one per path. TMA: every extent (so every leading dimension) a multiple
// of 8 elements, 16 bytes. Odd: odd extents, leading dimensions padded by 1. Only D: A
// row-major and B column-major have K-long lines (K a multiple of 8), D row-major has
// N-long lines, N odd (the issue's shape, smaller).
const CaseShape kWgmmaTma = {520, 1032, 264, 0, 1.0f, 0.5f};
const CaseShape kWgmmaOdd = {513, 1031, 263, 1, 1.0f, -1.0f};
const CaseShape kWgmmaOnlyD = {256, 1001, 512, 0, 1.0f, 0.0f};

template <class Config>
void wgmma_paths(Mode mode) {
  run_threaded<Config>(kWgmmaTma, Workspace::kNone, mode, TmaPath::kTma);
  run_threaded<Config>(kWgmmaOdd, Workspace::kGiven, mode, TmaPath::kPacked);
  run_threaded<Config>(kWgmmaOnlyD, Workspace::kNone, mode, TmaPath::kPacked);
  run_threaded<Config>(kWgmmaOnlyD, Workspace::kGiven, mode, TmaPath::kPacked);
  run_threaded<Config>(kWgmmaOdd, Workspace::kNone, mode, TmaPath::kRealigning);
}

// FMA: vector loads (every extent a multiple of 4), scalar loads (odd leading dimensions),
// split-K through the workspace (few tiles, deep K).
void fma_paths(Mode mode) {
  run_threaded<Fp32>({264, 520, 200, 0, 1.0f, 0.5f}, Workspace::kNone, mode);
  run_threaded<Fp32>({257, 130, 100, 1, 1.0f, -1.0f}, Workspace::kNone, mode);
  CaseShape split{16, 300, 1000, 0, 1.0f, 1.0f};
  split.must_split = true;
  run_threaded<Fp32>(split, Workspace::kGiven, mode);
}

}  // namespace

TEST_CASE("cold threads: FMA family, vector, scalar and split-K", "[gpu][threads][cold][fma]") {
  fma_paths(Mode::kDirect);
}

TEST_CASE("cold threads: wgmma family, TMA, packed and realigning paths", "[gpu][threads][cold][wgmma]") {
  wgmma_paths<Bf16Tn>(Mode::kDirect);
}

TEST_CASE("cold threads: wgmma family in clusters of 2", "[gpu][threads][cold][wgmma][cluster]") {
  run_threaded<Bf16TnCluster>(kWgmmaTma, Workspace::kNone, Mode::kDirect, TmaPath::kTma);
  run_threaded<Bf16TnCluster>(kWgmmaOdd, Workspace::kGiven, Mode::kDirect, TmaPath::kPacked);
}

TEST_CASE("graph capture from worker threads, ThreadLocal and Global", "[gpu][threads][capture]") {
  for (Mode mode : {Mode::kCaptureThreadLocal, Mode::kCaptureGlobal}) {
    fma_paths(mode);
    wgmma_paths<Bf16Tn>(mode);
    run_threaded<Bf16TnCluster>(kWgmmaTma, Workspace::kNone, mode, TmaPath::kTma);
  }
}

// A thread that made its own context current (cuCtxCreate) keeps it: Tessera's calls run
// there (its buffers live there), and the per-kernel opt-in made earlier in the primary
// context does not stand in for this context's.
TEST_CASE("a context the caller made current with the driver API is used as it is", "[gpu][threads][driver]") {
  using Create = CUresult (*)(CUcontext*, CUctxCreateParams*, unsigned, CUdevice);
  using Destroy = CUresult (*)(CUcontext);
  using DeviceGet = CUresult (*)(CUdevice*, int);
  static DriverFunction<Create> create{"cuCtxCreate", 12050};
  static DriverFunction<Destroy> destroy{"cuCtxDestroy", 4000};
  static DriverFunction<DeviceGet> device_get{"cuDeviceGet", 2000};
  Create create_fn = nullptr;
  Destroy destroy_fn = nullptr;
  DeviceGet device_get_fn = nullptr;
  REQUIRE(create.get(&create_fn) == Status::kSuccess);
  REQUIRE(destroy.get(&destroy_fn) == Status::kSuccess);
  REQUIRE(device_get.get(&device_get_fn) == Status::kSuccess);

  // The reference, in the primary context (which also makes the opt-in there first).
  const CaseShape s = kWgmmaTma;
  ThreadedCase<Bf16Tn> tc(s, 0, 0);
  const std::vector<bfloat16_t> expected = tc.run_on_main_thread();

  struct Seen {
    CUresult created = CUDA_ERROR_UNKNOWN, destroyed = CUDA_ERROR_UNKNOWN;
    CUcontext own = nullptr, before = nullptr, after = nullptr;
    cudaError_t setup = cudaErrorUnknown, sync = cudaErrorUnknown;
    Status run = Status::kErrorRuntime;
    std::vector<bfloat16_t> out;
  } seen;
  std::thread worker([&] {
    CUdevice dev = 0;
    if (device_get_fn(&dev, 0) != CUDA_SUCCESS) return;
    seen.created = create_fn(&seen.own, nullptr, 0, dev);  // created and current on this thread
    if (seen.created != CUDA_SUCCESS) return;
    seen.before = this_threads_context();
    // The operands again, allocated in this context.
    const auto& h = tc.host;
    bfloat16_t *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
    cudaStream_t stream = nullptr;
    const std::size_t d_elements = expected.size();
    seen.setup = cudaMalloc(&a, h.a.size() * sizeof(bfloat16_t));
    if (seen.setup == cudaSuccess) seen.setup = cudaMalloc(&b, h.b.size() * sizeof(bfloat16_t));
    if (seen.setup == cudaSuccess) seen.setup = cudaMalloc(&c, h.c.size() * sizeof(bfloat16_t));
    if (seen.setup == cudaSuccess) seen.setup = cudaMalloc(&d, d_elements * sizeof(bfloat16_t));
    if (seen.setup == cudaSuccess) seen.setup = cudaMemcpy(a, h.a.data(), h.a.size() * 2, cudaMemcpyHostToDevice);
    if (seen.setup == cudaSuccess) seen.setup = cudaMemcpy(b, h.b.data(), h.b.size() * 2, cudaMemcpyHostToDevice);
    if (seen.setup == cudaSuccess) seen.setup = cudaMemcpy(c, h.c.data(), h.c.size() * 2, cudaMemcpyHostToDevice);
    std::vector<bfloat16_t> poisoned(d_elements, test::poison_value<bfloat16_t>());
    if (seen.setup == cudaSuccess) seen.setup = cudaMemcpy(d, poisoned.data(), d_elements * 2, cudaMemcpyHostToDevice);
    if (seen.setup == cudaSuccess) seen.setup = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (seen.setup == cudaSuccess) {
      seen.run = gemm::Gemm<Bf16Tn>::run(h.arguments(a, b, c, d), nullptr, stream);
      seen.sync = cudaStreamSynchronize(stream);
      seen.after = this_threads_context();
      seen.out.resize(d_elements);
      if (cudaMemcpy(seen.out.data(), d, d_elements * 2, cudaMemcpyDeviceToHost) != cudaSuccess) seen.out.clear();
    }
    if (stream != nullptr) cudaStreamDestroy(stream);
    for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(c), static_cast<void*>(d)}) {
      if (p != nullptr) cudaFree(p);
    }
    seen.destroyed = destroy_fn(seen.own);
  });
  worker.join();
  INFO(test::describe_case<Bf16Tn>(s, tc.seed));
  REQUIRE(seen.created == CUDA_SUCCESS);
  CHECK(seen.before == seen.own);
  REQUIRE(seen.setup == cudaSuccess);
  CHECK(seen.run == Status::kSuccess);
  CHECK(seen.sync == cudaSuccess);
  CHECK(seen.after == seen.own);  // not switched to the primary context
  CHECK(seen.own != this_threads_context());
  REQUIRE(seen.out.size() == expected.size());
  CHECK(std::memcmp(seen.out.data(), expected.data(), expected.size() * sizeof(bfloat16_t)) == 0);
  CHECK(seen.destroyed == CUDA_SUCCESS);
}

// What the step costs per call on a thread that has a context (the common case), beside
// what the device facts cost when queried (the cache's fill), and on a fresh thread. The
// numbers are printed for the notes; the bound only says "no device query per call".
TEST_CASE("the per-call context step is cheap", "[gpu][threads][cost]") {
  using Clock = std::chrono::steady_clock;
  constexpr int kRepeats = 200000;
  int device = -1;
  REQUIRE(bind_thread_context(&device) == Status::kSuccess);
  auto per_call_ns = [](int repeats, auto&& f) {
    const auto t0 = Clock::now();
    for (int i = 0; i < repeats; ++i) f();
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / repeats;
  };
  Status worst = Status::kSuccess;
  const double bind_ns = per_call_ns(kRepeats, [&] {
    const Status s = bind_thread_context(&device);
    if (!ok(s)) worst = s;
  });
  DeviceInfo info;
  const double facts_ns = per_call_ns(kRepeats, [&] {
    const Status s = current_device(&info);
    if (!ok(s)) worst = s;
  });
  const double get_device_ns = per_call_ns(kRepeats, [&] { cudaGetDevice(&device); });
  const double query_ns = per_call_ns(kRepeats / 100, [&] {
    DeviceInfo fresh;
    const Status s = detail::query_device(device, &fresh);
    if (!ok(s)) worst = s;
  });
  double fresh_thread_us = 0.0;
  for (int t = 0; t < 8; ++t) {
    std::thread fresh([&] {
      const auto t0 = Clock::now();
      int d = -1;
      const Status s = bind_thread_context(&d);
      if (!ok(s)) worst = s;
      fresh_thread_us += std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / 8;
    });
    fresh.join();
  }
  std::printf(
      "cost per call (host): bind_thread_context %.1f ns, current_device (step + cached facts) %.1f ns, "
      "cudaGetDevice alone %.1f ns; device facts queried (the cache's fill) %.1f ns; first bind on a fresh "
      "thread %.1f us\n",
      bind_ns, facts_ns, get_device_ns, query_ns, fresh_thread_us);
  CHECK(worst == Status::kSuccess);
  CHECK(bind_ns < 1000.0);
  CHECK(facts_ns < 1000.0);
}

// The reduced cross-section for compute-sanitizer (scripts/device/check.sh --suites=threads --sanitizers): four threads
// x two calls, small shapes, each path once, one capture. Whether a worker starts with no
// context is not required here (a tool may bind one).
TEST_CASE("threads: sanitizer cross-section", "[gpu][threads][sanitize]") {
  constexpr int kFew = 4, kTwice = 2;
  const CaseShape tma{136, 264, 72, 0, 1.0f, 0.5f}, only_d{64, 129, 64, 0, 1.0f, 0.0f},
      odd{63, 65, 127, 1, 2.0f, -1.0f};
  run_threaded<Bf16Tn>(tma, Workspace::kNone, Mode::kDirect, TmaPath::kTma, kFew, kTwice, false);
  run_threaded<Bf16Tn>(only_d, Workspace::kNone, Mode::kDirect, TmaPath::kPacked, kFew, kTwice, false);
  run_threaded<Bf16Tn>(odd, Workspace::kGiven, Mode::kDirect, TmaPath::kPacked, kFew, kTwice, false);
  run_threaded<Bf16Tn>(odd, Workspace::kNone, Mode::kDirect, TmaPath::kRealigning, kFew, kTwice, false);
  run_threaded<Bf16Tn>(tma, Workspace::kNone, Mode::kCaptureGlobal, TmaPath::kTma, kFew, kTwice, false);
  run_threaded<Fp32>({33, 17, 9, 3, 0.5f, 2.0f}, Workspace::kNone, Mode::kDirect, TmaPath::kRealigning, kFew,
                     kTwice, false);
}
