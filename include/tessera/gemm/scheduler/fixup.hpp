// The fix-up of partial tiles (scheduler::StreamK<>, gemm/scheduler/stream_k.hpp), and the hooks
// kernels call it through (FixupHooks, below): a piece that covers part
// of its tile's K writes its fp32 accumulators to a workspace slot and publishes them; the
// split tile is then reduced by its reducers, each summing its share of the tile's lines over
// every peer's partial, in peer order (the same bits on every run), and writing D through the
// OutputRun (the configuration's epilogue, C read where it asks, 4-element runs along D's
// contiguous dimension). The same code for every family; a family supplies its threads, its
// barrier and the scatter of its accumulator fragment (store_pair, store_run).
//
// A partial is one CTA tile of floats in D's layout: line l (a row of a row-major D, a column of
// a column-major one) at l x line length, so the reduction reads 16-byte runs.
//
// The order of things, per worker: every piece's partial is stored and published as its piece
// ends; the reductions come after the worker's last piece (StreamK's deadlock argument), each
// first waiting for all its peers' flags (one thread), then a barrier, then the loads.
#pragma once
#include <cstdint>

#include "tessera/arch/global_flag.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/vector.hpp"
#include "tessera/gemm/epilogue/output_run.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA) || defined(TESSERA_HIP) || defined(TESSERA_AMD_EMULATION)

// LayoutC: D's layout; kTileM x kTileN: one CTA's tile.
template <class LayoutC, int kTileM, int kTileN>
struct StreamKFixup {
  static constexpr bool kRowMajor = LayoutC::kIsRowMajor;
  static constexpr int kLines = kRowMajor ? kTileM : kTileN;
  static constexpr int kLineLength = kRowMajor ? kTileN : kTileM;
  static constexpr int kRunsPerLine = kLineLength / 4;
  // The reduction's loads in flight per thread: kRuns runs x kPeers peers (16-byte each).
  static constexpr int kRuns = 4, kPeers = 4;
  static_assert(kLineLength % 4 == 0, "Tessera stream-K fix-up: a tile line must hold whole 4-element runs");

  // Offset of tile-local element (r, c) in a partial.
  TESSERA_HOST_DEVICE static constexpr int index(int r, int c) { return kRowMajor ? r * kTileN + c : c * kTileM + r; }

  // ---- the storing side ---------------------------------------------------------------------
  // Tile-local (r, c) and (r, c + 1).
  TESSERA_DEVICE TESSERA_FORCEINLINE static void store_pair(float* partial, int r, int c, float v0, float v1) {
    if constexpr (kRowMajor) {
      struct alignas(8) Pair {
        float x, y;
      };
      *reinterpret_cast<Pair*>(partial + index(r, c)) = Pair{v0, v1};
    } else {
      partial[index(r, c)] = v0;
      partial[index(r, c + 1)] = v1;
    }
  }
  // Four elements along D's contiguous dimension from tile-local (r, c) (c, or r when
  // column-major, a multiple of 4).
  TESSERA_DEVICE TESSERA_FORCEINLINE static void store_run(float* partial, int r, int c, const float (&v)[4]) {
    *reinterpret_cast<Float4*>(partial + index(r, c)) = Float4{v[0], v[1], v[2], v[3]};
  }
  // A writer of 4-element runs at D's coordinates (what an OutputRun is called with) into the
  // partial of the tile whose first element is (m0, n0): for kernels whose epilogue writes runs.
  struct RunWriter {
    float* partial;
    std::int64_t m0, n0;
    TESSERA_DEVICE TESSERA_FORCEINLINE void operator()(std::int64_t m, std::int64_t n, float (&v)[4]) const {
      store_run(partial, int(m - m0), int(n - n0), v);
    }
  };

  // After this thread's stores of a partial: `sync` is the barrier of every thread that stored
  // it, `thread` this one's index among them, `threads` their count. Publishes the slot to each
  // of its `readers`.
  template <class Scheduler, class Sync>
  TESSERA_DEVICE static void publish(const Scheduler& s, int slot, int rank, int readers, int thread, int threads,
                                     Sync&& sync) {
    flag_release_fence();
    sync();
    for (int i = thread; i < readers; i += threads) flag_publish(s.flag(slot, rank, i), s.token);
  }

  // ---- the reducing side --------------------------------------------------------------------
  // This worker's share of split tile `r` (the CTA at `rank` of its cluster), with `threads`
  // threads (this one is `thread`) that `sync` synchronises. out: D's OutputRun.
  template <class Scheduler, class Output, class Sync>
  TESSERA_DEVICE static void reduce(const Scheduler& s, const TileReduction& r, int rank, Output& out, int thread,
                                    int threads, Sync&& sync) {
    if (thread == 0) {
      for (int i = 0; i < r.peers; ++i) {
        std::uint64_t* f = s.flag(peer_slot(r, i), rank, r.reader);
        flag_wait(f, s.token);
        flag_clear(f);  // this reader is the flag's only one: ready for the next launch
      }
    }
    sync();
    flag_acquire_fence();
    sum(s, r, rank, out, thread, threads);
  }

  // The sum itself, once every peer's partial is visible to this thread: in a launch, after
  // reduce()'s waits; in a second kernel (reduce::SecondKernel), after the first has ended.
  template <class Scheduler, class Output>
  TESSERA_DEVICE static void sum(const Scheduler& s, const TileReduction& r, int rank, Output& out, int thread,
                                 int threads) {
    const int line_begin = int(std::int64_t(r.reader) * kLines / r.readers);
    const int line_end = int(std::int64_t(r.reader + 1) * kLines / r.readers);
    const int runs = (line_end - line_begin) * kRunsPerLine;
    // kRuns runs per thread at a time, their peers' loads kPeers at a time, all issued before
    // any is added: the reduction waits for memory about peers / kPeers times per kRuns runs
    // instead of once per peer and run. The sum is still p0 + p1 + ..., in peer order.
    for (int first = thread; first < runs; first += kRuns * threads) {
      std::int64_t m[kRuns], n[kRuns];
      int offset[kRuns];
      bool live[kRuns];
      float acc[kRuns][4];
      TESSERA_UNROLL
      for (int q = 0; q < kRuns; ++q) {
        const int i = first + q * threads;
        const int line = line_begin + i / kRunsPerLine;
        const int at = (i % kRunsPerLine) * 4;
        m[q] = std::int64_t(r.m) * kTileM + (kRowMajor ? line : at);
        n[q] = std::int64_t(r.n) * kTileN + (kRowMajor ? at : line);
        offset[q] = line * kLineLength + at;
        live[q] = i < runs && elements_inside<LayoutC>(m[q], n[q], out.M, out.N) > 0;
        TESSERA_UNROLL
        for (int e = 0; e < 4; ++e) acc[q][e] = 0.0f;
      }
      for (int p0 = 0; p0 < r.peers; p0 += kPeers) {
        float v[kRuns][kPeers][4];
        TESSERA_UNROLL
        for (int q = 0; q < kRuns; ++q) {
          TESSERA_UNROLL
          for (int b = 0; b < kPeers; ++b) {
            if (live[q] && p0 + b < r.peers) load_run(s.partial(peer_slot(r, p0 + b), rank) + offset[q], v[q][b]);
          }
        }
        TESSERA_UNROLL
        for (int q = 0; q < kRuns; ++q) {
          TESSERA_UNROLL
          for (int b = 0; b < kPeers; ++b) {
            TESSERA_UNROLL
            for (int e = 0; e < 4; ++e) {
              if (live[q] && p0 + b < r.peers) acc[q][e] += v[q][b][e];
            }
          }
        }
      }
      TESSERA_UNROLL
      for (int q = 0; q < kRuns; ++q) {
        if (live[q]) out(m[q], n[q], acc[q]);
      }
    }
  }

 private:
  TESSERA_HOST_DEVICE static int peer_slot(const TileReduction& r, int i) {
    return i == 0 ? r.head_slot : r.next_slot + i - 1;
  }
  // Partials are read once, by the reducer that owns the lines: straight from L2 on CUDA.
  TESSERA_DEVICE TESSERA_FORCEINLINE static void load_run(const float* p, float (&v)[4]) {
#if defined(TESSERA_CUDA)
    const float4 x = __ldcg(reinterpret_cast<const float4*>(p));
    v[0] = x.x;
    v[1] = x.y;
    v[2] = x.z;
    v[3] = x.w;
#else
    const Float4 x = *reinterpret_cast<const Float4*>(p);
    v[0] = x.x;
    v[1] = x.y;
    v[2] = x.z;
    v[3] = x.w;
#endif
  }
};

// The hooks every persistent kernel (wgmma, tcgen05, MFMA) calls, whatever its scheduler:
//
//   for (int j = 0; j < units; ++j) {
//     ... unit j's main loop ...
//     if (Fixup::kActive && Fixup::hand_on(p.scheduler, worker, j, cm, cn, scatter, thread, threads, sync))
//       continue;
//     ... unit j's epilogue: D ...
//   }
//   if (Fixup::kActive) Fixup::finish(p.scheduler, worker, cm, cn, make_output, thread, threads, sync);
//
// (cm, cn): the CTA's place in its cluster (0, 0 without clusters).
// hand_on: when unit j covers part of its tile's K, `scatter(float* partial)` writes the unit's
// accumulators into the partial (one CTA tile of floats in D's layout: Partial::store_pair,
// store_run), then the partial is published to its readers once `sync` (the barrier of the
// `threads` threads that wrote it; this one is `thread`) has passed; true: the unit is done.
// finish: after the worker's last unit, its shares of the split tiles it reduces, written
// through `make_output()` (D's OutputRun). A scheduler without partials (DataParallel, a
// problem set's) gets hooks that do nothing, chosen at compile time: neither the scatter nor
// make_output is called, and its kernels' code is what it was without them.
template <class Scheduler, class LayoutC, int kTileM, int kTileN, bool = scheduler_has_fixup<Scheduler>>
struct FixupHooks {
  // Kernels call the hooks as `Fixup::kActive && Fixup::hand_on(...)`: with a constant false the
  // arguments (the lambdas, which capture the accumulators) are never built, so the optimiser
  // sees exactly the code it saw without hooks.
  static constexpr bool kActive = false;
  using Partial = StreamKFixup<LayoutC, kTileM, kTileN>;
  template <class Scatter, class Sync>
  TESSERA_DEVICE TESSERA_FORCEINLINE static constexpr bool hand_on(const Scheduler&, int, int, int, int, Scatter&&, int,
                                                                   int, Sync&&) {
    return false;
  }
  template <class MakeOutput, class Sync>
  TESSERA_DEVICE TESSERA_FORCEINLINE static void finish(const Scheduler&, int, int, int, MakeOutput&&, int, int,
                                                        Sync&&) {}
};

template <class Scheduler, class LayoutC, int kTileM, int kTileN>
struct FixupHooks<Scheduler, LayoutC, kTileM, kTileN, true> {
  static_assert(!Scheduler::kInCluster,
                "Tessera fix-up: the ClusterShared medium's partials meet in a cluster's shared memory, which "
                "only the cluster split-K kernel sums (wgmma/cluster_partial_sum.hpp)");
  static constexpr bool kActive = true;
  using Partial = StreamKFixup<LayoutC, kTileM, kTileN>;

  template <class Scatter, class Sync>
  TESSERA_DEVICE static bool hand_on(const Scheduler& s, int worker, int j, int cm, int cn, Scatter&& scatter,
                                     int thread, int threads, Sync&& sync) {
    const int slot = s.partial_slot(worker, j);
    if (slot < 0) return false;  // the whole tile's K: the kernel's own epilogue writes D
    const int rank = s.cta_rank(cm, cn);
    scatter(s.partial(slot, rank));
    if constexpr (Scheduler::kReducesInLaunch) {
      Partial::publish(s, slot, rank, s.readers_of_piece(worker, j), thread, threads, sync);
    } else {
      (void)sync;  // nothing to publish: the second kernel reads it after this launch
    }
    return true;
  }

  // Every piece's partial is published before any reduction waits (the scheduler's deadlock
  // argument, scheduler/stream_k.hpp): so this comes after the worker's last unit.
  // It returns the output it wrote through (an epilogue that gathers something as it goes, fp8's
  // amax, has it there).
  template <class MakeOutput, class Sync>
  TESSERA_DEVICE static auto finish(const Scheduler& s, int worker, int cm, int cn, MakeOutput&& make_output,
                                    int thread, int threads, Sync&& sync) {
    auto out = make_output();
    if constexpr (Scheduler::kReducesInLaunch) {  // else a second kernel reduces (below)
      for (int which = 0; which < 2; ++which) {
        if (!s.reduces(worker, which)) continue;
        Partial::reduce(s, s.reduction(worker, which, cm, cn), s.cta_rank(cm, cn), out, thread, threads, sync);
      }
    }
    return out;
  }
};

// reduce::SecondKernel's second kernel: after the launch that wrote the partials, each split
// tile is summed over its peers by as many blocks as it has slices, each block a share of the
// tile's lines (as the in-launch peers share it), with the in-launch reduction's code
// (StreamKFixup::sum; the end of the first launch stands in for the flags); D written through
// `output`. Its grid: the scheduler's second_kernel_blocks().
constexpr int kSecondKernelThreads = 256;

template <class Scheduler, class Output>
struct SecondKernelParams {
  Scheduler scheduler;
  Output output;
};

template <class Scheduler, class Output, int kTileM, int kTileN>
TESSERA_GLOBAL void TESSERA_LAUNCH_BOUNDS(kSecondKernelThreads, 1)
    second_kernel_reduce(const SecondKernelParams<Scheduler, Output> p) {
  using Partial = StreamKFixup<typename Output::Layout, kTileM, kTileN>;
  const int shares = p.scheduler.plan.splits;
  const int block = int(block_index());
  TileReduction r = p.scheduler.whole_reduction(block / shares, 0, 0);
  r.reader = block % shares;
  r.readers = shares;
  Output out = p.output;
  Partial::sum(p.scheduler, r, 0, out, thread_index(), kSecondKernelThreads);
}

// D's OutputRun from a kernel's parameters (c, ldc, d, ldd, M, N) and the op applied to each
// element (p.epilogue, or a thread's own copy of it), with vector accesses where the base and
// pitch allow.
template <class ElementC, class ElementD, class LayoutC, class Params, class Op>
TESSERA_DEVICE OutputRun<ElementC, ElementD, LayoutC, Op> output_run_with(const Params& p, const Op& op) {
  auto aligned4 = [](const auto* ptr, std::int64_t ld) {
    const std::uint64_t bytes = 4u * sizeof(*ptr);
    return ptr != nullptr && reinterpret_cast<std::uintptr_t>(ptr) % bytes == 0 &&
           (std::uint64_t(ld) * sizeof(*ptr)) % bytes == 0;
  };
  return {p.M, p.N, p.c, p.ldc, p.d, p.ldd, op.reads_c() && aligned4(p.c, p.ldc), aligned4(p.d, p.ldd), op};
}
template <class ElementC, class ElementD, class LayoutC, class Epilogue, class Params>
TESSERA_DEVICE OutputRun<ElementC, ElementD, LayoutC, Epilogue> output_run(const Params& p) {
  return output_run_with<ElementC, ElementD, LayoutC>(p, p.epilogue);
}

#endif

}  // namespace tessera::gemm
