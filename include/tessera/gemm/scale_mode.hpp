// How an fp8 GEMM's operands are scaled (dequantized), as types: the scale mode of a
// configuration with fp8 A and B (option::Scales<Mode>, gemm/options.hpp).
//
//   scale::PerTensor<>      one float for A and one for B:    D = sa sb (A B)
//   scale::PerRowColumn<>   a float per row of A, per column of B: D(m, n) = sa[m] sb[n] (A B)(m, n)
//   scale::Blockwise        A per 1 x 128 (a float per row per 128 of K), B per 128 x 128:
//                           D(m, n) = sum over K blocks kb of sa(m, kb) sb(n/128, kb) (A B)_kb(m, n)
//
// Storage (every scale a float, on the device):
//   per tensor     scale_a[0], scale_b[0]
//   per row/col    scale_a[m] (M values), scale_b[n] (N values)
//   block          scale_a[kb * ld_a + m] (M-contiguous, ld_a >= M), scale_b[nb * ld_b + kb]
//                  (K-contiguous, ld_b >= ceil(K/128)), kb = k / 128, nb = n / 128: the layouts
//                  cuBLASLt's VEC128_32F and BLK128x128_32F modes read (and DeepGEMM's).
//
// Accumulation: the tensor core sums fp8 products with fewer bits than fp32 keeps
// (benchmark/notes/fp8.md measures it). Accumulation::kPromoted (the default; the only choice
// with block scales) lets it sum one 128-deep K tile at a time and adds each tile's sum into
// fp32 registers (times the tile's scales, with block scales): twice the accumulator
// registers (wgmma/config.hpp checks that they fit).
// Accumulation::kFast keeps the sum in the tensor core's accumulators over all of K, as
// cuBLASLt's CUBLASLT_MATMUL_DESC_FAST_ACCUM does: larger tiles, an error that grows with K.
#pragma once

namespace tessera::gemm {

enum class Accumulation { kPromoted, kFast };

namespace scale {

enum class Kind { kPerTensor, kPerRowColumn, kBlockwise };

template <Kind kKind_, Accumulation kAccumulation_>
struct ScaleModeBase {
  static constexpr Kind kKind = kKind_;
  static constexpr Accumulation kAccumulation = kAccumulation_;
  static constexpr bool kPromoted = kAccumulation_ == Accumulation::kPromoted;
};

template <Accumulation kAccumulation = Accumulation::kPromoted>
struct PerTensor : ScaleModeBase<Kind::kPerTensor, kAccumulation> {
  static constexpr const char* kName = "per-tensor";
};

template <Accumulation kAccumulation = Accumulation::kPromoted>
struct PerRowColumn : ScaleModeBase<Kind::kPerRowColumn, kAccumulation> {
  static constexpr const char* kName = "per-row/column";
};

// The K extent of one scale block (A 1 x kBlock, B kBlock x kBlock).
constexpr int kBlock = 128;

struct Blockwise : ScaleModeBase<Kind::kBlockwise, Accumulation::kPromoted> {
  static constexpr const char* kName = "block 1x128 / 128x128";
};

template <class T>
struct IsScaleMode {
  static constexpr bool value = false;
};
template <Accumulation A>
struct IsScaleMode<PerTensor<A>> {
  static constexpr bool value = true;
};
template <Accumulation A>
struct IsScaleMode<PerRowColumn<A>> {
  static constexpr bool value = true;
};
template <>
struct IsScaleMode<Blockwise> {
  static constexpr bool value = true;
};
template <class T>
constexpr bool is_scale_mode = IsScaleMode<T>::value;

}  // namespace scale

}  // namespace tessera::gemm
