// fp8 block scales staged with the operands (the Hopper kernel's TMA path, wgmma/kernel.hpp).
//
// Each stage of the ring has a scale slot beside its A and B tiles: the K tile's scale of each
// of the M tile's rows (A's 1 x 128 blocks), then B's one scale of the tile's 128 x 128 block.
// Warp 1 of the producer warpgroup fills it while lane 0 of warp 0 issues the operands' TMA
// copies: each lane copies every 32nd row's scale with cp.async (4 bytes, any alignment the
// caller's scale layout has), zero for rows past the unit's problem, and arrives on the
// stage's full barrier once its copies have landed. So the consumers find a K tile's scales in shared memory when they find
// its operands, and read no global memory in the main loop. Consumer loads of the scales from
// global memory, even two K tiles ahead, left block scales well behind per-tensor
// scales (benchmark/notes/fp8.md, section Versions). DeepGEMM also loads A's scales with each
// stage, by TMA, which asks the caller for a 16-byte-aligned scale layout; cp.async does not.
// The realigning path keeps those loads (its producer threads realign lines; wgmma/fp8_mainloop.hpp).
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/scale_mode.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"

namespace tessera::gemm {

// One stage's scale slot for an M tile of kBlockM rows: floats [0, kBlockM) A's, kB B's,
// padded to 16 bytes.
template <int kBlockM>
struct ScaleSlot {
  static constexpr int kB = kBlockM;
  static constexpr int kFloats = kBlockM + 4;
  static constexpr int kBytes = kFloats * 4;
};

// Where one unit's scales are: A's and B's first (a batch's or group's problem moved by the
// scales' strides), the row A's scales are addressed by for row `row0` of the unit's tile, and
// the end of its rows (past it a row's scale is 0: its D is not stored, and nothing past A is
// read).
struct UnitScales {
  const float* a;
  const float* b;
  std::int64_t row0;
  std::int64_t row_end;
};

#if defined(TESSERA_CUDA)

// The unit's scales. One GEMM: rows as D's, ending at M. A batch or groups (problem_set.hpp):
// rows from the unit's row_begin (the contiguous layout: rows of the whole A, whose scales
// have no stride), ending at its problem's last row.
template <int kBlockM, class Scheduler, class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE UnitScales unit_scales(const Params& p, const WorkUnit& unit, int row0) {
  const auto& e = p.epilogue;
  const std::int64_t first = std::int64_t(unit.m) * kBlockM + row0;
  if constexpr (takes_problem_set<Scheduler>) {
    const std::int64_t stride_a = Scheduler::kRowOffsets ? 0 : e.stride_a;
    return {e.scale_a + unit.problem * stride_a, e.scale_b + unit.problem * e.stride_b, unit.row_begin + first,
            std::int64_t(unit.row_begin) + unit.rows};
  } else {
    return {e.scale_a, e.scale_b, first, p.M};
  }
}

// Warp 1 of the producer warpgroup (idle with fp8 operands: it loads C for 16-bit ones only)
// walks the ring beside lane 0's TMA loop, on the same units and empty barriers, and fills
// each stage's scale slot; each lane arrives once per stage on its full barrier (counted in its
// init: kArrivals). A warp of its own, so the TMA loop keeps its registers: the copies run
// inside the producer warpgroup's setmaxnreg budget, and made the TMA loop spill there.
template <int kBlockM, int kBlockN, class Scheduler, int kStages, bool kClusterWaits>
struct ScaleStageCopies {
  using Slot = ScaleSlot<kBlockM>;
  static constexpr int kArrivals = 32;
  static constexpr int kRowsPerLane = (kBlockM + 31) / 32;

  template <class Params>
  TESSERA_DEVICE static void run(const Params& p, std::uint64_t* full, std::uint64_t* empty, std::uint32_t slots,
                                 int worker, int cm, int cn, int lane) {
    RingPosition<kStages> pos;
    const std::int64_t ld_a = p.epilogue.ld_a;
    const int units = p.scheduler.units_of(worker);
    auto walk = walk_units(p.scheduler);  // this role's units, in order
    for (int j = 0; j < units; ++j) {
      const WorkUnit unit = walk.unit(worker, j, cm, cn);
      // Once per unit: this lane's first row's scale (rows lane, lane + 32, ...), which of its
      // rows are the problem's, and B's scales of the unit's column block.
      const UnitScales at = unit_scales<kBlockM, Scheduler>(p, unit, 0);
      const float* a = at.a + at.row0 + lane;
      std::uint32_t inside = 0;
      TESSERA_UNROLL
      for (int i = 0; i < kRowsPerLane; ++i) {
        if (lane + 32 * i < kBlockM && at.row0 + lane + 32 * i < at.row_end) inside |= 1u << i;
      }
      const float* b = at.b + std::int64_t(unit.n) * kBlockN / scale::kBlock * p.epilogue.ld_b;
      for (int kt = unit.k_begin; kt < unit.k_end; ++kt) {
        nvidia::mbarrier_wait<kClusterWaits>(&empty[pos.stage], pos.phase ^ 1u);
        const std::uint32_t stage_slot = slots + std::uint32_t(pos.stage * Slot::kBytes);
        const std::uint32_t slot = stage_slot + 4u * std::uint32_t(lane);
        const float* row = a + kt * ld_a;
        TESSERA_UNROLL
        for (int i = 0; i < kRowsPerLane; ++i) {
          if (lane + 32 * i < kBlockM) {
            const bool read = (inside >> i) & 1u;
            nvidia::cp_async_4_or_zero(slot + 128u * std::uint32_t(i), read ? row + 32 * i : at.a, read);
          }
        }
        if (lane == 0) nvidia::cp_async_4_or_zero(stage_slot + 4u * Slot::kB, b + kt, true);
        nvidia::cp_async_arrive(&full[pos.stage]);
        pos.advance();
      }
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
