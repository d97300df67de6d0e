// Where the cluster split's sum (wgmma/cluster_partial_sum.hpp) lands in each CTA's inbox, and
// how large the inbox is: one piece for the kernel, which pushes and collects by it, and the
// configuration, which plans its shared memory by it (wgmma/cluster_split_config.hpp).
//
// A tile's accumulators come in `units` of one consumer warp's float4 group (32 lanes x 16
// bytes); CTA u % splits of a cluster of `splits` owns unit u and receives it from each of the
// other splits - 1 CTAs. Host-includable.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

namespace tessera::gemm {

struct ClusterSumInbox {
  static constexpr int kUnitBytes = 32 * 16;

  // Units CTA `rank` owns.
  TESSERA_HOST_DEVICE static constexpr int owned_units(int units, int rank, int splits) {
    return rank < units ? (units - rank + splits - 1) / splits : 0;
  }
  // The bytes CTA `rank`'s inbox receives: each owned unit from each other CTA.
  TESSERA_HOST_DEVICE static constexpr int received_bytes(int units, int rank, int splits) {
    return owned_units(units, rank, splits) * (splits - 1) * kUnitBytes;
  }
  // The inbox to plan: the most any CTA (CTA 0 owns the most) receives in any split up to `most`.
  TESSERA_HOST_DEVICE static constexpr int max_bytes(int units, int most) {
    int bytes = 0;
    for (int s = 2; s <= most; ++s) bytes = received_bytes(units, 0, s) > bytes ? received_bytes(units, 0, s) : bytes;
    return bytes;
  }
  // Where, in its owner's inbox, the part of CTA `from` of unit u lands: the owner's j-th unit
  // (j = u / splits) from the owner's q-th other CTA, in slots of one unit; lane `lane`'s 16
  // bytes within.
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset(int u, int from, int owner, int splits, int lane) {
    const int q = from < owner ? from : from - 1;
    return std::uint32_t(((u / splits) * (splits - 1) + q) * kUnitBytes + lane * 16);
  }
};

}  // namespace tessera::gemm
