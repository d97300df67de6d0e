// mbarriers (sm_90+): the shared-memory barriers that TMA loads complete on and that a
// warp-specialised pipeline's producer and consumers hand stages over with.
//
// An mbarrier counts arrivals and, for TMA, transaction bytes. A phase completes when the
// expected arrivals have arrived and the expected bytes have landed; its parity (0, 1, 0,
// ...) then flips. A waiter names the parity of the phase it waits for: a ring of stages
// keeps one parity bit per pass over the ring.
//
// Addresses are 32-bit shared-window addresses (cvta to shared), the form the PTX takes.
// Everything here is device code for sm_90+; the header is inert elsewhere.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TESSERA_SM90_DEVICE_PASS 1
#endif

namespace tessera::nvidia {

#if defined(TESSERA_CUDA)

// The shared-window address of a shared-memory object.
TESSERA_DEVICE TESSERA_FORCEINLINE std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

TESSERA_DEVICE TESSERA_FORCEINLINE void mbarrier_init(std::uint64_t* bar, std::uint32_t arrivals) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_address(bar)), "r"(arrivals));
#endif
}

// Makes barrier initialisation visible to the async proxy (TMA) and to the other CTAs of
// the cluster, before any of them uses the barriers.
TESSERA_DEVICE TESSERA_FORCEINLINE void fence_barrier_init() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

// One arrival, announcing `bytes` more transaction bytes for the current phase (the
// producer's arrival before it issues the TMA loads that will complete them).
TESSERA_DEVICE TESSERA_FORCEINLINE void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(smem_address(bar)),
               "r"(bytes)
               : "memory");
#endif
}

// One arrival on a barrier of this CTA.
TESSERA_DEVICE TESSERA_FORCEINLINE void mbarrier_arrive(std::uint64_t* bar) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem_address(bar)) : "memory");
#endif
}

// One arrival on the barrier at the same offset in the shared memory of CTA `cta_rank` of
// this cluster (itself included): how a consumer frees a stage that other CTAs multicast
// into. The default (CTA-scope) release, as CUTLASS's ClusterBarrier::arrive: what it
// orders is the arriving thread's own completed reads of its own shared memory (the wgmma
// group was waited for). With `.release.cluster` every such arrival cost the consumer a
// cluster-wide release, which slowed 2-CTA clusters far below 1 x 1 tiles
// (benchmark/notes/wgmma.md, section Evidence, "Clusters, solved").
//
// kClusterRelease: release at cluster scope instead, so that the arriving thread's earlier
// writes to its own shared memory are visible, at cluster scope, to whoever waits on the
// barrier (a CTA pair's peer writing scale factors that the leader's tcgen05.cp reads:
// gemm/umma/scale_loader.hpp).
template <bool kClusterRelease = false>
TESSERA_DEVICE TESSERA_FORCEINLINE void mbarrier_arrive_cluster(std::uint64_t* bar, std::uint32_t cta_rank) {
#if defined(TESSERA_SM90_DEVICE_PASS)
#define TESSERA_REMOTE_ARRIVE(arrive)                                                                       \
  asm volatile("{\n\t.reg .b32 remote;\n\tmapa.shared::cluster.u32 remote, %0, %1;\n\t" arrive            \
               " _, [remote];\n\t}" ::"r"(smem_address(bar)),                                                \
               "r"(cta_rank)                                                                               \
               : "memory")
  if constexpr (kClusterRelease) {
    TESSERA_REMOTE_ARRIVE("mbarrier.arrive.release.cluster.shared::cluster.b64");
  } else {
    TESSERA_REMOTE_ARRIVE("mbarrier.arrive.shared::cluster.b64");
  }
#undef TESSERA_REMOTE_ARRIVE
#endif
}

// The shared::cluster address of shared-window address `address` of this CTA, in CTA
// `cta_rank` of this cluster (mapa): where an asynchronous operation of this CTA is to signal
// another CTA's barrier, or an st.async is to write into another CTA's shared memory.
TESSERA_DEVICE TESSERA_FORCEINLINE std::uint32_t cluster_shared_address(std::uint32_t address, std::uint32_t cta_rank) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(address), "r"(cta_rank));
  return remote;
#else
  (void)cta_rank;
  return address;
#endif
}
// The same for the object `p` points to.
TESSERA_DEVICE TESSERA_FORCEINLINE std::uint32_t cluster_shared_address(const void* p, std::uint32_t cta_rank) {
  return cluster_shared_address(smem_address(p), cta_rank);
}

// True once the phase with this parity has completed (non-blocking probe, with the
// hardware's bounded suspend). kCluster: acquire at cluster scope, for a barrier that other
// CTAs of the cluster arrive on (a multicast stage's empty barrier) or complete bytes on
// (its full barrier), so that what they did before arriving is visible after the wait.
// `bar`: the barrier's shared-window address (smem_address), which a loop computes once.
template <bool kCluster = false>
TESSERA_DEVICE TESSERA_FORCEINLINE bool mbarrier_try_wait_at(std::uint32_t bar, std::uint32_t parity) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  std::uint32_t done;
  if constexpr (kCluster) {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } else {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  }
  return done != 0;
#else
  (void)bar;
  (void)parity;
  return true;
#endif
}
template <bool kCluster = false>
TESSERA_DEVICE TESSERA_FORCEINLINE bool mbarrier_try_wait(std::uint64_t* bar, std::uint32_t parity) {
  return mbarrier_try_wait_at<kCluster>(smem_address(bar), parity);
}

// Blocks until the phase with this parity has completed (kCluster: cluster scope).
template <bool kCluster = false>
TESSERA_DEVICE TESSERA_FORCEINLINE void mbarrier_wait_at(std::uint32_t bar, std::uint32_t parity) {
  while (!mbarrier_try_wait_at<kCluster>(bar, parity)) {
  }
}
template <bool kCluster = false>
TESSERA_DEVICE TESSERA_FORCEINLINE void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  mbarrier_wait_at<kCluster>(smem_address(bar), parity);
}

// cp.async (sm_80+): 16 bytes from 16-byte-aligned global memory to shared memory,
// asynchronously and without registers; completion is tracked per thread.
TESSERA_DEVICE TESSERA_FORCEINLINE void cp_async_16(std::uint32_t dst, const void* src) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
#endif
}

// cp.async of one 4-byte word; with `read` false nothing is read and the word is set to zero
// (src-size 0; `src` must still be a valid address).
TESSERA_DEVICE TESSERA_FORCEINLINE void cp_async_4_or_zero(std::uint32_t dst, const void* src, bool read) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(read ? 4u : 0u) : "memory");
#endif
}

// A float from shared memory, kept after the barrier wait before it (asm volatile).
TESSERA_DEVICE TESSERA_FORCEINLINE float load_shared_f32(std::uint32_t address) {
  float v = 0.0f;
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(address) : "memory");
#else
  (void)address;
#endif
  return v;
}

// One arrival on `bar` once every cp.async this thread issued before has completed (the
// barrier counts it as one of its expected arrivals: .noinc).
TESSERA_DEVICE TESSERA_FORCEINLINE void cp_async_arrive(std::uint64_t* bar) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_address(bar)) : "memory");
#endif
}

// ---- fences ---------------------------------------------------------------------------

// Orders this thread's ordinary shared-memory writes before later accesses by the async
// proxy (TMA stores reading the staging tile, wgmma reading operands written by threads).
TESSERA_DEVICE TESSERA_FORCEINLINE void fence_proxy_async_shared() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

// ---- named barriers (bar.sync with an id and a thread count) --------------------------
// Synchronise a subset of the block: one consumer warpgroup's threads, or the two
// consumer warpgroups of a ping-pong schedule taking turns. Id 0 is __syncthreads'.
TESSERA_DEVICE TESSERA_FORCEINLINE void named_barrier_sync(std::uint32_t id, std::uint32_t threads) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
#endif
}
TESSERA_DEVICE TESSERA_FORCEINLINE void named_barrier_arrive(std::uint32_t id, std::uint32_t threads) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
#endif
}

// ---- warp-uniform values -----------------------------------------------------------------
// The calling thread's warpgroup (threadIdx.x / 128), broadcast from lane 0 so that ptxas can
// prove it the same on every lane. threadIdx.x / 128 is that already, but ptxas does not see it:
// whatever derives from it (the ring position of a Pingpong warpgroup's units, an A row offset,
// the wgmma descriptors built from them) then lives in ordinary registers and every wgmma waits
// on an R2UR move into uniform registers. CUTLASS's canonical_warp_group_idx (cutlass/cutlass.h)
// broadcasts for the same reason. Every lane of the warp must call it (converged).
TESSERA_DEVICE TESSERA_FORCEINLINE int uniform_warpgroup() {
#if defined(__CUDA_ARCH__)
  return __shfl_sync(0xffffffffu, int(threadIdx.x) / 128, 0);
#else
  return 0;
#endif
}

// ---- clusters -------------------------------------------------------------------------

TESSERA_DEVICE TESSERA_FORCEINLINE std::uint32_t cluster_cta_rank() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
#else
  return 0;
#endif
}

// All threads of all CTAs of the cluster arrive, then wait: after it, barrier
// initialisation (with fence_barrier_init) and shared memory of every CTA are visible
// cluster-wide; before exit, it keeps a CTA's shared memory alive while others may still
// arrive on its barriers.
TESSERA_DEVICE TESSERA_FORCEINLINE void cluster_sync() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
#endif
}

// The two halves of cluster_sync, apart. Arrive relaxed: what it publishes is only the
// barriers' initialisation, which fence_barrier_init releases at cluster scope already (the
// pattern of the PTX ISA's fence.mbarrier_init); wait acquires. Between them a CTA works; the
// wait returns once every thread of every CTA of the cluster has arrived.
TESSERA_DEVICE TESSERA_FORCEINLINE void cluster_arrive_relaxed() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#endif
}
TESSERA_DEVICE TESSERA_FORCEINLINE void cluster_wait() {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
#endif
}

// ---- register reallocation (sm_90a) ---------------------------------------------------
// The producer warpgroup gives registers back, the consumers take them: the kernel must
// have a register cap at entry (__launch_bounds__(threads, 1)), and each warpgroup's role
// must be one branch of an if/else (otherwise ptxas ignores it, warning C7508).
template <int kRegisters>
TESSERA_DEVICE TESSERA_FORCEINLINE void setmaxnreg_dec() {
  static_assert(kRegisters >= 24 && kRegisters <= 256 && kRegisters % 8 == 0,
                "setmaxnreg takes a multiple of 8 from 24 to 256");
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegisters));
#endif
}
template <int kRegisters>
TESSERA_DEVICE TESSERA_FORCEINLINE void setmaxnreg_inc() {
  static_assert(kRegisters >= 24 && kRegisters <= 256 && kRegisters % 8 == 0,
                "setmaxnreg takes a multiple of 8 from 24 to 256");
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegisters));
#endif
}

#endif  // TESSERA_CUDA

}  // namespace tessera::nvidia
