// The stage ring of the warp-specialised TMA kernels (Hopper wgmma, Blackwell tcgen05): where a
// producer or consumer is in the ring (stage index and the parity of the current pass over
// it), and what the per-stage barriers mean.
//
//   full[s]  completes when stage s holds a K tile: the producer's arrival(s) plus, with
//            TMA, the bytes of the copies. Consumers wait on it.
//   empty[s] completes when every consumer that reads stage s (in this CTA and, with
//            multicast, in the CTAs this CTA writes into) has released it. The producer
//            waits on it before refilling stage s.
// A role starts at pass 0; the producer waits for the empty phase of parity 1 on its first
// pass, which a freshly initialised barrier reports complete (the ring starts empty).
// Every role of a CTA walks the same units of work (scheduler/tile_scheduler.hpp) in the same order, one
// ring step per K tile of each unit, so a role that skips units (a Pingpong consumer) finds its
// place from the scheduler's k_tiles_before.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera::gemm {

template <int kStages>
struct RingPosition {
  int stage = 0;
  std::uint32_t phase = 0;  // parity of the current pass over the ring

  // The position `count` steps from the start of the ring.
  TESSERA_HOST_DEVICE static RingPosition at(std::int64_t count) {
    RingPosition p;
    p.stage = int(count % kStages);
    p.phase = std::uint32_t((count / kStages) & 1);
    return p;
  }
  TESSERA_HOST_DEVICE void advance() {
    if (++stage == kStages) {
      stage = 0;
      phase ^= 1u;
    }
  }
};

}  // namespace tessera::gemm
