// The implementations a GemmProblem can time, each an Impl (bench_registry.hpp): the
// vendor BLAS, cuBLASLt, the naive kernel, the decode floor, and any Tessera GEMM type
// with the library's host API (can_implement, workspace_size, run), which
// tessera_variants.hpp lists.
#pragma once

#include "bench_registry.hpp"
#include "checks.hpp"
#include "naive_gemm.hpp"
#include "stream_floor.hpp"
#include "vendor_blas.hpp"
#include "vendor_blas_lt.hpp"

#include <memory>
#include <string>
#include <type_traits>

#include "tessera/core/status.hpp"

namespace {

// Speed guesses, only to size iteration counts.
constexpr double kTensorCoreTflops = 500.0;
constexpr double kCudaCoreTflops = 40.0;
constexpr double kNaiveTflops = 3.0;

template <class P>
constexpr double blas_tflops_guess() {
  return std::is_same_v<typename P::EA, float> ? kCudaCoreTflops : kTensorCoreTflops;
}

std::string status_text(tessera::Status s) {
  return std::string(tessera::status_name(s)) + ": " + tessera::status_message(s);
}

template <class P>
Error launch_blas(P& p, ImplSlot&) {
  return run_blas<typename P::LA, typename P::LB, typename P::LC>(p.args());
}

template <class P>
Error launch_naive(P& p, ImplSlot&) {
  return run_naive<typename P::LA, typename P::LB, typename P::LC>(p.args());
}

// A Tessera GEMM through its host API: arguments checked and the workspace sized on the
// first call (untimed, in the check), then run on the harness's stream.
template <class G, class Args>
Error run_tessera(const Args& a, ImplSlot& slot) {
  if (!slot.workspace) {
    const tessera::Status can = G::can_implement(a);
    if (!tessera::ok(can)) return "Tessera can_implement: " + status_text(can);
    auto ws = std::make_unique<DeviceBuffer<char>>();
    BENCH_TRY(ws->allocate(G::workspace_size(a)));
    slot.workspace = std::move(ws);
  }
  const tessera::Status s = G::run(a, slot.workspace->count ? slot.workspace->ptr : nullptr, g_dev.stream);
  if (!tessera::ok(s)) return "Tessera run: " + status_text(s);
  BENCH_GPU(gpu::get_last_error());
  return {};
}
template <class G, class P>
Error launch_tessera(P& p, ImplSlot& slot) {
  return run_tessera<G>(p.args(), slot);
}

// `name` is the benchmark name's implementation component: tessera_* for Tessera's
// (bench_plot.py compares every tessera_* column with the faster baseline).
template <class P, class G>
Impl<P> tessera_impl(const std::string& name, double tflops_guess = kTensorCoreTflops) {
  return Impl<P>{name, tflops_guess, &launch_tessera<G, P>};
}

template <class P>
Impl<P> blas_impl(const std::string& name = kBlasKindName) {
  return Impl<P>{name, blas_tflops_guess<P>(), &launch_blas<P>};
}

template <class P>
Impl<P> naive_impl() {
  return Impl<P>{"naive", kNaiveTflops, &launch_naive<P>};
}

#if defined(TESSERA_CUDA)
template <class P>
Error launch_blas_lt(P& p, ImplSlot& slot) {
  return run_blas_lt<typename P::LA, typename P::LB, typename P::LC>(p.args(), slot);
}

template <class P>
Error launch_floor(P& p, ImplSlot&) {
  if (!p.floor_error.empty()) return p.floor_error;  // not set up: say why, not what launching then did
  return p.floor.launch();
}

template <class P>
Impl<P> blas_lt_impl(const std::string& name = "cublaslt") {
  return Impl<P>{name, kTensorCoreTflops, &launch_blas_lt<P>};
}

template <class P>
Impl<P> floor_impl() {
  Impl<P> f{"floor", 0.0, &launch_floor<P>};
  f.is_floor = true;
  return f;
}
#endif

}  // namespace
