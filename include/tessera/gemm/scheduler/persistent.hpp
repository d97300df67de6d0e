// The host side of a persistent launch, written once for every family that walks a tile
// scheduler on a persistent grid (tma/launch.hpp for wgmma and tcgen05, mfma/mfma.hpp): the
// workspace a scheduler's fix-up may ask for, and the scheduler of `workers` workers with its
// part of the workspace. A scheduler without a fix-up (DataParallel, a problem set's) takes
// neither a workspace nor the call's SplitRequest.
//
// A fix-up's reductions wait for other workers' partials, so a launch with a fix-up must not
// have more workers than are resident at once: the caller clamps `workers` to that count.
#pragma once
#include <cstddef>

#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

// Bytes every plan of S for this call fits in on at most `workers` workers (0: none needed).
template <class S>
std::size_t fixup_workspace_bound(const TileGrid& g, int workers, const SplitRequest& split) {
  if constexpr (scheduler_has_fixup<S>) {
    return S::workspace_bound(g, workers, split);
  } else {
    (void)g;
    (void)workers;
    (void)split;
    return 0;
  }
}

// The scheduler of a persistent launch of `workers` workers; with a fix-up, planned for the
// call's request and placed in `space` (without enough of it: data-parallel).
template <class S>
S persistent_scheduler(const TileGrid& g, const ProblemSet& problems, int workers, const FixupSpace& space) {
  if constexpr (scheduler_has_fixup<S>) {
    (void)problems;
    S s = S::make(g, workers, space.split);
    s.use_workspace(space);
    return s;
  } else {
    (void)space;
    return make_scheduler<S>(g, problems, workers);
  }
}

}  // namespace tessera::gemm
