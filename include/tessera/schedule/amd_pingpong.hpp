// Ping-pong schedules for the AMD MFMA GEMM, as types (reference: Triton's AMD
// BlockPingpong pass, "the seed" below). A schedule says how one
// main-loop iteration is cut into clusters and how the waves of a SIMD interleave them:
//
//   NoPingPong<W>         the baseline and the fallback: W waves, no priorities, the
//                         compiler interleaves loads and MFMAs as it likes.
//   PingPongOneCluster    4 waves, two workgroups per CU: the two waves a SIMD holds come
//                         from different workgroups, so they need no sync between them;
//                         a memory cluster, then the dot at raised priority.
//   PingPongTwoClusters   8 waves (two per SIMD, one from each half of the workgroup),
//                         the dot sliced in 2 along K, a barrier between clusters, the
//                         halves offset by one cluster (asymmetric sync).
//   PingPongFourClusters  as two clusters, the dot sliced in 4 (256x256x64-class tiles:
//                         all of a tile's operand registers at once would not fit).
//   PingPongAsync         gfx950: direct-to-LDS loads into 3 LDS stages, 8 waves,
//                         asymmetric sync, the loads of B interleaved into the dot with
//                         sched_group_barrier.
//
// Each schedule's iteration() is written against an `Ops` object (the kernel's main loop,
// gemm/mfma/kernel.hpp) that supplies the cluster contents:
//   ops.template global_load<kA|kB>()      next tile of A or B: global -> registers (one
//                                          ticket group: Ops::kLoadsA/kLoadsB instructions)
//   ops.template lds_store<kA|kB, N>()     wait until at most N loads are in flight (the
//                                          newer tickets), then registers -> LDS
//   ops.template read<S>()                 LDS -> operand registers for K slice S
//   ops.template dot<S>()                  the MFMAs of K slice S
//   ops.lds_barrier()                      sched_barrier, this wave's LDS traffic done
//                                          (lgkmcnt 0), s_barrier, sched_barrier: a
//                                          cluster boundary nothing is moved across
//                                          (Triton: ttg.barrier local + sched.barrier 0)
//   ops.dot_barrier()                      the same after a dot cluster, when this wave
//                                          has no LDS traffic in flight
//   ops.cond_barrier(bool)                 lds_barrier() for the waves where the
//                                          (wave-uniform) condition holds
//   ops.second_group()                     true in waves 4..7 of an 8-wave workgroup
//   ops.template async_load<kA|kB>()       (async) tile it+2 straight into its LDS stage
//   ops.template async_wait<N>()           (async) at most N direct loads still in flight
//                                          (Ops::kDirectA/kDirectB per tile and lane)
//   ops.dot_with_async_b()                 (async) the dot, B's direct loads among the MFMAs
// so that the schedule's file holds the order and the reasons, and the kernel the how.
// Priorities and scheduling barriers come from arch/amd/sched.hpp.
//
// The selection rule (select_schedule below) and the feasibility checks are constexpr
// and host-testable (test/unit/test_mfma_schedule.cpp).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/amd/sched.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::schedule {

enum class Operand { kA, kB };
enum class PingPongKind { kNone, kOneCluster, kTwoClusters, kFourClusters, kAsync };

// sched_barrier(0) fences a cluster: the machine scheduler may move nothing across, so
// the clusters reach the assembly in the order written (Triton: rocdl.sched.barrier 0).
TESSERA_DEVICE TESSERA_FORCEINLINE void fence_cluster() { amd::sched_barrier<amd::SchedMask::kNone>(); }

// A dot cluster at raised priority. Why: two waves share the SIMD; s_setprio 1 makes the
// one in its dot win the issue arbitration until its last MFMA has issued, so the other
// wave's memory cluster fills the MFMA pipe's shadow instead of starting its own dot and
// turning ping-pong into a contest. Priority drops right after the last MFMA issues.
template <int kSlice, class Ops>
TESSERA_DEVICE TESSERA_FORCEINLINE void priority_dot(Ops& ops) {
  fence_cluster();
  amd::set_priority<1>();
  ops.template dot<kSlice>();
  amd::set_priority<0>();
  fence_cluster();
}

// What the kernel and the config read of a schedule: its kind, the waves of a workgroup,
// the K slices of the dot, the pipeline stages, the workgroups that share a CU (the
// ping-pong partners' source) and whether the wave groups are offset (asymmetric sync).
template <PingPongKind kKind_, int kWaves_, int kSlices_, int kStages_, int kBlocksPerCu_, bool kAsymmetric_>
struct ScheduleTraits {
  static constexpr PingPongKind kKind = kKind_;
  static constexpr int kWaves = kWaves_;
  static constexpr int kSlices = kSlices_;
  static constexpr int kStages = kStages_;
  static constexpr int kBlocksPerCu = kBlocksPerCu_;
  static constexpr bool kAsymmetric = kAsymmetric_;
};

// ---- the baseline ----------------------------------------------------------------------
template <int kWaves_ = 4>
struct NoPingPong : ScheduleTraits<PingPongKind::kNone, kWaves_, 1, 2, 1, false> {
  static constexpr const char* kName = "no ping-pong";
  static_assert(kWaves_ == 4 || kWaves_ == 8, "Tessera MFMA GEMM: NoPingPong runs 4 or 8 waves");

  // One LDS buffer: the next tile's loads go out first so their latency hides behind the
  // reads and the dot; the tile's LDS bytes may be overwritten once every wave has read
  // them (first barrier) and read again once every wave has written (second barrier).
  template <class Ops>
  TESSERA_DEVICE static void iteration(Ops& ops) {
    ops.template global_load<Operand::kA>();
    ops.template global_load<Operand::kB>();
    ops.template read<0>();
    ops.template dot<0>();
    ops.lds_barrier();
    ops.template lds_store<Operand::kA, Ops::kLoadsB>();  // ticket A; B may still fly
    ops.template lds_store<Operand::kB, 0>();             // ticket B: the newest group
    ops.lds_barrier();
  }
};

// ---- one cluster: 4 waves, two workgroups per CU ----------------------------------------
// The ping-pong partner of a wave is a wave of the OTHER workgroup on the same SIMD: the
// kernel must fit twice per CU (LDS and registers: two workgroups per CU), which the
// config checks. No asymmetric sync: the partners belong to different workgroups, which
// never wait for each other, so they drift apart into alternation on their own.
struct PingPongOneCluster : ScheduleTraits<PingPongKind::kOneCluster, 4, 1, 2, 2, false> {
  static constexpr const char* kName = "ping-pong, one cluster";

  // The seed's memory cluster: the local loads interleaved with the global loads, the
  // first global load and the second local load at priority 1 so this wave's memory
  // requests go out ahead of the partner's dot (the partner runs its MFMAs meanwhile);
  // then the dot at priority 1. The LDS store of the next tile needs the block's other
  // waves to have read the tile (barrier before) and must be visible before the next
  // iteration reads (barrier after); these barriers sync this workgroup only.
  template <class Ops>
  TESSERA_DEVICE static void iteration(Ops& ops) {
    fence_cluster();
    ops.template read<0, Operand::kA>();
    amd::set_priority<1>();
    ops.template global_load<Operand::kA>();
    fence_cluster();
    ops.template read<0, Operand::kB>();
    amd::set_priority<0>();
    ops.template global_load<Operand::kB>();
    priority_dot<0>(ops);
    ops.dot_barrier();
    ops.template lds_store<Operand::kA, Ops::kLoadsB>();
    ops.template lds_store<Operand::kB, 0>();
    ops.lds_barrier();
  }
};

// ---- two and four clusters: 8 waves with the asymmetric sync ---------------------------
// Waves w and w+4 share SIMD w%4 (waves are dealt to SIMDs round robin). Before the loop
// every wave passes a block barrier (the kernel's prologue ends with one: the first tile
// is in LDS), then only the second group (waves 4..7) passes one more: s_barrier counts
// arrivals, not program points, so that extra barrier pairs with the first group's first
// in-loop barrier, and from then on every in-loop barrier of the first group pairs with
// the previous one of the second group. The groups run one cluster apart: while one is
// in a dot cluster the other is in a memory cluster. After the loop the first group
// passes one more barrier, pairing with the second group's last.
struct AsymmetricSync {
  template <class Ops>
  TESSERA_DEVICE static void before_loop(Ops& ops) {
    ops.cond_barrier(ops.second_group());
  }
  template <class Ops>
  TESSERA_DEVICE static void after_loop(Ops& ops) {
    ops.cond_barrier(!ops.second_group());
  }
};

struct PingPongTwoClusters : ScheduleTraits<PingPongKind::kTwoClusters, 8, 2, 2, 1, true>, AsymmetricSync {
  static constexpr const char* kName = "ping-pong, two clusters";

  // memory 0: every local load of the tile (both K slices), the global loads of the next
  //           tile interleaved between them (as the seed: the first slice's operands are
  //           requested before anything else, so dot 0 can start soonest);
  // dot 0:    slice 0;
  // memory 1: the next tile into LDS. Safe with one LDS buffer: both groups have read the
  //           whole tile in their memory 0 (the other group one cluster earlier or in the
  //           cluster just ended), and the barriers wait for those reads to complete;
  // dot 1:    slice 1.
  // Every cluster ends in a barrier that waits for this wave's LDS traffic first. The seed
  // ends memory 0 in a bare s_barrier; here it also waits lgkmcnt(0), because the other
  // group's memory 1 overwrites the tile right after and this group's slice-1 reads must
  // have completed by then (the emulator's race detector holds us to that).
  template <class Ops>
  TESSERA_DEVICE static void iteration(Ops& ops) {
    fence_cluster();
    ops.template read<0>();
    fence_cluster();
    ops.template global_load<Operand::kA>();
    fence_cluster();
    ops.template read<1>();
    fence_cluster();
    ops.template global_load<Operand::kB>();
    ops.lds_barrier();
    priority_dot<0>(ops);
    ops.dot_barrier();
    ops.template lds_store<Operand::kA, Ops::kLoadsB>();
    ops.template lds_store<Operand::kB, 0>();
    ops.lds_barrier();
    priority_dot<1>(ops);
    ops.dot_barrier();
  }
};

struct PingPongFourClusters : ScheduleTraits<PingPongKind::kFourClusters, 8, 4, 2, 1, true>, AsymmetricSync {
  static constexpr const char* kName = "ping-pong, four clusters";

  // The seed's four pairs. Each memory cluster reads only the operands of the dot that
  // follows (slices 2 and 3 together: slice 3's dot comes after the stores), which keeps
  // the live operand registers to about two slices: the whole tile's would not fit beside
  // 128 accumulators at two waves per SIMD. The global loads ride in memory 0 and 1, the
  // LDS stores in memory 3; by then both groups have read slice 3 (the other group in its
  // memory 2, one cluster earlier at most), so one LDS buffer suffices.
  template <class Ops>
  TESSERA_DEVICE static void iteration(Ops& ops) {
    ops.template global_load<Operand::kA>();
    ops.template read<0>();
    ops.lds_barrier();
    priority_dot<0>(ops);
    ops.dot_barrier();
    ops.template global_load<Operand::kB>();
    ops.template read<1>();
    ops.lds_barrier();
    priority_dot<1>(ops);
    ops.dot_barrier();
    ops.template read<2>();
    ops.template read<3>();
    ops.lds_barrier();
    priority_dot<2>(ops);
    ops.dot_barrier();
    ops.template lds_store<Operand::kA, Ops::kLoadsB>();
    ops.template lds_store<Operand::kB, 0>();
    ops.lds_barrier();
    priority_dot<3>(ops);
    ops.dot_barrier();
  }
};

// ---- gfx950: direct-to-LDS loads, three stages -----------------------------------------
// Three LDS stages: while tile i is read, tiles i+1 and i+2 are landing. Each iteration
// has two barriers, and the groups run one of those intervals apart (asymmetric sync):
//   interval a: read tile i (stage i%3); issue A of tile i+2 into stage (i+2)%3; wait
//               until tile i+1 has landed (A of tile i+2 may stay in flight); barrier.
//   interval b: the dot on tile i, B of tile i+2 issued into its stage in between the
//               MFMAs (sched_group_barrier: one MFMA, then the scalar work of one load);
//               barrier.
// Race-freedom with the one-interval offset: a stage is written (interval a or b of the
// iteration that fills it) only after both groups read its previous tile, which was two
// iterations earlier; a tile is read after both groups' waits for it (each wave waits
// for its own loads, the barrier for everyone's). The waits never drop to 0: the newest
// ticket group is always in flight.
struct PingPongAsync : ScheduleTraits<PingPongKind::kAsync, 8, 1, 3, 1, true>, AsymmetricSync {
  static constexpr const char* kName = "ping-pong, async direct-to-LDS";

  template <class Ops>
  TESSERA_DEVICE static void iteration(Ops& ops) {
    fence_cluster();
    ops.template read<0>();
    fence_cluster();
    ops.template async_load<Operand::kA>();
    fence_cluster();
    ops.template async_wait<Ops::kDirectA>();  // tile i+1's tickets retired, A(i+2) flies
    ops.lds_barrier();
    ops.dot_with_async_b();  // dot of tile i with B(i+2)'s loads interleaved
    ops.dot_barrier();
  }
};

// ---- the selection rule ------------------------------------------------------------------
// Triton's thresholds, in units of tile M x N x K x element bits:
inline constexpr std::int64_t kMinTile = 32LL * 128 * 64 * 16;      // 262144
inline constexpr std::int64_t kSmallTile = 128LL * 128 * 64 * 16;   // 16777216
inline constexpr std::int64_t kMediumTile = 2 * kSmallTile;         // 256x128x64x16
inline constexpr std::int64_t kLargeTile = 256LL * 256 * 64 * 16;   // 67108864

struct ScheduleRequest {
  std::int64_t tile_bits;  // BM * BN * BK * element bits
  int waves;               // 0: any
  int stages;              // 2: registers + one LDS buffer; 3: three LDS stages
  bool gfx950;
  bool k_contiguous;       // both operands K-contiguous in memory (A row-, B column-major)
};

// The seed's rule, with two changes, each for a reason:
//  - "medium" is a range [medium, large), not the seed's equality: the two-cluster
//    lowering only needs the K slices to split the tile's read steps evenly (checked by
//    the config), nothing about M x N; the seed tests equality because its pattern
//    matcher was only validated on that shape.
//  - async (three stages, gfx950) is chosen only when both operands are K-contiguous:
//    a direct-to-LDS load writes lane i's bytes at LDS slot i, so it cannot transpose an
//    M- or N-contiguous operand into the K-contiguous layout the MFMA reads need.
// Everything else falls back to no ping-pong (the seed's "do nothing").
constexpr PingPongKind select_schedule(ScheduleRequest r) {
  if (r.stages == 3) {
    return (r.gfx950 && r.k_contiguous && r.tile_bits >= kMediumTile && (r.waves == 0 || r.waves == 8))
               ? PingPongKind::kAsync
               : PingPongKind::kNone;
  }
  if (r.stages != 2) return PingPongKind::kNone;
  if ((r.waves == 0 || r.waves == 4) && r.tile_bits >= kMinTile && r.tile_bits <= kSmallTile) {
    return PingPongKind::kOneCluster;
  }
  if (r.waves == 0 || r.waves == 8) {
    if (r.tile_bits >= kLargeTile) return PingPongKind::kFourClusters;
    if (r.tile_bits >= kMediumTile) return PingPongKind::kTwoClusters;
  }
  return PingPongKind::kNone;
}

// Auto: let select_schedule choose (the default of MfmaConfig). Waves may be pinned.
template <int kWaves_ = 0>
struct Auto {
  static constexpr int kWaves = kWaves_;
};

// The schedule type of a kind (no ping-pong keeps the waves asked for, 4 by default).
template <PingPongKind kKind, int kWaves>
using ScheduleOf = std::conditional_t<
    kKind == PingPongKind::kOneCluster, PingPongOneCluster,
    std::conditional_t<kKind == PingPongKind::kTwoClusters, PingPongTwoClusters,
                       std::conditional_t<kKind == PingPongKind::kFourClusters, PingPongFourClusters,
                                          std::conditional_t<kKind == PingPongKind::kAsync, PingPongAsync,
                                                             NoPingPong<kWaves == 8 ? 8 : 4>>>>>;

}  // namespace tessera::schedule
