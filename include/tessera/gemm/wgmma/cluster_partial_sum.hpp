// The end of a cluster split-K tile (wgmma/cluster_split_kernel.hpp): every CTA of the
// cluster holds the accumulators of its K slice of the same output tile; each part of the tile
// is pushed to the CTA that owns it, summed there and stored to D once.
//
// Units: one consumer warp's float4 group (32 threads x 16 bytes), u = warp * kGroups + g for
// consumer warp `warp` (0..7) and group g (accumulators 4g..4g+3 of each thread); CTA
// u % splits of the cluster owns unit u.
//   push()     each consumer thread sends every group of its that another CTA owns to that
//              CTA's inbox (st.async: 16 bytes into its shared memory, completing 16 bytes of
//              the transaction count of its inbox barrier); nothing waits for them;
//   collect()  the owner waits until its inbox barrier has every byte its units expect, then
//              adds, per owned group, the parts of CTAs 0, 1, ..., splits - 1 in that order
//              (its own from registers, the others' from its inbox);
//   store()    applies the epilogue to the owned groups and stores the elements inside M x N
//              (C read with ordinary loads, a few groups' worth at once, before any D is
//              written: C == D is safe); without a split (a cluster of one) every group, from
//              registers alone.
// No CTA reads another's shared memory, and a CTA's inbox is written only before its own wait
// returns, so no CTA has to wait for the others before it leaves: the cluster's one barrier is
// at the start (arrived once the inbox barrier is initialised, waited for before the first
// push, by when the slices have long been loading). The pull design before it (each CTA
// reading its owned groups from the others' partial tiles) needed a barrier before the reads
// and another before leaving, the larger part of the split's fixed cost
// (benchmark/notes/small_m.md, "The cluster split's fixed cost"). The inbox has shared memory
// of its own: a peer may push while this CTA's main loop still reads its stages.
// The order of the sum never depends on timing, so D is the same on every run.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/dsmem.hpp"
#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/tma/epilogue_support.hpp"
#include "tessera/gemm/wgmma/cluster_sum_inbox.hpp"
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
  static constexpr int kWarps = kConsumerThreads / 32;
  static constexpr int kUnits = kWarps * kGroups;
  using Inbox = ClusterSumInbox;
  using Atom = mma::WgmmaAtom<kN>;
  static_assert(kAccPerBlock % 4 == 0, "Tessera: a row block's accumulators come in groups of 4");

  // The reduction of the ClusterShared medium (scheduler/stream_k.hpp) as the kernel's two roles
  // call it after the main loop. Consumer side, with a split: this CTA's inbox barrier told the
  // bytes to expect, the start's cluster barrier waited for (every CTA's inbox barrier is
  // initialised), push, collect, store; without one, the store from registers. Producer side:
  // the wait for the start's cluster barrier, which every thread of every CTA reaches.
  // `output`: the epilogue each element of D goes through (the configuration's, or fp8's
  // per-thread output op). `acc` holds the owned groups' sums after the call.
  template <class Params, class Output>
  TESSERA_DEVICE static void consumer_side(const Params& p, const Output& output, float (&acc)[kRowBlocks][kAccPerBlock],
                                           unsigned char* inbox, std::uint64_t* inbox_full, std::int64_t m0,
                                           std::int64_t n0, int t, int ct, int splits) {
    if (splits > 1) {
      const int rank = int(nvidia::cluster_cta_rank());
      if (ct == 0) {
        nvidia::mbarrier_arrive_expect_tx(inbox_full, std::uint32_t(Inbox::received_bytes(kUnits, rank, splits)));
      }
      nvidia::cluster_wait();  // every CTA's inbox barrier is initialised (the kernel's start)
      push(acc, inbox, inbox_full, ct, rank, splits);
      collect(acc, inbox, inbox_full, ct, rank, splits);
      store(p, output, acc, m0, n0, t, ct, rank, splits);
    } else {
      store(p, output, acc, m0, n0, t, ct, 0, 1);
    }
  }
  TESSERA_DEVICE static void producer_side(int splits) {
    if (splits > 1) nvidia::cluster_wait();
  }

  // The unit of consumer thread ct's group g (its warp's group g).
  TESSERA_DEVICE TESSERA_FORCEINLINE static int unit_of(int ct, int g) { return (ct / 32) * kGroups + g; }
  // Whether consumer thread ct's group g is this CTA's (rank of a cluster of `splits`).
  TESSERA_DEVICE TESSERA_FORCEINLINE static bool owns(int ct, int g, int rank, int splits) {
    return unit_of(ct, g) % splits == rank;
  }
  TESSERA_DEVICE static void push(const float (&acc)[kRowBlocks][kAccPerBlock], unsigned char* inbox,
                                  std::uint64_t* inbox_full, int ct, int rank, int splits) {
    const std::uint32_t box = nvidia::smem_address(inbox), bar = nvidia::smem_address(inbox_full);
    TESSERA_UNROLL
    for (int g = 0; g < kGroups; ++g) {
      const int u = unit_of(ct, g), owner = u % splits;
      if (owner == rank) continue;
      const std::uint32_t to = nvidia::cluster_shared_address(box + Inbox::offset(u, rank, owner, splits, ct % 32),
                                                              std::uint32_t(owner));
      nvidia::store_async_cluster_v4(to, group(acc, g), nvidia::cluster_shared_address(bar, std::uint32_t(owner)));
    }
  }

  // This CTA's groups summed over the cluster, in place (the others keep this CTA's part:
  // store() skips them).
  TESSERA_DEVICE static void collect(float (&acc)[kRowBlocks][kAccPerBlock], unsigned char* inbox,
                                     std::uint64_t* inbox_full, int ct, int rank, int splits) {
    nvidia::mbarrier_wait<true>(inbox_full, 0);  // the peers' pushes, acquired at cluster scope
    const std::uint32_t box = nvidia::smem_address(inbox);
    TESSERA_UNROLL
    for (int g = 0; g < kGroups; ++g) {
      if (!owns(ct, g, rank, splits)) continue;
      const int u = unit_of(ct, g);
      nvidia::Float4 sum{0.0f, 0.0f, 0.0f, 0.0f};
      for (int from = 0; from < splits; ++from) {
        const nvidia::Float4 v =
            from == rank ? group(acc, g) : nvidia::load_shared_v4(box + Inbox::offset(u, from, rank, splits, ct % 32));
        sum.x += v.x;
        sum.y += v.y;
        sum.z += v.z;
        sum.w += v.w;
      }
      set_group(acc, g, sum);
    }
  }

  // The warpgroup's block starts at row m0, column n0 of D; t: thread in the warpgroup, ct:
  // consumer thread in the CTA; rank, splits: this CTA's place in the cluster and its size
  // (the groups it owns are stored; splits == 1: every group). Groups are taken kBatch at a
  // time: first the C values of the batch's elements (loads in flight together, not one
  // latency per element), then the batch's stores.
  template <class Params, class Output>
  TESSERA_DEVICE static void store(const Params& p, const Output& output, const float (&acc)[kRowBlocks][kAccPerBlock],
                                   std::int64_t m0, std::int64_t n0, int t, int ct, int rank, int splits) {
    const bool reads_c = output.reads_c();
    TESSERA_UNROLL
    for (int g0 = 0; g0 < kGroups; g0 += kBatch) {
      float c[kBatch][4];
      TESSERA_UNROLL
      for (int b = 0; b < kBatch; ++b) {
        TESSERA_UNROLL
        for (int j = 0; j < 4; ++j) {
          c[b][j] = 0.0f;
          const int g = g0 + b;
          if (g >= kGroups || !owns(ct, g, rank, splits) || !reads_c) continue;
          const Element e = element(t, 4 * g + j, m0, n0);
          if (e.m < p.M && e.n < p.N) c[b][j] = to_float(p.c[LayoutC::offset(e.m, e.n, p.ldc)]);
        }
      }
      TESSERA_UNROLL
      for (int b = 0; b < kBatch; ++b) {
        const int g = g0 + b;
        if (g >= kGroups || !owns(ct, g, rank, splits)) continue;
        const nvidia::Float4 sum = group(acc, g);
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

  struct Element {
    std::int64_t m, n;
  };
  // Where accumulator f of thread t lands in D.
  TESSERA_DEVICE TESSERA_FORCEINLINE static Element element(int t, int f, std::int64_t m0, std::int64_t n0) {
    const auto e = Atom::element(t, f % kAccPerBlock);
    return {m0 + (f / kAccPerBlock) * 64 + e.row, n0 + e.col};
  }

  TESSERA_DEVICE TESSERA_FORCEINLINE static nvidia::Float4 group(const float (&acc)[kRowBlocks][kAccPerBlock],
                                                                 int g) {
    const int f = 4 * g;
    return {acc[f / kAccPerBlock][f % kAccPerBlock], acc[f / kAccPerBlock][f % kAccPerBlock + 1],
            acc[f / kAccPerBlock][f % kAccPerBlock + 2], acc[f / kAccPerBlock][f % kAccPerBlock + 3]};
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE static void set_group(float (&acc)[kRowBlocks][kAccPerBlock], int g,
                                                           const nvidia::Float4& v) {
    const int f = 4 * g;
    acc[f / kAccPerBlock][f % kAccPerBlock] = v.x;
    acc[f / kAccPerBlock][f % kAccPerBlock + 1] = v.y;
    acc[f / kAccPerBlock][f % kAccPerBlock + 2] = v.z;
    acc[f / kAccPerBlock][f % kAccPerBlock + 3] = v.w;
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
