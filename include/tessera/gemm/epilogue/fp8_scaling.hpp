// The epilogue of an fp8 configuration (WgmmaConfig with fp8 A and B): what the caller gives
// (the scales, in gemm::Arguments::epilogue) and what is done to each element of D:
//
//   D(m, n) = scale_d * E(acc(m, n), C(m, n)),   amax_d = max |E(acc, C)| over the stored elements
//
// where acc already carries A's and B's scales (the main loop applies them: block scales per
// K tile, the others once; gemm/wgmma/fp8_mainloop.hpp), E is the configuration's epilogue
// (option::Epilogue<E>; by default LinearCombination: alpha acc + beta C), scale_d defaults to
// 1 for a 16-bit or fp32 D and is required for an fp8 D, and amax_d (optional) receives the
// largest magnitude of D before scale_d: the number the next layer's quantization needs, as
// cuBLASLt's AMAX_D_POINTER gives it. E runs before the amax and scale_d so that a bias or an
// activation is quantized with the rest of D, as cuBLASLt's fp8 epilogues do.
//
// The scales live on the device (a training step computes them there), so the per-call
// scalars (scale_d) are read once per thread on the device: resolve() gives the
// Fp8OutputOp each consumer thread applies (it also gathers that thread's amax).
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tessera/core/float8.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/scale_mode.hpp"

namespace tessera::gemm {

// The scales of one call: A's and B's (scale_mode.hpp says how each mode lays them out;
// sizes count floats, a leading dimension of 0 means the smallest the mode allows; a batch or
// groups: a stride per problem), D's, and E's own arguments:
//
//   {{scale_a, ld_a, size_a}, {scale_b, ld_b, size_b}, scale_d, amax_d}
//   args.epilogue.then = {...};   // with option::Epilogue<E>: E's arguments
template <class ThenArguments>
struct Fp8EpilogueArguments {
  ScaleTensor<float> a;            // per row: size >= M; block: ld >= M, floats between K blocks
  ScaleTensor<float> b;            // per column: size >= N; block: ld >= ceil(K/128), floats between
                                   // 128-column blocks
  const float* scale_d = nullptr;  // one float; required for an fp8 D, else optional (1)
  float* amax_d = nullptr;         // optional: receives max |D| before scale_d
  ThenArguments then{};            // the configuration's epilogue E's arguments
};
using Fp8ScaleArguments = Fp8EpilogueArguments<NoEpilogueArguments>;

// What one consumer thread applies to its elements once the scalars are read: D's value
// before its conversion, and the running amax of this thread's stored elements. (amax is
// mutable: OutputRun, the stream-K fix-up's writer, calls its epilogue through a const copy.)
template <class Then = LinearCombination>
struct Fp8OutputOp {
  Then then;
  float d_scale;
  mutable float amax = 0.0f;
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return then.reads_c(); }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float acc, const Element& e) const {
    const float v = then(acc, e);
    // Elements the family does not store (past N, past a group's rows: those hold the next
    // group's products) leave amax as is.
    if (e.inside()) amax = fmaxf(amax, fabsf(v));
    return v * d_scale;
  }
};

template <class ScaleMode, class ElementD, class Then = LinearCombination>
struct Fp8Scaling {
  static_assert(ScaleMode::kKind == scale::Kind::kPerTensor || ScaleMode::kKind == scale::Kind::kPerRowColumn ||
                    ScaleMode::kKind == scale::Kind::kBlockwise ||
                    ScaleMode::kKind == scale::Kind::kBlockwiseTransposed,
                "Tessera Fp8Scaling: the scale mode must be scale::PerTensor, scale::PerRowColumn or scale::Blockwise "
                "(gemm/scale_mode.hpp)");
  using Arguments = Fp8EpilogueArguments<typename Then::Arguments>;
  using Mode = ScaleMode;
  static constexpr scale::Kind kKind = ScaleMode::kKind;

  const float* scale_a;
  const float* scale_b;
  std::int64_t ld_a, ld_b;          // block mode
  std::int64_t stride_a, stride_b;  // a batch or groups: floats from one problem's scales to the next's
  const float* scale_d;
  float* amax_d;
  Then then;

  // Floats a mode needs of A's and B's scales for an M x N x K problem at leading
  // dimensions ld_a, ld_b (the smallest allowed when 0).
  static std::int64_t k_blocks(std::int64_t K) { return ceil_div<std::int64_t>(K, scale::kBlock); }
  // Blockwise: A's [kb][M], B's [N/128][kb]; BlockwiseTransposed: A's [M/128][kb], B's [kb][N].
  static constexpr bool kTransposedBlocks = kKind == scale::Kind::kBlockwiseTransposed;
  static std::int64_t ld_a_of(const Arguments& s, const EpilogueProblem& p) {
    return s.a.ld > 0 ? s.a.ld : kTransposedBlocks ? k_blocks(p.K) : p.M;
  }
  static std::int64_t ld_b_of(const Arguments& s, const EpilogueProblem& p) {
    return s.b.ld > 0 ? s.b.ld : kTransposedBlocks ? p.N : k_blocks(p.K);
  }
  // The floats one problem reads from its first scale of A (rows: A's rows as the scales
  // address them) and of B; 0 where the mode reads no size (per tensor: one float).
  static std::int64_t extent_a(const Arguments& s, const EpilogueProblem& p, std::int64_t rows) {
    if constexpr (kKind == scale::Kind::kPerRowColumn) return rows;
    if constexpr (kKind == scale::Kind::kBlockwise) return ld_a_of(s, p) * (k_blocks(p.K) - 1) + rows;
    if constexpr (kTransposedBlocks) {
      return ld_a_of(s, p) * (ceil_div<std::int64_t>(rows, scale::kBlock) - 1) + k_blocks(p.K);
    }
    return 1;
  }
  static std::int64_t extent_b(const Arguments& s, const EpilogueProblem& p) {
    if constexpr (kKind == scale::Kind::kPerRowColumn) return p.N;
    if constexpr (kKind == scale::Kind::kBlockwise) {
      return ld_b_of(s, p) * (ceil_div<std::int64_t>(p.N, scale::kBlock) - 1) + k_blocks(p.K);
    }
    if constexpr (kTransposedBlocks) return ld_b_of(s, p) * (k_blocks(p.K) - 1) + p.N;
    return 1;
  }

  static Status can_implement(const Arguments& s, const EpilogueProblem& p) {
    const bool has_output = p.M > 0 && p.N > 0;
    const bool reads_ab = has_output && p.K > 0;
    if (reads_ab && s.a.data == nullptr) return Status::kErrorNullScaleA;
    if (reads_ab && s.b.data == nullptr) return Status::kErrorNullScaleB;
    if (has_output && is_ocp_float8<ElementD> && s.scale_d == nullptr) return Status::kErrorNullScaleD;
    if (s.a.stride < 0) return Status::kErrorScaleATooSmall;
    if (s.b.stride < 0) return Status::kErrorScaleBTooSmall;
    const Status then = Then::can_implement(s.then, p);
    if (!ok(then) || !reads_ab) return then;
    if constexpr (kKind == scale::Kind::kBlockwise) {
      if (ld_a_of(s, p) < p.M) return Status::kErrorScaleATooSmall;
      if (ld_b_of(s, p) < k_blocks(p.K)) return Status::kErrorScaleBTooSmall;
    }
    if constexpr (kTransposedBlocks) {
      if (ld_a_of(s, p) < k_blocks(p.K)) return Status::kErrorScaleATooSmall;
      if (ld_b_of(s, p) < p.N) return Status::kErrorScaleBTooSmall;
    }
    if constexpr (kKind != scale::Kind::kPerTensor) {  // per tensor: one float, size not read
      if (s.a.size < extent_a(s, p, p.M)) return Status::kErrorScaleATooSmall;
      if (s.b.size < extent_b(s, p)) return Status::kErrorScaleBTooSmall;
    }
    return Status::kSuccess;
  }

  // Many GEMMs in one call: the scales of `count` problems at their strides (a_by_rows: A's
  // scales addressed by the rows of the whole A, the contiguous grouped layout, no stride).
  // Per tensor with a stride, the sizes are read too (count floats at the stride).
  static Status can_implement_problems(const Arguments& s, const EpilogueProblem& p, std::int64_t count,
                                       bool a_by_rows) {
    const Status one = can_implement(s, p);
    if (!ok(one) || count <= 1 || p.M == 0 || p.N == 0 || p.K == 0) return one;
    const std::int64_t stride_a = a_by_rows ? 0 : s.a.stride;
    if (stride_a > 0 && s.a.size < stride_a * (count - 1) + extent_a(s, p, p.M)) return Status::kErrorScaleATooSmall;
    if (s.b.stride > 0 && s.b.size < s.b.stride * (count - 1) + extent_b(s, p)) return Status::kErrorScaleBTooSmall;
    return Status::kSuccess;
  }

  static Fp8Scaling make(const Arguments& s, const EpilogueProblem& p) {
    return {s.a.data, s.b.data, ld_a_of(s, p), ld_b_of(s, p), s.a.stride, s.b.stride, s.scale_d, s.amax_d,
            Then::make(s.then, p)};
  }

  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return then.reads_c(); }

#if defined(TESSERA_CUDA)
  // The launch's part of amax_d: the kernel gathers it with atomic maxima, so it starts at 0 (on
  // the call's stream, before the kernel).
  static cudaError_t clear_amax(const Arguments& s, cudaStream_t stream) {
    return s.amax_d != nullptr ? cudaMemsetAsync(s.amax_d, 0, sizeof(float), stream) : cudaSuccess;
  }
  // This thread's output op, scale_d read once.
  TESSERA_DEVICE TESSERA_FORCEINLINE Fp8OutputOp<Then> resolve() const {
    return {then, scale_d != nullptr ? __ldg(scale_d) : 1.0f};
  }
  // Every thread of a warp calls this with its amax: the warp's largest goes into amax_d
  // (which the launch set to 0). Non-negative floats order as their bit patterns do.
  TESSERA_DEVICE TESSERA_FORCEINLINE void publish_amax(float thread_amax) const {
    if (amax_d == nullptr) return;
    TESSERA_UNROLL
    for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2) {
      thread_amax = fmaxf(thread_amax, __shfl_xor_sync(0xffffffffu, thread_amax, lane_mask));
    }
    if ((threadIdx.x & 31u) == 0) atomicMax(reinterpret_cast<int*>(amax_d), __float_as_int(thread_amax));
  }
#endif
};

}  // namespace tessera::gemm
