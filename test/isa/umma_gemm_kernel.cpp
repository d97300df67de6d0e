// ISA checks of the Blackwell tensor-core family (include/tessera/gemm/umma/kernel.hpp)
// as users get it: umma_gemm_kernel<Config, Path>, explicitly instantiated for the shipped
// configurations and both paths (and the packed path's direct-store kernel for Tn), compiled by nvcc for sm_100a to PTX (FileCheck below) and to
// a cubin with ptxas's resource report (no stack, no spills). Compiled and checked only: no
// Blackwell GPU has run these kernels.
//
// The same file built by the host compiler (UMMA_ISA_PLAN_TOOL) prints, for the configuration
// named on its command line, what the checks compare the code with (run_filecheck.cmake turns
// each NAME=value line into a FileCheck variable):
//   SMEM        the shared-memory plan's total: the kernel refuses (traps on) any other
//               dynamic shared-memory size, so the PTX carries the number (ptxas reports only
//               static shared memory, which must be none);
//   TMEM        the columns tcgen05.alloc / dealloc are asked for (the TMEM plan's allocation);
//   IDESC       the instruction descriptor of every tcgen05.mma (its fields are checked
//               against the PTX ISA's table by test/unit/test_umma_host.cpp);
//   GSMEM, GTMEM, GIDESC  the same for the realigning path (Config::RealigningConfig).
// The configurations are the shipped ones (examples/umma_configs.hpp): structs, so each
// name shows in its kernel's mangled symbol and the checks can find each kernel. Two more run a
// problem set (TMA path only: a set has no other): Grouped (Tn's tiles, grouped in the
// contiguous layout, with a bias + GELU epilogue) and PairBatched (Pair's, strided-batched).
#include "umma_configs.hpp"

#include "tessera/gemm/scheduler/batched.hpp"
#include "tessera/gemm/epilogue/fused.hpp"
#include "tessera/gemm/scheduler/grouped.hpp"

namespace examples::umma {
struct Grouped : UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                            option::Tile<GemmShape<128, 256, 64>>,
                            tessera::gemm::option::Scheduler<
                                tessera::gemm::scheduler::Grouped<tessera::gemm::group_layout::Contiguous>>,
                            tessera::gemm::option::Epilogue<tessera::gemm::Compose<
                                tessera::gemm::LinearCombination, tessera::gemm::ColumnBias<bfloat16_t>,
                                tessera::gemm::GeluTanh>>> {};
struct PairBatched : UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, ColumnMajor,
                                option::Tile<GemmShape<256, 256, 64>>, option::CtaGroup<CtaPair>,
                                tessera::gemm::option::Scheduler<tessera::gemm::scheduler::StridedBatched>> {};
}  // namespace examples::umma

#if defined(__CUDACC__)
#include "tessera/gemm/umma/kernel.hpp"

namespace tessera::gemm {
#define UMMA_ISA_INSTANTIATE_PATH(C, P) \
  template __global__ void umma_gemm_kernel<examples::umma::C, TmaPath::P>(const __grid_constant__ TmaGemmParams<examples::umma::C>);
#define UMMA_ISA_INSTANTIATE(C) UMMA_ISA_INSTANTIATE_PATH(C, kTma) UMMA_ISA_INSTANTIATE_PATH(C, kRealigning)
UMMA_ISA_INSTANTIATE(Tn)
UMMA_ISA_INSTANTIATE(NnF32)
UMMA_ISA_INSTANTIATE(ColD)
UMMA_ISA_INSTANTIATE(Multicast)
UMMA_ISA_INSTANTIATE(Pair)
UMMA_ISA_INSTANTIATE(Fp8)
UMMA_ISA_INSTANTIATE(Fp8Pair)
// Operands only TMA loads (fp6 / fp4, unpacked by TMA): the TMA path only (there is no other).
UMMA_ISA_INSTANTIATE_PATH(Fp4, kTma)
UMMA_ISA_INSTANTIATE_PATH(Fp8Fp4, kTma)
UMMA_ISA_INSTANTIATE_PATH(Fp6Pair, kTma)
UMMA_ISA_INSTANTIATE_PATH(MxFp8, kTma)
UMMA_ISA_INSTANTIATE_PATH(MxFp6Fp4Pair, kTma)
UMMA_ISA_INSTANTIATE_PATH(NvFp4, kTma)
UMMA_ISA_INSTANTIATE_PATH(NvFp4Pair, kTma)
UMMA_ISA_INSTANTIATE_PATH(MxFp4, kTma)
// The packed path's kernel without a workspace (only D misaligned): TMA loads, direct stores.
template __global__ void umma_gemm_kernel<examples::umma::Tn, TmaPath::kPacked>(
    const __grid_constant__ TmaGemmParams<examples::umma::Tn>);
// Problem sets: the TMA path only.
template __global__ void umma_gemm_kernel<examples::umma::Grouped, TmaPath::kTma>(
    const __grid_constant__ TmaGemmParams<examples::umma::Grouped>);
template __global__ void umma_gemm_kernel<examples::umma::PairBatched, TmaPath::kTma>(
    const __grid_constant__ TmaGemmParams<examples::umma::PairBatched>);
}  // namespace tessera::gemm

#else  // host build: the numbers of one configuration, for the checks

#include <cstdio>
#include <cstring>

#include "tessera/gemm/umma/smem_plan.hpp"

template <class Config>
int print_numbers() {
  using Realigning = typename Config::RealigningConfig;
  using Plans = tessera::gemm::UmmaSmemPlan<Config>;
  using RealigningPlans = tessera::gemm::UmmaSmemPlan<Realigning>;
  std::printf("SMEM=%zu\nTMEM=%d\nIDESC=%u\nGSMEM=%zu\nGTMEM=%d\nGIDESC=%u\nTX=%d\n", Plans::Plan::kTotalBytes,
              Plans::TmemPlan::kAllocColumns, unsigned(Config::kIdesc), RealigningPlans::RealigningPlan::kTotalBytes,
              RealigningPlans::TmemPlan::kAllocColumns, unsigned(Realigning::kIdesc), Config::Operands::kStageTxBytes);
  // Block scales: the descriptor of each K step (its scale factor data IDs).
  if constexpr (Config::kBlockScaled) {
    for (int kk = 0; kk < 4; ++kk) {
      std::printf("IDESC%d=%u\n", kk, unsigned(tessera::mma::umma::with_scale_ids<Config::kScaledKind>(Config::kInstr, kk)));
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  const char* name = argc > 1 ? argv[1] : "";
  if (std::strcmp(name, "Tn") == 0) return print_numbers<examples::umma::Tn>();
  if (std::strcmp(name, "NnF32") == 0) return print_numbers<examples::umma::NnF32>();
  if (std::strcmp(name, "ColD") == 0) return print_numbers<examples::umma::ColD>();
  if (std::strcmp(name, "Multicast") == 0) return print_numbers<examples::umma::Multicast>();
  if (std::strcmp(name, "Pair") == 0) return print_numbers<examples::umma::Pair>();
  if (std::strcmp(name, "Grouped") == 0) return print_numbers<examples::umma::Grouped>();
  if (std::strcmp(name, "PairBatched") == 0) return print_numbers<examples::umma::PairBatched>();
  if (std::strcmp(name, "Fp8") == 0) return print_numbers<examples::umma::Fp8>();
  if (std::strcmp(name, "Fp8Pair") == 0) return print_numbers<examples::umma::Fp8Pair>();
  if (std::strcmp(name, "Fp4") == 0) return print_numbers<examples::umma::Fp4>();
  if (std::strcmp(name, "Fp8Fp4") == 0) return print_numbers<examples::umma::Fp8Fp4>();
  if (std::strcmp(name, "Fp6Pair") == 0) return print_numbers<examples::umma::Fp6Pair>();
  if (std::strcmp(name, "MxFp8") == 0) return print_numbers<examples::umma::MxFp8>();
  if (std::strcmp(name, "MxFp6Fp4Pair") == 0) return print_numbers<examples::umma::MxFp6Fp4Pair>();
  if (std::strcmp(name, "NvFp4") == 0) return print_numbers<examples::umma::NvFp4>();
  if (std::strcmp(name, "NvFp4Pair") == 0) return print_numbers<examples::umma::NvFp4Pair>();
  if (std::strcmp(name, "MxFp4") == 0) return print_numbers<examples::umma::MxFp4>();
  std::fprintf(stderr,
               "usage: %s Tn|NnF32|ColD|Multicast|Pair|Grouped|PairBatched|Fp8|Fp8Pair|Fp4|Fp8Fp4|Fp6Pair|MxFp8|"
               "MxFp6Fp4Pair|NvFp4|NvFp4Pair|MxFp4\n",
               argv[0]);
  return 2;
}

#endif

// ---- PTX checks, one FileCheck run per configuration (prefix TN, NN, COLD, MC, PAIR, FP8 or
// FP8PAIR with
// the numbers of that configuration) ---------------------------------------------------------
// Within a kernel the order of the roles' code is the compiler's, so most expectations are
// unordered (DAG); an MMA line repeated 4 times needs 4 MMAs (DAG matches do not overlap):
// one per 32-byte step of a 128-byte K tile (16 16-bit values or 32 fp8 values). Every kernel first checks the dynamic shared
// memory against the plan (the trap guard at its start).
//
// TN-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma2TnELNS0_7TmaPathE0E
// TN:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// TN:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// TN-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// TN-DAG:   tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// TN-DAG:   mbarrier.arrive.expect_tx.release.cta.shared::cta.b64
// TN-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// TN-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// TN-DAG:   mbarrier.try_wait.parity.shared::cta.b64
// TN-DAG:   tcgen05.fence::after_thread_sync;
// TN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// TN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// TN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// TN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// TN-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// TN-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// TN-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// TN-DAG:   tcgen05.wait::ld.sync.aligned;
// TN-DAG:   tcgen05.fence::before_thread_sync;
// TN-DAG:   mbarrier.arrive.release.cta.shared::cta.b64
// TN-DAG:   fence.proxy.async.shared::cta;
// TN-DAG:   cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// TN-DAG:   cp.async.bulk.wait_group.read 1;
// TN-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// The realigning path: cp.async copies of raw lines, arrivals when they land, the same MMAs.
// TN-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma2TnELNS0_7TmaPathE1E
// TN:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// TN:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#GSMEM]];
// TN-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#GTMEM]];
// TN-DAG:   cp.async.cg.shared.global
// TN-DAG:   cp.async.mbarrier.arrive.noinc.shared::cta.b64
// TN-DAG:   fence.proxy.async.shared::cta;
// TN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#GIDESC]], p;
// TN-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// TN-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// TN-DAG:   tcgen05.wait::ld.sync.aligned;
// TN-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#GTMEM]];
//
// N-major B, fp32 row-major D: the same sequence (the descriptor carries the transpose bit).
// NN-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma5NnF32ELNS0_7TmaPathE0E
// NN:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// NN:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// NN-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// NN-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// NN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// NN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// NN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// NN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// NN-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// NN-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// NN-DAG:   st.shared.v4.f32
// NN-DAG:   cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// NN-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// NN-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma5NnF32ELNS0_7TmaPathE1E
// NN:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// NN:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#GSMEM]];
// NN-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#GIDESC]], p;
// NN-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#GTMEM]];
//
// M-major A, column-major fp16 D: element stores into unswizzled column lines.
// COLD-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma4ColDELNS0_7TmaPathE0E
// COLD:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// COLD:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// COLD-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// COLD-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// COLD-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// COLD-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// COLD-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// COLD-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// COLD-DAG:   st.shared.{{u16|b16}}
// COLD-DAG:   cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// COLD-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// COLD-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma4ColDELNS0_7TmaPathE1E
// COLD:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// COLD:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#GSMEM]];
// COLD-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#GIDESC]], p;
// COLD-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#GTMEM]];
//
// One CTA per MMA in a 2x1 cluster: B multicast; a stage's commit frees it in both CTAs, the
// accumulator's commit only in this one; cluster-scope waits; cluster barriers around.
// MC-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma9MulticastELNS0_7TmaPathE0E
// MC:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// MC:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// MC-DAG:   barrier.cluster.arrive.release.aligned;
// MC-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// MC-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// MC-DAG:   mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// MC-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// MC-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}], {{%rs[0-9]+}};
// MC-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// MC-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// MC-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma9MulticastELNS0_7TmaPathE1E
// MC:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// MC:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#GSMEM]];
// MC-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#GIDESC]], p;
// MC-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#GTMEM]];
//
// A CTA pair: allocation and MMAs with cta_group::2; both CTAs' copies complete on the
// leader's barrier (mapa); commits reach both CTAs; epilogue warps free the leader's buffer
// remotely. The realigning path runs the one-CTA form (cta_group::1, M = 128: GIDESC).
// PAIR-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma4PairELNS0_7TmaPathE0E
// PAIR:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// PAIR:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// PAIR-DAG:   barrier.cluster.arrive.release.aligned;
// PAIR-DAG:   tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// PAIR-DAG:   tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// PAIR-DAG:   mapa.shared::cluster.u32
// PAIR-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 [
// PAIR-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 [
// PAIR-DAG:   mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// PAIR-DAG:   tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}], {{%rs[0-9]+}};
// PAIR-DAG:   tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}], {{%rs[0-9]+}};
// PAIR-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// PAIR-DAG:   mbarrier.arrive.shared::cluster.b64
// PAIR-DAG:   cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PAIR-DAG:   tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// PAIR-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma4PairELNS0_7TmaPathE1E
// PAIR:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// PAIR:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#GSMEM]];
// PAIR-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#GTMEM]];
// PAIR-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#GIDESC]], p;
// PAIR-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#GTMEM]];
//
// A grouped GEMM (contiguous layout) with bias + GELU: every role walks the group sizes (loads
// of the int32 ends); 3-D TMA loads (B's layer is the group); the epilogue's bias loads and
// tanh.approx; a group's whole tiles go out with 3-D TMA stores, its last tile with direct
// stores of its rows.
// GROUPED-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma7GroupedELNS0_7TmaPathE0E
// GROUPED:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// GROUPED:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// GROUPED-DAG:   ld.global.u32
// GROUPED-DAG:   cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [
// GROUPED-DAG:   cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [
// GROUPED-DAG:   tcgen05.mma.cta_group::1.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// GROUPED-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// GROUPED-DAG:   ld.global.{{(nc.)?}}u16
// GROUPED-DAG:   tanh.approx.f32
// GROUPED-DAG:   cp.async.bulk.tensor.3d.global.shared::cta.bulk_group
// GROUPED-DAG:   st.global.u16
// GROUPED-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// A batch on a CTA pair: the pair's loads in their 3-D form.
// PAIRB-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma11PairBatchedELNS0_7TmaPathE0E
// PAIRB:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// PAIRB:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// PAIRB-DAG:   cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 [
// PAIRB-DAG:   tcgen05.mma.cta_group::2.kind::f16 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// PAIRB-DAG:   cp.async.bulk.tensor.3d.global.shared::cta.bulk_group
// PAIRB-DAG:   tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// fp8 on one CTA: the same pipeline with .kind::f8f6f4 MMAs, four per 128-value K tile, and
// bf16 stores of D.
// FP8-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma3Fp8ELNS0_7TmaPathE0E
// FP8:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// FP8:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// FP8-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// FP8-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// FP8-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// FP8-DAG:   tcgen05.fence::after_thread_sync;
// FP8-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// FP8-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// FP8-DAG:   cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// FP8-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// FP8-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma3Fp8ELNS0_7TmaPathE1E
// FP8:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// FP8:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#GSMEM]];
// FP8-DAG:   cp.async.cg.shared.global
// FP8-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#GIDESC]], p;
// FP8-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#GTMEM]];
//
// The fp8 main loop's K steps (prefix FP8STEPS, a run of its own, in order): per K tile four
// MMAs whose B descriptors start 32, 64 and 96 bytes into the stage line (32 fp8 values per
// MMA), then the commit that frees the stage; no fifth MMA before it.
// FP8STEPS-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma3Fp8ELNS0_7TmaPathE0E
// FP8STEPS:       tcgen05.fence::after_thread_sync;
// FP8STEPS:       tcgen05.mma.cta_group::1.kind::f8f6f4
// FP8STEPS:       add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 32;
// FP8STEPS:       tcgen05.mma.cta_group::1.kind::f8f6f4
// FP8STEPS:       add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 64;
// FP8STEPS:       tcgen05.mma.cta_group::1.kind::f8f6f4
// FP8STEPS:       add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 96;
// FP8STEPS:       tcgen05.mma.cta_group::1.kind::f8f6f4
// FP8STEPS-NOT:   tcgen05.mma
// FP8STEPS:       tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
//
// fp8 (e4m3 x e5m2) on a CTA pair: cta_group::2 .kind::f8f6f4 MMAs from the leader.
// FP8PAIR-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma7Fp8PairELNS0_7TmaPathE0E
// FP8PAIR:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// FP8PAIR:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// FP8PAIR-DAG:   tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// FP8PAIR-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 [
// FP8PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8PAIR-DAG:   tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}], {{%rs[0-9]+}};
// FP8PAIR-DAG:   tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// FP8PAIR-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma7Fp8PairELNS0_7TmaPathE1E
// FP8PAIR:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// FP8PAIR:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#GSMEM]];
// FP8PAIR-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#GIDESC]], p;
// FP8PAIR-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#GTMEM]];
//
// fp4 x fp4 on one CTA (operands unpacked by TMA to a byte a value): .kind::f8f6f4 MMAs with
// the e2m1 codes in the descriptor, four per K tile of 128 values; each stage's expected bytes
// are the packed ones (TX: 4 bits a value).
// FP4-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma3Fp4ELNS0_7TmaPathE0E
// FP4:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// FP4:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// FP4-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// FP4-DAG:   mov.{{u32|b32}} [[TXREG:%r[0-9]+]], [[#TX]];
// FP4-DAG:   mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [{{%r[0-9]+}}], [[TXREG]];
// FP4-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// FP4-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP4-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// FP4-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// FP4-DAG:   cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// FP4-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// fp8 A with fp4 B on one CTA: B's code only in the descriptor; 8 + 4 bits a value delivered.
// FP8FP4-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma6Fp8Fp4ELNS0_7TmaPathE0E
// FP8FP4:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// FP8FP4:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// FP8FP4-DAG:   mov.{{u32|b32}} [[TXREG:%r[0-9]+]], [[#TX]];
// FP8FP4-DAG:   mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [{{%r[0-9]+}}], [[TXREG]];
// FP8FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8FP4-DAG:   tcgen05.mma.cta_group::1.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP8FP4-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// fp6 (e3m2 x e2m3) on a CTA pair: cta_group::2 .kind::f8f6f4 from the leader, which expects
// both CTAs' packed bytes (2 x TX).
// FP6PAIR-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma7Fp6PairELNS0_7TmaPathE0E
// FP6PAIR:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// FP6PAIR:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// FP6PAIR-DAG:   tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// FP6PAIR-DAG:   mov.{{u32|b32}} [[TXREG:%r[0-9]+]], [[#TX + TX]];
// FP6PAIR-DAG:   mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [{{%r[0-9]+}}], [[TXREG]];
// FP6PAIR-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 [
// FP6PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP6PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP6PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP6PAIR-DAG:   tcgen05.mma.cta_group::2.kind::f8f6f4 [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC]], p;
// FP6PAIR-DAG:   tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}], {{%rs[0-9]+}};
// FP6PAIR-DAG:   tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// Block scales, MXFP8 on one CTA: the scale loader's byte loads of the scale tensors, word
// stores into the stage, proxy fence and its arrival on the full barrier (4 arrivals: TX);
// per K tile the MMA thread copies the 2 atoms (A's, B's) with tcgen05.cp, then issues the 4
// block-scaled MMAs, each with its scale factor data IDs (IDESC0..3).
// MXFP8-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma5MxFp8ELNS0_7TmaPathE0E
// MXFP8:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// MXFP8:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// MXFP8-DAG:   tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// MXFP8-DAG:   mov.{{u32|b32}} [[FULLREG:%r[0-9]+]], 4;
// MXFP8-DAG:   mbarrier.init.shared::cta.b64 [{{%r[0-9]+}}], [[FULLREG]];
// MXFP8-DAG:   ld.global.u8
// MXFP8-DAG:   st.shared.u32
// MXFP8-DAG:   fence.proxy.async.shared::cta;
// MXFP8-DAG:   mbarrier.arrive.release.cta.shared::cta.b64
// MXFP8-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [
// MXFP8-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXFP8-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXFP8-DAG:   tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP8-DAG:   tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC1]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP8-DAG:   tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC2]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP8-DAG:   tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC3]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP8-DAG:   tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
// MXFP8-DAG:   tcgen05.ld.sync.aligned.32x32b.x32.b32
// MXFP8-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// The order inside a K tile (prefix BSSTEPS, MXFP8's kernel): the copies of the stage's scale
// factors, then the 4 MMAs with data IDs 0, 1, 2, 3, then the commit that frees the stage.
// BSSTEPS-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma5MxFp8ELNS0_7TmaPathE0E
// BSSTEPS:       tcgen05.fence::after_thread_sync;
// BSSTEPS:       tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// BSSTEPS:       tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// BSSTEPS-NOT:   tcgen05.cp
// BSSTEPS:       tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// BSSTEPS:       tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC1]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// BSSTEPS:       tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC2]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// BSSTEPS:       tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC3]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// BSSTEPS-NOT:   tcgen05.mma
// BSSTEPS:       tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [
//
// MX with fp6 A and fp4 B on a CTA pair: cta_group::2 copies and MMAs from the leader; the
// peer's scale loader arrives on the leader's full barrier with cluster-scope release
// (7 arrivals: the TMA's and both CTAs' 3 warps).
// MXPAIR-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma12MxFp6Fp4PairELNS0_7TmaPathE0E
// MXPAIR:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// MXPAIR:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// MXPAIR-DAG:   tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [{{%r[0-9]+}}], [[#TMEM]];
// MXPAIR-DAG:   mov.{{u32|b32}} [[FULLREG:%r[0-9]+]], 7;
// MXPAIR-DAG:   mbarrier.init.shared::cta.b64 [{{%r[0-9]+}}], [[FULLREG]];
// MXPAIR-DAG:   mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];
// MXPAIR-DAG:   cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 [
// MXPAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXPAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXPAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXPAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC1]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXPAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC2]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXPAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale.scale_vec::1X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC3]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXPAIR-DAG:   tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%r[0-9]+}}], {{%rs[0-9]+}};
// MXPAIR-DAG:   tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// NVFP4 on one CTA: .kind::mxf4nvf4 scale_vec::4X, fp4 read packed (a K tile of 256 values);
// 8 atoms a K tile (A's 4 words, B's 4), every MMA with data IDs 0 (IDESC0).
// NVFP4-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma5NvFp4ELNS0_7TmaPathE0E
// NVFP4:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// NVFP4:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
// NVFP4PAIR-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma9NvFp4PairELNS0_7TmaPathE0E
// NVFP4PAIR:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// NVFP4PAIR:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.cp.cta_group::2.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// NVFP4PAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4PAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4PAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4PAIR-DAG:   tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// NVFP4PAIR-DAG:   tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// MXFP4 on one CTA: .kind::mxf4 scale_vec::2X; 4 atoms a K tile (2 words each of A and B);
// the MMAs' data IDs 0, 2, 0, 2 (IDESC0, IDESC1, IDESC2 = IDESC0, IDESC3 = IDESC1).
// MXFP4-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}4umma5MxFp4ELNS0_7TmaPathE0E
// MXFP4:       mov.u32 [[SIZE:%r[0-9]+]], %dynamic_smem_size;
// MXFP4:       setp.{{eq|ne}}.s32 {{%p[0-9]+}}, [[SIZE]], [[#SMEM]];
// MXFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXFP4-DAG:   tcgen05.cp.cta_group::1.32x128b.warpx4 [{{%r[0-9]+}}], {{%rd[0-9]+}};
// MXFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC0]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC1]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC2]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP4-DAG:   tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[#IDESC3]], [{{%r[0-9]+}}], [{{%r[0-9]+}}], p;
// MXFP4-DAG:   tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{%r[0-9]+}}, [[#TMEM]];
//
// ---- what must not be there: one run over every kernel (prefix NEG) -------------------------
// NEG-LABEL: .entry {{.*}}4umma2TnELNS0_7TmaPathE0E
// NEG-NOT:   {{cta_group::2|multicast|barrier.cluster|wgmma|kind::f8f6f4|tcgen05.cp|block_scale}}
// NEG-LABEL: .entry {{.*}}4umma2TnELNS0_7TmaPathE1E
// NEG-NOT:   {{cp.async.bulk.tensor|cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma5NnF32ELNS0_7TmaPathE0E
// NEG-NOT:   {{cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma5NnF32ELNS0_7TmaPathE1E
// NEG-NOT:   {{cp.async.bulk.tensor|cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma4ColDELNS0_7TmaPathE0E
// NEG-NOT:   {{cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma4ColDELNS0_7TmaPathE1E
// NEG-NOT:   {{cp.async.bulk.tensor|cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma9MulticastELNS0_7TmaPathE0E
// NEG-NOT:   cta_group::2
// NEG-LABEL: .entry {{.*}}4umma9MulticastELNS0_7TmaPathE1E
// NEG-NOT:   {{cp.async.bulk.tensor|cta_group::2|multicast|barrier.cluster}}
// A pair keeps its halves of B where they land: no multicast copies, nothing one-CTA.
// NEG-LABEL: .entry {{.*}}4umma4PairELNS0_7TmaPathE0E
// NEG-NOT:   {{cta_group::1|complete_tx::bytes.multicast}}
// NEG-LABEL: .entry {{.*}}4umma4PairELNS0_7TmaPathE1E
// NEG-NOT:   {{cp.async.bulk.tensor|cta_group::2|multicast|barrier.cluster}}
// fp8: no 16-bit MMA; one CTA without a cluster, or a pair without multicast copies.
// NEG-LABEL: .entry {{.*}}4umma3Fp8ELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16|cta_group::2|multicast|barrier.cluster|tcgen05.cp|block_scale}}
// NEG-LABEL: .entry {{.*}}4umma3Fp8ELNS0_7TmaPathE1E
// NEG-NOT:   {{kind::f16|cp.async.bulk.tensor|cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma7Fp8PairELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16|cta_group::1|complete_tx::bytes.multicast}}
// NEG-LABEL: .entry {{.*}}4umma7Fp8PairELNS0_7TmaPathE1E
// NEG-NOT:   {{kind::f16|cp.async.bulk.tensor|cta_group::2|multicast|barrier.cluster}}
// fp6 / fp4: one TMA-path kernel each (no realigning path), no 16-bit MMA.
// NEG-LABEL: .entry {{.*}}4umma3Fp4ELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16|cta_group::2|multicast|barrier.cluster|tcgen05.cp|block_scale|4umma3Fp4ELNS0_7TmaPathE1E}}
// NEG-LABEL: .entry {{.*}}4umma6Fp8Fp4ELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16|cta_group::2|multicast|barrier.cluster|4umma6Fp8Fp4ELNS0_7TmaPathE1E}}
// NEG-LABEL: .entry {{.*}}4umma7Fp6PairELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16|cta_group::1|complete_tx::bytes.multicast|4umma7Fp6PairELNS0_7TmaPathE1E}}
// Block scales: only block-scaled MMAs (no scale-factor copies without them: Tn, Fp8, Fp4 above).
// NEG-LABEL: .entry {{.*}}4umma5MxFp8ELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16 |kind::f8f6f4 |cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma12MxFp6Fp4PairELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16 |kind::f8f6f4 |cta_group::1|complete_tx::bytes.multicast}}
// NEG-LABEL: .entry {{.*}}4umma5NvFp4ELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16 |kind::f8f6f4|kind::mxf8f6f4|cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma9NvFp4PairELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16 |kind::f8f6f4|kind::mxf8f6f4|cta_group::1|complete_tx::bytes.multicast}}
// NEG-LABEL: .entry {{.*}}4umma5MxFp4ELNS0_7TmaPathE0E
// NEG-NOT:   {{kind::f16 |kind::f8f6f4|kind::mxf8f6f4|kind::mxf4nvf4|cta_group::2|multicast|barrier.cluster}}
// The packed path's direct-store kernel: the TMA path's loads, no TMA store.
// NEG-LABEL: .entry {{.*}}4umma2TnELNS0_7TmaPathE2E
// NEG-NOT:   {{cp.async.bulk.tensor.2d.global.shared::cta|cta_group::2|multicast|barrier.cluster}}
// Problem sets load and store with 3-D maps only.
// NEG-LABEL: .entry {{.*}}4umma7GroupedELNS0_7TmaPathE0E
// NEG-NOT:   {{cp.async.bulk.tensor.2d|cta_group::2|multicast|barrier.cluster}}
// NEG-LABEL: .entry {{.*}}4umma11PairBatchedELNS0_7TmaPathE0E
// NEG-NOT:   {{cp.async.bulk.tensor.2d|cta_group::1|complete_tx::bytes.multicast}}
//
// ---- ptxas report (prefix REPORT): twenty-five kernels, none with a stack frame, spills or static
// shared memory (a "N bytes smem" clause would follow the barrier count) ----------------------
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT:      Function properties for {{.*}}umma_gemm_kernel
// REPORT-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// REPORT-NEXT: Used {{[0-9]+}} registers, used {{[0-9]+}} barriers{{$}}
// REPORT-NOT:  Function properties for
