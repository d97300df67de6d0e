// The AMD MFMA GEMM kernel (gfx942, gfx950): D = alpha * A * B + beta * C.
//
// One workgroup computes one BlockM x BlockN tile of D with Config::kWaves waves, each
// owning a WaveM x WaveN piece (mma/mfma_wave_tile.hpp). Per K tile the schedule
// (schedule/amd_pingpong.hpp) orders the clusters: the next tile's global loads into
// registers (memory/mfma_tile_copy.hpp), LDS reads of the operands, the MFMAs, and the
// next tile's LDS stores; the async schedule instead loads global -> LDS directly into
// three LDS stages. This file supplies those operations (MfmaMainloop) and the order
// around the loop:
//
//   prologue   the first K tile -> LDS. It is the LAST K tile (gemm/mfma/k_tile_order.hpp):
//              the partial one when K % BlockK != 0 (the only tile whose elements past K
//              must be zeroed, done here once) and the only one holding the operands' last
//              K line (whose last dword the range check may cut: handled here once), so
//              every tile of the main loop is whole and the loop has no edge code;
//   main loop  one schedule iteration per K tile; the tile after the last one is not
//              loaded as such: the loads repeat the last whole tile instead (harmless,
//              never read), which keeps the loop free of branches;
//   epilogue   each wave stages 32x32 pieces of its accumulators through its own part of
//              LDS (aliasing the operand stages, as the plan allows) and writes them in
//              D's contiguous order through the shared OutputRun (the configuration's
//              epilogue: by default alpha * acc + beta * C).
//
// Waits: every group of global loads is a ticket; an LDS store waits for exactly its
// group (vmcnt = the loads issued after it), and the direct-to-LDS loads' stage is waited
// for with the newest group still in flight.
//
// With scheduler::StreamK<> (gemm/scheduler/stream_k.hpp) the grid is persistent: a workgroup runs its
// units one after another, each a tile and a range of its K tiles (the range is a K problem of
// its own: the cursors start at its first K tile, its last tile comes first), a unit that
// covers part of its tile's K writes its accumulators as a partial through the same staging,
// and after the last unit the workgroup reduces its share of the split tiles (the fix-up hooks,
// scheduler/fixup.hpp: FixupHooks).
//
// A batch or groups (a scheduler with kProblemSet, problem_set.hpp): the grid is an upper bound
// of the units; a workgroup finds its unit, leaves if it has none, and runs the same code on a
// view of the parameters moved to its problem (mfma_problem_view).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/amd/lds.hpp"
#include "tessera/arch/amd/sched.hpp"
#include "tessera/arch/amd/wave.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/scheduler/fixup.hpp"
#include "tessera/gemm/epilogue/output_run.hpp"
#include "tessera/gemm/mfma/k_tile_order.hpp"
#include "tessera/gemm/mfma/smem_plan.hpp"
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/memory/mfma_scale_copy.hpp"
#include "tessera/memory/mfma_tile_copy.hpp"
#include "tessera/mma/mfma_lowp_wave_tile.hpp"
#include "tessera/mma/mfma_wave_tile.hpp"
#include "tessera/schedule/amd_pingpong.hpp"

namespace tessera::gemm {

// What the host computes once per launch and every workgroup reads.
template <class Config>
struct MfmaParams {
  const typename Config::ElementA* a;
  const typename Config::ElementB* b;
  std::int64_t lda, ldb;
  std::int64_t K;
  std::int64_t span_a, span_b;  // bytes from A / B to one past their last element
  OutputRun<typename Config::ElementC, typename Config::ElementD, typename Config::LayoutC,
            typename Config::Epilogue>
      output;
  typename Config::Scheduler scheduler;  // DataParallel: one tile per workgroup; StreamK: persistent
  // The K tile order, computed on the host: derived in the kernel, "K % BlockK != 0"
  // becomes a boolean-to-integer the compiler lowers with vector instructions, which drags
  // the K cursors (and the buffer descriptors) out of scalar registers.
  LastFirstKOrder k_order;
  ProblemStrides strides;  // a batch's or group's entries (problem_set.hpp)
  // MX block scales (Config::kBlockScaled): A's M rows and B's N rows of ceil(K / 32)
  // bytes, ld bytes apart; span: bytes from the first to one past the last one read.
  const unsigned char* scale_a;
  const unsigned char* scale_b;
  std::int64_t scale_ld_a, scale_ld_b;
  std::int64_t scale_span_a, scale_span_b;
};

// The parameters of one problem of a batch or group, as one GEMM: A, B, C and D moved to unit
// u's problem and its first row (the host chose the aligned kernel only where that keeps A and
// B 16-byte aligned).
template <class Config>
TESSERA_HOST_DEVICE MfmaParams<Config> mfma_problem_view(const MfmaParams<Config>& p, const WorkUnit& u) {
  MfmaParams<Config> q = p;
  const std::int64_t row_bytes = Config::bytes_a(Config::LayoutA::offset(u.row_begin, 0, p.lda));
  q.a = reinterpret_cast<const typename Config::ElementA*>(reinterpret_cast<const char*>(p.a) + row_bytes) +
        u.problem * p.strides.a;
  q.span_a -= row_bytes;
  q.b += u.problem * p.strides.b;
  q.output = p.output.at_problem(u.problem, u.row_begin, u.rows, p.strides.c, p.strides.d);
  return q;
}

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)

template <class Config, bool kAligned>
struct MfmaGemmKernel {
  using SmemPlan = MfmaSmemPlan<Config>;
  using Plan = typename SmemPlan::Plan;
  using TileA = typename SmemPlan::TileA;
  using TileB = typename SmemPlan::TileB;
  using Schedule = typename Config::Schedule;
  using Atom = typename Config::Atom;
  static constexpr int kBM = Config::kBlockM, kBN = Config::kBlockN, kBK = Config::kBlockK;
  static constexpr int kThreads = Config::kThreads;

  // The unaligned variant gathers elements along K for both operands; the aligned one
  // moves 16-byte pieces, transposing M/N-contiguous operands in registers. With MX block
  // scales each copy carries its operand's scales too (memory/mfma_scale_copy.hpp).
  // Packed fp6 operands move 12 global bytes per 16-byte LDS piece, stored where the
  // instruction's reads (kKGroups lane groups) expect their runs (mfma_tile_copy.hpp).
  using OperandCopyA = MfmaTileCopy<TileA, kThreads, tile_copy_kind(kAligned, Config::kKContiguousA),
                                    Config::kKContiguousA, SmemPlan::kWriteRowChunksA, SmemPlan::kSixBitGroupsA>;
  using OperandCopyB = MfmaTileCopy<TileB, kThreads, tile_copy_kind(kAligned, Config::kKContiguousB),
                                    Config::kKContiguousB, SmemPlan::kWriteRowChunksB, SmemPlan::kSixBitGroupsB>;
  static constexpr int kScaleBlocks = Config::kBlockScaled ? Config::kScaleBlocks : 4;
  using ScaleTiles = MfmaScaleTiles<TileA, TileB, kScaleBlocks>;
  template <class OperandCopy, int kRows, int kScaleOffset>
  using WithScales = std::conditional_t<
      Config::kBlockScaled,
      MfmaScaledCopy<OperandCopy, MfmaScaleCopy<kRows, kScaleBlocks, kThreads, kAligned>, kScaleOffset,
                     Config::kValuesPerUnit>,
      OperandCopy>;
  using CopyA = WithScales<OperandCopyA, kBM, ScaleTiles::kOffsetFromA>;
  using CopyB = WithScales<OperandCopyB, kBN, ScaleTiles::kOffsetFromB>;
  using WaveTile = mma::MfmaWaveTile<Atom, TileA, TileB, Config::kRepM, Config::kRepN, Config::kReadSteps>;

  // A persistent walk (a scheduler that splits K); DataParallel runs one tile per workgroup.
  static constexpr bool kStreamK = scheduler_has_fixup<typename Config::Scheduler>;
  using Fixup = FixupHooks<typename Config::Scheduler, typename Config::LayoutC, kBM, kBN>;

  struct Mainloop;
  TESSERA_DEVICE static void run(const MfmaParams<Config>& p);
  // One tile's K tiles [k0, k0 + k_extent) (elements) in `order`, handed to `out` (D's
  // OutputRun, or a partial's writer).
  template <class Output>
  TESSERA_DEVICE static void tile(unsigned char* smem, const MfmaParams<Config>& p, int tile_m, int tile_n,
                                  int k0, int k_extent, LastFirstKOrder order, const Output& out);
  template <class Output>
  TESSERA_DEVICE static void epilogue(WaveTile& wt, float* staging, std::int64_t m0, std::int64_t n0,
                                      int lane, const Output& out);
};

// The operations a schedule orders (schedule/amd_pingpong.hpp lists them).
template <class Config, bool kAligned>
struct MfmaGemmKernel<Config, kAligned>::Mainloop {
  using K = MfmaGemmKernel<Config, kAligned>;
  static constexpr int kLoadsA = K::CopyA::kLoads;
  static constexpr int kLoadsB = K::CopyB::kLoads;
  static constexpr int kStepsPerSlice = Config::kReadStepsPerSlice;
  static constexpr int kWaves = Config::kWaves;
  // Direct-to-LDS loads per lane per tile and operand (async schedule).
  static constexpr int kDirectA = Config::kDirectToLds ? K::CopyA::template kDirectLoads<kWaves> : 0;
  static constexpr int kDirectB = Config::kDirectToLds ? K::CopyB::template kDirectLoads<kWaves> : 0;

  typename K::CopyA copy_a;
  typename K::CopyB copy_b;
  typename K::WaveTile wt;
  unsigned char* smem;
  int tid;
  int wave;
  int pos;                  // position (gemm/mfma/k_tile_order.hpp) the next load fetches
  LastFirstKOrder order;  // the K tiles: the last one first
  // The stage being read and (async) the one being filled, as byte offsets in LDS; A's
  // tile starts there, B's kStageOffsetB further.
  std::uint32_t read_stage, fill_stage;
  static constexpr std::uint32_t kStageBytes = std::uint32_t(SmemPlan::kStageBytes);
  static constexpr std::uint32_t kOffsetB = std::uint32_t(SmemPlan::kStageOffsetB);
  static constexpr std::uint32_t kFirstStage = std::uint32_t(Plan::template offset<typename SmemPlan::Stages>());
  std::uint32_t direct_a[kDirectA > 0 ? kDirectA : 1];
  std::uint32_t direct_b[kDirectB > 0 ? kDirectB : 1];

  // After the load of position `pos`: the cursors move one whole tile on, or stay.
  TESSERA_DEVICE TESSERA_FORCEINLINE bool step() const { return order.step(pos); }

  template <schedule::Operand kOp>
  TESSERA_DEVICE TESSERA_FORCEINLINE void global_load() {
    if constexpr (kOp == schedule::Operand::kA) {
      copy_a.load();
      copy_a.advance_if(step());
    } else {
      copy_b.load();
      copy_b.advance_if(step());
    }
  }

  // Wait for this operand's ticket (kNewer = loads issued after it, which may stay in
  // flight), then registers -> LDS.
  // The wait is fenced on both sides so that it is the one the stores (and, when
  // transposing, the register work that needs the loaded values) see: the compiler
  // would otherwise schedule that work above it and wait piecemeal, or for B's loads
  // before A's stores.
  template <schedule::Operand kOp, int kNewer>
  TESSERA_DEVICE TESSERA_FORCEINLINE void lds_store() {
    schedule::fence_cluster();
    amd::wait_vmcnt<(kNewer > 63 ? 63 : kNewer)>();  // a stricter wait when the count saturates
    schedule::fence_cluster();
    if constexpr (kOp == schedule::Operand::kA) {
      copy_a.store(smem + kFirstStage, tid);
    } else {
      copy_b.store(smem + kFirstStage + kOffsetB, tid);
    }
  }

  template <int kSlice>
  TESSERA_DEVICE TESSERA_FORCEINLINE void read() {
    read<kSlice, schedule::Operand::kA>();
    read<kSlice, schedule::Operand::kB>();
  }
  template <int kSlice, schedule::Operand kOp>
  TESSERA_DEVICE TESSERA_FORCEINLINE void read() {
    if constexpr (kOp == schedule::Operand::kA) {
      wt.template read_a<kSlice * kStepsPerSlice, kStepsPerSlice>(smem + read_stage);
    } else {
      wt.template read_b<kSlice * kStepsPerSlice, kStepsPerSlice>(smem + read_stage + kOffsetB);
    }
  }
  template <int kSlice>
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot() {
    wt.template dot<kSlice * kStepsPerSlice, kStepsPerSlice>();
  }

  // This wave's LDS reads and writes have completed (lgkmcnt(0)), then every wave of the
  // workgroup arrives. With registers between global memory and LDS this is the fenced
  // block_barrier(). With direct-to-LDS loads it is a bare s_barrier after an explicit
  // lgkmcnt(0): a release fence covering LDS makes the compiler wait for every
  // direct-to-LDS load in flight (vmcnt(0)), which would undo the third stage. The order
  // of LDS accesses around these barriers is checked in the generated code (test/isa).
  // Fenced by sched_barrier(0) on both sides: a cluster boundary nothing moves across
  // (without them the compiler hoists the next cluster's VALU work, and the waits for
  // the loads it uses, above the s_barrier).
  TESSERA_DEVICE TESSERA_FORCEINLINE void lds_barrier() {
    schedule::fence_cluster();
    if constexpr (Config::kDirectToLds) {
      amd::wait_lgkmcnt<0>();
      amd::barrier();
    } else {
      block_barrier();
    }
    schedule::fence_cluster();
  }
  // A cluster boundary after a dot cluster: this wave has no LDS traffic in flight (the
  // MFMAs waited for their reads), so the direct-to-LDS variant skips the lgkmcnt wait
  // (the fenced one's is dropped by the compiler on its own).
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot_barrier() {
    if constexpr (Config::kDirectToLds) {
      schedule::fence_cluster();
      amd::barrier();
      schedule::fence_cluster();
    } else {
      lds_barrier();
    }
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void cond_barrier(bool wave_uniform) {
    if (wave_uniform) lds_barrier();
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE bool second_group() const { return wave >= 4; }

  // ---- direct-to-LDS (async schedule) ----
  template <schedule::Operand kOp>
  TESSERA_DEVICE TESSERA_FORCEINLINE void async_load() {
    if constexpr (kOp == schedule::Operand::kA) {
      copy_a.template load_direct<kWaves>(smem + fill_stage, wave, direct_a);
      copy_a.advance_if(step());
    } else {
      copy_b.template load_direct<kWaves>(smem + fill_stage + kOffsetB, wave, direct_b);
      copy_b.advance_if(step());
    }
  }
  template <int kN>
  TESSERA_DEVICE TESSERA_FORCEINLINE void async_wait() {
    amd::wait_vmcnt<kN>();
  }
  // The dot of the tile in registers with B's direct loads of tile i+2 issued among the
  // MFMAs: sched_group_barrier asks for one MFMA, then one load with its scalar address
  // work (M0 and the descriptor), and so on, then the remaining MFMAs. Why: the loads'
  // scalar and VMEM issue slots hide under the MFMA pipe's 32-cycle shadow instead of
  // delaying the first MFMA (Triton interleaves 1 MFMA : 3 SALU for the same reason).
  TESSERA_DEVICE TESSERA_FORCEINLINE void dot_with_async_b() {
    async_load<schedule::Operand::kB>();
    dot<0>();
    TESSERA_UNROLL
    for (int q = 0; q < kDirectB; ++q) {
      amd::sched_group_barrier<amd::SchedMask::kMfma, 1, 0>();
      amd::sched_group_barrier<amd::SchedMask::kSalu, 3, 0>();
      amd::sched_group_barrier<amd::SchedMask::kVmemRead, 1, 0>();
    }
    constexpr int kRest = K::WaveTile::kMfmasPerStep * Config::kReadSteps - kDirectB;
    if constexpr (kRest > 0) amd::sched_group_barrier<amd::SchedMask::kMfma, kRest, 0>();
  }
  // After the iteration: the next tile is read from the next stage, and the stage just
  // read is the one filled next (three stages in a ring).
  TESSERA_DEVICE TESSERA_FORCEINLINE void rotate_stages() {
    if constexpr (Config::kDirectToLds) {
      constexpr std::uint32_t kEnd = kFirstStage + 3 * kStageBytes;
      read_stage = read_stage + kStageBytes == kEnd ? kFirstStage : read_stage + kStageBytes;
      fill_stage = fill_stage + kStageBytes == kEnd ? kFirstStage : fill_stage + kStageBytes;
    }
  }
};

template <class Config, bool kAligned>
TESSERA_DEVICE void MfmaGemmKernel<Config, kAligned>::run(const MfmaParams<Config>& p) {
  TESSERA_AMD_LDS(smem, Plan::kTotalBytes);
  const int worker = int(block_index());
  if constexpr (takes_problem_set<typename Config::Scheduler>) {
    // The grid is a bound of the units: a workgroup past the last has none.
    if (p.scheduler.units_of(worker) == 0) return;
    const WorkUnit unit = p.scheduler.unit(worker, 0, 0, 0);
    const MfmaParams<Config> q = mfma_problem_view(p, unit);
    tile(smem, q, unit.m, unit.n, 0, int(q.K), q.k_order, q.output);
  } else if constexpr (!kStreamK) {
    const WorkUnit unit = p.scheduler.unit(worker, 0, 0, 0);
    // K counts in 32 bits (the host refuses K >= 2^31).
    tile(smem, p, unit.m, unit.n, 0, int(p.K), p.k_order, p.output);
  } else {
    const int tid = thread_index();
    const int units = p.scheduler.units_of(worker);
    for (int j = 0; j < units; ++j) {
      const WorkUnit unit = p.scheduler.unit(worker, j, 0, 0);
      const int k0 = unit.k_begin * kBK;
      const int k_end = unit.k_end * kBK < int(p.K) ? unit.k_end * kBK : int(p.K);
      const LastFirstKOrder order = LastFirstKOrder::make(k_end - k0, kBK);
      // Part of the tile's K: the unit's runs go to its partial (the barrier after them also
      // orders the staging, over the operand stages, before the next unit's loads).
      auto scatter = [&](float* partial) {
        const typename Fixup::Partial::RunWriter writer{partial, std::int64_t(unit.m) * kBM,
                                                        std::int64_t(unit.n) * kBN};
        tile(smem, p, unit.m, unit.n, k0, k_end - k0, order, writer);
      };
      if (Fixup::hand_on(p.scheduler, worker, j, 0, 0, scatter, tid, kThreads, [] { block_barrier(); })) continue;
      tile(smem, p, unit.m, unit.n, k0, k_end - k0, order, p.output);
      block_barrier();  // the staging (over the operand stages) is read before the next unit loads
    }
    Fixup::finish(p.scheduler, worker, 0, 0, [&] { return p.output; }, tid, kThreads, [] { block_barrier(); });
  }
}

template <class Config, bool kAligned>
template <class Output>
TESSERA_DEVICE TESSERA_FORCEINLINE void MfmaGemmKernel<Config, kAligned>::tile(unsigned char* smem,
                                                                             const MfmaParams<Config>& p, int tile_m,
                                                                             int tile_n, int k0, int k_extent,
                                                                             LastFirstKOrder order, const Output& out) {
  const int tid = thread_index();
  const int wave = int(amd::wave_index());
  const int lane = int(amd::lane_index());
  const std::int64_t m0 = std::int64_t(tile_m) * kBM;
  const std::int64_t n0 = std::int64_t(tile_n) * kBN;

  Mainloop ops;
  ops.smem = smem;
  ops.tid = tid;
  ops.wave = wave;
  {
    // Each cursor starts at this tile's rows (A) / columns (B), K = k0 (units: bytes_a / b say
    // how many bytes, which differs from the element size for packed fp6).
    const std::int64_t origin_a = Config::bytes_a(Config::LayoutA::offset(m0, k0, p.lda));
    const std::int64_t origin_b = Config::bytes_b(Config::LayoutB::offset(k0, n0, p.ldb));
    ops.copy_a.init(reinterpret_cast<const char*>(p.a) + origin_a, p.lda, p.span_a - origin_a, tid);
    ops.copy_b.init(reinterpret_cast<const char*>(p.b) + origin_b, p.ldb, p.span_b - origin_b, tid);
    if constexpr (Config::kBlockScaled) {
      const std::int64_t scales_a = m0 * p.scale_ld_a, scales_b = n0 * p.scale_ld_b;
      ops.copy_a.init_scales(p.scale_a + scales_a, p.scale_ld_a, p.scale_span_a - scales_a, tid);
      ops.copy_b.init_scales(p.scale_b + scales_b, p.scale_ld_b, p.scale_span_b - scales_b, tid);
    }
  }
  const int wave_m = wave / Config::kWavesN, wave_n = wave % Config::kWavesN;
  ops.wt.init(wave_m * Config::kWaveM, wave_n * Config::kWaveN, lane);
  ops.read_stage = Mainloop::kFirstStage;

  const int k_total = k_extent;
  ops.order = order;
  const int tiles = ops.order.tiles();

  if (tiles > 0) {
    // Prologue: position 0 (the last tile; masked when partial), range-checked.
    const int first = ops.order.first_tile();
    ops.copy_a.advance(first);
    ops.copy_b.advance(first);
    ops.copy_a.template load<true>();
    ops.copy_b.template load<true>();
    const int jump = ops.order.full_index(1) - first;
    ops.copy_a.advance(jump);
    ops.copy_b.advance(jump);
    ops.pos = 1;
    const int k_valid = ops.order.first_tile_depth(k_total, kBK);
    ops.copy_a.mask_k(k_valid, tid);
    ops.copy_b.mask_k(k_valid, tid);
    ops.copy_a.limit_to_whole_tiles(ops.order.n_rest);
    ops.copy_b.limit_to_whole_tiles(ops.order.n_rest);
    amd::wait_vmcnt<0>();
    ops.copy_a.store(smem + Mainloop::kFirstStage, tid);
    ops.copy_b.store(smem + Mainloop::kFirstStage + Mainloop::kOffsetB, tid);
    if constexpr (Config::kDirectToLds) {
      // The second tile straight into stage 1; the loop fills stage (i + 2) % 3.
      ops.copy_a.template direct_offsets<Config::kWaves>(ops.direct_a, wave, lane);
      ops.copy_b.template direct_offsets<Config::kWaves>(ops.direct_b, wave, lane);
      ops.fill_stage = Mainloop::kFirstStage + Mainloop::kStageBytes;
      ops.template async_load<schedule::Operand::kA>();
      ops.template async_load<schedule::Operand::kB>();
      ops.pos = 2;
      ops.fill_stage = Mainloop::kFirstStage + 2 * Mainloop::kStageBytes;
    }
    ops.lds_barrier();

    if constexpr (Schedule::kAsymmetric) Schedule::before_loop(ops);
    TESSERA_NO_UNROLL
    for (int it = 0; it < tiles; ++it) {
      Schedule::iteration(ops);
      ++ops.pos;
      ops.rotate_stages();
    }
    if constexpr (Schedule::kAsymmetric) Schedule::after_loop(ops);
  }

  // Every wave is done with the operand stages before the staging tiles overwrite them,
  // and (async) the last direct-to-LDS loads, which repeat the last tile, have landed.
  if constexpr (Config::kDirectToLds) amd::wait_vmcnt<0>();
  block_barrier();
  float* staging = Plan::template pointer<typename SmemPlan::StagingC, float>(smem) +
                   wave * SmemPlan::kStageFloatsPerWave;
  epilogue(ops.wt, staging, m0 + wave_m * Config::kWaveM, n0 + wave_n * Config::kWaveN, lane, out);
}

// Accumulators -> D through the wave's own staging tile, one 32x32 piece at a time:
// written in the MFMA's C layout, read back as 4-element runs along D's contiguous
// dimension (8 lanes per 32-element line), handed to `out`: the OutputRun (the configuration's
// epilogue; it skips what lies outside M x N and uses vector accesses where aligned), or a
// partial's writer.
template <class Config, bool kAligned>
template <class Output>
TESSERA_DEVICE void MfmaGemmKernel<Config, kAligned>::epilogue(WaveTile& wt, float* staging, std::int64_t m0,
                                                              std::int64_t n0, int lane, const Output& out) {
  constexpr int kLine = SmemPlan::kStageLine;
  constexpr int kAtomsM = 32 / Atom::kM, kAtomsN = 32 / Atom::kN;  // MFMA tiles per piece
  auto output = out;
  if constexpr (Config::kLowp) {  // (low-precision operands are walked data-parallel: out is D's)
    resolve_epilogue(output.epilogue);  // per-tensor operand scales: read once, here
  }
  TESSERA_UNROLL
  for (int pm = 0; pm < Config::kWaveM / 32; ++pm) {
    TESSERA_UNROLL
    for (int pn = 0; pn < Config::kWaveN / 32; ++pn) {
      TESSERA_UNROLL
      for (int am = 0; am < kAtomsM; ++am) {
        TESSERA_UNROLL
        for (int an = 0; an < kAtomsN; ++an) {
          TESSERA_UNROLL
          for (int r = 0; r < Atom::kAccumulators; ++r) {
            const auto c = Atom::c_coord(lane, r);
            staging[SmemPlan::staging_index(am * Atom::kM + c.row, an * Atom::kN + c.col)] =
                wt.acc[pm * kAtomsM + am][pn * kAtomsN + an][r];
          }
        }
      }
      amd::wave_barrier();
      TESSERA_UNROLL
      for (int q = 0; q < 4; ++q) {
        const auto run = SmemPlan::staging_run(lane, q);
        const float* src = staging + run.line * kLine + run.at;
        float v[4] = {src[0], src[1], src[2], src[3]};
        output(m0 + pm * 32 + SmemPlan::run_row(run), n0 + pn * 32 + SmemPlan::run_col(run), v);
      }
      amd::wave_barrier();
    }
  }
}

template <class Config, bool kAligned>
TESSERA_GLOBAL void TESSERA_LAUNCH_BOUNDS(Config::kThreads, Config::kBlocksPerCu)
    mfma_gemm_kernel(const MfmaParams<Config> params) {
  // Built for several targets, a program holds every configuration's kernel in every
  // device pass; only the pass of the configuration's own target has a body (arch.hpp,
  // device_pass_targets): gfx950's K-doubled MFMAs do not exist on gfx942.
  if constexpr (device_pass_targets<typename Config::Arch>()) MfmaGemmKernel<Config, kAligned>::run(params);
}

#endif  // TESSERA_AMD_TARGET && __clang__

}  // namespace tessera::gemm
