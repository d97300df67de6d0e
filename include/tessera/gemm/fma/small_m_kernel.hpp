// The FMA family's small-M kernel: D = alpha * A * B + beta * C for M of 1 to kFmaSmallMMaxRows
// rows, which the FMA launcher (fma/fma.hpp) takes by itself on NVIDIA targets, with no option.
//
// Why a kernel of its own: with a few rows of A the GEMM is a stream of B (K x N, read once)
// through the CUDA cores, bound by DRAM bandwidth, not by FMAs. The tile kernel (fma/kernel.hpp)
// computes BlockM x BlockN tiles of D from shared memory: at M = 8 it wastes most of its 128 rows,
// stages B through shared memory, and has too few tiles to keep the memory system busy. Here:
//   - B goes straight from global memory into registers, 16 bytes (4 elements along B's
//     contiguous dimension) per load, each warp's loads covering whole 128-byte lines, each
//     thread issuing the next chunk's loads while it computes on this one's (the main loop);
//   - A (kTileM rows, zero past M) is staged in shared memory kStageK rows of K at a time, in
//     the order the FMAs read it, so that a thread's reads of it are 16-byte broadcasts; the
//     block's barriers come once per stage, and between them each warp streams its chunks of
//     B (kChunkK rows each) at its own pace;
//   - a block computes a kTileM x kTileN tile of D (kTileN = 128 columns) over its K slice; its
//     8 groups of 32 threads each sum a share of the slice's K (the "transposed" orientation:
//     the big dimensions, N and K, run along the threads, the small M along each thread's
//     registers), and the block adds the 8 group sums in a fixed tree order;
//   - K is split across blocks where the N tiles alone cannot fill the device, through the
//     family's scheduler::StreamK<reduce::SecondKernel> and its second kernel (scheduler/
//     fixup.hpp): a slice's tile goes to a partial in the workspace, summed in slice order after
//     the launch. The partials are small (kTileM rows per tile and slice) next to B, so the
//     second kernel's traffic is a small fraction of the first's; the split needs the workspace
//     workspace_size(args) asks for, and without one every block runs its tile's whole K.
// Layout of B decides which way a thread's 4 elements lie:
//   RowMajor B (N contiguous): thread (group g = warp, owner q = lane) loads 4 columns
//     [4q, 4q + 4) of rows g, g + 8, ...: a warp reads 512 contiguous bytes of one row;
//   ColumnMajor B (K contiguous): thread (g = lane % 8, q = warp * 4 + lane / 8) loads rows
//     [4g, 4g + 4) (and 32 on) of columns q, q + 32, q + 64, q + 96: a warp reads four
//     128-byte runs of four columns.
// Either way a thread accumulates kTileM x 4 outputs (its 4 columns), and the sums of the 8
// groups meet in shared memory.
#pragma once
#include <cstdint>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/epilogue/output_run.hpp"
#include "tessera/gemm/fma/kernel.hpp"
#include "tessera/gemm/scheduler/fixup.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

#if defined(TESSERA_AMD_TARGET)
#include "tessera/arch/amd/lds.hpp"
#endif

namespace tessera::gemm {

// The most rows of A the launcher sends to the small-M kernel. Past it a thread's kTileM x 4
// accumulators and its loads in flight no longer fit the register budget of kBlocksPerSm
// blocks per SM, and the tile kernel's reuse of B across rows starts to pay.
constexpr int kFmaSmallMMaxRows = 16;

template <class Config, int kTileM_>
struct FmaSmallMKernel {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using LayoutA = typename Config::LayoutA;
  using LayoutB = typename Config::LayoutB;
  using LayoutC = typename Config::LayoutC;
  static constexpr int kTileM = kTileM_;
  static constexpr int kThreads = 256;
  static constexpr int kGroups = 8;    // groups of threads that share a tile's columns, each a part of K
  static constexpr int kOwners = 32;   // threads per group, 4 columns each
  static constexpr int kTileN = kOwners * 4;
  // 4-element loads of B per thread per chunk, all issued before any is used: 8, or 4 where
  // kTileM x 4 accumulators leave no registers for 8 (at 16 rows 8 spilled at the 128-register
  // cap of kBlocksPerSm blocks); and the rows of K (and of staged A) one chunk covers.
  static constexpr int kLoads = kTileM > 8 ? 4 : 8;
  static constexpr int kChunkK = kGroups * kLoads;
  // Rows of K whose A is staged at once (16 KiB of it): the block's barriers come once per
  // stage, not per chunk, so that between them every warp streams its chunks of B on its own.
  static constexpr int kStageK = 4096 / kTileM;
  static constexpr int kStageLoads = kTileM > 8 ? 4 : 8;  // A's loads in flight per thread (stage_a)
  // The K tile the scheduler splits in: a slice is a whole number of these (at least
  // choose_split_k's 8 of them, 256 rows), no larger than a chunk, so that deep enough slices
  // can still be cut into as many as the device has block slots.
  static constexpr int kSplitTileK = 32;
  // Blocks per SM the register budget is set for (__launch_bounds__), and the block slots the
  // split plan fills: one wave.
  static constexpr int kBlocksPerSm = 2;
  static constexpr bool kRowMajorB = LayoutB::kIsRowMajor;
  using Fixup = FixupHooks<typename Config::Scheduler, LayoutC, kTileM, kTileN>;

  static_assert(kTileM % 4 == 0 && kTileM <= kFmaSmallMMaxRows, "small-M tile: 4 to 16 rows, 16-byte reads of A");
  static_assert(kGroups * kOwners == kThreads, "small-M kernel: every thread is one group's owner");
  static_assert(kLoads % 4 == 0 && kChunkK == 32 * (kLoads / 4),
                "small-M kernel: a chunk is kLoads rows per group (RowMajor B), and kLoads / 4 steps of 32 "
                "rows of each of 4 columns (ColumnMajor B)");
  static_assert(kStageK % kChunkK == 0 && kTileM * kStageK % kThreads == 0,
                "small-M kernel: a stage of A is whole chunks and splits evenly over the threads");

  // Shared memory: A's stage, then (after the main loop) the groups' sums being added and the
  // finished tile; the two never live at once.
  static constexpr int kStageFloats = kTileM * kStageK;
  static constexpr int kSumFloats = (kGroups / 2) * kTileM * kTileN;
  static constexpr int kSmemFloats = kStageFloats > kSumFloats ? kStageFloats : kSumFloats;

  static TileGrid grid(std::int64_t M, std::int64_t N, std::int64_t K) {
    return {M, N, K, kTileM, kTileN, kSplitTileK};
  }

  // Where A's element (m, k) of the stage is kept: k-major rows of kTileM for RowMajor B (a
  // thread reads all rows at one k), m-major rows of kStageK for ColumnMajor B (4 k at one m).
  TESSERA_DEVICE TESSERA_FORCEINLINE static int staged_a(int m, int k) {
    return kRowMajorB ? k * kTileM + m : m * kStageK + k;
  }

  // This thread's place: its group (its share of K) and owner (its 4 columns), and the
  // tile-local column of its column j.
  TESSERA_DEVICE TESSERA_FORCEINLINE static int group_of(int tid) { return kRowMajorB ? tid / 32 : tid % 8; }
  TESSERA_DEVICE TESSERA_FORCEINLINE static int owner_of(int tid) {
    return kRowMajorB ? tid % 32 : (tid / 32) * 4 + (tid % 32) / 8;
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE static int column(int owner, int j) {
    return kRowMajorB ? 4 * owner + j : owner + 32 * j;
  }

  // This thread's loads of B, set up once per unit so that the main loop holds one pointer
  // and one stride rather than a 64-bit address per load. Load l of a chunk is 4 elements
  // along B's contiguous dimension:
  //   RowMajor:    row g + 8 l of the chunk, the thread's columns [4q, 4q + 4);
  //   ColumnMajor: rows [4g + 32 (l / 4), + 4) of the chunk, column q + 32 (l % 4).
  struct BLoads {
    const EB* chunk;       // the thread's first element of the current chunk
    std::int64_t stride;   // elements from load l to load l + 1 (RowMajor: 8 rows; ColumnMajor: 32 columns)
    int inside;            // RowMajor: columns inside N (0 to 4); ColumnMajor: bit j, column j inside N
    int first;             // the thread's first row of a chunk (g, or 4g)

    TESSERA_DEVICE TESSERA_FORCEINLINE static BLoads make(const FmaParams<Config>& p, std::int64_t k_begin,
                                                         std::int64_t n0, int g, int q) {
      BLoads b;
      if constexpr (kRowMajorB) {
        const std::int64_t n = n0 + 4 * q;
        b.chunk = p.b + LayoutB::offset(k_begin + g, n, p.ldb);
        b.stride = kGroups * p.ldb;
        b.inside = n >= p.N ? 0 : (p.N - n >= 4 ? 4 : int(p.N - n));
        b.first = g;
      } else {
        const std::int64_t n = n0 + q;
        b.chunk = p.b + LayoutB::offset(k_begin + 4 * g, n, p.ldb);
        b.stride = 32 * p.ldb;
        b.inside = 0;
        TESSERA_UNROLL
        for (int j = 0; j < 4; ++j) b.inside |= n + 32 * j < p.N ? 1 << j : 0;
        b.first = 4 * g;
      }
      return b;
    }

    // The next chunk (its elements kChunkK rows on).
    TESSERA_DEVICE TESSERA_FORCEINLINE void next_chunk(std::int64_t ldb) { chunk += kRowMajorB ? kChunkK * ldb : kChunkK; }

    // Load l of the chunk as float, zero past `rows` rows (the slice's end) and past N.
    TESSERA_DEVICE TESSERA_FORCEINLINE void load(int l, int rows, bool vector, float (&v)[4]) const {
      int n_inside;
      const EB* src;
      if constexpr (kRowMajorB) {
        n_inside = first + kGroups * l < rows ? inside : 0;
        src = chunk + l * stride;
      } else {
        const int r = first + 32 * (l / 4);
        n_inside = (inside >> (l % 4)) & 1 ? (rows - r >= 4 ? 4 : (rows - r > 0 ? rows - r : 0)) : 0;
        src = chunk + (l % 4) * stride + 32 * (l / 4);
      }
      if (n_inside == 4 && vector) {
        load4(src, v);
      } else {
        TESSERA_UNROLL
        for (int i = 0; i < 4; ++i) v[i] = i < n_inside ? to_float(src[i]) : 0.0f;
      }
    }
  };

  template <bool kSplitK>
  TESSERA_DEVICE static void run(const FmaParams<Config>& p) {
#if defined(TESSERA_AMD_TARGET)
    // Not launched for AMD targets (the launcher's rule); declared the AMD way so that the
    // wave emulator can run it all the same.
    TESSERA_AMD_LDS(lds, kSmemFloats * sizeof(float));
    float* const smem = reinterpret_cast<float*>(lds);
#else
    __shared__ __align__(16) float smem[kSmemFloats];
#endif
    const int worker = int(block_index());
    const int tid = thread_index();
    const int g = group_of(tid), q = owner_of(tid);
    // One unit per block (StreamK<SecondKernel>): a tile, or a K slice of it.
    if (p.scheduler.units_of(worker) == 0) return;
    const WorkUnit unit = p.scheduler.unit(worker, 0, 0, 0);
    const std::int64_t n0 = std::int64_t(unit.n) * kTileN;
    const std::int64_t k_begin = std::int64_t(unit.k_begin) * kSplitTileK;
    const std::int64_t k_end_tiles = std::int64_t(unit.k_end) * kSplitTileK;
    const std::int64_t k_end = k_end_tiles < p.K ? k_end_tiles : p.K;

    BLoads loads = BLoads::make(p, k_begin, n0, g, q);
    float acc[kTileM][4];
    TESSERA_UNROLL
    for (int m = 0; m < kTileM; ++m) {
      TESSERA_UNROLL
      for (int j = 0; j < 4; ++j) acc[m][j] = 0.0f;
    }

    // The slice in chunks of kChunkK rows, software-pipelined in halves (kHalf loads): the
    // first half of the next chunk's loads is issued into the registers the first half of this
    // chunk's FMAs have just freed, and likewise the second, so that every warp keeps loads of
    // B in flight while it computes, with no registers beyond one chunk's. At 16 rows the
    // halves made ptxas spill at the register cap; there the next chunk's loads follow all of
    // this chunk's FMAs (kHalf = kLoads). A is restaged at each stage's first chunk, under the
    // next chunk's loads.
    const std::int64_t depth = k_end > k_begin ? k_end - k_begin : 0;
    const int chunks = int((depth + kChunkK - 1) / kChunkK);
    constexpr int kHalf = kTileM > 8 ? kLoads : kLoads / 2;
    float b[kLoads][4];
    if (chunks > 0) {
      const int first_rows = depth < kChunkK ? int(depth) : kChunkK;
      TESSERA_UNROLL
      for (int l = 0; l < kLoads; ++l) loads.load(l, first_rows, p.vector_b, b[l]);
    }
    TESSERA_NO_UNROLL
    for (int c = 0; c < chunks; ++c) {
      const int c0 = c * kChunkK;
      const int in_stage = c0 % kStageK;
      if (in_stage == 0) {
        stage_a(p, k_begin + c0, depth - c0 < kStageK ? int(depth - c0) : kStageK, tid, smem);
      }
      const bool more = c + 1 < chunks;
      const std::int64_t left = depth - c0 - kChunkK;  // rows from the next chunk's first on
      const int next_rows = left < kChunkK ? int(left) : kChunkK;
      if (more) loads.next_chunk(p.ldb);
      compute<0, kHalf>(smem, in_stage, b, g, acc);
      if (more) {
        TESSERA_UNROLL
        for (int l = 0; l < kHalf; ++l) loads.load(l, next_rows, p.vector_b, b[l]);
      }
      compute<kHalf, kLoads>(smem, in_stage, b, g, acc);
      if (more) {
        TESSERA_UNROLL
        for (int l = kHalf; l < kLoads; ++l) loads.load(l, next_rows, p.vector_b, b[l]);
      }
    }
    block_barrier();  // the last stage's reads of A before the sums overwrite it

    sum_groups(smem, acc, g, q);
    const std::int64_t m0 = std::int64_t(unit.m) * kTileM;  // 0: the tile holds every row
    if constexpr (kSplitK) {
      auto scatter = [&](float* partial) {
        const typename Fixup::Partial::RunWriter writer{partial, m0, n0};
        write_tile(smem, tid, m0, n0, writer);
      };
      if (Fixup::hand_on(p.scheduler, worker, 0, 0, 0, scatter, tid, kThreads, [] { block_barrier(); })) return;
    }
    write_tile(smem, tid, m0, n0, p.output);
  }

  // Rows [s0, s0 + rows) of A (zero past M and past `rows`) into the stage, consecutive threads
  // along A's contiguous dimension; A is small and read by every block of a K slice, so it
  // comes from L2. Element i of this thread's share: RowMajor A, row i / kPer, column
  // tid + kThreads (i % kPer); ColumnMajor A, row tid % kTileM, column tid / kTileM + kStep i
  // (so that the addresses are one base plus a multiple of lda known at compile time).
  TESSERA_DEVICE static void stage_a(const FmaParams<Config>& p, std::int64_t s0, int rows, int tid, float* stage) {
    constexpr int kPer = kStageK / kThreads;  // RowMajor A: elements of a row per thread
    constexpr int kStep = kThreads / kTileM;  // ColumnMajor A: columns the threads cover at once
    static_assert(kStageK % kThreads == 0 && kThreads % kTileM == 0, "small-M kernel: A's stage tiles the threads");
    const int m_base = LayoutA::kIsRowMajor ? 0 : tid % kTileM;
    const int k_base = LayoutA::kIsRowMajor ? tid : tid / kTileM;
    const typename Config::ElementA* base = p.a + LayoutA::offset(m_base, s0 + k_base, p.lda);
    block_barrier();  // every thread is done with the previous stage
    // kStageLoads loads in flight at a time: all of them at once would hold a thread's share of
    // the stage in registers beside the accumulators and the next chunk's loads of B.
    TESSERA_PRAGMA(unroll kStageLoads)
    for (int i = 0; i < kStageFloats / kThreads; ++i) {
      const int m = LayoutA::kIsRowMajor ? i / kPer : m_base;
      const int k = LayoutA::kIsRowMajor ? k_base + kThreads * (i % kPer) : k_base + kStep * i;
      const std::int64_t at = LayoutA::kIsRowMajor ? m * p.lda + kThreads * (i % kPer) : std::int64_t(kStep) * i * p.lda;
      stage[staged_a(m, k)] = m < p.M && k < rows ? to_float(base[at]) : 0.0f;
    }
    block_barrier();
  }

  // Loads [kLo, kHi) of one chunk (rows c0.. of the stage): acc[m][j] += A(m, k) B(k, column j)
  // over this thread's rows of them.
  template <int kLo, int kHi>
  TESSERA_DEVICE TESSERA_FORCEINLINE static void compute(const float* sa, int c0, const float (&b)[kLoads][4], int g,
                                                        float (&acc)[kTileM][4]) {
    if constexpr (kRowMajorB) {
      // Load l is row g + 8 l, its 4 elements the thread's 4 columns.
      TESSERA_UNROLL
      for (int l = kLo; l < kHi; ++l) {
        TESSERA_UNROLL
        for (int m4 = 0; m4 < kTileM; m4 += 4) {
          float a[4];
          load4(&sa[staged_a(m4, c0 + g + kGroups * l)], a);
          TESSERA_UNROLL
          for (int i = 0; i < 4; ++i) {
            TESSERA_UNROLL
            for (int j = 0; j < 4; ++j) acc[m4 + i][j] = __builtin_fmaf(a[i], b[l][j], acc[m4 + i][j]);
          }
        }
      }
    } else {
      // Load 4h + j is 4 rows (4g + 32 h on) of column j.
      TESSERA_UNROLL
      for (int h = kLo / 4; h * 4 < kHi; ++h) {
        TESSERA_UNROLL
        for (int m = 0; m < kTileM; ++m) {
          float a[4];
          load4(&sa[staged_a(m, c0 + 4 * g + 32 * h)], a);
          TESSERA_UNROLL
          for (int j = 0; j < 4; ++j) {
            if (4 * h + j < kLo || 4 * h + j >= kHi) continue;  // resolved at compile time
            TESSERA_UNROLL
            for (int i = 0; i < 4; ++i) acc[m][j] = __builtin_fmaf(a[i], b[4 * h + j][i], acc[m][j]);
          }
        }
      }
    }
  }

  // The groups' sums added in a fixed tree (groups 4..7 into 0..3, 2..3 into 0..1, 1 into 0),
  // then group 0's total staged as the tile, row m at m x kTileN: the same bits on every run.
  TESSERA_DEVICE static void sum_groups(float* smem, float (&acc)[kTileM][4], int g, int q) {
    TESSERA_UNROLL
    for (int half = kGroups / 2; half >= 1; half /= 2) {
      if (g >= half && g < 2 * half) {
        float* to = smem + (g - half) * kTileM * kTileN;
        TESSERA_UNROLL
        for (int m = 0; m < kTileM; ++m) {
          TESSERA_UNROLL
          for (int j = 0; j < 4; ++j) to[m * kTileN + column(q, j)] = acc[m][j];
        }
      }
      block_barrier();
      if (g < half) {
        const float* from = smem + g * kTileM * kTileN;
        TESSERA_UNROLL
        for (int m = 0; m < kTileM; ++m) {
          TESSERA_UNROLL
          for (int j = 0; j < 4; ++j) acc[m][j] += from[m * kTileN + column(q, j)];
        }
      }
      block_barrier();
    }
    if (g == 0) {
      TESSERA_UNROLL
      for (int m = 0; m < kTileM; ++m) {
        TESSERA_UNROLL
        for (int j = 0; j < 4; ++j) smem[m * kTileN + column(q, j)] = acc[m][j];
      }
    }
    block_barrier();
  }

  // The staged tile out through `write` (OutputRun, or a partial's RunWriter), 4 elements at a
  // time along D's contiguous dimension.
  template <class Writer>
  TESSERA_DEVICE static void write_tile(const float* tile, int tid, std::int64_t m0, std::int64_t n0,
                                        const Writer& write) {
    constexpr bool kRowMajorC = LayoutC::kIsRowMajor;
    constexpr int kContig = kRowMajorC ? kTileN : kTileM;
    constexpr int kRuns = kTileM * kTileN / 4;
    TESSERA_UNROLL
    for (int v = tid; v < kRuns; v += kThreads) {
      const int contig = (v % (kContig / 4)) * 4;
      const int strided = v / (kContig / 4);
      const int r = kRowMajorC ? strided : contig;
      const int c = kRowMajorC ? contig : strided;
      float out[4];
      if constexpr (kRowMajorC) {
        load4(&tile[r * kTileN + c], out);
      } else {
        TESSERA_UNROLL
        for (int i = 0; i < 4; ++i) out[i] = tile[(r + i) * kTileN + c];
      }
      write(m0 + r, n0 + c, out);
    }
  }
};

template <class Config, int kTileM, bool kSplitK>
TESSERA_GLOBAL void TESSERA_LAUNCH_BOUNDS(256, 2) fma_small_m_kernel(const FmaParams<Config> params) {
  static_assert(FmaSmallMKernel<Config, kTileM>::kThreads == 256 && FmaSmallMKernel<Config, kTileM>::kBlocksPerSm == 2,
                "fma_small_m_kernel's launch bounds are the kernel's threads and blocks per SM");
  if constexpr (device_pass_targets<typename Config::Arch>()) {
    FmaSmallMKernel<Config, kTileM>::template run<kSplitK>(params);
  }
}

}  // namespace tessera::gemm
