// The epilogue of an fp8 configuration (WgmmaConfig with fp8 A and B): what the caller gives
// (the scales, in gemm::Arguments::epilogue) and what is done to each element of D:
//
//   D(m, n) = scale_d * (alpha * acc(m, n) + beta * C(m, n)),   amax_d = max |alpha acc + beta C|
//
// where acc already carries A's and B's scales (the main loop applies them: block scales per
// K tile, the others once; gemm/wgmma/fp8_mainloop.hpp), scale_d defaults to 1 for
// a 16-bit or fp32 D and is required for an fp8 D, and amax_d (optional) receives the largest
// magnitude of D before scale_d, over the M x N elements: the number the next layer's
// quantization needs, as cuBLASLt's AMAX_D_POINTER gives it.
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
// sizes count floats, a leading dimension of 0 means the smallest the mode allows), D's:
//
//   {{scale_a, ld_a, size_a}, {scale_b, ld_b, size_b}, scale_d, amax_d}
struct Fp8ScaleArguments {
  ScaleTensor<float> a;            // per row: size >= M; block: ld >= M, floats between K blocks
  ScaleTensor<float> b;            // per column: size >= N; block: ld >= ceil(K/128), floats between
                                   // 128-column blocks
  const float* scale_d = nullptr;  // one float; required for an fp8 D, else optional (1)
  float* amax_d = nullptr;         // optional: receives max |D| before scale_d
};

// What one consumer thread applies to its elements once the scalars are read: D's value
// before its conversion, and the running amax of this thread's elements inside M x N.
struct Fp8OutputOp {
  float alpha, beta, d_scale;
  float amax = 0.0f;
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return beta != 0.0f; }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float acc, const Element& e) {
    float v = alpha * acc;
    if (e.has_c()) v += beta * e.c();
    // Elements outside M x N hold 0 (their operands were zero-filled), so they leave amax as is.
    amax = fmaxf(amax, fabsf(v));
    return v * d_scale;
  }
};

template <class ScaleMode, class ElementD>
struct Fp8Scaling {
  static_assert(ScaleMode::kKind == scale::Kind::kPerTensor || ScaleMode::kKind == scale::Kind::kPerRowColumn ||
                    ScaleMode::kKind == scale::Kind::kBlockwise,
                "Tessera Fp8Scaling: the scale mode must be scale::PerTensor, scale::PerRowColumn or scale::Blockwise "
                "(gemm/scale_mode.hpp)");
  using Arguments = Fp8ScaleArguments;
  using Mode = ScaleMode;
  static constexpr scale::Kind kKind = ScaleMode::kKind;

  const float* scale_a;
  const float* scale_b;
  std::int64_t ld_a, ld_b;  // block mode
  const float* scale_d;
  float* amax_d;
  float alpha, beta;

  // Floats a mode needs of A's and B's scales for an M x N x K problem at leading
  // dimensions ld_a, ld_b (the smallest allowed when 0).
  static std::int64_t k_blocks(std::int64_t K) { return ceil_div<std::int64_t>(K, scale::kBlock); }
  static std::int64_t ld_a_of(const Arguments& s, const EpilogueProblem& p) {
    return s.a.ld > 0 ? s.a.ld : p.M;
  }
  static std::int64_t ld_b_of(const Arguments& s, const EpilogueProblem& p) {
    return s.b.ld > 0 ? s.b.ld : k_blocks(p.K);
  }

  static Status can_implement(const Arguments& s, const EpilogueProblem& p) {
    const bool has_output = p.M > 0 && p.N > 0;
    const bool reads_ab = has_output && p.K > 0;
    if (reads_ab && s.a.data == nullptr) return Status::kErrorNullScaleA;
    if (reads_ab && s.b.data == nullptr) return Status::kErrorNullScaleB;
    if (has_output && is_ocp_float8<ElementD> && s.scale_d == nullptr) return Status::kErrorNullScaleD;
    if (!reads_ab) return Status::kSuccess;
    if constexpr (kKind == scale::Kind::kPerRowColumn) {
      if (s.a.size < p.M) return Status::kErrorScaleATooSmall;
      if (s.b.size < p.N) return Status::kErrorScaleBTooSmall;
    } else if constexpr (kKind == scale::Kind::kBlockwise) {
      const std::int64_t kb = k_blocks(p.K), nb = ceil_div<std::int64_t>(p.N, scale::kBlock);
      const std::int64_t la = ld_a_of(s, p), lb = ld_b_of(s, p);
      if (la < p.M || s.a.size < la * (kb - 1) + p.M) return Status::kErrorScaleATooSmall;
      if (lb < kb || s.b.size < lb * (nb - 1) + kb) return Status::kErrorScaleBTooSmall;
    }
    return Status::kSuccess;
  }

  static Fp8Scaling make(const Arguments& s, const EpilogueProblem& p) {
    return {s.a.data, s.b.data, ld_a_of(s, p), ld_b_of(s, p), s.scale_d, s.amax_d, p.alpha, p.beta};
  }

  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return beta != 0.0f; }

#if defined(TESSERA_CUDA)
  // This thread's output op, scale_d read once.
  TESSERA_DEVICE TESSERA_FORCEINLINE Fp8OutputOp resolve() const {
    return {alpha, beta, scale_d != nullptr ? __ldg(scale_d) : 1.0f};
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
