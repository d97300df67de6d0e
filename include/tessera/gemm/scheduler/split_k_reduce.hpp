// The second pass of split-K: D = epilogue(sum of the K slices' partial tiles, C), through the
// same OutputRun the unsplit kernel writes with. One thread per 4-element run along D's
// contiguous dimension; the slices are summed in slice order, so the result is the same on
// every run.
#pragma once
#include <cstdint>

#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/epilogue/output_run.hpp"

namespace tessera::gemm {

constexpr int kSplitKReduceThreads = 256;

// Output: the OutputRun<ElementC, ElementD, LayoutC, Epilogue> of the configuration.
template <class Output>
struct SplitKReduceParams {
  const float* partials;  // `splits` slices, each PartialTile<LayoutC>::slice_elements long
  int splits;
  Output output;
  int blocks;  // the grid's size (gridDim would need ockl on AMD)
};

template <class Output>
TESSERA_GLOBAL void TESSERA_LAUNCH_BOUNDS(kSplitKReduceThreads, 1)
    split_k_reduce_kernel(const SplitKReduceParams<Output> p) {
  using LayoutC = typename Output::Layout;
  using Partial = PartialTile<LayoutC>;
  const std::int64_t M = p.output.M, N = p.output.N;
  const std::int64_t ld = Partial::leading_dim(M, N);
  const std::int64_t slice = Partial::slice_elements(M, N);
  const std::int64_t runs_per_line = ld / 4;
  const std::int64_t runs = (LayoutC::kIsRowMajor ? M : N) * runs_per_line;
  const std::int64_t stride = std::int64_t(p.blocks) * kSplitKReduceThreads;
  for (std::int64_t run = std::int64_t(block_index()) * kSplitKReduceThreads + thread_index();
       run < runs; run += stride) {
    const std::int64_t line = run / runs_per_line;
    const std::int64_t contig = (run - line * runs_per_line) * 4;
    const float* src = p.partials + line * ld + contig;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int s = 0; s < p.splits; ++s) {
      float v[4];
      load4(src + s * slice, v);
      TESSERA_UNROLL
      for (int i = 0; i < 4; ++i) sum[i] += v[i];
    }
    p.output(LayoutC::kIsRowMajor ? line : contig, LayoutC::kIsRowMajor ? contig : line, sum);
  }
}

}  // namespace tessera::gemm
