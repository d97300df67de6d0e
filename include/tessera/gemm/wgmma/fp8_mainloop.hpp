// The consumer side of the Hopper main loop for fp8 operands (e4m3 / e5m2, both K-major):
// for one unit of work, one consumer warpgroup turns each K tile's stage into wgmma m64nNk32
// steps and leaves in `acc` the tile's fp32 result with A's and B's scales applied
// (gemm/scale_mode.hpp says what each mode means).
//
// Why promotion: the tensor core adds the 32 products of a k32 step and the accumulator with
// fewer bits than fp32 keeps (benchmark/notes/fp8.md measures how many), so an error that
// grows with the length of the sum. Promoted accumulation (the default) lets the tensor core
// sum one K tile (128 deep) from zero (scale_d = 0 on its first step) into a K-tile
// accumulator set, and adds that into `acc` in fp32 registers:
//   block scales   acc += sa(row, kb) * sb(kb) * tile sum    (one FFMA per element per K tile;
//                  transposed: sa(kb) * sb(column, kb))
//   other modes    acc += tile sum, the scales applied once at the end
// The warpgroup waits for the tile's MMAs before it promotes them, so the tensor core idles
// during the promotion unless the other consumer warpgroup's MMAs fill it. With block scales
// the two Cooperative warpgroups take turns (IssueTurns): a warpgroup issues a K tile's MMAs
// as two commit groups and, once the first is done, lets the other issue its own (queued
// behind its second group), then promotes while those run. On an H100 this (with the scales
// loaded two K tiles ahead) made block scales faster and per-tensor scales slower
// (benchmark/notes/fp8.md, section Versions): the other modes issue freely.
// Two sets of tile sums in one warpgroup (promote one while the next tile fills the other)
// would need three times the accumulators: ptxas spilled them and serialized the MMAs (C7514).
// Accumulation::kFast keeps the sum in `acc` over all of K, as the 16-bit main loop does
// (wgmma/mainloop.hpp), one group of MMAs in flight.
//
// A stage is released as soon as the MMAs that read it have completed (before the promotion).
// Block scales: on the TMA path the producer stages each K tile's scales with its operands
// (wgmma/scale_stages.hpp) and the warpgroup reads them from the stage after its full barrier;
// on the realigning path they are read with ordinary loads two K tiles ahead (read just before
// the tile's MMAs, their latency was exposed: benchmark/notes/fp8.md, section Versions). The
// other modes' scales are read once per unit. Rows and columns outside M x N read nothing and
// scale by 0 (their operands were zero-filled, so acc is 0 there).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/wgmma.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/scale_mode.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/gemm/wgmma/operand_descriptors.hpp"
#include "tessera/gemm/wgmma/scale_stages.hpp"
#include "tessera/mma/wgmma_atom.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

namespace detail {
template <class T>
constexpr nvidia::WgmmaType fp8_wgmma_type() {
  static_assert(is_ocp_float8<T>, "Tessera WgmmaFp8Mainloop: operands must be float8_e4m3_t or float8_e5m2_t");
  return std::is_same_v<T, float8_e4m3_t> ? nvidia::WgmmaType::kE4m3 : nvidia::WgmmaType::kE5m2;
}
}  // namespace detail

// Cooperative, promoted: the consumer warpgroups issue their K tiles' MMAs in turn, 0 first.
// Before each issue but its very first, warpgroup c waits on named barrier kTurnBarrier + c for
// the other's go; once the first half of its MMAs is done it gives the other its go. Warpgroup
// 0 takes one go more at the end (finish), so that every arrival is matched by a wait.
template <int kTurnBarrier>
struct IssueTurns {
  int consumer;    // 0 or 1
  int issued = 0;  // K tiles this warpgroup has issued, over all its units
  TESSERA_DEVICE void before_issue() {
    if (consumer == 1 || issued > 0) nvidia::named_barrier_sync(kTurnBarrier + consumer, 256);
    ++issued;
  }
  TESSERA_DEVICE void after_first_half() { nvidia::named_barrier_arrive(kTurnBarrier + 1 - consumer, 256); }
  TESSERA_DEVICE void finish() {
    if (consumer == 0 && issued > 0) nvidia::named_barrier_sync(kTurnBarrier, 256);
  }
};

// Operands: OperandTiles<...>; kRowBlocks: the warpgroup's 64-row blocks; Scales: the scale
// mode; kTakeTurns: two consumer warpgroups share each tile (Cooperative) and, promoting,
// issue in turn, through named barriers kTurnBarrier and kTurnBarrier + 1; Scheduler: the
// tile scheduler (a batch or groups move the scales per problem); kStagedScales: block scales
// come in each stage's scale slot (the TMA path, wgmma/scale_stages.hpp), else from global memory.
template <class Operands, int kStages, int kRowBlocks_, bool kClusterWaits, class Scales, bool kTakeTurns_,
          int kTurnBarrier, class Scheduler, bool kStagedScales_ = false>
struct WgmmaFp8Mainloop {
  static constexpr int kN = Operands::kBlockN;
  static constexpr int kBlockM = Operands::kBlockM;
  static constexpr int kRowBlocks = kRowBlocks_;
  static constexpr int kAccPerBlock = kN / 2;
  static constexpr nvidia::WgmmaType kTypeA = detail::fp8_wgmma_type<typename Operands::ElementA>();
  static constexpr nvidia::WgmmaType kTypeB = detail::fp8_wgmma_type<typename Operands::ElementB>();
  static constexpr int kInstructionK = 32;
  static constexpr int kSteps = Operands::kBlockK / kInstructionK;
  static constexpr bool kBlockScales = Scales::kKind == scale::Kind::kBlockwise;
  // Transposed block scales (the small-M path's D^T): one A scale per 128-row tile and K tile, a B
  // scale per column per K tile, read by the consumers two K tiles ahead.
  static constexpr bool kColumnBlockScales = Scales::kKind == scale::Kind::kBlockwiseTransposed;
  static constexpr bool kStagedScales = kStagedScales_ && kBlockScales;
  static constexpr bool kLoadsScales = (kBlockScales && !kStagedScales) || kColumnBlockScales;
  static constexpr int kColumnCount = kN / 4;  // this thread's distinct columns
  static constexpr int kColumns = kColumnBlockScales ? kColumnCount : 1;  // column scales kept per K tile
  // Taking turns ran faster with block scales loaded by the consumers only (benchmark/notes/fp8.md,
  // sections Versions and "Turns without the consumers' scale loads"): with the scales staged,
  // issuing freely ran faster, and the other promoted modes issue freely too.
  static constexpr bool kTakeTurns = kTakeTurns_ && kBlockScales && !kStagedScales;
  using Slot = ScaleSlot<kBlockM>;
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  using Atom = mma::WgmmaAtom<kN>;
  static_assert(Operands::kKMajorA && Operands::kKMajorB,
                "Tessera WgmmaFp8Mainloop: fp8 wgmma reads both operands K-major (A row-major, B column-major)");
  static_assert(Operands::kBlockK % kInstructionK == 0, "Tessera WgmmaFp8Mainloop: the K tile is whole k32 steps");
  static_assert(!kBlockScales || (Operands::kBlockK == scale::kBlock && scale::kBlock % kN == 0),
                "Tessera WgmmaFp8Mainloop: block scales with one scale block per K tile and per N tile");
  static_assert(!kColumnBlockScales || (Operands::kBlockK == scale::kBlock && kBlockM == scale::kBlock),
                "Tessera WgmmaFp8Mainloop: transposed block scales with one A scale block per K tile and M tile");

  using Sums = float[kRowBlocks][kAccPerBlock];
  using Turns = IssueTurns<kTurnBarrier>;
  static constexpr bool kProblemSet = takes_problem_set<Scheduler>;

  // Keeps the compiler from moving accesses of a set across the asynchronous MMAs.
  TESSERA_DEVICE static void fence(Sums& s) {
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) nvidia::fence_registers(s[rb]);
  }

  // Where a k32 step's operands start in a stage, and their descriptors (both K-major:
  // wgmma/operand_descriptors.hpp, shared with the 16-bit main loop).
  using Descriptors = WgmmaOperandDescriptors<Operands, kInstructionK>;

  // k32 steps [first, last) of the tile's MMAs over one stage into `sums` (overwritten by step
  // 0 unless accumulating), committed as one group.
  TESSERA_DEVICE static void issue(Sums& sums, std::uint32_t a, std::uint32_t b, int row0, bool accumulate,
                                   int first = 0, int last = kSteps) {
    // The stage's two descriptors, then each step's as a constant offset from them.
    const std::uint64_t first_a = Descriptors::descriptor_a(a + Descriptors::offset_a(row0, 0)),
                        first_b = Descriptors::descriptor_b(b);
    nvidia::wgmma_fence();
    TESSERA_UNROLL
    for (int kk = 0; kk < kSteps; ++kk) {
      if (kk < first || kk >= last) continue;
      TESSERA_UNROLL
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        const std::uint64_t step_a =
            nvidia::advance_smem_descriptor(first_a, Descriptors::offset_a(rb * 64, kk));
        const std::uint64_t step_b = nvidia::advance_smem_descriptor(first_b, Descriptors::offset_b(kk));
        nvidia::wgmma_m64k32<kN, kTypeA, kTypeB>(sums[rb], step_a, step_b, (accumulate || kk > 0) ? 1 : 0);
      }
    }
    nvidia::wgmma_commit_group();
  }

  // Row r of this thread in row block rb, half h (accumulators i with (i / 2) % 2 == h).
  TESSERA_DEVICE static int thread_row(int t, int rb, int h) { return rb * 64 + Atom::element(t, 2 * h).row; }
  // This thread's kN / 4 distinct columns: column j is that of accumulator first_of_column(j)
  // (8 (j / 2) + 2 (t % 4) + j % 2), and accumulator i is in column column_of(i).
  TESSERA_DEVICE static constexpr int first_of_column(int j) { return 4 * (j / 2) + j % 2; }
  TESSERA_DEVICE static constexpr int column_of(int i) { return 2 * (i / 4) + i % 2; }

  // The K-tile scale of each of this thread's rows: sa(row, kb) * sb(nb, kb), 0 outside M;
  // loaded (Raw) two K tiles before it is used (combined).
  // (Transposed block scales: c[j] = sa(tile, kb) * sb(column j, kb), j as in apply_final_scales.)
  struct TileScales {
    float s[kRowBlocks][2];
    float c[kColumns];
  };
  struct RawScales {
    float a[kRowBlocks][2];
    float b;
    float col[kColumns];
  };
  template <class Params>
  TESSERA_DEVICE static RawScales load_block_scales(const Params& p, const UnitScales& at, std::int64_t n0, int kb,
                                                     int k_end, int t) {
    const auto& e = p.epilogue;
    RawScales r{};
    if (kb >= k_end) return r;
    r.b = __ldg(at.b + (n0 / scale::kBlock) * e.ld_b + kb);
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int h = 0; h < 2; ++h) {
        const std::int64_t m = at.row0 + thread_row(t, rb, h);
        r.a[rb][h] = m < at.row_end ? __ldg(at.a + std::int64_t(kb) * e.ld_a + m) : 0.0f;
      }
    }
    return r;
  }
  // Transposed block scales, where a K tile's MMAs are few (a narrow tile): the addresses are
  // made once per unit (the tile's row of A blocks; this thread's first column of B's scales and
  // which of its columns are inside N), so a K tile costs one offset and a load per column at a
  // fixed distance. (Made per K tile, they were measurably slower at 32-64 tokens: benchmark/notes/fp8.md.)
  struct ColumnScaleBase {
    const float* a;       // sa(tile, 0)
    const float* b;       // sb(this thread's first column, 0)
    std::uint32_t inside;  // bit j: column j is inside N
  };
  template <class Params>
  TESSERA_DEVICE static ColumnScaleBase column_scale_base(const Params& p, const UnitScales& at, std::int64_t n0,
                                                          int t) {
    ColumnScaleBase c{at.a + (at.row0 / scale::kBlock) * p.epilogue.ld_a, at.b + n0 + Atom::element(t, 0).col, 0u};
    TESSERA_UNROLL
    for (int j = 0; j < kColumns; ++j) {
      if (n0 + Atom::element(t, 0).col + column_step(j) < p.N) c.inside |= 1u << j;
    }
    return c;
  }
  TESSERA_DEVICE static constexpr int column_step(int j) {
    return Atom::element(0, first_of_column(j)).col - Atom::element(0, 0).col;
  }
  TESSERA_DEVICE static RawScales load_column_scales(const ColumnScaleBase& c, std::int64_t ld_b, int kb, int k_end) {
    RawScales r{};
    if (kb >= k_end) return r;
    r.b = __ldg(c.a + kb);
    const float* row = c.b + std::int64_t(kb) * ld_b;
    TESSERA_UNROLL
    for (int j = 0; j < kColumns; ++j) r.col[j] = (c.inside >> j) & 1u ? __ldg(row + column_step(j)) : 0.0f;
    return r;
  }
  // From the stage's scale slot (kStagedScales), just after its full barrier: row0 is the
  // warpgroup's first row in the tile.
  TESSERA_DEVICE static TileScales staged_scales(std::uint32_t slot, int row0, int t) {
    TileScales s;
    const float b = nvidia::load_shared_f32(slot + 4u * Slot::kB);
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int h = 0; h < 2; ++h) {
        s.s[rb][h] = nvidia::load_shared_f32(slot + 4u * std::uint32_t(row0 + thread_row(t, rb, h))) * b;
      }
    }
    return s;
  }
  TESSERA_DEVICE static TileScales combine(const RawScales& r) {
    TileScales s;
    if constexpr (kColumnBlockScales) {
      TESSERA_UNROLL
      for (int j = 0; j < kColumns; ++j) s.c[j] = r.col[j] * r.b;
    } else {
      TESSERA_UNROLL
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        s.s[rb][0] = r.a[rb][0] * r.b;
        s.s[rb][1] = r.a[rb][1] * r.b;
      }
    }
    return s;
  }

  // acc += scale * sums (block scales) or acc += sums.
  TESSERA_DEVICE static void promote(Sums& acc, Sums& sums, const TileScales& scales) {
    fence(sums);
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int i = 0; i < kAccPerBlock; ++i) {
        if constexpr (kColumnBlockScales) {
          acc[rb][i] = fmaf(scales.c[column_of(i)], sums[rb][i], acc[rb][i]);
        } else if constexpr (kBlockScales) {
          acc[rb][i] = fmaf(scales.s[rb][(i / 2) % 2], sums[rb][i], acc[rb][i]);
        } else {
          acc[rb][i] += sums[rb][i];
        }
      }
    }
  }

  // The scales of the modes that apply them once: per tensor, per row and column.
  template <class Params>
  TESSERA_DEVICE static void apply_final_scales(Sums& acc, const Params& p, const UnitScales& at, std::int64_t n0,
                                                int t) {
    if constexpr (Scales::kKind == scale::Kind::kPerTensor) {
      const float s = __ldg(at.a) * __ldg(at.b);
      TESSERA_UNROLL
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        TESSERA_UNROLL
        for (int i = 0; i < kAccPerBlock; ++i) acc[rb][i] *= s;
      }
    } else if constexpr (Scales::kKind == scale::Kind::kPerRowColumn) {
      float col[kColumnCount];  // this thread's columns (first_of_column)
      TESSERA_UNROLL
      for (int j = 0; j < kColumnCount; ++j) {
        const std::int64_t n = n0 + Atom::element(t, first_of_column(j)).col;
        col[j] = n < p.N ? __ldg(at.b + n) : 0.0f;
      }
      TESSERA_UNROLL
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        TESSERA_UNROLL
        for (int h = 0; h < 2; ++h) {
          const std::int64_t m = at.row0 + thread_row(t, rb, h);
          const float row = m < at.row_end ? __ldg(at.a + m) : 0.0f;
          TESSERA_UNROLL
          for (int i = 0; i < kAccPerBlock; ++i) {
            if ((i / 2) % 2 == h) acc[rb][i] *= row * col[column_of(i)];
          }
        }
      }
    }
  }

  // acc (zeroed by the caller) = the unit's tile, rows [row0, row0 + 64 kRowBlocks) of it for
  // this warpgroup, scaled; K tiles from ring position `pos` (advanced past them).
  // release(stage) frees a stage; t: thread in the warpgroup; turns: this warpgroup's place in
  // the issue order (kTakeTurns), last_unit: no unit follows this one.
  // scale_slots: the ring's scale slots (kStagedScales).
  template <class Params, class Release>
  TESSERA_DEVICE static void run(Sums& acc, std::uint32_t stages_a, std::uint32_t stages_b, std::uint64_t* full,
                                 RingPosition<kStages>& pos, const WorkUnit& unit, int row0, Release&& release,
                                 const Params& p, int t, Turns& turns, bool last_unit, std::uint32_t scale_slots) {
    const UnitScales at = unit_scales<kBlockM, Scheduler>(p, unit, row0);
    const std::int64_t n0 = std::int64_t(unit.n) * kN;
    const int k_tiles = unit.k_tiles();
    fence(acc);
    if constexpr (!Scales::kPromoted) {
      accumulate_in_tensor_core(acc, stages_a, stages_b, full, pos, k_tiles, row0, release);
    } else {
      Sums sums;
      const ColumnScaleBase columns = kColumnBlockScales ? column_scale_base(p, at, n0, t) : ColumnScaleBase{};
      auto load = [&](int kb) {
        if constexpr (kColumnBlockScales) {
          return load_column_scales(columns, p.epilogue.ld_b, kb, unit.k_end);
        } else {
          return load_block_scales(p, at, n0, kb, unit.k_end, t);
        }
      };
      RawScales next{}, after_next{};
      if constexpr (kLoadsScales) {
        next = load(unit.k_begin);
        after_next = load(unit.k_begin + 1);
      }
      for (int kt = 0; kt < k_tiles; ++kt) {
        TileScales scales{};
        if constexpr (kLoadsScales) {
          scales = combine(next);
          next = after_next;
          after_next = load(unit.k_begin + kt + 2);
        }
        nvidia::mbarrier_wait<kClusterWaits>(&full[pos.stage], pos.phase);
        if constexpr (kStagedScales) scales = staged_scales(scale_slots + pos.stage * Slot::kBytes, row0, t);
        const std::uint32_t a = stages_a + pos.stage * TileA::kBytes, b = stages_b + pos.stage * TileB::kBytes;
        if constexpr (kTakeTurns) {
          turns.before_issue();
          issue(sums, a, b, row0, false, 0, kSteps / 2);
          issue(sums, a, b, row0, false, kSteps / 2, kSteps);
          nvidia::wgmma_wait_group<1>();
          turns.after_first_half();
        } else {
          issue(sums, a, b, row0, false);
        }
        nvidia::wgmma_wait_group<0>();
        release(pos.stage);
        pos.advance();
        promote(acc, sums, scales);
      }
      if constexpr (kTakeTurns) {
        if (last_unit) turns.finish();
      }
    }
    // (No K tiles: acc is 0 and the scales may be null, as can_implement allows for K == 0.)
    if constexpr (!kBlockScales && !kColumnBlockScales) {
      if (k_tiles > 0) apply_final_scales(acc, p, at, n0, t);
    }
    fence(acc);
  }

 private:
  // Accumulation::kFast: every K tile summed into acc by the tensor core, one group in flight
  // (the stage of tile kt is released once tile kt + 1's MMAs are issued and kt's are done).
  template <class Release>
  TESSERA_DEVICE static void accumulate_in_tensor_core(Sums& acc, std::uint32_t stages_a, std::uint32_t stages_b,
                                                       std::uint64_t* full, RingPosition<kStages>& pos, int k_tiles,
                                                       int row0, Release& release) {
    int previous = -1;
    for (int kt = 0; kt < k_tiles; ++kt) {
      nvidia::mbarrier_wait<kClusterWaits>(&full[pos.stage], pos.phase);
      issue(acc, stages_a + pos.stage * TileA::kBytes, stages_b + pos.stage * TileB::kBytes, row0, true);
      nvidia::wgmma_wait_group<1>();
      if (previous >= 0) release(previous);
      previous = pos.stage;
      pos.advance();
    }
    nvidia::wgmma_wait_group<0>();
    if (previous >= 0) release(previous);
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
