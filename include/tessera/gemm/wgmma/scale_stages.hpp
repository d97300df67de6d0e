// fp8 block scales staged with the operands (the Hopper kernel's TMA path, wgmma/kernel.hpp).
//
// Each stage of the ring has a scale slot beside its A and B tiles: the K tile's scale of each
// of the M tile's rows (A's 1 x 128 blocks), then B's one scale of the tile's 128 x 128 block.
// The producer warp fills it while lane 0 issues the operands' TMA copies: each lane copies
// every 32nd row's scale with cp.async (4 bytes, any alignment the caller's scale layout
// has), zero for rows past the unit's problem, and arrives on the stage's full barrier once its
// copies have landed. So the consumers find a K tile's scales in shared memory when they find
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

// The producer warp's part: K tile kt of `unit` into the scale slot at `slot` (a shared-memory
// address), then one arrival per lane on the stage's full barrier (counted in its init). The
// producer (tma/producer.hpp) calls it from every lane of its warp after lane 0's copies.
template <int kBlockM, int kBlockN, class Scheduler>
struct ScaleStageCopies {
  using Slot = ScaleSlot<kBlockM>;
  static constexpr int kArrivals = 32;
  std::uint32_t slots;  // the ring's scale slots

  template <class Params>
  TESSERA_DEVICE void operator()(const Params& p, const WorkUnit& unit, int kt, int stage, int lane,
                                 std::uint64_t* full) const {
    const UnitScales at = unit_scales<kBlockM, Scheduler>(p, unit, 0);
    const std::uint32_t slot = slots + std::uint32_t(stage * Slot::kBytes);
    const float* a = at.a + std::int64_t(kt) * p.epilogue.ld_a;
    TESSERA_UNROLL
    for (int r = lane; r < kBlockM; r += 32) {
      const bool inside = at.row0 + r < at.row_end;
      nvidia::cp_async_4_or_zero(slot + 4u * std::uint32_t(r), inside ? a + at.row0 + r : at.a, inside);
    }
    if (lane == 0) {
      const std::int64_t n_block = std::int64_t(unit.n) * kBlockN / scale::kBlock;
      nvidia::cp_async_4_or_zero(slot + 4u * Slot::kB, at.b + n_block * p.epilogue.ld_b + kt, true);
    }
    nvidia::cp_async_arrive(full);
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
