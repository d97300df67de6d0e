// THE PORTABILITY TEST: one kernel source, built for sm_90a and sm_100a by nvcc and
// for gfx942 and gfx950 by clang-22, using the core, arch and planner headers as any
// Tessera kernel does. The same file, built by the host compiler, is the tool that
// prints the plan's total, so the number the ISA checks compare against comes from the
// planner itself, never from a constant written here.
//
// What is checked (CMake runs FileCheck with -D#PLAN_TOTAL=<what the host build
// prints>; the check lines are at the bottom):
//  - on AMD, the scheduling wrappers appear where they are placed (the dot cluster
//    between sched_barrier + s_setprio 1 and s_setprio 0 + sched_barrier), the LDS size
//    in the code object equals the plan total, no scratch, no spills;
//  - on NVIDIA, ptxas reports 0 bytes of spill stores and loads, and smem equal to the
//    plan total (the wrappers compile to nothing there, by design).
//
// The kernel is a toy GEMM tile walk, shaped like the planner's non-persistent case: a
// prologue fills the A/B stages and a small bias vector, the main loop reads one stage
// while refilling the other, the epilogue overwrites a C tile and reads it back. C may
// alias the stages; the bias lives throughout and may not.
#include <cstddef>

#include "tessera/arch/amd/sched.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace portability {
namespace smem = tessera::smem;

constexpr int kThreads = 256;
constexpr int kStageFloats = 1024;  // one 32x32 f32 tile per stage
constexpr int kStages = 2;
constexpr int kCFloats = 3072;
constexpr int kBiasFloats = 64;

struct StagesA : smem::Buffer<kStages * kStageFloats * sizeof(float)> {
  static constexpr const char* kName = "A stages";
};
struct StagesB : smem::Buffer<kStages * kStageFloats * sizeof(float)> {
  static constexpr const char* kName = "B stages";
};
struct CTile : smem::Buffer<kCFloats * sizeof(float)> {
  static constexpr const char* kName = "C tile";
};
struct Bias : smem::Buffer<kBiasFloats * sizeof(float)> {
  static constexpr const char* kName = "bias";
};

using Outline = smem::Seq<
    smem::Step<smem::Overwrite<StagesA, StagesB, Bias>>,                  // prologue
    smem::Loop<smem::Step<smem::Read<StagesA, StagesB>, smem::Write<StagesA, StagesB>>>,
    smem::Step<smem::Read<Bias>, smem::Overwrite<CTile>>,                 // epilogue
    smem::Step<smem::Read<CTile>>>;
using KernelPlan = smem::Plan<smem::Buffers<StagesA, StagesB, CTile, Bias>, Outline>;

// The plan must fit every target this file is built for, and must actually share.
static_assert(smem::AssertFits<tessera::Gfx942, KernelPlan>::value, "plan too large for gfx942");
static_assert(smem::AssertFits<tessera::Gfx950, KernelPlan>::value, "plan too large for gfx950");
static_assert(smem::AssertFits<tessera::Sm90, KernelPlan>::value, "plan too large for sm_90a");
static_assert(smem::AssertFits<tessera::Sm100, KernelPlan>::value, "plan too large for sm_100a");
static_assert(KernelPlan::kTotalBytes < KernelPlan::kUnsharedBytes,
              "the C tile should alias the stages in this outline");

}  // namespace portability

#if defined(TESSERA_CUDA) || defined(TESSERA_HIP)

namespace amd = tessera::amd;
using portability::KernelPlan;

extern "C" TESSERA_GLOBAL void portability_kernel(const float* a, const float* b, float* d,
                                                  int k_tiles) {
  using namespace portability;
  __shared__ alignas(KernelPlan::kBaseAlign) unsigned char smem_base[KernelPlan::kTotalBytes];
  float* sa = KernelPlan::pointer<StagesA, float>(smem_base);
  float* sb = KernelPlan::pointer<StagesB, float>(smem_base);
  float* sc = KernelPlan::pointer<CTile, float>(smem_base);
  float* bias = KernelPlan::pointer<Bias, float>(smem_base);
  const int t = tessera::thread_index();

  if (t < kBiasFloats) bias[t] = a[t];
  for (int i = t; i < kStageFloats; i += kThreads) {
    sa[i] = a[i];
    sb[i] = b[i];
  }
  tessera::block_barrier();

  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int cur = (kt % kStages) * kStageFloats;
    const int next = ((kt + 1) % kStages) * kStageFloats;
    // Memory cluster: refill the other stage.
    for (int i = t; i < kStageFloats; i += kThreads) {
      sa[next + i] = a[(kt + 1) * kStageFloats + i];
      sb[next + i] = b[(kt + 1) * kStageFloats + i];
    }
    // Dot cluster at raised priority, fenced so the compiler keeps it in one piece.
    amd::sched_barrier<amd::SchedMask::kNone>();
    amd::set_priority<1>();
    TESSERA_UNROLL
    for (int j = 0; j < 4; ++j) {
      TESSERA_UNROLL
      for (int k = 0; k < 32; ++k)
        acc[j] += sa[cur + (t / 32) * 4 * 32 + j * 32 + k] * sb[cur + k * 32 + t % 32];
    }
    amd::set_priority<0>();
    amd::sched_barrier<amd::SchedMask::kNone>();
    tessera::block_barrier();
  }

  for (int j = 0; j < 4; ++j) sc[j * kThreads + t] = acc[j] + bias[t % kBiasFloats];
  tessera::block_barrier();
  for (int j = 0; j < 4; ++j) d[j * kThreads + t] = sc[(j * kThreads + t + 1) % kCFloats];
}

#else  // host build: the tool that prints the plan total for the checks

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--print") == 0) {
    portability::KernelPlan::print(stdout, "portability_kernel");
    return 0;
  }
  std::printf("%zu\n", portability::KernelPlan::kTotalBytes);
  return 0;
}

#endif

// ---- checks (FileCheck, prefixes AMD and NV) ------------------------------------------
// AMD-LABEL: portability_kernel:
// AMD:       ; sched_barrier mask(0x00000000)
// AMD-NEXT:  s_setprio 1
// AMD-NOT:   s_setprio
// AMD:       {{v_fma|v_fmac|v_pk_fma|v_mac}}
// AMD-NOT:   {{s_setprio|s_barrier}}
// AMD:       s_setprio 0
// AMD-NEXT:  ; sched_barrier mask(0x00000000)
// AMD:       s_barrier
// AMD:       s_endpgm
// AMD:       .amdhsa_group_segment_fixed_size [[#PLAN_TOTAL]]{{$}}
// AMD-NEXT:  .amdhsa_private_segment_fixed_size 0{{$}}
// AMD:       .group_segment_fixed_size: [[#PLAN_TOTAL]]{{$}}
// AMD:       .private_segment_fixed_size: 0{{$}}
// AMD:       .sgpr_spill_count: 0{{$}}
// AMD:       .vgpr_spill_count: 0{{$}}
//
// NV:        Compiling entry function 'portability_kernel' for 'sm_{{90a|100a}}'
// NV:        Function properties for portability_kernel
// NV-NEXT:   0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NV-NEXT:   Used {{[0-9]+}} registers, {{.*}}, [[#PLAN_TOTAL]] bytes smem{{$|,}}
