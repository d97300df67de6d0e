// The second pass of split-K: D = alpha * (sum of the K slices' partial tiles) + beta * C.
// One thread per 4-element run along D's contiguous dimension; the slices are summed in
// slice order, so the result is the same on every run.
#pragma once
#include <cstdint>

#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/epilogue/linear_combination.hpp"

namespace tessera::gemm {

constexpr int kSplitKReduceThreads = 256;

template <class ElementC, class LayoutC>
struct SplitKReduceParams {
  const float* partials;  // `splits` slices, each PartialTile<LayoutC>::slice_elements long
  int splits;
  LinearCombination<ElementC, LayoutC> output;
  int blocks;  // the grid's size (gridDim would need ockl on AMD)
};

template <class ElementC, class LayoutC>
TESSERA_GLOBAL void TESSERA_LAUNCH_BOUNDS(kSplitKReduceThreads, 1)
    split_k_reduce_kernel(const SplitKReduceParams<ElementC, LayoutC> p) {
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
