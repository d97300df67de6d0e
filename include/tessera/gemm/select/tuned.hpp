// Gemm<Tuned<Auto<...>>> (or Tuned<AutoModel<...>>): the selected GEMM, with the choice timed
// once per shape instead of predicted.
//
//   using G = Gemm<Tuned<Auto<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor>>>;
//   tuned_load<Tuned<...>>("tessera_tuned.txt");   // optional: earlier choices (a Status if not)
//   G::run(args, workspace, stream);                // the first call of a shape times, later ones not
//   tuned_save<Tuned<...>>("tessera_tuned.txt");
//
// On the first call of a (shape, layouts, beta != 0, workspace given, device), the candidates
// (the selector's own choice, then the cost model's best (select/cost_model.hpp) up to
// kCandidates entries that take the arguments) are each run once to warm up and kRepetitions
// times between CUDA events on the caller's stream (L2 not flushed), into a scratch D
// allocated on the stream (so that D, and C where C == D, are untouched); the one with the
// smallest median is kept in a per-process, thread-safe cache (select/tuned_cache.hpp) and
// runs the call. That first call waits for the stream. Later calls look the choice up (and
// where the cached entry refuses their arguments, e.g. a misaligned pointer of the same shape,
// run the selector's choice untimed).
//
// Inside CUDA graph capture (cudaStreamIsCapturing) nothing is timed or allocated: the cached
// choice runs if there is one, else the selector's, and nothing is cached. tuned_load makes the
// choices deterministic across processes: a file from another device, another format version
// or not parsing adds nothing and returns a Status naming why (docs/tuned.md).
#pragma once
#include <algorithm>
#include <cstddef>
#include <string>

#include "tessera/gemm/select/auto.hpp"
#include "tessera/gemm/select/tuned_cache.hpp"

namespace tessera::gemm {

struct TunedFamily {};

// AutoConfig: Auto<...> or AutoModel<...>.
template <class AutoConfig>
struct Tuned : AutoConfig {
  using Family = TunedFamily;
  using Selected = AutoConfig;
  static constexpr int kCandidates = 3;
  static constexpr int kRepetitions = 3;
  static_assert(std::is_same_v<typename AutoConfig::Family, AutoFamily>,
                "Tessera Tuned: give Auto<...> or AutoModel<...> (a selected GEMM) to tune");
};

// One cache per tuned configuration in the process.
template <class Config>
TunedCache& tuned_cache() {
  static TunedCache cache;
  return cache;
}

template <class Config>
TunedKey tuned_key(const ConfigArguments<Config>& a, bool workspace, int device) {
  TunedKey k;
  k.M = a.M, k.N = a.N, k.K = a.K;
  k.a_row_major = Config::LayoutA::kIsRowMajor;
  k.b_row_major = Config::LayoutB::kIsRowMajor;
  k.c_row_major = Config::LayoutC::kIsRowMajor;
  k.beta = a.beta != 0.0f;
  k.workspace = workspace;
  k.device = device;
  return k;
}

#if defined(TESSERA_CUDA)

// The candidates a first call times: the selector's choice, then the timed selector's order
// (select/nearest_shapes.hpp), then the cost model's.
template <class Config>
int tuned_candidates(const ConfigArguments<Config>& a, const DeviceInfo& d, bool workspace,
                     AutoEntry (&out)[Config::kCandidates]) {
  using Selected = typename Config::Selected;
  int n = 0;
  out[n++] = auto_choice<Selected>(a, d, workspace).entry;
  const AutoProblem p = detail::auto_problem<Selected>(a, d, workspace);
  auto add = [&](AutoEntry e) {
    if (n < Config::kCandidates && std::find(out, out + n, e) == out + n && auto_entry_takes<Selected>(e, a, workspace)) {
      out[n++] = e;
    }
  };
  AutoEntry order[select::kAutoEntryCount] = {};
  for (int i = 0, m = select::NearestShapes::ranked_entries(p, order); i < m; ++i) add(order[i]);
  for (int i = 0, m = select::CostModel::ranked_entries(p, order); i < m; ++i) add(order[i]);
  return n;
}

template <class Selected>
Status launch_auto_entry(AutoEntry e, const ConfigArguments<Selected>& a, void* workspace, Stream stream,
                         const DeviceInfo& d) {
  return Selected::Entries::with(e, [&](auto entry) {
    using E = decltype(entry);
    return KernelLauncher<typename E::Family, E>::launch(a, workspace, stream, d);
  });
}

namespace detail {
// The median of `reps` timed launches of entry e (after one warm-up), in milliseconds.
template <class Selected>
Status time_auto_entry(AutoEntry e, const ConfigArguments<Selected>& a, void* workspace, Stream stream,
                       const DeviceInfo& d, int reps, cudaEvent_t start, cudaEvent_t stop, float* median_ms) {
  Status s = launch_auto_entry<Selected>(e, a, workspace, stream, d);
  float times[16] = {};
  reps = std::min(reps, 16);
  for (int r = 0; r < reps && ok(s); ++r) {
    if (cudaEventRecord(start, stream) != cudaSuccess) return Status::kErrorRuntime;
    s = launch_auto_entry<Selected>(e, a, workspace, stream, d);
    if (!ok(s)) break;
    if (cudaEventRecord(stop, stream) != cudaSuccess || cudaEventSynchronize(stop) != cudaSuccess ||
        cudaEventElapsedTime(&times[r], start, stop) != cudaSuccess) {
      return Status::kErrorRuntime;
    }
  }
  if (!ok(s)) return s;
  std::sort(times, times + reps);
  *median_ms = times[reps / 2];
  return Status::kSuccess;
}
}  // namespace detail

// Times the candidates on a scratch D and returns the fastest in *winner (kSuccess), or the
// Status of what kept it from timing any.
template <class Config>
Status tune_auto_entry(const ConfigArguments<Config>& a, void* workspace, Stream stream, const DeviceInfo& d,
                       AutoEntry* winner) {
  using Selected = typename Config::Selected;
  AutoEntry candidates[Config::kCandidates] = {};
  const int n = tuned_candidates<Config>(a, d, workspace != nullptr, candidates);
  const std::size_t d_bytes = std::size_t(matrix_span<typename Config::LayoutC>(a.M, a.N, a.ldd)) *
                              sizeof(typename Config::ElementD);
  void* scratch = nullptr;
  if (cudaMallocAsync(&scratch, std::max<std::size_t>(d_bytes, 16), stream) != cudaSuccess) {
    (void)cudaGetLastError();
    return Status::kErrorOutOfMemory;
  }
  ConfigArguments<Config> t = a;  // D into the scratch; C (even where C == D) only read
  t.D = static_cast<typename Config::ElementD*>(scratch);
  cudaEvent_t start = nullptr, stop = nullptr;
  Status result = Status::kErrorRuntime;
  if (cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess) {
    float best = 0.0f;
    for (int i = 0; i < n; ++i) {
      float ms = 0.0f;
      const Status s = detail::time_auto_entry<Selected>(candidates[i], t, workspace, stream, d, Config::kRepetitions,
                                                         start, stop, &ms);
      if (!ok(s)) {
        if (!ok(result)) result = s;
        continue;
      }
      if (!ok(result) || ms < best) *winner = candidates[i], best = ms;
      result = Status::kSuccess;
    }
  }
  if (start) (void)cudaEventDestroy(start);
  if (stop) (void)cudaEventDestroy(stop);
  (void)cudaFreeAsync(scratch, stream);
  return result;
}

template <class Config>
struct KernelLauncher<TunedFamily, Config> {
  using Args = ConfigArguments<Config>;
  using Selected = typename Config::Selected;
  using SelectedLauncher = KernelLauncher<AutoFamily, Selected>;

  static OperandRequirements requirements() { return SelectedLauncher::requirements(); }
  static Status check(const Args& a) { return SelectedLauncher::check(a); }

  // Enough for whichever candidate wins.
  static std::size_t workspace_size(const Args& a, const DeviceInfo& d) {
    AutoEntry candidates[Config::kCandidates] = {};
    const int n = tuned_candidates<Config>(a, d, true, candidates);
    std::size_t bytes = 0;
    for (int i = 0; i < n; ++i) {
      bytes = std::max(bytes, Selected::Entries::with(candidates[i], [&](auto entry) {
        using E = decltype(entry);
        return KernelLauncher<typename E::Family, E>::workspace_size(a, d);
      }));
    }
    return bytes;
  }

  static Status launch(const Args& a, void* workspace, Stream stream, const DeviceInfo& d) {
    const TunedKey key = tuned_key<Config>(a, workspace != nullptr, d.id);
    const AutoEntry selected = auto_choice<Selected>(a, d, workspace != nullptr).entry;
    AutoEntry e = AutoEntry::kLarge;
    if (tuned_cache<Config>().find(key, &e)) {
      // Tuned on arguments of the same shape whose alignment that entry needed: the selector's.
      return launch_auto_entry<Selected>(auto_entry_takes<Selected>(e, a, workspace != nullptr) ? e : selected, a,
                                         workspace, stream, d);
    }
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    const bool capturing = cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
                           capture != cudaStreamCaptureStatusNone;
    if (capturing) {
      (void)cudaGetLastError();
      return launch_auto_entry<Selected>(selected, a, workspace, stream, d);
    }
    AutoEntry winner = selected;
    if (ok(tune_auto_entry<Config>(a, workspace, stream, d, &winner))) {
      tuned_cache<Config>().insert(key, winner);
      // Another thread's first answer, if it came first (and takes these arguments).
      if (tuned_cache<Config>().find(key, &e) && auto_entry_takes<Selected>(e, a, workspace != nullptr)) winner = e;
    }
    return launch_auto_entry<Selected>(winner, a, workspace, stream, d);
  }
};

// The current device as a tuned-choice file names it.
inline Status tuned_device(TunedDevice* out, DeviceInfo* info) {
  if (const Status s = current_device(info); !ok(s)) return s;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, info->id) != cudaSuccess) {
    (void)cudaGetLastError();
    return Status::kErrorRuntime;
  }
  out->name = prop.name;
  out->sms = prop.multiProcessorCount;
  return Status::kSuccess;
}

// The current device's choices of Gemm<Config> to `path`, and back.
template <class Config>
Status tuned_save(const std::string& path) {
  TunedDevice dev;
  DeviceInfo info;
  if (const Status s = tuned_device(&dev, &info); !ok(s)) return s;
  return tuned_cache<Config>().save(path, dev, info.id);
}
template <class Config>
Status tuned_load(const std::string& path) {
  TunedDevice dev;
  DeviceInfo info;
  if (const Status s = tuned_device(&dev, &info); !ok(s)) return s;
  return tuned_cache<Config>().load(path, dev, info.id);
}

// The entry Gemm<Config>::run(args, workspace) runs now: the cached choice, else none yet
// (returns false).
template <class Config>
bool tuned_choice(const ConfigArguments<Config>& a, const void* workspace, AutoEntry* e) {
  DeviceInfo d;
  if (!ok(current_device(&d))) return false;
  return tuned_cache<Config>().find(tuned_key<Config>(a, workspace != nullptr, d.id), e);
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
