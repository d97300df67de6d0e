// The end of a cluster split-K tile (wgmma/cluster_split_kernel.hpp): every CTA of the
// cluster holds the accumulators of its K slice of the same output tile; they are summed
// through distributed shared memory and D is stored once.
//
//   write()          each consumer thread puts its accumulators, 4 at a time, into its CTA's
//                    partial tile: group g of consumer thread ct at float4 slot g * 256 + ct
//                    (consecutive threads, consecutive 16 bytes: no bank conflicts);
//   (cluster barrier: every partial tile is written and visible cluster-wide)
//   sum_and_store()  CTA r takes the groups g with g % splits == r: for each, its thread ct adds
//                    the group of thread ct of CTA 0, 1, ..., splits - 1 in that order (its own
//                    from registers, the others' from their shared memory), applies the
//                    epilogue (C read with ordinary loads, a few groups' worth at once, before
//                    any D is written: C == D is safe) and stores the elements inside M x N;
//                    without a split (a cluster of one) the same, from registers only;
//   (cluster barrier: no CTA leaves while another still reads its partial tile)
// The order of the sum never depends on timing, so D is the same on every run.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/dsmem.hpp"
#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/tma/epilogue_support.hpp"
#include "tessera/mma/wgmma_atom.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

// LayoutC, ElementD: D's layout and type; kN: the N tile; kRowBlocks: each consumer
// warpgroup's 64-row blocks.
template <class LayoutC, class ElementD, int kN, int kRowBlocks>
struct ClusterPartialSum {
  static constexpr int kAccPerBlock = kN / 2;
  static constexpr int kGroups = kRowBlocks * kAccPerBlock / 4;  // float4 groups per consumer thread
  static constexpr int kConsumerThreads = 256;
  using Atom = mma::WgmmaAtom<kN>;
  static_assert(kAccPerBlock % 4 == 0, "Tessera: a row block's accumulators come in groups of 4");

  // The reduction of the ClusterShared medium (scheduler/stream_k.hpp) as the kernel's two roles
  // call it after the main loop. Consumer side: with a split, both consumer warpgroups meet (the
  // partial tile takes the stages' bytes, which the other may still be reading: named barrier
  // `meet` of the 256 consumer threads), write, the cluster barrier, the sum of this CTA's groups
  // and the store of D, the cluster barrier again (no CTA leaves while another still reads its
  // partial); without one, the store from registers. Producer side: the same two cluster
  // barriers, which every thread of every CTA of the cluster must reach.
  // `output`: the epilogue each element of D goes through (the configuration's, or fp8's
  // per-thread output op).
  template <class Params, class Output>
  TESSERA_DEVICE static void consumer_side(const Params& p, const Output& output,
                                           const float (&acc)[kRowBlocks][kAccPerBlock],
                                           unsigned char* partial, std::int64_t m0, std::int64_t n0, int t, int ct,
                                           int splits, int meet) {
    if (splits > 1) {
      nvidia::named_barrier_sync(meet, kConsumerThreads);
      write(acc, partial, ct);
      nvidia::cluster_sync();  // every partial tile is written and visible cluster-wide
      sum_and_store(p, output, acc, partial, m0, n0, t, ct, int(nvidia::cluster_cta_rank()), splits);
      nvidia::cluster_sync();  // and read
    } else {
      sum_and_store(p, output, acc, partial, m0, n0, t, ct, 0, 1);
    }
  }
  TESSERA_DEVICE static void producer_side(int splits) {
    if (splits > 1) {
      nvidia::cluster_sync();
      nvidia::cluster_sync();
    }
  }

  // Consumer thread ct (0..255) of this CTA.
  TESSERA_DEVICE static void write(const float (&acc)[kRowBlocks][kAccPerBlock], unsigned char* partial, int ct) {
    const std::uint32_t base = nvidia::smem_address(partial) + std::uint32_t(ct) * 16;
    TESSERA_UNROLL
    for (int g = 0; g < kGroups; ++g) {
      nvidia::store_shared_v4(base + std::uint32_t(g) * kConsumerThreads * 16, group(acc, g));
    }
  }

  // The warpgroup's block starts at row m0, column n0 of D; t: thread in the warpgroup, ct:
  // consumer thread in the CTA; rank, splits: this CTA's place in the cluster and its size
  // (splits == 1: no cluster, every group from registers). Groups are taken kBatch at a time:
  // first the C values of the batch's elements (loads in flight together, not one latency per
  // element), then each group's partial sums, up to kInFlight CTAs' at once, added in rank
  // order.
  template <class Params, class Output>
  TESSERA_DEVICE static void sum_and_store(const Params& p, const Output& output,
                                           const float (&acc)[kRowBlocks][kAccPerBlock],
                                           unsigned char* partial, std::int64_t m0, std::int64_t n0, int t, int ct,
                                           int rank, int splits) {
    const bool reads_c = output.reads_c();
    const std::uint32_t slots = nvidia::smem_address(partial) + std::uint32_t(ct) * 16;
    TESSERA_UNROLL
    for (int g0 = 0; g0 < kGroups; g0 += kBatch) {
      float c[kBatch][4];
      TESSERA_UNROLL
      for (int b = 0; b < kBatch; ++b) {
        TESSERA_UNROLL
        for (int j = 0; j < 4; ++j) {
          c[b][j] = 0.0f;
          const int g = g0 + b;
          if (g >= kGroups || g % splits != rank || !reads_c) continue;
          const Element e = element(t, 4 * g + j, m0, n0);
          if (e.m < p.M && e.n < p.N) c[b][j] = to_float(p.c[LayoutC::offset(e.m, e.n, p.ldc)]);
        }
      }
      TESSERA_UNROLL
      for (int b = 0; b < kBatch; ++b) {
        const int g = g0 + b;
        if (g >= kGroups || g % splits != rank) continue;
        const nvidia::Float4 sum = cluster_sum(acc, g, slots + std::uint32_t(g) * kConsumerThreads * 16, rank, splits);
        const float values[4] = {sum.x, sum.y, sum.z, sum.w};
        TESSERA_UNROLL
        for (int j = 0; j < 4; ++j) {
          const Element e = element(t, 4 * g + j, m0, n0);
          if (e.m < p.M && e.n < p.N) {
            p.d[LayoutC::offset(e.m, e.n, p.ldd)] =
                from_float<ElementD>(output(values[j], EpilogueElement{e.m, e.n, c[b][j], reads_c}));
          }
        }
      }
    }
  }

 private:
  static constexpr int kBatch = kGroups < 4 ? kGroups : 4;
  static constexpr int kInFlight = 4;

  struct Element {
    std::int64_t m, n;
  };
  // Where accumulator f of thread t lands in D.
  TESSERA_DEVICE TESSERA_FORCEINLINE static Element element(int t, int f, std::int64_t m0, std::int64_t n0) {
    const auto e = Atom::element(t, f % kAccPerBlock);
    return {m0 + (f / kAccPerBlock) * 64 + e.row, n0 + e.col};
  }

  // Group g summed over the cluster's CTAs in rank order: this CTA's from registers, the
  // others' from the float4 at `slot` of their partial tiles, kInFlight loads at a time.
  TESSERA_DEVICE static nvidia::Float4 cluster_sum(const float (&acc)[kRowBlocks][kAccPerBlock], int g,
                                                   std::uint32_t slot, int rank, int splits) {
    nvidia::Float4 sum{0.0f, 0.0f, 0.0f, 0.0f};
    for (int q0 = 0; q0 < splits; q0 += kInFlight) {
      nvidia::Float4 v[kInFlight];
      TESSERA_UNROLL
      for (int i = 0; i < kInFlight; ++i) {
        const int q = q0 + i;
        v[i] = q == rank ? group(acc, g)
                         : q < splits ? nvidia::load_shared_cluster_v4(nvidia::cluster_shared_address_of(slot, q))
                                      : nvidia::Float4{0.0f, 0.0f, 0.0f, 0.0f};
      }
      TESSERA_UNROLL
      for (int i = 0; i < kInFlight; ++i) {
        if (q0 + i >= splits) break;
        sum.x += v[i].x;
        sum.y += v[i].y;
        sum.z += v[i].z;
        sum.w += v[i].w;
      }
    }
    return sum;
  }

  TESSERA_DEVICE TESSERA_FORCEINLINE static nvidia::Float4 group(const float (&acc)[kRowBlocks][kAccPerBlock],
                                                                 int g) {
    const int f = 4 * g;
    return {acc[f / kAccPerBlock][f % kAccPerBlock], acc[f / kAccPerBlock][f % kAccPerBlock + 1],
            acc[f / kAccPerBlock][f % kAccPerBlock + 2], acc[f / kAccPerBlock][f % kAccPerBlock + 3]};
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
