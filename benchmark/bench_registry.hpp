// How tessera_bench's benchmarks are put together, whatever they measure: a problem (the
// inputs and references of one shape, shared by every implementation timed on it), the
// implementations (a name and a launch), and the one benchmark body that checks an
// implementation's output once and then times it.
//
// A problem type P provides
//   using Spec = ...;                      what build() needs; Spec::key() names the problem
//   explicit P(const Spec&); Error build();
//   Error check(const Impl<P>&, ImplSlot&);               runs it once and judges the output
//   double flops(const Impl<P>&) const; double bytes(const Impl<P>&) const;   per call
//   void add_counters(benchmark::State&, const Impl<P>&, double seconds_per_call) const;
//   std::string label(const Impl<P>&) const;
// and an implementation is a name, a speed guess (iteration counts only) and a launch.
// Adding an implementation to a suite is one Impl in its list.
#pragma once

#include "bench_harness.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <typeinfo>

namespace {

// What one implementation keeps between its calls on one problem: Tessera's workspace,
// sized on the first call; a cuBLASLt plan (its algorithm chosen on the first call). It
// goes with the problem, so nothing outlives the buffers it points into.
struct ImplSlot {
  std::unique_ptr<DeviceBuffer<char>> workspace;
  std::shared_ptr<void> state;
};

struct ProblemBase {
  std::string key;
  std::map<std::string, Error> verdict;  // the check's result per implementation, once
  std::map<std::string, ImplSlot> slots;
  virtual ~ProblemBase() = default;
  // Queued before each repetition's warm-up: an output computed in place (D += A B) goes
  // back to where it started, so that repetitions do not pile up into overflow.
  virtual Error before_repetition() { return {}; }
};

template <class P>
struct Impl {
  std::string name;            // the benchmark name's second component
  double tflops_guess = 0.0;   // rough speed, to size iteration counts
  Error (*launch)(P&, ImplSlot&) = nullptr;  // one call on g_dev.stream, no wait
  bool is_floor = false;       // the streaming-read floor, not a GEMM (GemmProblem)
  // Optional: what the implementation chose for this problem (e.g. the tuned mode's entry),
  // asked after the timed loop and appended to the benchmark's label.
  std::string (*describe)(const P&, const ImplSlot&) = nullptr;
};

// One problem at a time: the implementations of one problem run back to back and share
// its inputs; the next problem frees this one's memory before allocating its own. A
// problem that failed to build is remembered, so that its other implementations are
// skipped with the same message instead of building it again.
std::unique_ptr<ProblemBase> g_problem;
std::string g_failed_key, g_failed_error;

template <class P>
Error get_problem(const typename P::Spec& spec, P*& out) {
  const std::string key = std::string(typeid(P).name()) + "|" + spec.key();
  if (g_problem && g_problem->key == key) {
    out = static_cast<P*>(g_problem.get());
    return {};
  }
  if (key == g_failed_key) return g_failed_error;
  g_problem.reset();
  auto p = std::make_unique<P>(spec);
  p->key = key;
  if (Error err = p->build(); !err.empty()) {
    g_failed_key = key;
    g_failed_error = "setting up " + spec.key() + ": " + err;
    return g_failed_error;
  }
  out = p.get();
  g_problem = std::move(p);
  return {};
}

// A runtime status as an Error, naming what it came from.
Error gpu_status(gpu::error_t e, const char* what) {
  return e == gpu::kSuccess ? Error{} : gpu_error(e, what, __FILE__, __LINE__);
}

// The benchmark body: the problem, the implementation's check (once; a failure skips the
// benchmark with the numbers), an untimed warm-up call, then the timed calls.
template <class P>
void run_benchmark(benchmark::State& state, const Impl<P>& impl, const typename P::Spec& spec) {
  P* p = nullptr;
  BENCH_OR_SKIP(state, get_problem(spec, p));
  ImplSlot& slot = p->slots[impl.name];
  auto it = p->verdict.find(impl.name);
  if (it == p->verdict.end()) {
    // A first call sets the implementation up (Tessera's workspace, cuBLASLt's choice of
    // algorithm, whose trial runs write D) before the check prepares D and judges a
    // call of its own.
    Error verdict = impl.launch(*p, slot);
    if (verdict.empty()) verdict = gpu_status(gpu::stream_synchronize(g_dev.stream), "the first call");
    if (verdict.empty()) verdict = p->check(impl, slot);
    it = p->verdict.emplace(impl.name, verdict).first;
  }
  BENCH_OR_SKIP(state, it->second);
  // Warm-up outside the timing: first-launch costs, clocks.
  BENCH_OR_SKIP(state, p->before_repetition());
  BENCH_OR_SKIP(state, impl.launch(*p, slot));
  BENCH_OR_SKIP(state, gpu_status(gpu::stream_synchronize(g_dev.stream), "the warm-up call"));
  double seconds = 0.0;
  BENCH_OR_SKIP(state, time_iterations(state, p->flops(impl), p->bytes(impl),
                                       [&] { return impl.launch(*p, slot); }, &seconds));
  if (seconds > 0.0) p->add_counters(state, impl, seconds);
  std::string label = p->label(impl);
  if (impl.describe) {
    const std::string chosen = impl.describe(*p, slot);
    if (!chosen.empty()) label += " " + chosen;
  }
  state.SetLabel(label);
}

// Iterations per repetition: enough for about --target-ms of timed work, within
// --min-iters and --max-iters (from a guess of the time per call).
int iterations_for(double est_seconds) {
  const double n = g_opt.target_ms / std::max(est_seconds * 1e3, 1e-3);
  return int(std::clamp(n, double(g_opt.min_iters), double(g_opt.max_iters)));
}

// Registers <group>/<impl.name>/<label>: manual time in milliseconds, the median over
// --reps repetitions reported (aggregates only).
template <class P>
void register_benchmark(const std::string& group, const std::string& label, const Impl<P>& impl,
                        const typename P::Spec& spec, double est_seconds) {
  const std::string name = group + "/" + impl.name + "/" + label;
  benchmark::RegisterBenchmark(name.c_str(), [impl, spec](benchmark::State& st) { run_benchmark<P>(st, impl, spec); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(iterations_for(est_seconds))
      ->Repetitions(g_opt.repetitions)
      ->ReportAggregatesOnly(true);
}

}  // namespace
