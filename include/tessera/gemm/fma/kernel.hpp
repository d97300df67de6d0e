// The FMA GEMM kernel: D = alpha * A * B + beta * C on the CUDA cores / VALUs.
//
// A block walks its units (Config::Scheduler: scheduler::StreamK<reduce::SecondKernel>, one
// unit per block, a whole tile or, split-K, one K slice of a tile), each one BlockM x BlockN
// tile of D over the unit's K tiles; a slice's result goes to its partial through the fix-up
// hooks (scheduler/fixup.hpp), summed after the launch by the second kernel there. Per K tile it issues the next tile's global loads into registers, computes on one
// shared-memory stage while they fly, then stores them into the other stage: two
// stages, one barrier per K tile. Each thread accumulates ThreadM x ThreadN outputs
// from 16-byte shared-memory reads. The epilogue stages the accumulators through shared
// memory, a band of rows at a time, so that global stores (and the reads of C) are
// contiguous whatever D's layout; the staging tile aliases the operand stages (the plan
// in fma/smem_plan.hpp proves it may).
//
// A batch or groups (a scheduler with kProblemSet, problem_set.hpp): the grid is an upper bound
// of the units; a block finds its unit, leaves if it has none, and runs the same code on a view
// of the operands moved to its problem (FmaProblemPlace: A and B at the problem and its first
// row, M its rows; C and D through OutputRun::at_problem).
#pragma once
#include <cstdint>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/epilogue/output_run.hpp"
#include "tessera/gemm/fma/config.hpp"
#include "tessera/gemm/fma/smem_plan.hpp"
#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/scheduler/fixup.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/memory/operand_tile_loader.hpp"

#if defined(TESSERA_AMD_TARGET)
#include "tessera/arch/amd/lds.hpp"
#include "tessera/arch/amd/sched.hpp"
#endif

namespace tessera::gemm {

// What the host computes once per launch and every block reads.
template <class Config>
struct FmaParams {
  const typename Config::ElementA* a;
  const typename Config::ElementB* b;
  std::int64_t lda, ldb;
  std::int64_t M, N, K;
  std::int64_t span_a, span_b;  // elements from A / B to one past their last element
  bool vector_a, vector_b;      // base and ld allow aligned 4-element loads
  OutputRun<typename Config::ElementC, typename Config::ElementD, typename Config::LayoutC,
            typename Config::Epilogue>
      output;
  typename Config::Scheduler scheduler;  // the units (a tile, or a K slice of one) of each block
  ProblemStrides strides;                // a batch's or group's entries (problem_set.hpp)
};

// Where unit u's problem of a batch or group lies, relative to the parameters: element offsets
// of its A (its problem and first row) and B, the rows its A tile range-checks against, and M
// (its rows). For one GEMM all offsets are 0 and M is p.M. Kept apart from FmaParams (rather
// than a moved copy of it) so that the kernel still reads the rest from its parameters and
// holds only these few values in registers.
struct FmaProblemPlace {
  std::int64_t a_offset = 0, b_offset = 0;
  std::int64_t a_row_shift = 0;  // of a_offset, the part inside A's span (the first row)
  std::int64_t M = 0;

  template <class Config>
  TESSERA_HOST_DEVICE static FmaProblemPlace of(const FmaParams<Config>& p, const WorkUnit& u) {
    const std::int64_t row = Config::LayoutA::offset(u.row_begin, 0, p.lda);
    return {u.problem * p.strides.a + row, u.problem * p.strides.b, row, u.rows};
  }
  template <class Config>
  TESSERA_HOST_DEVICE static FmaProblemPlace whole(const FmaParams<Config>& p) {
    return {0, 0, 0, p.M};
  }
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
  using SmemPlan = FmaSmemPlan<Config>;
  // A thread's rows are TM/4 bands of 4, kBandM rows apart (likewise columns); the plan
  // sizes the epilogue's staging tile by the same band.
  static constexpr int kBandM = SmemPlan::kBandM;
  static constexpr int kBandN = kBN / (kTN / 4);
  using LoaderA = typename SmemPlan::LoaderA;
  using LoaderB = typename SmemPlan::LoaderB;
  using StagesA = typename SmemPlan::StagesA;
  using StagesB = typename SmemPlan::StagesB;
  using StagingC = typename SmemPlan::StagingC;
  using Plan = typename SmemPlan::Plan;
  static constexpr bool kRowMajorC = SmemPlan::kRowMajorC;
  using Fixup = FixupHooks<typename Config::Scheduler, LayoutC, kBM, kBN>;
  static constexpr int kStageCStride = SmemPlan::kStageCStride;

  // NVIDIA: dynamic shared memory (past 48 KiB it must be, and the launch passes the
  // plan's total). AMD: a static array, so the code object's LDS size is the plan's (and
  // the wave emulator hands out exactly that many bytes).
  static constexpr std::size_t kDynamicSmemBytes =
      is_nvidia<typename Config::Arch> ? Plan::kTotalBytes : 0;

  // kSplitK: the units may be K slices whose results go to partials (the fix-up hooks). A
  // separate instantiation, launched only when the host splits, so that its extra state
  // never costs the common path registers (with 512 threads at the 128-register cap it
  // made ptxas spill: benchmark/notes/fma.md, section Versions, 512 threads).
  template <bool kSplitK>
  TESSERA_DEVICE static void run(const FmaParams<Config>& p) {
    const int worker = int(block_index());
    if constexpr (takes_problem_set<typename Config::Scheduler>) {
      if (p.scheduler.units_of(worker) == 0) return;  // the grid is an upper bound
      const WorkUnit unit = p.scheduler.unit(worker, 0, 0, 0);
      run_unit<kSplitK, true>(p, worker, 0, unit, FmaProblemPlace::of(p, unit));
    } else {
      // At most the scheduler's bound (StreamK<SecondKernel>: one), so that a grid of one unit per
      // block keeps its main loop outermost.
      const int units = p.scheduler.units_of(worker);
      for (int j = 0; j < units && j < Config::Scheduler::kMaxUnitsPerWorker; ++j) {
        run_unit<kSplitK, false>(p, worker, j, p.scheduler.unit(worker, j, 0, 0), FmaProblemPlace::whole(p));
      }
    }
  }

  // This block's unit of work: a tile and (split-K) a K slice of it, whole K tiles
  // [k_begin, k_end).
  // kProblem: the unit belongs to a problem of a batch or group (`at` says where).
  template <bool kSplitK, bool kProblem>
  TESSERA_DEVICE static void run_unit(const FmaParams<Config>& p, int worker, int j, const WorkUnit& unit,
                                      const FmaProblemPlace& at) {
#if defined(TESSERA_AMD_TARGET)
    TESSERA_AMD_LDS(smem, Plan::kTotalBytes);
#else
    extern __shared__ __align__(16) unsigned char smem[];
#endif
    float* stages_a = Plan::template pointer<StagesA, float>(smem);
    float* stages_b = Plan::template pointer<StagesB, float>(smem);
    float* staging_c = Plan::template pointer<StagingC, float>(smem);

    const int tid = thread_index();
    const TileCoord tile{unit.m, unit.n};
    const int tx = tid % Config::kThreadsN;
    const int ty = tid / Config::kThreadsN;
    const int k_tiles = unit.k_tiles();
    const std::int64_t k0 = std::int64_t(unit.k_begin) * kBK;

    LoaderA load_a;
    LoaderB load_b;
    {
      const std::int64_t m0 = std::int64_t(tile.m) * kBM;
      const std::int64_t n0 = std::int64_t(tile.n) * kBN;
      const std::int64_t a_origin = at.a_row_shift + Config::LayoutA::offset(m0, k0, p.lda);
      const std::int64_t b_origin = Config::LayoutB::offset(k0, n0, p.ldb);
      // Rows / columns left, clamped to the tile so that the count fits an int.
      const int rows_left = int(at.M - m0 < kBM ? at.M - m0 : kBM);
      const int cols_left = int(p.N - n0 < kBN ? p.N - n0 : kBN);
      load_a.init(p.a + (at.a_offset - at.a_row_shift) + a_origin, p.lda, rows_left, p.span_a - a_origin, p.vector_a,
                  tid);
      load_b.init(p.b + at.b_offset + b_origin, p.ldb, cols_left, p.span_b - b_origin, p.vector_b, tid);
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
    // K left from the slice's start: the loads' range checks count in 32 bits (can_implement
    // keeps K below 2^31), which keeps 64-bit arithmetic out of the loop.
    const int k_left = int(p.K - k0);
    if (k_tiles > 0) {
      load_a.load(k_left);
      load_b.load(k_left);
      load_a.store(stages_a);
      load_b.store(stages_b);
      block_barrier();
    }
    for (int kt = 0; kt < k_tiles; ++kt) {
      const float* sa = stages_a + (kt & 1) * LoaderA::kStageFloats;
      const float* sb = stages_b + (kt & 1) * LoaderB::kStageFloats;
      TESSERA_UNROLL
      for (int k = 0; k < kBK; ++k) {
        float frag_a[kTM], frag_b[kTN];
        load_fragments(sa, sb, k, tx, ty, frag_a, frag_b);
        if (k == 0 && kt + 1 < k_tiles) {  // after the first reads, not queued before them
          load_a.advance();
          load_b.advance();
          load_a.load(k_left - (kt + 1) * kBK);
          load_b.load(k_left - (kt + 1) * kBK);
        }
        TESSERA_UNROLL
        for (int i = 0; i < kTM; ++i) {
          TESSERA_UNROLL
          for (int j = 0; j < kTN; ++j) acc[i][j] = __builtin_fmaf(frag_a[i], frag_b[j], acc[i][j]);
        }
      }
      // The next tile's registers go into the other stage after all of this tile's FMAs.
      // AMD: unconditionally (on the last tile that writes stale registers into a stage no
      // one reads again), because behind a branch LLVM sinks the FMAs below the stores and
      // the loads' waits then come before the FMAs (seen in the gfx942 assembly); the
      // sched_barrier keeps the scheduler from hoisting the stores and their waits into
      // the FMAs. NVIDIA: only when there is a next tile (storing always made ptxas spill
      // in the 512-thread configuration at its 128-register cap: benchmark/notes/fma.md, section
      // Versions).
#if defined(TESSERA_AMD_TARGET)
      constexpr bool kStoreAlways = true;
      amd::sched_barrier<amd::SchedMask::kNone>();
#else
      constexpr bool kStoreAlways = false;
#endif
      if (kStoreAlways || kt + 1 < k_tiles) {
        load_a.store(stages_a + ((kt & 1) ^ 1) * LoaderA::kStageFloats);
        load_b.store(stages_b + ((kt & 1) ^ 1) * LoaderB::kStageFloats);
      }
      block_barrier();  // also orders the last tile's reads before the epilogue's staging
    }

    if constexpr (kSplitK) {
      // Part of the tile's K: the tile's runs go to the unit's partial (the epilogue's last
      // barrier orders the staging before anything after it).
      auto scatter = [&](float* partial) {
        const std::int64_t m0 = std::int64_t(tile.m) * kBM, n0 = std::int64_t(tile.n) * kBN;
        const typename Fixup::Partial::RunWriter writer{partial, m0, n0};
        epilogue(acc, staging_c, tile, tx, ty, tid, writer);
      };
      if (Fixup::hand_on(p.scheduler, worker, j, 0, 0, scatter, tid, kThreads, [] { block_barrier(); })) return;
    } else {
      (void)worker;
      (void)j;
    }
    if constexpr (kProblem) {
      epilogue(acc, staging_c, tile, tx, ty, tid,
               p.output.at_problem(unit.problem, unit.row_begin, unit.rows, p.strides.c, p.strides.d));
    } else {
      epilogue(acc, staging_c, tile, tx, ty, tid, p.output);
    }
  }
  // Row k of both stages, as this thread's TM values of A and TN values of B: 16-byte
  // reads, one per band of 4.
  TESSERA_DEVICE TESSERA_FORCEINLINE static void load_fragments(const float* sa, const float* sb,
                                                                int k, int tx, int ty,
                                                                float (&a)[kTM], float (&b)[kTN]) {
    TESSERA_UNROLL
    for (int s = 0; s < kTM / 4; ++s) {
      load4(&sa[k * LoaderA::kSmemStride + s * kBandM + ty * 4], &a[4 * s]);
    }
    TESSERA_UNROLL
    for (int s = 0; s < kTN / 4; ++s) {
      load4(&sb[k * LoaderB::kSmemStride + s * kBandN + tx * 4], &b[4 * s]);
    }
  }

  // Row r of band `band` of the tile, column c: where the staging tile keeps it.
  TESSERA_DEVICE TESSERA_FORCEINLINE static int staged_index(int r, int c) {
    return kRowMajorC ? r * kStageCStride + c : c * kStageCStride + r;
  }

  // Accumulators -> shared staging -> `write` (OutputRun or a partial's RunWriter), four elements at a
  // time in D's contiguous order.
  template <class Writer>
  TESSERA_DEVICE static void epilogue(float (&acc)[kTM][kTN], float* staging, TileCoord tile,
                                      int tx, int ty, int tid, const Writer& write) {
    const std::int64_t m0 = std::int64_t(tile.m) * kBM;
    const std::int64_t n0 = std::int64_t(tile.n) * kBN;
    // The staging tile aliases the operand stages: the main loop's last barrier has
    // already ordered every read of them before these writes.
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
      // 2. The band out in D's contiguous order, 4 elements per thread per step.
      constexpr int kContig = kRowMajorC ? kBN : kBandM;  // along D's contiguous dimension
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
        load4(&staging[staged_index(r, c)], out);
        write(band_m0 + r, n0 + c, out);
      }
      block_barrier();  // the next band overwrites the staging tile
    }
  }
};

template <class Config, bool kSplitK = false>
TESSERA_GLOBAL void TESSERA_LAUNCH_BOUNDS(Config::kThreads, Config::kMinBlocksPerSm)
    fma_gemm_kernel(const FmaParams<Config> params) {
  // Compiled only for Config's own target (arch.hpp, device_pass_targets); elsewhere the
  // entry is empty and the host API never launches it.
  if constexpr (device_pass_targets<typename Config::Arch>()) {
    FmaGemmKernel<Config>::template run<kSplitK>(params);
  }
}

}  // namespace tessera::gemm
