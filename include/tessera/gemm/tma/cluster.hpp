// Thread-block clusters of the TMA families: the cluster's shape (a configuration choice) and
// where a CTA sits in it (in the kernel).
//
// A cluster of kM x kN CTAs computes a kM x kN block of output tiles. CTAs in the same cluster
// column (same cn) share B tiles, CTAs in the same row (same cm) share A tiles: a shared tile
// is loaded once, a slice by each CTA, and multicast to all of them. Cluster rank r is at
// (cm, cn) = (r % kM, r / kM). Host-includable.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::gemm {

template <int M, int N>
struct ClusterShape {
  static constexpr int kM = M, kN = N, kSize = M * N;
};

#if defined(TESSERA_CUDA)
// Where a CTA sits in its cluster, and the CTAs it shares operand tiles with.
template <class Cluster>
struct ClusterPosition {
  int rank, cm, cn;
  TESSERA_DEVICE static ClusterPosition current() {
    const int r = Cluster::kSize > 1 ? int(nvidia::cluster_cta_rank()) : 0;
    return {r, r % Cluster::kM, r / Cluster::kM};
  }
  // CTAs with the same cm: the same rows of A (the A tile is multicast among them).
  TESSERA_DEVICE std::uint16_t a_group() const {
    std::uint16_t mask = 0;
    for (int j = 0; j < Cluster::kN; ++j) mask |= std::uint16_t(1u << (cm + Cluster::kM * j));
    return mask;
  }
  // CTAs with the same cn: the same columns of B.
  TESSERA_DEVICE std::uint16_t b_group() const {
    std::uint16_t mask = 0;
    for (int i = 0; i < Cluster::kM; ++i) mask |= std::uint16_t(1u << (i + Cluster::kM * cn));
    return mask;
  }
};
#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
