// The "sweep" suite of tessera_bench: a seeded draw of transformer-like shapes
// (sweep_shapes.hpp), bf16 in and out, A row-major, B row-major or W[N][K], beta 0 or 1, with
// Tessera's selectors, the default WgmmaConfig, cublasGemmEx and cuBLASLt in the same run:
//
//   tessera_bench --suite=sweep [--sweep-seed=S] [--sweep-count=N] [--sweep-entries]
//                 [--sweep-max-m=M] --benchmark_out=sweep.json --benchmark_out_format=json
//   scripts/sweep_report.py sweep.json           geomeans, percentiles, worst, buckets, plot
//   scripts/fit_cost_model.py sweep.json -o include/tessera/gemm/select/cost_table.hpp
//                                                (a run with --sweep-entries)
//
// Names: sweep_bf16/<impl>/<M>x<N>x<K>_b<beta>_b<t|n> (bt: B = W[N][K], bn: B row-major K x N).
// Implementations: tessera_auto (the timed selector), tessera_auto_rule (the rule),
// tessera_auto_model (the cost model),
// tessera_tuned (Tuned<Auto<...>>, select/tuned.hpp: the benchmark's first, untimed call of
// each shape times the candidates and caches the winner, before the output is checked; the
// timed loop measures the cached winner, L2 flushed as for the rest; its label ends
// "tuned=<entry> candidates=<e1>,<e2>,<e3>", the selector's own choice first),
// tessera_wgmma (the default configuration), cublas, cublaslt; with --sweep-entries also
// tessera_entry_<AutoEntry> for every entry of Auto's table (an entry that refuses a shape is
// skipped with its can_implement Status), and the context then carries the cost model's counts
// per shape and entry (sweep_model/<label>) for fit_cost_model.py.
//
// Timing, unless --reps/--target-ms/--min-iters/--max-iters are given: 3 repetitions of about
// 10 ms of calls each (at least 3, at most 50 calls), the median reported; the check's call and
// each repetition's warm-up call precede them; L2 flushed as in every suite. Each output is
// judged against cuBLAS's over the whole matrix (no float64 rows, for time). CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "sweep_shapes.hpp"
#include "tessera_variants.hpp"
#if TESSERA_BENCH_HAS_WGMMA
#include "tessera/gemm/select/tuned.hpp"
#endif

namespace {

std::vector<tessera::bench::SweepShape>& sweep_registered() {
  static std::vector<tessera::bench::SweepShape> shapes;
  return shapes;
}

#if TESSERA_BENCH_HAS_WGMMA
// Auto's table and the configurations timed beside it, with the problem's types and layouts.
template <class P, template <class...> class Config>
using SweepConfig = Config<typename P::EA, typename P::LA, typename P::EB, typename P::LB, typename P::EC, typename P::LC>;
template <class P>
using SweepAuto = SweepConfig<P, tessera::gemm::Auto>;

// One Impl per entry of Auto's table, each its own configuration (not through Auto).
template <class P, int I>
void sweep_entry_impl(std::vector<Impl<P>>& impls) {
  using tessera::gemm::AutoEntry;
  SweepAuto<P>::Entries::with(AutoEntry(I), [&](auto entry) {
    impls.push_back(tessera_impl<P, tessera::gemm::Gemm<decltype(entry)>>(
        std::string("tessera_entry_") + tessera::gemm::auto_entry_token(AutoEntry(I))));
    return 0;
  });
}
template <class P, int... I>
void sweep_entry_impls(std::vector<Impl<P>>& impls, std::integer_sequence<int, I...>) {
  (sweep_entry_impl<P, I>(impls), ...);
}

// tessera_tuned's label: the entry its first call chose and the candidates it timed.
template <class P, class Config>
std::string describe_tuned(const P& p, const ImplSlot& slot) {
  using namespace tessera::gemm;
  const ConfigArguments<Config> a = p.args();
  const void* workspace = slot.workspace && slot.workspace->count ? slot.workspace->ptr : nullptr;
  AutoEntry chosen = AutoEntry::kLarge;
  if (!tuned_choice<Config>(a, workspace, &chosen)) return "tuned=none";  // not cached: timing failed
  std::string text = std::string("tuned=") + auto_entry_token(chosen) + " candidates=";
  tessera::DeviceInfo d;
  if (!tessera::ok(tessera::current_device(&d))) return text + "?";
  AutoEntry candidates[Config::kCandidates] = {};
  const int n = tuned_candidates<Config>(a, d, workspace != nullptr, candidates);
  for (int i = 0; i < n; ++i) text += std::string(i ? "," : "") + auto_entry_token(candidates[i]);
  return text;
}
#endif

template <class P>
std::vector<Impl<P>> sweep_impls() {
  std::vector<Impl<P>> impls;
#if TESSERA_BENCH_HAS_WGMMA
  using namespace tessera::gemm;
  impls.push_back(tessera_impl<P, Gemm<SweepConfig<P, Auto>>>("tessera_auto"));
  impls.push_back(tessera_impl<P, Gemm<SweepConfig<P, AutoByRule>>>("tessera_auto_rule"));
  impls.push_back(tessera_impl<P, Gemm<SweepConfig<P, AutoModel>>>("tessera_auto_model"));
  // The tuning is the harness's first call of the shape (run_benchmark: before the check and
  // the warm-up, outside the timed loop); later calls find the winner in the cache.
  using SweepTuned = Tuned<SweepAuto<P>>;
  Impl<P> tuned = tessera_impl<P, Gemm<SweepTuned>>("tessera_tuned");
  tuned.describe = &describe_tuned<P, SweepTuned>;
  impls.push_back(tuned);
  impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<typename P::EA, typename P::LA, typename P::EB, typename P::LB,
                                                   typename P::EC, typename P::LC>>>("tessera_wgmma"));
  if (g_opt.sweep_entries) sweep_entry_impls<P>(impls, std::make_integer_sequence<int, select::kAutoEntryCount>{});
#endif
  impls.push_back(blas_impl<P>());
  impls.push_back(blas_lt_impl<P>());
  return impls;
}

template <class LB>
void register_sweep_shape(const tessera::bench::SweepShape& x) {
  using P = GemmProblem<tessera::bfloat16_t, tessera::bfloat16_t, tessera::bfloat16_t, tessera::RowMajor, LB,
                        tessera::RowMajor>;
  static const std::vector<Impl<P>> impls = sweep_impls<P>();
  GemmSpec spec{"sweep_bf16", x.label(), x.M, x.N, x.K, 1.0f, x.beta1 ? 1.0f : 0.0f, false};
  spec.float64_rows = false;
  for (const Impl<P>& impl : impls) {
    register_benchmark<P>(spec.group, spec.label, impl, spec, spec.flops() / (impl.tflops_guess * 1e12));
  }
}

void register_sweep_suite() {
  const Options saved = g_opt;
  if (!g_opt.timing_given) {
    g_opt.repetitions = 3;
    g_opt.target_ms = 10.0;
    g_opt.min_iters = 3;
    g_opt.max_iters = 50;
  }
  // A shape drawn twice is timed once. --sweep-max-m keeps the shapes of few rows (the same
  // draw, so their labels match a whole run's: sweep_report.py --against compares them).
  std::set<std::string> seen;
  sweep_registered().clear();
  for (const tessera::bench::SweepShape& x : tessera::bench::sweep_shapes(g_opt.sweep_seed, g_opt.sweep_count)) {
    if (g_opt.sweep_max_m > 0 && x.M > g_opt.sweep_max_m) continue;
    if (seen.insert(x.label()).second) sweep_registered().push_back(x);
  }
  for (const tessera::bench::SweepShape& x : sweep_registered()) {
    if (x.b_row_major) {
      register_sweep_shape<tessera::RowMajor>(x);
    } else {
      register_sweep_shape<tessera::ColumnMajor>(x);
    }
  }
  g_opt = saved;
  const std::string subset =
      g_opt.sweep_max_m > 0 ? ", of which those with M <= " + std::to_string(g_opt.sweep_max_m) : "";
  benchmark::AddCustomContext("sweep", "seed " + std::to_string(g_opt.sweep_seed) + ", " +
                                           std::to_string(g_opt.sweep_count) + " shapes" + subset +
                                           " (benchmark/sweep_shapes.hpp); bf16 in and out, A row-major, "
                                           "D row-major, ld = contiguous extent; checked against cuBLAS's output");
}

// After the device is known (tessera_bench.cu's add_context): with --sweep-entries, the cost
// model's counts for each shape and entry, "kLarge=<work FLOP>,<bytes>,<fix-up s>;...", which
// fit_cost_model.py fits the table's constants to.
void add_sweep_context() {
#if TESSERA_BENCH_HAS_WGMMA
  if (!g_opt.sweep_entries || sweep_registered().empty()) return;
  using namespace tessera::gemm;
  benchmark::AddCustomContext("sweep_sms", std::to_string(g_dev.prop.multiProcessorCount));
  for (const tessera::bench::SweepShape& x : sweep_registered()) {
    // As the suite's problem is laid out (GemmProblem::build): tight leading dimensions, the
    // allocator's 256-byte aligned bases.
    AutoProblem p;
    p.M = x.M, p.N = x.N, p.K = x.K;
    const std::int64_t ldb = x.b_row_major ? x.N : x.K;
    p.tma_a = (x.K * 2) % 16 == 0;
    p.tma_b = (ldb * 2) % 16 == 0;
    p.k_major_a = true;
    p.workspace = true;
    p.odd_pitch = (x.K * 2) % 32 == 16 || (ldb * 2) % 32 == 16;
    p.sms = g_dev.prop.multiProcessorCount;
    p.reads_c = x.beta1;
    std::string counts;
    for (int e = 0; e < select::kAutoEntryCount; ++e) {
      const select::EntryCost c = select::CostModel::cost(AutoEntry(e), p);
      char item[160];
      std::snprintf(item, sizeof item, "%s=%.9g,%.9g,%.9g;", auto_entry_token(AutoEntry(e)), c.work_flop, c.bytes, c.fixup_s);
      counts += item;
    }
    benchmark::AddCustomContext("sweep_model/" + x.label(), counts);
  }
#endif
}

}  // namespace

#endif  // TESSERA_CUDA
