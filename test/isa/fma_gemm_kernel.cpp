// ISA checks of the FMA GEMM kernel (include/tessera/gemm/fma/kernel.hpp) as
// users get it: tessera::gemm::fma_gemm_kernel<Config>, explicitly instantiated for the
// default tiles, built by clang-22 for gfx942 and gfx950 and by nvcc for sm_90a and
// sm_100a. The same file built by the host compiler, with FMA_ISA_PLAN_CONFIG naming one
// AMD configuration, prints that configuration's shared-memory plan total, so the LDS
// size is compared with the planner's number, never with one copied into this file.
//
// What is checked (check lines at the bottom; CMake runs FileCheck once per target and
// configuration, with -D#PLAN_TOTAL=<what the host build prints> on AMD):
//  AMD, each configuration:
//   - the operand loads of the prologue and of the main loop are buffer loads (the range
//     check replaces bounds branches), and no global_load / flat_load comes before the
//     end of the main loop;
//   - in the main loop no vmcnt wait comes before or among the FMAs: the waits for the
//     next tile's loads follow the FMAs (a sched_barrier pins them there), the first of
//     them with N >= 1; the loop issues the next tile's loads as buffer loads;
//   - the code object's LDS size equals the plan total; no scratch; no spills.
//  NVIDIA, each configuration: ptxas reports 0 bytes of stack frame and of spills.
//
// Each configuration is a struct derived from its FmaConfig, so that its name shows in
// the kernel's mangled symbol (fma_gemm_kernel<fma_isa::AmdF32RowMajor>) and the checks
// can find each kernel by name. The kernel sees the same members as through an alias.
#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/fma/config.hpp"
#include "tessera/gemm/fma/smem_plan.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace fma_isa {
using tessera::bfloat16_t;
using tessera::ColumnMajor;
using tessera::half_t;
using tessera::RowMajor;
using tessera::gemm::FmaConfig;

// For AMD, each device pass compiles the configurations with its own tag (a kernel's body
// is compiled only for its own target: arch.hpp, device_pass_targets); the plan is the
// same for both. Default tile: 128x128x8, 256 threads.
#if defined(__gfx950__)
#define FMA_ISA_AMD_ARCH tessera::Gfx950
#else
#define FMA_ISA_AMD_ARCH tessera::Gfx942
#endif
struct AmdF32RowMajor : FmaConfig<FMA_ISA_AMD_ARCH, float, RowMajor, float, RowMajor, float, RowMajor> {};
// 16-bit inputs, converted to float on the way into LDS; A is M-contiguous, so both
// operands take the vector (non-transposing) shared-memory store.
struct AmdF16Mixed
    : FmaConfig<FMA_ISA_AMD_ARCH, half_t, ColumnMajor, half_t, RowMajor, float, ColumnMajor> {};

// For NVIDIA, the sm_100a build passes FMA_ISA_NV_ARCH=tessera::Sm100, so that each target is
// compiled with its own tag. Default tile: 128x256x16, 512 threads.
#ifndef FMA_ISA_NV_ARCH
#define FMA_ISA_NV_ARCH tessera::Sm90
#endif
struct NvF32RowMajor : FmaConfig<FMA_ISA_NV_ARCH, float, RowMajor, float, RowMajor, float, RowMajor> {};
struct NvBf16Mixed : FmaConfig<FMA_ISA_NV_ARCH, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                               bfloat16_t, ColumnMajor> {};

}  // namespace fma_isa

#if defined(TESSERA_HIP) || defined(TESSERA_CUDA)

#include "tessera/gemm/fma/kernel.hpp"

namespace tessera::gemm {
#if defined(TESSERA_HIP)
template __global__ void fma_gemm_kernel<fma_isa::AmdF32RowMajor, false>(
    const FmaParams<fma_isa::AmdF32RowMajor>);
template __global__ void fma_gemm_kernel<fma_isa::AmdF16Mixed, false>(
    const FmaParams<fma_isa::AmdF16Mixed>);
#else
template __global__ void fma_gemm_kernel<fma_isa::NvF32RowMajor, false>(
    const FmaParams<fma_isa::NvF32RowMajor>);
template __global__ void fma_gemm_kernel<fma_isa::NvBf16Mixed, false>(
    const FmaParams<fma_isa::NvBf16Mixed>);
#endif
}  // namespace tessera::gemm

#else  // host build: prints the plan total of FMA_ISA_PLAN_CONFIG for the checks

#include <cstdio>
#include <cstring>

#ifndef FMA_ISA_PLAN_CONFIG
#error "build the host tool with -DFMA_ISA_PLAN_CONFIG=<configuration in namespace fma_isa>"
#endif

int main(int argc, char** argv) {
  using Plan = tessera::gemm::FmaSmemPlan<fma_isa::FMA_ISA_PLAN_CONFIG>::Plan;
  if (argc > 1 && std::strcmp(argv[1], "--print") == 0) {  // the layout, for a person
    Plan::print(stdout, "fma_gemm_kernel");
    return 0;
  }
  std::printf("%zu\n", Plan::kTotalBytes);
  return 0;
}

#endif

// ---- checks for AMD, one FileCheck run per configuration, prefixes AMD + F32 or F16 ----
// The kernel, found by its symbol; KERNEL is its full name for the metadata below.
// F32-LABEL: .globl {{_ZN[^ ]*fma_gemm_kernel[^ ]*AmdF32RowMajor[^ ]*}}
// F16-LABEL: .globl {{_ZN[^ ]*fma_gemm_kernel[^ ]*AmdF16Mixed[^ ]*}}
// AMD:       {{^}}[[KERNEL:_ZN[^ :]+]]:
//
// Prologue: the first tile's operand loads.
// AMD-NOT:   {{global_load|flat_load}}
// F32:       buffer_load_dword v
// F16:       buffer_load_ushort v
//
// Main loop. clang lays it out from its first block, a label whose comment says it is
// in a loop of depth 1; the prologue has no loop, so the first such label opens the main
// loop. The property that matters for speed: no wait on global loads before or among
// the tile's FMAs. The waits come after the sched_barrier that follows the FMAs, one per
// group of stores into the next stage (vmcnt(N) with N >= 1 for all but the last: the
// later loads stay in flight), then the barrier; then the next tile's buffer loads and
// the branch back. The last wait is vmcnt(0): at that point every load in flight
// belongs to the tile being stored, so 0 is what a ticket count gives.
// AMD-NOT:   {{global_load|flat_load}}
// AMD:       {{^}}[[LOOP:\.LBB[0-9]+_[0-9]+]]:{{.*}} Depth=1{{$}}
// AMD-NOT:   {{global_load|flat_load|s_waitcnt vmcnt}}
// AMD:       v_{{pk_fma_f32|fma_f32|fmac_f32}}
// AMD-NOT:   {{global_load|flat_load|s_waitcnt vmcnt}}
// AMD:       ; sched_barrier mask(0x00000000)
// AMD-NOT:   {{global_load|flat_load|v_pk_fma_f32|v_fma_f32|v_fmac_f32}}
// AMD:       s_waitcnt vmcnt({{[1-9][0-9]*}})
// AMD-NOT:   {{global_load|flat_load|v_pk_fma_f32|v_fma_f32|v_fmac_f32}}
// AMD:       s_barrier
// AMD-NOT:   {{global_load|flat_load}}
// F32:       buffer_load_dword v
// F16:       buffer_load_ushort v
// AMD-NOT:   {{global_load|flat_load}}
// AMD:       s_{{c?}}branch{{[a-z_]*}} [[LOOP]]{{$}}
//
// Not checked after the loop: the epilogue reads C and writes D through plain pointers
// (gemm/epilogue/output_run.hpp), global_load / global_store on AMD.
// AMD:       s_endpgm
//
// Kernel descriptor: LDS = the plan's total, no scratch.
// AMD:       .amdhsa_kernel [[KERNEL]]{{$}}
// AMD-NEXT:  .amdhsa_group_segment_fixed_size [[#PLAN_TOTAL]]{{$}}
// AMD-NEXT:  .amdhsa_private_segment_fixed_size 0{{$}}
//
// Code object metadata. An entry lists .group_segment_fixed_size before .name, so the
// LDS line checked is the last one before this kernel's name; the fields after the name
// must come before the next entry (each opens with .agpr_count).
// AMD:       amdhsa.kernels:
// AMD:       .group_segment_fixed_size: [[#PLAN_TOTAL]]{{$}}
// AMD-NOT:   .group_segment_fixed_size:
// AMD:       .name: {{ *}}[[KERNEL]]{{$}}
// AMD-NOT:   .agpr_count:
// AMD:       .private_segment_fixed_size: 0{{$}}
// AMD-NOT:   .agpr_count:
// AMD:       .sgpr_spill_count: 0{{$}}
// AMD-NOT:   .agpr_count:
// AMD:       .vgpr_spill_count: 0{{$}}
//
// ---- checks for NVIDIA, one FileCheck run per configuration, prefixes NV + NV_F32 or NV_BF16 ----
// NV_F32-LABEL:  Compiling entry function '{{_ZN[^']*fma_gemm_kernel[^']*NvF32RowMajor[^']*}}' for 'sm_{{90a|100a}}'
// NV_BF16-LABEL: Compiling entry function '{{_ZN[^']*fma_gemm_kernel[^']*NvBf16Mixed[^']*}}' for 'sm_{{90a|100a}}'
// NV-NEXT:       Function properties for {{_ZN[^ ]*}}
// NV-NEXT:       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
