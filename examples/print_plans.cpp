// Prints the shared-memory plan of every kernel configuration the examples compile,
// for each target: which buffers share bytes, the total the kernel allocates, the
// lower bound, and what no reuse would cost. Host-only: runs anywhere.
#include <cstdio>

#include "example_configs.hpp"
#include "tessera/gemm/kernel/fma_smem_plan.hpp"
#include "tessera/gemm/wgmma_config.hpp"

template <class Config>
void print_plan(const char* what) {
  using Plan = typename tessera::gemm::FmaSmemPlan<Config>::Plan;
  char title[256];
  std::snprintf(title, sizeof title, "%s on %s: block %dx%dx%d, thread %dx%d, %d threads", what,
                Config::Arch::kName, Config::kBlockM, Config::kBlockN, Config::kBlockK,
                Config::kThreadM, Config::kThreadN, Config::kThreads);
  Plan::print(stdout, title);
  std::printf("  capacity of %s: %zu bytes per block\n\n", Config::Arch::kName,
              std::size_t(Config::Arch::kSmemBytesPerBlock));
}

// The Hopper tensor-core family: the TMA path's plan and the generic path's.
template <class Config>
void print_wgmma_plans(const char* what) {
  char title[256];
  std::snprintf(title, sizeof title, "%s on sm_90a, TMA path: tile %dx%dx%d, %s, %d stages", what, Config::kBlockM,
                Config::kBlockN, Config::kBlockK, Config::Schedule::kName, Config::kStages);
  Config::Plan::print(stdout, title);
  std::snprintf(title, sizeof title, "%s on sm_90a, generic path: %d stages, %d raw slots", what,
                Config::kGenericStages, Config::kRawSlots);
  Config::GenericPlan::print(stdout, title);
  std::printf("  capacity of sm_90a: %zu bytes per block\n\n", std::size_t(tessera::Sm90::kSmemBytesPerBlock));
}

int main() {
  print_plan<examples::FmaF32RowMajor<tessera::Sm90>>("fma_gemm (fp32, row-major)");
  print_plan<examples::FmaF32RowMajor<tessera::Sm100>>("fma_gemm (fp32, row-major)");
  print_plan<examples::FmaF32RowMajor<tessera::Gfx942>>("fma_gemm (fp32, row-major)");
  print_plan<examples::FmaF32RowMajor<tessera::Gfx950>>("fma_gemm (fp32, row-major)");
  print_wgmma_plans<examples::WgmmaBf16RowMajor>("wgmma_gemm (bf16, row-major)");
  return 0;
}
