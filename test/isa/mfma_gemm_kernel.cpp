// ISA checks of the MFMA GEMM kernel (include/tessera/gemm/kernel/mfma_gemm_kernel.hpp),
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
#include "tessera/gemm/kernel/mfma_smem_plan.hpp"

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

#include "tessera/gemm/kernel/mfma_gemm_kernel.hpp"

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
