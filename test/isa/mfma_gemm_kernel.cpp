// ISA checks of the MFMA GEMM kernel (include/tessera/gemm/mfma/kernel.hpp),
// one configuration per schedule (examples/mfma_configs.hpp), built by clang-22 for gfx942
// and gfx950. The same file built by the host compiler is the tool that prints a
// configuration's LDS plan total (`isa_mfma_plan <config> <gfx942|gfx950>`), so the LDS
// size is compared with the planner's number, never with one copied here.
//
// CMake runs FileCheck once per (configuration, target) with the prefixes
//   AMD  <CONFIG>  <CONFIG>_<TARGET>       e.g. AMD,FOUR,FOUR_GFX942
// and -D#PLAN_TOTAL. What is checked (the lines are at the bottom):
//  every configuration:
//   - no global_load / flat_load before the end of the main loop: operands move through
//     buffer descriptors (buffer_load_dwordx4, 16 bytes per lane, on the aligned
//     variants), and the main loop has no branch but its back edge;
//   - the code object's LDS size equals the plan total; no scratch; no spills; the
//     occupancy the schedule needs (two waves per SIMD for the ping-pong schedules);
//  per schedule, in the main loop, the order the seed (Triton's BlockPingpong) gives:
//   - the clusters: s_setprio 1 / exactly the MFMAs of one K slice / s_setprio 0, between
//     sched_barriers; the memory clusters' LDS reads, global loads and LDS stores;
//   - the barriers: lgkmcnt(0) then s_barrier at each cluster boundary (8 waves), and
//     the asymmetric sync: a block barrier, then a conditional branch around one more
//     s_barrier before the loop and after it;
//   - the waits: the LDS stores of A wait for A's loads only (vmcnt = B's loads), of B
//     for the rest; the async loop's wait keeps the newest group in flight (no vmcnt(0)).
//
// Each configuration is a struct derived from its MfmaConfig so that its name shows in
// the kernel's mangled symbol (mfma_gemm_kernel<mfma_isa::Four, true>).
#include <cstdio>
#include <cstring>

#include "mfma_configs.hpp"
#include "tessera/gemm/mfma/smem_plan.hpp"

namespace mfma_isa {
namespace cfg = examples::mfma;
template <class Arch>
struct Set {
  struct Base : cfg::Baseline<Arch> {};
  struct One : cfg::OneCluster<Arch> {};
  struct One16 : cfg::OneCluster16<Arch> {};
  struct Two : cfg::TwoClusters<Arch> {};
  struct Four : cfg::FourClusters<Arch> {};
};
#if defined(__gfx950__) || defined(MFMA_ISA_HOST)
struct Async : cfg::Async {};
#endif
}  // namespace mfma_isa

#if defined(TESSERA_HIP)

#include "tessera/gemm/mfma/kernel.hpp"

namespace mfma_isa {
#if defined(__gfx950__)
using S = Set<tessera::Gfx950>;
#else
using S = Set<tessera::Gfx942>;
#endif
struct Base : S::Base {};
struct One : S::One {};
struct One16 : S::One16 {};
struct Two : S::Two {};
struct Four : S::Four {};
}  // namespace mfma_isa

namespace tessera::gemm {
template __global__ void mfma_gemm_kernel<mfma_isa::Base, true>(const MfmaParams<mfma_isa::Base>);
template __global__ void mfma_gemm_kernel<mfma_isa::One, true>(const MfmaParams<mfma_isa::One>);
template __global__ void mfma_gemm_kernel<mfma_isa::One16, true>(const MfmaParams<mfma_isa::One16>);
template __global__ void mfma_gemm_kernel<mfma_isa::Two, true>(const MfmaParams<mfma_isa::Two>);
template __global__ void mfma_gemm_kernel<mfma_isa::Four, true>(const MfmaParams<mfma_isa::Four>);
// The unaligned variant of the four-cluster kernel (element loads along K).
template __global__ void mfma_gemm_kernel<mfma_isa::Four, false>(const MfmaParams<mfma_isa::Four>);
#if defined(__gfx950__)
template __global__ void mfma_gemm_kernel<mfma_isa::Async, true>(const MfmaParams<mfma_isa::Async>);
#endif
}  // namespace tessera::gemm

#else  // host build: prints one configuration's plan total for the checks

template <class Config>
int print_total(bool verbose, const char* name) {
  using Plan = typename tessera::gemm::MfmaSmemPlan<Config>::Plan;
  if (verbose) {
    Plan::print(stdout, name);
  } else {
    std::printf("%zu\n", Plan::kTotalBytes);
  }
  return 0;
}

template <class Arch>
int print_for(const char* config, bool verbose) {
  using S = mfma_isa::Set<Arch>;
  if (std::strcmp(config, "BASE") == 0) return print_total<typename S::Base>(verbose, config);
  if (std::strcmp(config, "ONE") == 0) return print_total<typename S::One>(verbose, config);
  if (std::strcmp(config, "ONE16") == 0) return print_total<typename S::One16>(verbose, config);
  if (std::strcmp(config, "TWO") == 0) return print_total<typename S::Two>(verbose, config);
  if (std::strcmp(config, "FOUR") == 0 || std::strcmp(config, "GATHER") == 0) {
    return print_total<typename S::Four>(verbose, config);
  }
  if (std::strcmp(config, "ASYNC") == 0 && std::is_same_v<Arch, tessera::Gfx950>) {
    return print_total<mfma_isa::Async>(verbose, config);
  }
  std::fprintf(stderr, "isa_mfma_plan: unknown configuration %s\n", config);
  return 2;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: isa_mfma_plan <BASE|ONE|ONE16|TWO|FOUR|GATHER|ASYNC> <gfx942|gfx950> [--print]\n");
    return 2;
  }
  const bool verbose = argc > 3 && std::strcmp(argv[3], "--print") == 0;
  if (std::strcmp(argv[2], "gfx942") == 0) return print_for<tessera::Gfx942>(argv[1], verbose);
  if (std::strcmp(argv[2], "gfx950") == 0) return print_for<tessera::Gfx950>(argv[1], verbose);
  std::fprintf(stderr, "isa_mfma_plan: unknown target %s\n", argv[2]);
  return 2;
}

#endif

// ==== the checks =========================================================================
// Each configuration's kernel, found by its symbol (KERNEL: its full name for below).
// BASE-LABEL:   .globl {{_ZN[^ ]*mfma_gemm_kernelIN8mfma_isa4BaseELb1E[^ ]*}}
// ONE-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8mfma_isa3OneELb1E[^ ]*}}
// ONE16-LABEL:  .globl {{_ZN[^ ]*mfma_gemm_kernelIN8mfma_isa5One16ELb1E[^ ]*}}
// TWO-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8mfma_isa3TwoELb1E[^ ]*}}
// FOUR-LABEL:   .globl {{_ZN[^ ]*mfma_gemm_kernelIN8mfma_isa4FourELb1E[^ ]*}}
// GATHER-LABEL: .globl {{_ZN[^ ]*mfma_gemm_kernelIN8mfma_isa4FourELb0E[^ ]*}}
// ASYNC-LABEL:  .globl {{_ZN[^ ]*mfma_gemm_kernelIN8mfma_isa5AsyncELb1E[^ ]*}}
// AMD:          {{^}}[[KERNEL:_ZN[^ :]+]]:
//
// Prologue: the first tile through the descriptors (16 bytes per lane where aligned),
// into LDS, then the block barrier. No global/flat access before the loop ends.
// AMD-NOT:      {{global_load|flat_load|scratch_}}
// VEC16:        buffer_load_dwordx4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0 offen{{$}}
// GATHER:       buffer_load_ushort v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0 offen{{$}}
// AMD-NOT:      {{global_load|flat_load|v_mfma}}
// AMD:          s_barrier
//
// 8 waves: the asymmetric sync. Right after the block barrier, a branch on the wave group
// around one more s_barrier, which only the second group (waves 4..7) passes.
// PP8-NOT:      {{s_barrier|v_mfma|global_load|flat_load}}
// PP8:          s_cbranch_scc{{[01]}} [[SKIP:\.LBB[0-9]+_[0-9]+]]
// PP8-NOT:      {{s_barrier|^\.LBB}}
// PP8:          s_barrier
// PP8-NOT:      {{s_barrier|v_mfma|ds_|buffer_load|s_cbranch}}
// PP8:          {{^}}[[SKIP]]:
//
// The main loop opens at the first label of loop depth 1.
// AMD-NOT:      {{global_load|flat_load|v_mfma}}
// AMD:          {{^}}[[LOOP:\.LBB[0-9]+_[0-9]+]]:{{.*}} Loop Header: Depth=1
//
// ---- no ping-pong: the compiler interleaves the next tile's loads, the LDS reads and
// the MFMAs as it likes; then the stores between two barriers. No priorities.
// BASE-NOT:     {{s_setprio|s_barrier|ds_write|s_cbranch}}
// BASE_GFX942-COUNT-32: v_mfma_f32_32x32x8_bf16
// BASE_GFX950-COUNT-16: v_mfma_f32_32x32x16_bf16
// BASE-NOT:     {{s_setprio|ds_write|v_mfma|s_cbranch}}
// BASE:         s_barrier
// BASE-NOT:     {{v_mfma|ds_write|s_cbranch}}
// BASE:         s_waitcnt vmcnt(4){{$}}
// BASE-NOT:     {{v_mfma|ds_write|s_cbranch}}
// BASE-COUNT-4: ds_write_b128
// BASE-NOT:     {{v_mfma|ds_write|s_cbranch}}
// BASE:         s_waitcnt vmcnt(0){{$}}
// BASE-COUNT-4: ds_write_b128
// BASE-NOT:     {{v_mfma|ds_|buffer_load}}
// BASE:         s_waitcnt lgkmcnt(0)
// BASE-NEXT:    s_barrier
// BASE-NOT:     {{v_mfma|ds_|buffer_load|s_setprio}}
// BASE:         s_cbranch_scc{{[01]}} [[LOOP]]{{$}}
//
// ---- one cluster (seed: pingpong_small) ----------------------------------------------
// Memory: A's reads, priority 1, A's global loads, fence, B's reads, priority 0, B's loads.
// ONE-NEXT:     ; sched_barrier mask(0x00000000)
// ONE-COUNT-8:  ds_read_b128
// ONE-NEXT:     s_setprio 1
// ONE-NOT:      {{v_mfma|ds_read|s_barrier}}
// ONE-COUNT-4:  buffer_load_dwordx4
// ONE-NOT:      {{v_mfma|ds_read|s_barrier}}
// ONE:          ; sched_barrier mask(0x00000000)
// ONE-COUNT-8:  ds_read_b128
// ONE-NEXT:     s_setprio 0
// ONE-NOT:      {{v_mfma|ds_read|s_barrier}}
// ONE-COUNT-4:  buffer_load_dwordx4
// ONE-NOT:      {{v_mfma|s_barrier|s_setprio}}
// Dot: every MFMA of the tile at priority 1.
// ONE:          s_setprio 1
// ONE_GFX942-COUNT-32: v_mfma_f32_32x32x8_bf16
// ONE_GFX950-COUNT-16: v_mfma_f32_32x32x16_bf16
// ONE-NEXT:     s_setprio 0
// Stores (B transposed: 8-byte writes), between this workgroup's two barriers.
// ONE-NOT:      {{v_mfma|ds_write}}
// ONE:          s_barrier
// ONE-NOT:      {{v_mfma|ds_write}}
// ONE:          s_waitcnt vmcnt(4){{$}}
// ONE-COUNT-4:  ds_write_b128
// ONE-NOT:      {{v_mfma|ds_write}}
// ONE:          s_waitcnt vmcnt(0){{$}}
// ONE-COUNT-8:  ds_write_b64
// ONE-NOT:      {{v_mfma|ds_}}
// ONE:          s_waitcnt lgkmcnt(0)
// ONE-NEXT:     s_barrier
// ONE-NOT:      {{v_mfma|ds_|buffer_load|s_setprio}}
// ONE:          s_cbranch_scc{{[01]}} [[LOOP]]{{$}}
//
// The 16x16 variant: both operands transposed (8-byte writes), 16 MFMA tiles per wave.
// ONE16-NEXT:   ; sched_barrier mask(0x00000000)
// ONE16-COUNT-8: ds_read_b128
// ONE16-NEXT:   s_setprio 1
// ONE16-NOT:    {{v_mfma|ds_read|s_barrier}}
// ONE16-COUNT-4: buffer_load_dwordx4
// ONE16-NOT:    {{v_mfma|ds_read|s_barrier}}
// ONE16:        ; sched_barrier mask(0x00000000)
// ONE16-COUNT-8: ds_read_b128
// ONE16-NEXT:   s_setprio 0
// ONE16-NOT:    {{v_mfma|ds_read|s_barrier}}
// ONE16-COUNT-4: buffer_load_dwordx4
// ONE16-NOT:    {{v_mfma|s_barrier|s_setprio}}
// ONE16:        s_setprio 1
// ONE16_GFX942-COUNT-64: v_mfma_f32_16x16x16_f16
// ONE16_GFX950-COUNT-32: v_mfma_f32_16x16x32_f16
// ONE16-NEXT:   s_setprio 0
// ONE16-NOT:    {{v_mfma|ds_write}}
// ONE16:        s_barrier
// ONE16-NOT:    {{v_mfma|ds_write}}
// ONE16:        s_waitcnt vmcnt(4){{$}}
// ONE16-COUNT-8: ds_write_b64
// ONE16-NOT:    {{v_mfma|ds_write}}
// ONE16:        s_waitcnt vmcnt(0){{$}}
// ONE16-COUNT-8: ds_write_b64
// ONE16-NOT:    {{v_mfma|ds_}}
// ONE16:        s_waitcnt lgkmcnt(0)
// ONE16-NEXT:   s_barrier
// ONE16-NOT:    {{v_mfma|ds_|buffer_load|s_setprio}}
// ONE16:        s_cbranch_scc{{[01]}} [[LOOP]]{{$}}
//
// ---- two clusters (seed: pingpong_medium) -----------------------------------------------
// Memory 0: slice 0's reads, A's loads, slice 1's reads, B's loads, each fenced; barrier.
// TWO-NEXT:     ; sched_barrier mask(0x00000000)
// TWO-COUNT-8:  ds_read_b128
// TWO-NEXT:     ; sched_barrier mask(0x00000000)
// TWO-NOT:      {{v_mfma|ds_read|s_barrier}}
// TWO-COUNT-4:  buffer_load_dwordx4
// TWO-NOT:      {{v_mfma|ds_read|s_barrier}}
// TWO:          ; sched_barrier mask(0x00000000)
// TWO-COUNT-8:  ds_read_b128
// TWO-NEXT:     ; sched_barrier mask(0x00000000)
// TWO-NOT:      {{v_mfma|ds_read|s_barrier}}
// TWO-COUNT-2:  buffer_load_dwordx4
// TWO-NOT:      {{v_mfma|ds_|s_barrier}}
// TWO:          s_waitcnt lgkmcnt(0)
// TWO-NEXT:     s_barrier
// Dot 0: half the MFMAs, at priority 1; barrier.
// TWO-NOT:      {{v_mfma|ds_|buffer_load}}
// TWO:          s_setprio 1
// TWO_GFX942-COUNT-16: v_mfma_f32_32x32x8_f16
// TWO_GFX950-COUNT-8: v_mfma_f32_32x32x16_f16
// TWO-NEXT:     s_setprio 0
// TWO-NOT:      {{v_mfma|ds_|buffer_load}}
// TWO:          s_barrier
// Memory 1: A's stores (transposed) wait for A only (B's 2 loads still fly), B's for the rest.
// TWO-NOT:      {{v_mfma|ds_|buffer_load}}
// TWO:          s_waitcnt vmcnt(2){{$}}
// TWO-COUNT-8:  ds_write_b64
// TWO-NOT:      {{v_mfma|ds_|buffer_load}}
// TWO:          s_waitcnt vmcnt(0){{$}}
// TWO-COUNT-2:  ds_write_b128
// TWO-NOT:      {{v_mfma|ds_|buffer_load}}
// TWO:          s_waitcnt lgkmcnt(0)
// TWO-NEXT:     s_barrier
// Dot 1; barrier; back edge.
// TWO-NOT:      {{v_mfma|ds_|buffer_load}}
// TWO:          s_setprio 1
// TWO_GFX942-COUNT-16: v_mfma_f32_32x32x8_f16
// TWO_GFX950-COUNT-8: v_mfma_f32_32x32x16_f16
// TWO-NEXT:     s_setprio 0
// TWO-NOT:      {{v_mfma|ds_|buffer_load}}
// TWO:          s_barrier
// TWO-NOT:      {{v_mfma|ds_|buffer_load|s_setprio|s_barrier}}
// TWO:          s_cbranch_scc{{[01]}} [[LOOP]]{{$}}
//
// ---- four clusters (seed: pingpong_large); GATHER is its unaligned variant ------------
// Memory 0: A's loads and slice 0's reads; barrier; dot 0.
// FOUR-NOT:     {{v_mfma|ds_write|s_barrier}}
// FOUR-COUNT-4: buffer_load_dwordx4
// GATHER-COUNT-32: buffer_load_ushort
// PP4-NOT:      {{v_mfma|ds_write|s_barrier}}
// PP4-COUNT-6:  ds_read_b128
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_waitcnt lgkmcnt(0)
// PP4-NEXT:     s_barrier
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_setprio 1
// PP4_GFX942-COUNT-16: v_mfma_f32_32x32x8_bf16
// PP4_GFX950-COUNT-8: v_mfma_f32_32x32x16_bf16
// PP4-NEXT:     s_setprio 0
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_barrier
// Memory 1: B's loads and slice 1's reads; barrier; dot 1.
// PP4-NOT:      {{v_mfma|ds_write|s_barrier}}
// FOUR-COUNT-4: buffer_load_dwordx4
// GATHER-COUNT-32: buffer_load_ushort
// PP4-NOT:      {{v_mfma|ds_write|s_barrier}}
// PP4-COUNT-6:  ds_read_b128
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_waitcnt lgkmcnt(0)
// PP4-NEXT:     s_barrier
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_setprio 1
// PP4_GFX942-COUNT-16: v_mfma_f32_32x32x8_bf16
// PP4_GFX950-COUNT-8: v_mfma_f32_32x32x16_bf16
// PP4-NEXT:     s_setprio 0
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_barrier
// Memory 2: slices 2 and 3's reads; barrier; dot 2.
// PP4-NOT:      {{v_mfma|ds_write|s_barrier|buffer_load}}
// PP4-COUNT-12: ds_read_b128
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_waitcnt lgkmcnt(0)
// PP4-NEXT:     s_barrier
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_setprio 1
// PP4_GFX942-COUNT-16: v_mfma_f32_32x32x8_bf16
// PP4_GFX950-COUNT-8: v_mfma_f32_32x32x16_bf16
// PP4-NEXT:     s_setprio 0
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_barrier
// Memory 3: the LDS stores, A's waiting for A's tickets only; barrier; dot 3; barrier.
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// FOUR:         s_waitcnt vmcnt(4){{$}}
// GATHER:       s_waitcnt vmcnt(32){{$}}
// PP4-COUNT-4:  ds_write_b128
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_waitcnt vmcnt(0){{$}}
// PP4-COUNT-4:  ds_write_b128
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_waitcnt lgkmcnt(0)
// PP4-NEXT:     s_barrier
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_setprio 1
// PP4_GFX942-COUNT-16: v_mfma_f32_32x32x8_bf16
// PP4_GFX950-COUNT-8: v_mfma_f32_32x32x16_bf16
// PP4-NEXT:     s_setprio 0
// PP4-NOT:      {{v_mfma|ds_|buffer_load}}
// PP4:          s_barrier
// PP4-NOT:      {{v_mfma|ds_|buffer_load|s_setprio|s_barrier}}
// PP4:          s_cbranch_scc{{[01]}} [[LOOP]]{{$}}
//
// ---- gfx950 async (seed: async_ns3_gemm): one tile's reads, A's direct-to-LDS loads,
// the wait that keeps them in flight, the dot with B's direct loads among the MFMAs (one
// after each of the first MFMAs), no wait on LDS traffic at the closing barrier ----
// ASYNC-NEXT:   ; sched_barrier mask(0x00000000)
// ASYNC-NOT:    {{v_mfma|buffer_load|s_barrier|s_waitcnt vmcnt}}
// ASYNC-COUNT-12: ds_read_b128
// ASYNC-NOT:    {{v_mfma|ds_|s_barrier|s_waitcnt vmcnt}}
// ASYNC:        ; sched_barrier mask(0x00000000)
// ASYNC-NOT:    {{v_mfma|ds_|s_barrier|s_waitcnt vmcnt}}
// ASYNC-COUNT-2: buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen lds{{$}}
// ASYNC-NOT:    {{v_mfma|ds_|buffer_load|s_barrier}}
// ASYNC:        s_waitcnt vmcnt(2) lgkmcnt(0){{$}}
// ASYNC-NEXT:   ; sched_barrier mask(0x00000000)
// ASYNC-NEXT:   s_barrier
// ASYNC-NOT:    {{ds_|s_barrier|s_waitcnt}}
// ASYNC:        v_mfma_f32_32x32x16_bf16
// ASYNC-NOT:    {{ds_|s_barrier|s_waitcnt|v_mfma}}
// ASYNC:        buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen lds{{$}}
// ASYNC-NOT:    {{ds_|s_barrier|s_waitcnt|buffer_load}}
// ASYNC:        v_mfma_f32_32x32x16_bf16
// ASYNC-NOT:    {{ds_|s_barrier|s_waitcnt|v_mfma}}
// ASYNC:        buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen lds{{$}}
// ASYNC-NOT:    {{ds_|s_barrier|s_waitcnt|buffer_load}}
// ASYNC-COUNT-14: v_mfma_f32_32x32x16_bf16
// ASYNC-NOT:    {{v_mfma|ds_|buffer_load|s_waitcnt}}
// ASYNC:        s_barrier
// ASYNC-NOT:    {{v_mfma|ds_|buffer_load|s_waitcnt}}
// ASYNC:        s_cbranch_scc{{[01]}} [[LOOP]]{{$}}
//
// After the loop (8 waves): the first group's extra barrier, behind a branch.
// PP8-NOT:      {{s_barrier|v_mfma|ds_}}
// PP8:          s_cbranch_scc{{[01]}} [[SKIP2:\.LBB[0-9]+_[0-9]+]]
// PP8-NOT:      {{s_barrier|^\.LBB}}
// PP8:          s_barrier
// PP8-NOT:      {{s_barrier|v_mfma|ds_|buffer_load|s_cbranch}}
// PP8:          {{^}}[[SKIP2]]:
//
// The epilogue reads C and writes D through plain pointers (global_load / global_store).
// AMD:          s_endpgm
//
// Kernel descriptor: LDS = the plan's total, no scratch.
// AMD:          .amdhsa_kernel [[KERNEL]]{{$}}
// AMD-NEXT:     .amdhsa_group_segment_fixed_size [[#PLAN_TOTAL]]{{$}}
// AMD-NEXT:     .amdhsa_private_segment_fixed_size 0{{$}}
// The compiler's summary: no AGPRs, at most 256 VGPRs, no scratch, and the occupancy
// every schedule here needs (two waves per SIMD: the ping-pong partner).
// AMD:          ; NumAgprs: 0{{$}}
// AMD-NEXT:     ; TotalNumVgprs: {{([1-9]?[0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-6])$}}
// AMD-NEXT:     ; ScratchSize: 0{{$}}
// AMD:          ; Occupancy: {{([2-9]|10)$}}
//
// Spill counts (metadata) are checked by isa.mfma_gemm.resource_report (--fail-on-spill).
