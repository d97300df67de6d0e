// The FMA GEMM kernel: D = alpha * A * B + beta * C on the CUDA cores / VALUs.
//
// One block computes one BlockM x BlockN tile of D. Per K step it loads an A and a B
// tile into registers (converting f16/bf16 to float), computes on the other shared-
// memory stage, then stores the registers into the next stage: two stages, one barrier
// per step. Each thread accumulates ThreadM x ThreadN outputs from 16-byte shared-memory
// reads. The epilogue stages the accumulators through shared memory, a band of rows at
// a time, so that global stores (and the reads of C) are contiguous whatever D's layout;
// the staging tile aliases the operand stages (the plan below proves it may).
#pragma once
#include <cstdint>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/fma_config.hpp"
#include "tessera/gemm/kernel/fma_smem_plan.hpp"
#include "tessera/gemm/tile_scheduler.hpp"
#include "tessera/memory/operand_tile_loader.hpp"

namespace tessera::gemm {

// What the host computes once per launch and every block reads.
template <class Config>
struct FmaParams {
  std::int64_t M, N, K;
  const typename Config::ElementA* A;
  std::int64_t lda;
  const typename Config::ElementB* B;
  std::int64_t ldb;
  const typename Config::ElementC* C;
  std::int64_t ldc;
  typename Config::ElementC* D;
  std::int64_t ldd;
  float alpha, beta;
  std::int64_t span_a, span_b, span_c, span_d;  // elements each operand spans
  bool vector_a, vector_b, vector_c, vector_d;  // 16-byte vector access allowed
  GroupedRasterScheduler<8> scheduler;
};

template <class Config>
struct FmaGemmKernel {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using LayoutC = typename Config::LayoutC;
  static constexpr int kBM = Config::kBlockM, kBN = Config::kBlockN, kBK = Config::kBlockK;
  static constexpr int kTM = Config::kThreadM, kTN = Config::kThreadN;
  static constexpr int kThreads = Config::kThreads;
  // A thread's rows are TM/4 bands of 4, kBandM rows apart (likewise columns).
  static constexpr int kBandM = kBM / (kTM / 4);
  static constexpr int kBandN = kBN / (kTN / 4);

  using SmemPlan = FmaSmemPlan<Config>;
  using LoaderA = typename SmemPlan::LoaderA;
  using LoaderB = typename SmemPlan::LoaderB;
  using StagesA = typename SmemPlan::StagesA;
  using StagesB = typename SmemPlan::StagesB;
  using StagingC = typename SmemPlan::StagingC;
  using Plan = typename SmemPlan::Plan;
  static constexpr bool kRowMajorC = SmemPlan::kRowMajorC;
  static constexpr int kStageCStride = SmemPlan::kStageCStride;

  // NVIDIA: dynamic shared memory (past 48 KiB it must be, and the launch passes the
  // plan's total). AMD: a static array, so the code object's LDS size is the plan's.
  static constexpr std::size_t kDynamicSmemBytes =
      is_nvidia<typename Config::Arch> ? Plan::kTotalBytes : 0;

  TESSERA_DEVICE static void run(const FmaParams<Config>& p) {
#if defined(TESSERA_HIP)
    __shared__ __attribute__((aligned(16))) unsigned char smem[Plan::kTotalBytes];
#else
    extern __shared__ __align__(16) unsigned char smem[];
#endif
    float* stages_a = Plan::template pointer<StagesA, float>(smem);
    float* stages_b = Plan::template pointer<StagesB, float>(smem);
    float* staging_c = Plan::template pointer<StagingC, float>(smem);

    const int tid = thread_index();
    const TileCoord tile = p.scheduler.tile(block_index());
    const std::int64_t m0 = std::int64_t(tile.m) * kBM;
    const std::int64_t n0 = std::int64_t(tile.n) * kBN;
    const int tx = tid % Config::kThreadsN;
    const int ty = tid / Config::kThreadsN;

    LoaderA load_a;
    LoaderB load_b;
    {
      const std::int64_t a_origin = typename Config::LayoutA{}.offset(m0, 0, p.lda);
      const std::int64_t b_origin = typename Config::LayoutB{}.offset(0, n0, p.ldb);
      load_a.init(p.A + a_origin, p.lda, int(p.M - m0), p.span_a - a_origin, p.vector_a, tid);
      load_b.init(p.B + b_origin, p.ldb, int(p.N - n0), p.span_b - b_origin, p.vector_b, tid);
    }

    float acc[kTM][kTN];
    TESSERA_UNROLL
    for (int i = 0; i < kTM; ++i) {
      TESSERA_UNROLL
      for (int j = 0; j < kTN; ++j) acc[i][j] = 0.0f;
    }

    // Main loop, two stages and one barrier per K tile: the next tile's global loads are
    // issued at its first k step and land in registers while this tile's FMAs run; they
    // go into the other stage after the last k step. (Double-buffering the fragments in
    // registers as well was slower here and spilled at 128 registers: notes/fma.md.)
    const int k_tiles = int((p.K + kBK - 1) / kBK);
    if (k_tiles > 0) {
      load_a.load(int(p.K));
      load_b.load(int(p.K));
      load_a.store(stages_a);
      load_b.store(stages_b);
      block_barrier();
    }
    for (int kt = 0; kt < k_tiles; ++kt) {
      const bool more = kt + 1 < k_tiles;
      const float* sa = stages_a + (kt & 1) * LoaderA::kStageFloats;
      const float* sb = stages_b + (kt & 1) * LoaderB::kStageFloats;
      float* next_a = stages_a + ((kt & 1) ^ 1) * LoaderA::kStageFloats;
      float* next_b = stages_b + ((kt & 1) ^ 1) * LoaderB::kStageFloats;
      TESSERA_UNROLL
      for (int k = 0; k < kBK; ++k) {
        float frag_a[kTM], frag_b[kTN];
        load_fragments(sa, sb, k, tx, ty, frag_a, frag_b);
        if (k == 0 && more) {  // after the first reads, so they do not queue behind these
          load_a.advance();
          load_b.advance();
          const int k_left = int(p.K - std::int64_t(kt + 1) * kBK);
          load_a.load(k_left);
          load_b.load(k_left);
        }
        TESSERA_UNROLL
        for (int i = 0; i < kTM; ++i) {
          TESSERA_UNROLL
          for (int j = 0; j < kTN; ++j) acc[i][j] = __builtin_fmaf(frag_a[i], frag_b[j], acc[i][j]);
        }
      }
      if (more) {
        load_a.store(next_a);
        load_b.store(next_b);
      }
      block_barrier();  // also orders the last tile's reads before the epilogue's staging
    }

    epilogue(p, acc, staging_c, m0, n0, tx, ty, tid);
  }

  // Row k of both stages, as this thread's TM values of A and TN values of B: 16-byte
  // reads, one per band of 4.
  TESSERA_DEVICE TESSERA_FORCEINLINE static void load_fragments(const float* sa, const float* sb,
                                                                int k, int tx, int ty,
                                                                float (&a)[kTM], float (&b)[kTN]) {
    TESSERA_UNROLL
    for (int s = 0; s < kTM / 4; ++s) {
      const Float4 v =
          *reinterpret_cast<const Float4*>(&sa[k * LoaderA::kSmemStride + s * kBandM + ty * 4]);
      a[4 * s + 0] = v.x;
      a[4 * s + 1] = v.y;
      a[4 * s + 2] = v.z;
      a[4 * s + 3] = v.w;
    }
    TESSERA_UNROLL
    for (int s = 0; s < kTN / 4; ++s) {
      const Float4 v =
          *reinterpret_cast<const Float4*>(&sb[k * LoaderB::kSmemStride + s * kBandN + tx * 4]);
      b[4 * s + 0] = v.x;
      b[4 * s + 1] = v.y;
      b[4 * s + 2] = v.z;
      b[4 * s + 3] = v.w;
    }
  }

  // Row r of band `band` of the tile, column c: where the staging tile keeps it.
  TESSERA_DEVICE TESSERA_FORCEINLINE static int staged_index(int r, int c) {
    return kRowMajorC ? r * kStageCStride + c : c * kStageCStride + r;
  }

  TESSERA_DEVICE static void epilogue(const FmaParams<Config>& p, const float (&acc)[kTM][kTN],
                                      float* staging, std::int64_t m0, std::int64_t n0, int tx,
                                      int ty, int tid) {
    // The staging tile aliases the operand stages: the main loop's last barrier has
    // already ordered every read of them before these writes.
    const bool read_c = p.beta != 0.0f;
    TESSERA_UNROLL  // acc is indexed by band: a run-time index would move it to local memory
    for (int band = 0; band < kTM / 4; ++band) {
      // 1. This band's accumulators into shared memory.
      TESSERA_UNROLL
      for (int i = 0; i < 4; ++i) {
        TESSERA_UNROLL
        for (int j = 0; j < kTN; ++j) {
          const int c = (j / 4) * kBandN + tx * 4 + (j % 4);
          staging[staged_index(ty * 4 + i, c)] = acc[band * 4 + i][j];
        }
      }
      block_barrier();
      // 2. The band out to D in D's contiguous order, 4 elements per thread per step.
      constexpr int kContig = kRowMajorC ? kBN : kBandM;   // along D's contiguous dimension
      constexpr int kStrided = kRowMajorC ? kBandM : kBN;
      constexpr int kVectors = kContig * kStrided / 4;
      const std::int64_t band_m0 = m0 + std::int64_t(band) * kBandM;
      TESSERA_NO_UNROLL
      for (int v = tid; v < kVectors; v += kThreads) {
        const int contig = (v % (kContig / 4)) * 4;
        const int strided = v / (kContig / 4);
        const int r = kRowMajorC ? strided : contig;  // row within the band
        const int c = kRowMajorC ? contig : strided;  // column within the tile
        float out[4];
        const Float4 s = *reinterpret_cast<const Float4*>(
            &staging[kRowMajorC ? r * kStageCStride + c : c * kStageCStride + r]);
        out[0] = s.x;
        out[1] = s.y;
        out[2] = s.z;
        out[3] = s.w;
        store_vector(p, band_m0 + r, n0 + c, out, read_c);
      }
      block_barrier();  // the next band overwrites the staging tile
    }
  }

  // D[m.., n..] = alpha * out + beta * C for 4 elements along D's contiguous dimension.
  TESSERA_DEVICE TESSERA_FORCEINLINE static void store_vector(const FmaParams<Config>& p,
                                                              std::int64_t m, std::int64_t n,
                                                              float (&out)[4], bool read_c) {
    const std::int64_t strided = kRowMajorC ? m : n;
    const std::int64_t contig = kRowMajorC ? n : m;
    const std::int64_t strided_extent = kRowMajorC ? p.M : p.N;
    const std::int64_t contig_extent = kRowMajorC ? p.N : p.M;
    if (strided >= strided_extent || contig >= contig_extent) return;
    const int valid = contig_extent - contig >= 4 ? 4 : int(contig_extent - contig);
    const std::int64_t c_off = LayoutC{}.offset(m, n, p.ldc);
    const std::int64_t d_off = LayoutC{}.offset(m, n, p.ldd);
    TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) {
      float c = 0.0f;
      if (read_c && i < valid) c = to_float(p.C[c_off + i]);
      out[i] = read_c ? p.alpha * out[i] + p.beta * c : p.alpha * out[i];
    }
    EC* d = p.D + d_off;
    if (valid == 4 && p.vector_d) {
      store4(d, out);
    } else {
      for (int i = 0; i < valid; ++i) d[i] = from_float<EC>(out[i]);
    }
  }

  TESSERA_DEVICE TESSERA_FORCEINLINE static void store4(EC* d, const float (&out)[4]) {
    if constexpr (sizeof(EC) == 4) {
      Float4 v;
      v.x = out[0];
      v.y = out[1];
      v.z = out[2];
      v.w = out[3];
      *reinterpret_cast<Float4*>(d) = v;
    } else {
      U32x2 v;
      v.x = std::uint32_t(from_float<EC>(out[0]).bits) | (std::uint32_t(from_float<EC>(out[1]).bits) << 16);
      v.y = std::uint32_t(from_float<EC>(out[2]).bits) | (std::uint32_t(from_float<EC>(out[3]).bits) << 16);
      *reinterpret_cast<U32x2*>(d) = v;
    }
  }
};

template <class Config>
TESSERA_GLOBAL void TESSERA_LAUNCH_BOUNDS(Config::kThreads, Config::kMinBlocksPerSm)
    fma_gemm_kernel(const FmaParams<Config> params) {
  FmaGemmKernel<Config>::run(params);
}

}  // namespace tessera::gemm
