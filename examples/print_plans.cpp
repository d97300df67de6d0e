// Prints the shared-memory plan of every kernel configuration the examples compile,
// for each target: which buffers share bytes, the total the kernel allocates, the
// lower bound, and what no reuse would cost. Host-only: runs anywhere.
#include <cstdio>

#include "example_configs.hpp"
#include "mfma_configs.hpp"
#include "umma_configs.hpp"
#include "tessera/gemm/fma/smem_plan.hpp"
#include "tessera/gemm/umma/smem_plan.hpp"
#include "tessera/gemm/wgmma/smem_plan.hpp"
#include "tessera/gemm/mfma/smem_plan.hpp"

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

// The Hopper tensor-core family: the TMA path's plan and the realigning path's.
template <class Config>
void print_wgmma_plans(const char* what) {
  char title[256];
  std::snprintf(title, sizeof title, "%s on sm_90a, TMA path: tile %dx%dx%d, %s, %d stages", what, Config::kBlockM,
                Config::kBlockN, Config::kBlockK, Config::Schedule::kName, Config::kStages);
  using Plans = tessera::gemm::WgmmaSmemPlan<Config>;
  Plans::Plan::print(stdout, title);
  std::snprintf(title, sizeof title, "%s on sm_90a, realigning path: %d stages, %d raw slots", what,
                Plans::Realigning::kStages, Plans::Realigning::kRawSlots);
  Plans::RealigningPlan::print(stdout, title);
  std::printf("  capacity of sm_90a: %zu bytes per block\n\n", std::size_t(tessera::Sm90::kSmemBytesPerBlock));
}

// The Blackwell tcgen05 family (compiled and checked, not run): the TMA path's shared-memory
// plan, the realigning path's (the one-CTA form of the configuration), and the tensor-memory plan
// of the accumulators.
template <class Config>
void print_umma_plans(const char* what) {
  using Realigning = typename Config::RealigningConfig;
  char title[256];
  std::snprintf(title, sizeof title, "%s on sm_100a, TMA path: MMA tile %dx%dx%d on %s, %d stages", what,
                Config::kMmaM, Config::kMmaN, Config::kBlockK, Config::CtaGroup::kName, Config::kStages);
  using Plans = tessera::gemm::UmmaSmemPlan<Config>;
  using RealigningPlans = tessera::gemm::UmmaSmemPlan<Realigning>;
  Plans::Plan::print(stdout, title);
  if constexpr (Config::kTmaOnly) {
    std::printf("%s: no realigning path (operands or scale factors only TMA loads)\n\n", what);
  } else {
    std::snprintf(title, sizeof title, "%s on sm_100a, realigning path: tile %dx%d on one CTA, %d stages, %d raw slots",
                  what, Realigning::kBlockM, Realigning::kBlockN, RealigningPlans::Realigning::kStages,
                  RealigningPlans::Realigning::kRawSlots);
    RealigningPlans::RealigningPlan::print(stdout, title);
  }
  std::snprintf(title, sizeof title, "%s on sm_100a: %d accumulator buffers of %d fp32 columns%s", what,
                Config::kAccumulatorBuffers, Config::kBlockN, Config::kBlockScaled ? ", scale factors" : "");
  Plans::TmemPlan::print(stdout, title);
  std::printf("  capacity of sm_100a: %zu bytes of shared memory per block, %d TMEM columns per SM\n\n",
              std::size_t(tessera::Sm100::kSmemBytesPerBlock), tessera::Sm100::kTensorMemoryColumns);
}

// An MFMA configuration: its schedule, wave grid, register estimate and LDS plan.
template <class Config>
void print_mfma_plan(const char* what) {
  using Plan = typename tessera::gemm::MfmaSmemPlan<Config>::Plan;
  char title[320];
  std::snprintf(title, sizeof title,
                "mfma_gemm %s on %s: block %dx%dx%d, %s, %d waves (%dx%d of %dx%d), MFMA %dx%dx%d, "
                "%d stage(s), ~%d of %d registers",
                what, Config::Arch::kName, Config::kBlockM, Config::kBlockN, Config::kBlockK,
                Config::Schedule::kName, Config::kWaves, Config::kWavesM, Config::kWavesN, Config::kWaveM,
                Config::kWaveN, Config::Atom::kM, Config::Atom::kN, Config::Atom::kK, Config::kStages,
                Config::kEstimatedRegs, Config::kRegisterBudget);
  Plan::print(stdout, title);
  std::printf("  capacity of %s: %zu bytes per CU, %d workgroup(s) per CU\n\n", Config::Arch::kName,
              std::size_t(Config::Arch::kSmemBytesPerBlock), Config::kBlocksPerCu);
}

template <class Arch>
void print_mfma_plans() {
  namespace cfg = examples::mfma;
  print_mfma_plan<cfg::Baseline<Arch>>("(bf16 -> f32, A row, B col)");
  print_mfma_plan<cfg::OneCluster<Arch>>("(bf16 -> bf16, A row, B row)");
  print_mfma_plan<cfg::OneCluster16<Arch>>("(f16 -> f32 col, A col, B row)");
  print_mfma_plan<cfg::TwoClusters<Arch>>("(f16 -> f16, column-major)");
  print_mfma_plan<cfg::FourClusters<Arch>>("(bf16 -> f32, A row, B col)");
}

int main() {
  print_plan<examples::FmaF32RowMajor<tessera::Sm90>>("fma_gemm (fp32, row-major)");
  print_plan<examples::FmaF32RowMajor<tessera::Sm100>>("fma_gemm (fp32, row-major)");
  print_plan<examples::FmaF32RowMajor<tessera::Gfx942>>("fma_gemm (fp32, row-major)");
  print_plan<examples::FmaF32RowMajor<tessera::Gfx950>>("fma_gemm (fp32, row-major)");
  print_wgmma_plans<examples::WgmmaBf16RowMajor>("wgmma_gemm (bf16, row-major)");
  print_umma_plans<examples::umma::Tn>("umma_gemm Tn (bf16, A row, B col)");
  print_umma_plans<examples::umma::NnF32>("umma_gemm NnF32 (f16 -> f32, A row, B row)");
  print_umma_plans<examples::umma::ColD>("umma_gemm ColD (f16, A col, B row, D col)");
  print_umma_plans<examples::umma::Multicast>("umma_gemm Multicast (bf16, 2x1 cluster)");
  print_umma_plans<examples::umma::Pair>("umma_gemm Pair (bf16 -> f32 col)");
  print_umma_plans<examples::umma::Fp8>("umma_gemm Fp8 (e4m3 -> bf16, .kind::f8f6f4)");
  print_umma_plans<examples::umma::Fp8Pair>("umma_gemm Fp8Pair (e4m3 x e5m2 -> f32, CTA pair)");
  print_umma_plans<examples::umma::Fp4>("umma_gemm Fp4 (e2m1 -> bf16, .kind::f8f6f4, unpacked by TMA)");
  print_umma_plans<examples::umma::Fp8Fp4>("umma_gemm Fp8Fp4 (e4m3 x e2m1 -> f16)");
  print_umma_plans<examples::umma::Fp6Pair>("umma_gemm Fp6Pair (e3m2 x e2m3 -> f32, CTA pair)");
  print_umma_plans<examples::umma::MxFp8>("umma_gemm MxFp8 (e4m3, MX scales, .kind::mxf8f6f4.block_scale)");
  print_umma_plans<examples::umma::MxFp6Fp4Pair>("umma_gemm MxFp6Fp4Pair (e2m3 x e2m1, MX scales, CTA pair)");
  print_umma_plans<examples::umma::NvFp4>("umma_gemm NvFp4 (e2m1, NVFP4 scales, .kind::mxf4nvf4)");
  print_umma_plans<examples::umma::NvFp4Pair>("umma_gemm NvFp4Pair (e2m1, NVFP4 scales, CTA pair)");
  print_umma_plans<examples::umma::MxFp4>("umma_gemm MxFp4 (e2m1, MX scales, .kind::mxf4)");
  print_mfma_plans<tessera::Gfx942>();
  print_mfma_plans<tessera::Gfx950>();
  print_mfma_plan<examples::mfma::Async>("(bf16 -> f32, A row, B col)");
  return 0;
}
