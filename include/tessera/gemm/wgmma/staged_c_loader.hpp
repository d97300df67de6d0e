// The C loader of the Hopper kernel (wgmma/kernel.hpp): where a call reads C and C can be
// staged (p.c_staged: the TMA path, C's element of D's size, C describable by TMA), one thread
// of the producer warpgroup walks the CTA's units of work in the consumers' order and loads
// each box of C with TMA into the staging box whose D the epilogue will write there
// (wgmma/epilogue.hpp), as far ahead as the staging boxes allow. The loads of a tile's C are
// thus issued during its main loop, and the epilogue finds C in shared memory instead of
// reading it element by element from global memory.
//
// Per consumer warpgroup, a ring of kBoxes staging boxes with two barriers each:
//   c_full[b]   completes when box b holds C (the loader's arrival and the box's bytes);
//   c_empty[b]  completes when the store of the D written in box b has read it (the
//               warpgroup's thread 0 arrives), so C may be loaded into it again.
// Both sides count the warpgroup's boxes from the kernel's start (RingPosition), as the stage
// ring does. With a Cooperative schedule both warpgroups take every unit (each its rows), with
// Pingpong they take alternate units; the loader interleaves the two warpgroups' boxes so that
// neither waits behind the other. With a stream-K scheduler, the units that store a partial
// instead of D are skipped, as the consumers skip their epilogue.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

// Config: the WgmmaConfig; Epilogue: its WgmmaEpilogue (box geometry and store order).
template <class Config, class Epilogue>
struct StagedCLoader {
  static constexpr int kBoxes = Epilogue::kBoxes;

  // staging: both warpgroups' boxes (warpgroup c's at staging + c kBoxes kBoxStride);
  // c_full, c_empty: [2][kBoxes] barriers; (cm, cn): the CTA's place in its cluster.
  template <class Params>
  TESSERA_DEVICE static void run(const Params& p, std::uint64_t* c_full, std::uint64_t* c_empty,
                                 unsigned char* staging, int worker, int cm, int cn) {
    nvidia::tma_prefetch(&p.map_c);
    RingPosition<kBoxes> ring[2];
    const int units = p.scheduler.units_of(worker);
    auto walk = walk_units(p.scheduler);  // this role's units, in order
    for (int j = 0; j < units; ++j) {
      const WorkUnit tile = walk.unit(worker, j, cm, cn);
      if constexpr (scheduler_has_fixup<typename Config::Scheduler>) {
        // A unit over part of its tile's K stores a partial, not D: no epilogue, no C (the
        // reducers read C from global memory).
        if (p.scheduler.partial_slot(worker, j) >= 0) continue;
      }
      for (int b = 0; b < Epilogue::kBoxesPerBlock; ++b) {
        const auto origin = Epilogue::box_origin(b);
        for (int c = 0; c < 2; ++c) {
          if (Config::kPingpong && (j % 2) != c) continue;  // Pingpong: unit j is warpgroup j % 2's
          const int row0 = Config::kPingpong ? 0 : c * Config::kWarpgroupRows;
          const int row = tile.m * Config::kBlockM + row0 + origin.row;
          const int col = tile.n * Config::kBlockN + origin.col;
          RingPosition<kBoxes>& at = ring[c];
          std::uint64_t* full = &c_full[c * kBoxes + at.stage];
          nvidia::mbarrier_wait(&c_empty[c * kBoxes + at.stage], at.phase ^ 1u);
          nvidia::mbarrier_arrive_expect_tx(full, Epilogue::kBoxBytes);
          const auto coords = Epilogue::map_coordinates(row, col);
          nvidia::tma_load_2d(&p.map_c, full, staging + (c * kBoxes + at.stage) * Epilogue::kBoxStride, coords.row,
                              coords.col);
          at.advance();
        }
      }
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
