// The "chain" suite of tessera_bench: GEMMs back to back, each reading the previous one's
// output, as a model's layers run them: X(i+1) = alpha X(i) W(i)^T, `layers` times, one call
// per layer on one stream, timed as one unit (one iteration = the whole chain). This is where
// a launch's ramp and tail, and the gap between two kernels, show; option::DependentLaunch
// (programmatic dependent launch) is meant to hide them.
//
// Layout as in the LLM suite: X row-major M x K, each W(i) = [K][K] (K-major), bf16; alpha =
// sqrt(3 / K) keeps the activations' magnitude from layer to layer (inputs uniform in [-1, 1)).
// Implementations: cuBLAS and cuBLASLt per layer, Tessera's Auto per layer, and Auto with
// option::DependentLaunch per layer. The check compares the last layer's output with cuBLAS's
// chain, and four rows with a float64 chain rounded to bf16 after each layer (as the GPU
// stores each layer); the tolerance is one layer's, times the layers. CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_registry.hpp"
#include "checks.hpp"
#include "gemm_impls.hpp"
#include "vendor_blas.hpp"
#include "vendor_blas_lt.hpp"

#include "tessera/gemm/select/auto.hpp"

namespace {

struct ChainSpec {
  int layers = 0;
  std::int64_t M = 0, K = 0;
  std::string label() const { return std::to_string(layers) + "x" + std::to_string(M) + "x" + std::to_string(K); }
  double flops() const { return 2.0 * double(layers) * double(M) * double(K) * double(K); }
  std::string key() const { return "chain/" + label(); }
  float alpha() const { return float(std::sqrt(3.0 / double(K))); }
};

struct ChainProblem : ProblemBase {
  using Spec = ChainSpec;
  using T = tessera::bfloat16_t;
  using Args = tessera::gemm::Arguments<T, T, T>;
  ChainSpec spec;
  DeviceBuffer<T> X0, ping, pong, W;
  std::vector<T> ref_host;  // the last layer's output of cuBLAS's chain
  SampledRows sampled;

  explicit ChainProblem(const ChainSpec& s) : spec(s) {}

  // Layer i's arguments: X(i) (X0, then ping and pong in turn) into the other buffer.
  const T* input(int i) const { return i == 0 ? X0.ptr : (i % 2 == 1 ? ping.ptr : pong.ptr); }
  T* output(int i) const { return i % 2 == 0 ? ping.ptr : pong.ptr; }
  Args layer(int i) const {
    return weights_layout_args(spec.M, spec.K, spec.K, input(i), W.ptr + std::int64_t(i) * spec.K * spec.K, output(i),
                               spec.alpha());
  }
  const DeviceBuffer<T>& last() const { return (spec.layers - 1) % 2 == 0 ? ping : pong; }

  Error build();

  Error check(const Impl<ChainProblem>& impl, ImplSlot& slot) {
    BENCH_TRY(fill_poison(ping));
    BENCH_TRY(fill_poison(pong));
    std::vector<T> out;
    BENCH_TRY(launch_and_fetch(*this, impl, slot, last(), out));
    return judge_output<tessera::RowMajor>(spec.M, spec.K, out, spec.K, ref_host, "cublasGemmEx per layer", sampled,
                                           double(spec.layers) * tessera::test::tolerance<T, T>(spec.K));
  }
  double flops(const Impl<ChainProblem>&) const { return spec.flops(); }
  double bytes(const Impl<ChainProblem>&) const {
    return double(spec.layers) * double(2 * spec.M * spec.K + spec.K * spec.K) * sizeof(T);
  }
  void add_counters(benchmark::State&, const Impl<ChainProblem>&, double) const {}
  std::string label(const Impl<ChainProblem>&) const {
    return std::to_string(spec.layers) + " dependent GEMMs of " + std::to_string(spec.M) + "x" + std::to_string(spec.K) +
           "x" + std::to_string(spec.K) + ", bf16";
  }
};

Error ChainProblem::build() {
  const std::int64_t M = spec.M, K = spec.K;
  BENCH_TRY(X0.allocate(std::size_t(M * K)));
  BENCH_TRY(ping.allocate(std::size_t(M * K)));
  BENCH_TRY(pong.allocate(std::size_t(M * K)));
  BENCH_TRY(W.allocate(std::size_t(spec.layers) * std::size_t(K * K)));
  BENCH_TRY(fill_random(X0, next_seed()));
  BENCH_TRY(fill_random(W, next_seed()));
  for (int i = 0; i < spec.layers; ++i) {
    BENCH_TRY((run_blas<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(layer(i))));
  }
  BENCH_TRY(last().to_host(ref_host));
  // float64 on four rows: row r of each layer depends on row r of the layer before only.
  sampled.rows = sample_rows(M, next_seed());
  std::vector<T> x0, w;
  BENCH_TRY(X0.to_host(x0));
  BENCH_TRY(W.to_host(w));
  sampled.values.assign(sampled.rows.size() * std::size_t(K), 0.0);
  const double alpha = double(spec.alpha());
  parallel_for(sampled.rows.size(), [&](std::size_t r) {
    std::vector<double> row(static_cast<std::size_t>(K)), next(static_cast<std::size_t>(K));
    for (std::int64_t k = 0; k < K; ++k) row[std::size_t(k)] = tessera::test::to_double(x0[std::size_t(sampled.rows[r] * K + k)]);
    for (int i = 0; i < spec.layers; ++i) {
      const T* wi = w.data() + std::size_t(i) * std::size_t(K * K);
      for (std::int64_t n = 0; n < K; ++n) {
        double sum = 0.0;
        for (std::int64_t k = 0; k < K; ++k) sum += row[std::size_t(k)] * tessera::test::to_double(wi[std::size_t(n * K + k)]);
        next[std::size_t(n)] = tessera::test::to_double(T(float(alpha * sum)));  // stored as bf16, as the GPU does
      }
      row.swap(next);
    }
    for (std::int64_t n = 0; n < K; ++n) sampled.values[r * std::size_t(K) + std::size_t(n)] = row[std::size_t(n)];
  });
  return {};
}

Error launch_chain_cublas(ChainProblem& p, ImplSlot&) {
  for (int i = 0; i < p.spec.layers; ++i) {
    BENCH_TRY((run_blas<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(p.layer(i))));
  }
  return {};
}

Error launch_chain_cublaslt(ChainProblem& p, ImplSlot& slot) {
  for (int i = 0; i < p.spec.layers; ++i) {
    BENCH_TRY((run_blas_lt<tessera::RowMajor, tessera::ColumnMajor, tessera::RowMajor>(p.layer(i), slot)));
  }
  return {};
}

// Every layer has the same shape: one workspace (sized on the first call) serves them all.
template <class G>
Error launch_chain_tessera(ChainProblem& p, ImplSlot& slot) {
  for (int i = 0; i < p.spec.layers; ++i) BENCH_TRY(run_tessera<G>(p.layer(i), slot));
  return {};
}

std::vector<Impl<ChainProblem>> chain_impls() {
  using tessera::bfloat16_t;
  using tessera::ColumnMajor;
  using tessera::RowMajor;
  using Auto = tessera::gemm::Auto<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
  using AutoDependent = tessera::gemm::Auto<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                            tessera::gemm::option::DependentLaunch>;
  return {Impl<ChainProblem>{"cublas", kTensorCoreTflops, &launch_chain_cublas},
          Impl<ChainProblem>{"cublaslt", kTensorCoreTflops, &launch_chain_cublaslt},
          Impl<ChainProblem>{"tessera_auto", kTensorCoreTflops, &launch_chain_tessera<tessera::gemm::Gemm<Auto>>},
          Impl<ChainProblem>{"tessera_auto_dependent", kTensorCoreTflops,
                             &launch_chain_tessera<tessera::gemm::Gemm<AutoDependent>>}};
}

// Decode-sized to mid-sized layers, where a launch's fixed cost is a visible part of a layer.
void register_chain_suite() {
  const std::vector<ChainSpec> shapes = {
      {8, 16, 4096}, {8, 64, 2048}, {8, 128, 1024}, {8, 512, 1024}, {8, 256, 4096}, {8, 2048, 2048}, {8, 4096, 4096},
  };
  for (const ChainSpec& s : shapes) {
    for (const auto& impl : chain_impls()) {
      register_benchmark<ChainProblem>("chain", s.label(), impl, s, s.flops() / (impl.tflops_guess * 1e12));
    }
  }
  benchmark::AddCustomContext("chain_suite", "layers x M x K: X(i+1) = sqrt(3/K) X(i) W(i)^T, bf16, X row-major, "
                                             "W(i) [K][K]; one iteration = the whole chain on one stream");
}

}  // namespace

#endif  // TESSERA_CUDA
