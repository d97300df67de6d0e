// ISA checks of the low-precision MFMA GEMM (gemm/mfma/kernel.hpp with fp8 and
// MX-scaled fp8/fp6/fp4 operands), every shipped configuration
// (examples/mfma_lowp_configs.hpp) built by clang-22 for its target. The same file built by
// the host compiler prints a configuration's LDS plan total and the dwords each operand
// piece loads (`isa_mfma_lowp_plan <config>`: PLAN_TOTAL, DWORDS_A, DWORDS_B; 4, or 3 for a
// packed fp6 operand's 12-byte pieces), so the LDS size is compared with the planner's number
// and the loads with the copy's.
//
// CMake runs FileCheck once per configuration with the prefixes AMD, the schedule's (BASE,
// ONE, TWO, FOUR; PP8 for the 8-wave ones) and the configuration's own (e.g. T4_950), and
// those numbers as -D#. What is checked:
//  every configuration: no global/flat access before the loop ends (operands and scales
//   through buffer descriptors; the prologue's scales byte by byte); LDS = the plan; no
//   scratch, no AGPRs, at most 256 VGPRs, two waves per SIMD;
//  in the main loop, the schedule's order as for 16-bit operands (test/isa/mfma_gemm_kernel.cpp):
//   the dot clusters at priority 1 with exactly the MFMAs of their K slice, the barriers,
//   the LDS stores of A waiting for A's ticket group only (vmcnt = B's loads, its scale
//   loads included), of B for the rest;
//  the instruction: gfx942's v_mfma_f32_<MxNxK>_<a>_<b>; gfx950's f8f6f4 forms with the
//   operand formats in cbsz/blgp (1: bf8, 2: fp6 e2m3, 3: bf6 e3m2, 4: fp4; 0, fp8, is not
//   printed), an fp6 operand passed in 6 VGPRs (an 8-bit one in 8), the packed fp6 operands'
//   12-byte loads (buffer_load_dwordx3), and with MX scales the v_mfma_scale form,
//   op_sel_hi [0,0,0] for the first instruction of a K tile's 32x32x64 pair and [1,1,0] (scale
//   byte 2: blocks 2 and 3) for the second; the scale reads (ds_read2_b32 / b64) and the
//   scale stores (ds_write_b8 .. b32) beside the operands'.
//
// Each configuration is a struct derived from its MfmaConfig so that its name shows in the
// kernel's mangled symbol (mfma_gemm_kernel<lowp_isa::Two4, true>).
#include <cstdio>
#include <cstring>

#include "mfma_lowp_configs.hpp"
#include "tessera/gemm/mfma/smem_plan.hpp"

namespace lowp_isa {
namespace cfg = examples::mfma_lowp;
struct Base942 : cfg::Fp8Baseline942 {};
struct One942 : cfg::Fp8OneCluster942 {};
struct One16x942 : cfg::Fp8OneCluster16x942 {};
struct Two942 : cfg::Fp8TwoClusters942 {};
struct Four942 : cfg::Fp8FourClusters942 {};
struct Base950 : cfg::Mxfp8Baseline950 {};
struct One950 : cfg::Fp8OneCluster950 {};
struct One16x950 : cfg::Mxfp8OneCluster16x950 {};
struct Two950 : cfg::Mxfp8TwoClusters950 {};
struct Two4x950 : cfg::Mxfp4TwoClusters950 {};
struct One16x4x950 : cfg::Mxfp4OneCluster16x950 {};
struct Two6x950 : cfg::Mxfp6TwoClusters950 {};
struct One16x6x950 : cfg::Mxfp6Fp8OneCluster16x950 {};
struct Base8x6x950 : cfg::Fp8Bf6Baseline950 {};
}  // namespace lowp_isa

#if defined(TESSERA_HIP)

#include "tessera/gemm/mfma/kernel.hpp"

#define LOWP_ISA_KERNEL(C) \
  template __global__ void mfma_gemm_kernel<lowp_isa::C, true>(const MfmaParams<lowp_isa::C>);
namespace tessera::gemm {
#if defined(__gfx950__)
LOWP_ISA_KERNEL(Base950)
LOWP_ISA_KERNEL(One950)
LOWP_ISA_KERNEL(One16x950)
LOWP_ISA_KERNEL(Two950)
LOWP_ISA_KERNEL(Two4x950)
LOWP_ISA_KERNEL(One16x4x950)
LOWP_ISA_KERNEL(Two6x950)
LOWP_ISA_KERNEL(One16x6x950)
LOWP_ISA_KERNEL(Base8x6x950)
#else
LOWP_ISA_KERNEL(Base942)
LOWP_ISA_KERNEL(One942)
LOWP_ISA_KERNEL(One16x942)
LOWP_ISA_KERNEL(Two942)
LOWP_ISA_KERNEL(Four942)
#endif
}  // namespace tessera::gemm

#else  // host build: prints one configuration's plan total for the checks

template <class Config>
int print_total() {
  std::printf("PLAN_TOTAL=%zu\nDWORDS_A=%d\nDWORDS_B=%d\n", tessera::gemm::MfmaSmemPlan<Config>::Plan::kTotalBytes,
              Config::kPackedSixA ? 3 : 4, Config::kPackedSixB ? 3 : 4);
  return 0;
}

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
#define LOWP_ISA_PLAN(C) \
  if (std::strcmp(c, #C) == 0) return print_total<lowp_isa::C>();
  LOWP_ISA_PLAN(Base942)
  LOWP_ISA_PLAN(One942)
  LOWP_ISA_PLAN(One16x942)
  LOWP_ISA_PLAN(Two942)
  LOWP_ISA_PLAN(Four942)
  LOWP_ISA_PLAN(Base950)
  LOWP_ISA_PLAN(One950)
  LOWP_ISA_PLAN(One16x950)
  LOWP_ISA_PLAN(Two950)
  LOWP_ISA_PLAN(Two4x950)
  LOWP_ISA_PLAN(One16x4x950)
  LOWP_ISA_PLAN(Two6x950)
  LOWP_ISA_PLAN(One16x6x950)
  LOWP_ISA_PLAN(Base8x6x950)
  std::fprintf(stderr, "usage: isa_mfma_lowp_plan <configuration of lowp_isa::>\n");
  return 2;
}

#endif

// ==== the checks =========================================================================
// B942-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa7Base942ELb1E[^ ]*}}
// O942-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa6One942ELb1E[^ ]*}}
// O16_942-LABEL: .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa9One16x942ELb1E[^ ]*}}
// T942-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa6Two942ELb1E[^ ]*}}
// F942-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa7Four942ELb1E[^ ]*}}
// B950-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa7Base950ELb1E[^ ]*}}
// O950-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa6One950ELb1E[^ ]*}}
// O16_950-LABEL: .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa9One16x950ELb1E[^ ]*}}
// T950-LABEL:    .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa6Two950ELb1E[^ ]*}}
// T4_950-LABEL:  .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa8Two4x950ELb1E[^ ]*}}
// O16X4_950-LABEL: .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa11One16x4x950ELb1E[^ ]*}}
// T6_950-LABEL:  .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa8Two6x950ELb1E[^ ]*}}
// O16X6_950-LABEL: .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa11One16x6x950ELb1E[^ ]*}}
// B8X6_950-LABEL: .globl {{_ZN[^ ]*mfma_gemm_kernelIN8lowp_isa11Base8x6x950ELb1E[^ ]*}}
// AMD:           {{^}}[[KERNEL:_ZN[^ :]+]]:
//
// Prologue: the last K tile through the descriptors, 16 bytes a lane (packed fp6: 12); MX
// scales byte by byte (the tile may be partial); into LDS; the block barrier.
// AMD-NOT:       {{global_load|flat_load|scratch_}}
// AMD:           buffer_load_dwordx[[#DWORDS_A]] v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0 offen{{$}}
// MX:            buffer_load_ubyte
// AMD-NOT:       {{global_load|flat_load|v_mfma}}
// AMD:           s_barrier
//
// 8 waves: the asymmetric sync (a branch around the second group's extra barrier).
// PP8-NOT:       {{s_barrier|v_mfma|global_load|flat_load}}
// PP8:           s_cbranch_scc{{[01]}} [[SKIP:\.LBB[0-9]+_[0-9]+]]
// PP8-NOT:       {{s_barrier|^\.LBB}}
// PP8:           s_barrier
// PP8:           {{^}}[[SKIP]]:
//
// AMD-NOT:       {{global_load|flat_load|v_mfma}}
// AMD:           {{^}}[[LOOP:\.LBB[0-9]+_[0-9]+]]:{{.*}} Loop Header: Depth=1
//
// ---- no ping-pong: the compiler interleaves loads, reads and MFMAs; no priorities --------
// BASE-NOT:      {{s_setprio|s_barrier|ds_write|s_cbranch}}
// B942-COUNT-32: v_mfma_f32_32x32x16_fp8_fp8 v
// B8X6_950:      v_mfma_f32_32x32x64_f8f6f4 v[{{[0-9]+:[0-9]+}}], v[[[#A8:]]:
// B8X6_950-SAME: [[#A8+7]]], v[[[#B6:]]:
// B8X6_950-SAME: [[#B6+5]]], v[{{[0-9]+:[0-9]+}}] cbsz:1 blgp:3{{$}}
// B8X6_950-COUNT-7: v_mfma_f32_32x32x64_f8f6f4 v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}] cbsz:1 blgp:3{{$}}
// B950:          ds_read2_b32
// B950:          v_lshrrev_b32
// B950-COUNT-4:  v_mfma_scale_f32_32x32x64_f8f6f4 v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}], v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0]{{$}}
// B950-COUNT-4:  v_mfma_scale_f32_32x32x64_f8f6f4 v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}], v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[1,1,0]{{$}}
// BASE-NOT:      {{s_setprio|ds_write|v_mfma|s_cbranch}}
// BASE:          s_barrier
// B942:          s_waitcnt vmcnt(4){{$}}
// B950:          s_waitcnt vmcnt(5){{$}}
// B8X6_950:      s_waitcnt vmcnt(4){{$}}
// BASE-COUNT-4:  ds_write_b128
// B950:          ds_write_b16
// BASE:          s_waitcnt vmcnt(0){{$}}
// BASE-COUNT-4:  ds_write_b128
// B950:          ds_write_b16
// BASE-NOT:      {{v_mfma|buffer_load}}
// BASE:          s_waitcnt lgkmcnt(0)
// BASE-NEXT:     s_barrier
//
// ---- one cluster: reads, priority 1, A's loads, reads, priority 0, B's loads; the dot at
// priority 1; the stores between two barriers --------------------------------------------
// ONE-NEXT:      ; sched_barrier mask(0x00000000)
// ONE-NOT:       {{v_mfma|s_barrier|buffer_load}}
// ONE:           s_setprio 1
// ONE-NOT:       {{v_mfma|s_barrier|ds_read}}
// ONE-COUNT-4:   buffer_load_dwordx[[#DWORDS_A]]
// ONE:           ; sched_barrier mask(0x00000000)
// ONE-NOT:       {{v_mfma|s_barrier|buffer_load}}
// ONE:           s_setprio 0
// ONE-NOT:       {{v_mfma|s_barrier|ds_read}}
// ONE-COUNT-4:   buffer_load_dwordx[[#DWORDS_B]]
// ONE-NOT:       {{v_mfma|s_barrier|ds_read}}
// ONE:           s_setprio 1
// O942-COUNT-32: v_mfma_f32_32x32x16_fp8_bf8 v
// O16_942-COUNT-64: v_mfma_f32_16x16x32_bf8_fp8 v
// O950-COUNT-8:  v_mfma_f32_32x32x64_f8f6f4 v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}], v[{{[0-9:]+}}] cbsz:1{{$}}
// O16_950-COUNT-16: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] blgp:1{{$}}
// O16X4_950-COUNT-32: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:4 blgp:4{{$}}
// O16X6_950:     v_mfma_scale_f32_16x16x128_f8f6f4 v[{{[0-9]+:[0-9]+}}], v[[[#A6:]]:
// O16X6_950-SAME: [[#A6+5]]], v[[[#B8:]]:
// O16X6_950-SAME: [[#B8+7]]], v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:2{{$}}
// O16X6_950-COUNT-15: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:2{{$}}
// ONE-NEXT:      s_setprio 0
// ONE-NOT:       {{v_mfma|ds_write}}
// ONE:           s_barrier
// O942:          s_waitcnt vmcnt(4){{$}}
// O16_942:       s_waitcnt vmcnt(4){{$}}
// O950:          s_waitcnt vmcnt(4){{$}}
// O16_950:       s_waitcnt vmcnt(5){{$}}
// O16X4_950:     s_waitcnt vmcnt(5){{$}}
// O16X6_950:     s_waitcnt vmcnt(5){{$}}
// ONE-COUNT-4:   ds_write_b128
// O16_950:       ds_write_b16
// O16X4_950:     ds_write_b32
// O16X6_950:     ds_write_b16
// ONE:           s_waitcnt vmcnt(0){{$}}
// ONE-COUNT-4:   ds_write_b128
// ONE-NOT:       {{v_mfma|buffer_load}}
// ONE:           s_waitcnt lgkmcnt(0)
// ONE-NEXT:      s_barrier
//
// ---- two clusters: every read of the tile and the next tile's loads; barrier; dot 0 at
// priority 1; barrier; the stores; barrier; dot 1; barrier --------------------------------
// TWO-NEXT:      ; sched_barrier mask(0x00000000)
// TWO-NOT:       {{v_mfma|s_barrier}}
// TWO-COUNT-4:   buffer_load_dwordx[[#DWORDS_A]]
// T950:          buffer_load_ushort
// T4_950:        buffer_load_dword
// T6_950:        buffer_load_ushort
// TWO-NOT:       {{v_mfma|s_barrier}}
// TWO-COUNT-2:   buffer_load_dwordx[[#DWORDS_B]]
// T950:          buffer_load_ubyte
// T4_950:        buffer_load_ushort
// T6_950:        buffer_load_ubyte
// TWO-NOT:       {{v_mfma|ds_|s_barrier}}
// TWO:           s_waitcnt lgkmcnt(0)
// TWO-NEXT:      s_barrier
// TWO-NOT:       {{v_mfma|ds_|buffer_load}}
// TWO:           s_setprio 1
// T942-COUNT-16: v_mfma_f32_32x32x16_fp8_fp8 v
// T950-COUNT-4:  v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0]{{$}}
// T4_950-COUNT-4: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:4 blgp:4{{$}}
// T4_950-COUNT-4: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[1,1,0] cbsz:4 blgp:4{{$}}
// T6_950:        v_mfma_scale_f32_32x32x64_f8f6f4 v[{{[0-9]+:[0-9]+}}], v[[[#A6:]]:
// T6_950-SAME:   [[#A6+5]]], v[[[#B6:]]:
// T6_950-SAME:   [[#B6+5]]], v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:2 blgp:2{{$}}
// T6_950-COUNT-3: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:2 blgp:2{{$}}
// TWO-NEXT:      s_setprio 0
// TWO-NOT:       {{v_mfma|ds_|buffer_load}}
// TWO:           s_barrier
// T942:          s_waitcnt vmcnt(2){{$}}
// T950:          s_waitcnt vmcnt(3){{$}}
// T4_950:        s_waitcnt vmcnt(3){{$}}
// T6_950:        s_waitcnt vmcnt(3){{$}}
// TWO-COUNT-4:   ds_write_b128
// T950:          ds_write_b16
// T4_950:        ds_write_b32
// T6_950:        ds_write_b16
// TWO:           s_waitcnt vmcnt(0){{$}}
// TWO-COUNT-2:   ds_write_b128
// T950:          ds_write_b8
// T4_950:        ds_write_b16
// T6_950:        ds_write_b8
// TWO-NOT:       {{v_mfma|buffer_load}}
// TWO:           s_waitcnt lgkmcnt(0)
// TWO-NEXT:      s_barrier
// TWO-NOT:       {{v_mfma|ds_|buffer_load}}
// TWO:           s_setprio 1
// T942-COUNT-16: v_mfma_f32_32x32x16_fp8_fp8 v
// T950-COUNT-4:  v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[1,1,0]{{$}}
// T4_950-COUNT-4: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:4 blgp:4{{$}}
// T4_950-COUNT-4: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[1,1,0] cbsz:4 blgp:4{{$}}
// T6_950-COUNT-4: v_mfma_scale_f32_32x32x64_f8f6f4 {{.*}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[1,1,0] cbsz:2 blgp:2{{$}}
// TWO-NEXT:      s_setprio 0
// TWO-NOT:       {{v_mfma|ds_|buffer_load}}
// TWO:           s_barrier
//
// ---- four clusters (gfx942): the 16-bit kernel's order, 16 MFMAs per slice -------------
// FOUR-NOT:      {{v_mfma|ds_write|s_barrier}}
// FOUR-COUNT-4:  buffer_load_dwordx[[#DWORDS_A]]
// FOUR-COUNT-6:  ds_read_b128
// FOUR-NOT:      {{v_mfma|ds_|buffer_load}}
// FOUR:          s_waitcnt lgkmcnt(0)
// FOUR-NEXT:     s_barrier
// FOUR:          s_setprio 1
// FOUR-COUNT-16: v_mfma_f32_32x32x16_bf8_bf8 v
// FOUR-NEXT:     s_setprio 0
// FOUR:          s_barrier
// FOUR-COUNT-4:  buffer_load_dwordx[[#DWORDS_B]]
// FOUR-COUNT-6:  ds_read_b128
// FOUR:          s_waitcnt lgkmcnt(0)
// FOUR-NEXT:     s_barrier
// FOUR:          s_setprio 1
// FOUR-COUNT-16: v_mfma_f32_32x32x16_bf8_bf8 v
// FOUR-NEXT:     s_setprio 0
// FOUR:          s_barrier
// FOUR-COUNT-12: ds_read_b128
// FOUR-NOT:      {{v_mfma|buffer_load}}
// FOUR:          s_waitcnt lgkmcnt(0)
// FOUR-NEXT:     s_barrier
// FOUR:          s_setprio 1
// FOUR-COUNT-16: v_mfma_f32_32x32x16_bf8_bf8 v
// FOUR-NEXT:     s_setprio 0
// FOUR:          s_barrier
// FOUR:          s_waitcnt vmcnt(4){{$}}
// FOUR-COUNT-4:  ds_write_b128
// FOUR:          s_waitcnt vmcnt(0){{$}}
// FOUR-COUNT-4:  ds_write_b128
// FOUR:          s_waitcnt lgkmcnt(0)
// FOUR-NEXT:     s_barrier
// FOUR:          s_setprio 1
// FOUR-COUNT-16: v_mfma_f32_32x32x16_bf8_bf8 v
// FOUR-NEXT:     s_setprio 0
// FOUR:          s_barrier
//
// The back edge; the first group's extra barrier after the loop (8 waves).
// AMD-NOT:       {{v_mfma|ds_|buffer_load|s_setprio}}
// AMD:           s_cbranch_scc{{[01]}} [[LOOP]]{{$}}
// PP8-NOT:       {{s_barrier|v_mfma|ds_}}
// PP8:           s_cbranch_scc{{[01]}} [[SKIP2:\.LBB[0-9]+_[0-9]+]]
// PP8-NOT:       {{s_barrier|^\.LBB}}
// PP8:           s_barrier
// PP8:           {{^}}[[SKIP2]]:
// AMD:           s_endpgm
//
// Kernel descriptor and the compiler's summary: LDS = the plan, no scratch, no AGPRs, at
// most 256 VGPRs, two waves per SIMD.
// AMD:           .amdhsa_kernel [[KERNEL]]{{$}}
// AMD-NEXT:      .amdhsa_group_segment_fixed_size [[#PLAN_TOTAL]]{{$}}
// AMD-NEXT:      .amdhsa_private_segment_fixed_size 0{{$}}
// AMD:           ; NumAgprs: 0{{$}}
// AMD-NEXT:      ; TotalNumVgprs: {{([1-9]?[0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-6])$}}
// AMD-NEXT:      ; ScratchSize: 0{{$}}
// AMD:           ; Occupancy: {{([2-9]|10)$}}
