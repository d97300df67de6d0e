// What the two TMA kernels (wgmma/kernel.hpp, umma/kernel.hpp) share around their
// roles: the collectives both use (the stage ring, the TMA and realigning producers, clusters,
// the kernel parameters), what a path loads and stores with, the entry that compiles a
// kernel's body only for its own arch-specific target (and refuses the plain one with a
// message), the shared-memory base check, the stage barriers' initialisation, and the
// CTA-or-cluster barrier.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/cluster.hpp"
#include "tessera/gemm/tma/realigning_producer.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/tma/producer.hpp"
#include "tessera/gemm/tma/params.hpp"
#include "tessera/gemm/tma/packing.hpp"

namespace tessera::gemm {

// What a path loads and stores with (tma/packing.hpp): TMA loads on kTma and kPacked; TMA
// stores on kTma only (kPacked: a D that TMA cannot describe, written with direct element
// stores; kRealigning: realigning loads, direct stores).
template <TmaPath kPath>
struct PathIo {
  static constexpr bool kTmaLoads = kPath != TmaPath::kRealigning;
  static constexpr bool kTmaStores = kPath == TmaPath::kTma;
};

#if defined(TESSERA_CUDA)

// Runs Kernel::run(params) where the device pass compiles code for Arch (arch.hpp,
// device_pass_targets); elsewhere the entry is empty and the host API never launches it.
// A device pass for the plain target of an arch-specific one (sm_90 for sm_90a, sm_100 for
// sm_100a) lacks the instructions these kernels use: that is a compile error saying so.
template <class Arch, class Kernel, class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE void run_on_own_target(const Params& params) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  static_assert(!std::is_same_v<Arch, Sm90> || sizeof(Kernel) == 0,
                "Tessera sm_90a kernels (wgmma, setmaxnreg) need the sm_90a target: compile with "
                "-gencode=arch=compute_90a,code=sm_90a");
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 1000 && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(!std::is_same_v<Arch, Sm100> || sizeof(Kernel) == 0,
                "Tessera sm_100a kernels (tcgen05) need the sm_100a target: compile with "
                "-gencode=arch=compute_100a,code=sm_100a");
#endif
  if constexpr (device_pass_targets<Arch>()) Kernel::run(params);
}

// The swizzled tiles must start on 1024-byte boundaries (the pattern comes from address
// bits): the plan aligns offsets, the base must be aligned too.
TESSERA_DEVICE TESSERA_FORCEINLINE void require_smem_base_aligned(unsigned char* smem) {
  if ((nvidia::smem_address(smem) & 1023u) != 0) __trap();
}

// The dynamic shared memory the launch gave this CTA.
TESSERA_DEVICE TESSERA_FORCEINLINE std::uint32_t dynamic_smem_bytes() {
  std::uint32_t bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}

// The ring's barriers: full[s] completes with `fills` arrivals (plus the TMA bytes announced),
// empty[s] with `releases`.
TESSERA_DEVICE TESSERA_FORCEINLINE void init_stage_barriers(std::uint64_t* full, std::uint64_t* empty, int stages,
                                                            int fills, int releases) {
  for (int s = 0; s < stages; ++s) {
    nvidia::mbarrier_init(&full[s], fills);
    nvidia::mbarrier_init(&empty[s], releases);
  }
}

// Every thread of the CTA (or, in a cluster, of every CTA of the cluster) arrives and waits.
// Where a TMA kernel's stages and barriers are in shared memory, by its plan: the TMA path's
// (SmemPlan's Barriers, StagesA/B, Staging) or the realigning path's (its barriers, stages and
// the raw line slots). The full barriers come first; the empty ones follow them.
struct StagePointers {
  std::uint64_t* full;
  unsigned char* stages_a;
  unsigned char* stages_b;
  unsigned char* staging = nullptr;  // TMA path: the epilogue's staging boxes
  unsigned char* raw = nullptr;      // realigning path: the raw line slots
};
template <bool kTmaLoads, class SmemPlan, class Plan>
TESSERA_DEVICE TESSERA_FORCEINLINE StagePointers stage_pointers(unsigned char* smem) {
  StagePointers at;
  if constexpr (kTmaLoads) {
    at.full = Plan::template pointer<typename SmemPlan::Barriers, std::uint64_t>(smem);
    at.stages_a = Plan::template pointer<typename SmemPlan::StagesA, unsigned char>(smem);
    at.stages_b = Plan::template pointer<typename SmemPlan::StagesB, unsigned char>(smem);
    at.staging = Plan::template pointer<typename SmemPlan::Staging, unsigned char>(smem);
  } else {
    using Realigning = typename SmemPlan::Realigning;
    at.full = Plan::template pointer<typename Realigning::RealigningBarriers, std::uint64_t>(smem);
    at.stages_a = Plan::template pointer<typename Realigning::RealigningStagesA, unsigned char>(smem);
    at.stages_b = Plan::template pointer<typename Realigning::RealigningStagesB, unsigned char>(smem);
    at.raw = Plan::template pointer<typename Realigning::RawSlots, unsigned char>(smem);
  }
  return at;
}

// The realigning path's barrier per raw slot, each completed by the realigning producer's
// threads (nothing on the TMA path).
template <bool kTmaLoads, class Realigning, class RealigningLoads>
TESSERA_DEVICE TESSERA_FORCEINLINE void init_raw_slot_barriers(std::uint64_t* raw_full) {
  if constexpr (!kTmaLoads) {
    for (int s = 0; s < Realigning::kRawSlots; ++s) nvidia::mbarrier_init(&raw_full[s], RealigningLoads::kThreads);
  }
}

template <class Cluster>
TESSERA_DEVICE TESSERA_FORCEINLINE void cta_or_cluster_sync() {
  if constexpr (Cluster::kSize > 1) {
    nvidia::cluster_sync();
  } else {
    __syncthreads();
  }
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
