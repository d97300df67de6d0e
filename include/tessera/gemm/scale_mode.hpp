// How a GEMM's operands are scaled (dequantized), as types: the scale modes of every family
// (option::Scales<Mode>, gemm/options.hpp), and ScaleTensor, the memory one operand's scales are in.
//
//   scale::None           D = epilogue(A B)                          (MFMA, tcgen05: the default)
//   scale::PerTensor      one float for A and one for B:    D = sa sb (A B)
//                         (wgmma fp8: the default; MFMA low precision)
//   scale::PerRowColumn   a float per row of A, per column of B: D(m, n) = sa[m] sb[n] (A B)(m, n) (wgmma fp8)
//   scale::Blockwise      float scales, A per 1 x 128 (a float per row per 128 of K), B per 128 x 128:
//                         D(m, n) = sum over K blocks kb of sa(m, kb) sb(n/128, kb) (A B)_kb(m, n) (wgmma fp8)
//   scale::BlockwiseTransposed  Blockwise seen from D^T (A per 128 x 128, B per 128 x 1): the inner
//                         mode of the fp8 small-M path (gemm/select/small_m.hpp)
//   scale::Mx             OCP microscaling: one e8m0 scale per 32 values of K for each row of A and
//                         each column of B, applied by the MMA instruction (gfx950
//                         v_mfma_scale_*_f8f6f4, MFMA; sm_100a .kind::mxf8f6f4 / .kind::mxf4, tcgen05)
//   scale::Nvfp4          one ue4m3 scale per 16 values of K (sm_100a .kind::mxf4nvf4, tcgen05)
//   scale::Fast<Mode>     PerTensor or PerRowColumn with Accumulation::kFast (below; wgmma fp8)
//
// Storage (on the device; ScaleTensor{data, ld, size}: ld 0 means the smallest the mode allows,
// size counts the values the allocation holds from data):
//   per tensor     a.data[0], b.data[0] (size not read)
//   per row/col    a.data[m] (size >= M), b.data[n] (size >= N)
//   Blockwise      a.data[kb * ld + m] (M-contiguous, ld >= M), b.data[nb * ld + kb]
//                  (K-contiguous, ld >= ceil(K/128)), kb = k / 128, nb = n / 128: the layouts
//                  cuBLASLt's VEC128_32F and BLK128x128_32F modes read (and DeepGEMM's).
//   Mx, Nvfp4      row r of A's (column r of B's) scales at data[r * ld + kb], kb = k / block,
//                  ld >= ceil(K / block), size >= (rows - 1) * ld + ceil(K / block): the
//                  [M][K/32] and [N][K/32] layout Triton's dot_scaled and the OCP MX spec use.
// Many GEMMs in one call (wgmma fp8 with a batch or groups): problem p's scales are the above
// from data + p * stride. The contiguous grouped layout addresses A's scales by the rows of the
// whole A, as it does A (A's stride is not used): a token's scales wherever its expert is.
//
// Accumulation (wgmma fp8): the tensor core sums fp8 products with fewer bits than fp32 keeps
// (benchmark/notes/fp8.md measures it). Accumulation::kPromoted (the default; the only choice
// with block scales) lets it sum one 128-deep K tile at a time and adds each tile's sum into
// fp32 registers (times the tile's scales, with block scales): twice the accumulator
// registers (wgmma/config.hpp checks that they fit).
// Accumulation::kFast (scale::Fast<Mode>) keeps the sum in the tensor core's accumulators over
// all of K, as cuBLASLt's CUBLASLT_MATMUL_DESC_FAST_ACCUM does: larger tiles, an error that grows with K.
#pragma once
#include <cstdint>

#include "tessera/core/scale_factor.hpp"

namespace tessera::gemm {

enum class Accumulation { kPromoted, kFast };

namespace scale {

enum class Kind { kNone, kPerTensor, kPerRowColumn, kBlockwise, kBlockwiseTransposed, kMx, kNvfp4 };

template <Kind kKind_, Accumulation kAccumulation_ = Accumulation::kPromoted>
struct ModeBase {
  static constexpr Kind kKind = kKind_;
  static constexpr Accumulation kAccumulation = kAccumulation_;
  static constexpr bool kPromoted = kAccumulation_ == Accumulation::kPromoted;
  // What the MFMA and tcgen05 families test: one scale per operand, or scales the MMA applies.
  static constexpr bool kPerTensor = kKind_ == Kind::kPerTensor;
  static constexpr bool kBlock = kKind_ == Kind::kMx || kKind_ == Kind::kNvfp4;
};

struct None : ModeBase<Kind::kNone> {
  static constexpr const char* kName = "unscaled";
};

struct PerTensor : ModeBase<Kind::kPerTensor> {
  using ScaleType = float;
  static constexpr const char* kName = "per-tensor";
};

struct PerRowColumn : ModeBase<Kind::kPerRowColumn> {
  using ScaleType = float;
  static constexpr const char* kName = "per-row/column";
};

// The K extent of one Blockwise scale block (A 1 x kBlock, B kBlock x kBlock).
constexpr int kBlock = 128;

struct Blockwise : ModeBase<Kind::kBlockwise> {
  using ScaleType = float;
  static constexpr const char* kName = "block 1x128 / 128x128";
};

// Blockwise as a transposed problem sees it (D^T = B^T A^T, gemm/select/transposed.hpp): A per
// 128 x 128 (the user's B), B per 128 x 1, a float per column per 128 of K (the user's A):
// D(m, n) = sum over kb of sa(m/128, kb) sb(n, kb) (A B)_kb(m, n), a.data[mb * ld + kb]
// (ld >= ceil(K/128)), b.data[kb * ld + n] (ld >= N). The small-M fp8 path's inner mode.
struct BlockwiseTransposed : ModeBase<Kind::kBlockwiseTransposed> {
  using ScaleType = float;
  static constexpr const char* kName = "block 128x128 / 128x1 (transposed)";
};

// Scales of type ScaleType_, one per kBlockValues_ values of K, applied by the MMA instruction.
template <Kind kKind_, int kBlockValues_, class ScaleType_>
struct InstructionBlocks : ModeBase<kKind_> {
  using ScaleType = ScaleType_;
  static constexpr int kBlockValues = kBlockValues_;
  static constexpr const char* kName = kBlockValues_ == 32 ? "MX (ue8m0 per 32)" : "NVFP4 (ue4m3 per 16)";
};
struct Mx : InstructionBlocks<Kind::kMx, 32, float8_ue8m0_t> {};
struct Nvfp4 : InstructionBlocks<Kind::kNvfp4, 16, float8_ue4m3_t> {};

// PerTensor or PerRowColumn, the sum kept in the tensor core over all of K.
template <class Mode>
struct Fast : Mode {
  static_assert(Mode::kKind == Kind::kPerTensor || Mode::kKind == Kind::kPerRowColumn,
                "Tessera scale::Fast: give scale::PerTensor or scale::PerRowColumn (block scales are always promoted)");
  static constexpr Accumulation kAccumulation = Accumulation::kFast;
  static constexpr bool kPromoted = false;
};

template <class T>
constexpr bool is_scale_mode = false;
template <>
inline constexpr bool is_scale_mode<None> = true;
template <>
inline constexpr bool is_scale_mode<PerTensor> = true;
template <>
inline constexpr bool is_scale_mode<PerRowColumn> = true;
template <>
inline constexpr bool is_scale_mode<Blockwise> = true;
template <>
inline constexpr bool is_scale_mode<BlockwiseTransposed> = true;
template <>
inline constexpr bool is_scale_mode<Mx> = true;
template <>
inline constexpr bool is_scale_mode<Nvfp4> = true;
template <class Mode>
inline constexpr bool is_scale_mode<Fast<Mode>> = is_scale_mode<Mode>;

}  // namespace scale

// One operand's scales in memory (the modes above say how they are laid out): {data, ld, size,
// stride}, ld before size as the block-scale tensors had it (ld, count). `stride` serves many
// GEMMs in one call (gemm/problem_set.hpp): problem p's scales start at data + p * stride (0:
// every problem shares the same scales). The constructor keeps it from
// being an aggregate: a flat brace list of the former eight Fp8ScaleArguments fields no longer
// compiles (brace elision would have read its sizes as leading dimensions).
template <class T = float>
struct ScaleTensor {
  const T* data = nullptr;
  std::int64_t ld = 0;    // the mode's leading dimension; 0: the smallest it allows
  std::int64_t size = 0;    // values the allocation holds from data
  std::int64_t stride = 0;  // a batch or groups: values from one problem's scales to the next's

  constexpr ScaleTensor() = default;
  constexpr ScaleTensor(const T* data_, std::int64_t ld_ = 0, std::int64_t size_ = 0, std::int64_t stride_ = 0)
      : data(data_), ld(ld_), size(size_), stride(stride_) {}
};

}  // namespace tessera::gemm
