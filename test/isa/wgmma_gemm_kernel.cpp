// ISA checks of the Hopper tensor-core family (include/tessera/gemm/wgmma/kernel.hpp)
// as users get it: wgmma_gemm_kernel<Config, Path>, explicitly instantiated for shipped
// configurations and every path (kTma, kRealigning; kPacked for two), compiled by nvcc for sm_90a to PTX (FileCheck below) and
// to a cubin with ptxas's resource report (no stack, no spills: resource_report.py). Each
// configuration is a struct derived from its WgmmaConfig so its name shows in the kernel's
// mangled symbol and the checks can find each kernel.
//
// Shared memory: the kernels use only dynamic shared memory (the plan's total, set by the
// launcher); ptxas's report shows no static shared memory, and the GPU suite checks the
// dynamic size against the plan ("wgmma kernels use exactly the planned shared memory").
#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/wgmma/config.hpp"

namespace wgmma_isa {
using tessera::bfloat16_t;
using tessera::ColumnMajor;
using tessera::GemmShape;
using tessera::half_t;
using tessera::RowMajor;
using tessera::gemm::ClusterShape;
using tessera::gemm::WgmmaConfig;
namespace option = tessera::gemm::option;
using tessera::schedule::Cooperative;
using tessera::schedule::Pingpong;

// The default tile (128x256x64, Cooperative), both operands K-major.
struct Tn : WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor> {};
// The benchmark's layout: B N-major (transposed in shared memory), fp16.
struct Nn : WgmmaConfig<half_t, RowMajor, half_t, RowMajor, half_t, RowMajor> {};
// M-major A, column-major D (the column-major epilogue), 16-bit and fp32 (the fp32 one
// spilled 16 bytes until the epilogue spelled out its staging addresses).
struct ColD : WgmmaConfig<half_t, ColumnMajor, half_t, RowMajor, half_t, ColumnMajor> {};
struct ColDF32 : WgmmaConfig<bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, float, ColumnMajor> {};
// Pingpong on 128x128 tiles.
struct Pp : WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                        option::Tile<GemmShape<128, 128, 64>>,
                        option::Schedule<Pingpong>> {};
// A 2x1 cluster: B multicast.
struct Cl : WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                        option::Tile<GemmShape<128, 256, 64>>,
                        option::Schedule<Cooperative>, option::Cluster<2, 1>> {};
// Dependent launch (option::DependentLaunch): the default tile, and the cluster split-K
// configuration Auto's split and small-M entries use.
struct Dl : WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                        option::DependentLaunch> {};
struct DlSplit : tessera::gemm::ClusterSplitK<WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t,
                                                          RowMajor, option::Tile<GemmShape<128, 128, 64>>,
                                                          option::Schedule<Cooperative>, option::DependentLaunch>> {};
}  // namespace wgmma_isa

#if defined(__CUDACC__)
#include "tessera/gemm/wgmma/cluster_split_kernel.hpp"
#include "tessera/gemm/wgmma/kernel.hpp"

namespace tessera::gemm {
#define WGMMA_ISA_INSTANTIATE(C)                                                                        \
  template __global__ void wgmma_gemm_kernel<wgmma_isa::C, TmaPath::kTma>(                           \
      const __grid_constant__ TmaGemmParams<wgmma_isa::C>);                                               \
  template __global__ void wgmma_gemm_kernel<wgmma_isa::C, TmaPath::kRealigning>(                       \
      const __grid_constant__ TmaGemmParams<wgmma_isa::C>);
WGMMA_ISA_INSTANTIATE(Tn)
WGMMA_ISA_INSTANTIATE(Nn)
WGMMA_ISA_INSTANTIATE(ColD)
WGMMA_ISA_INSTANTIATE(ColDF32)
WGMMA_ISA_INSTANTIATE(Pp)
WGMMA_ISA_INSTANTIATE(Cl)
// The packed path's kernel (TMA loads, direct stores of a D TMA cannot describe).
template __global__ void wgmma_gemm_kernel<wgmma_isa::Tn, TmaPath::kPacked>(
    const __grid_constant__ TmaGemmParams<wgmma_isa::Tn>);
template __global__ void wgmma_gemm_kernel<wgmma_isa::ColDF32, TmaPath::kPacked>(
    const __grid_constant__ TmaGemmParams<wgmma_isa::ColDF32>);
template __global__ void wgmma_gemm_kernel<wgmma_isa::Dl, TmaPath::kTma>(const __grid_constant__ TmaGemmParams<wgmma_isa::Dl>);
template __global__ void wgmma_cluster_split_kernel<wgmma_isa::DlSplit>(
    const __grid_constant__ TmaGemmParams<wgmma_isa::DlSplit>);
}  // namespace tessera::gemm
#endif

// ---- PTX checks (FileCheck --check-prefix=PTX) --------------------------------------------
// Within one kernel the order of the roles' code is the compiler's, so each kernel's
// expectations are unordered (DAG) between its label and the next.
// Every kernel: the producer gives registers away, the consumers take them; TMA path: bulk
// tensor loads completing on mbarriers, wgmma with the right shape and types, one group
// kept in flight, mbarrier waits, TMA stores of the epilogue.
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2TnELNS0_7TmaPathE0E
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.arrive.expect_tx.release.cta.shared::cta.b64
// PTX-DAG: mbarrier.try_wait.parity.shared::cta.b64
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// PTX-DAG: wgmma.commit_group.sync.aligned;
// PTX-DAG: wgmma.wait_group.sync.aligned 1;
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX-DAG: fence.proxy.async.shared::cta;
// The realigning path: cp.async copies of raw lines, arrivals when they land, the same MMAs,
// no tensor copies at all.
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2TnELNS0_7TmaPathE1E
// PTX-NOT: cp.async.bulk.tensor
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 104;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 200;
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: cp.async.mbarrier.arrive.noinc.shared::cta.b64
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX-NOT: cp.async.bulk.tensor
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2NnELNS0_7TmaPathE0E
// fp16 with B N-major: the transpose bit of B is set (the last immediate).
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa4ColDELNS0_7TmaPathE0E
// M-major A: the transpose bit of A too.
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 1;
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa7ColDF32ELNS0_7TmaPathE0E
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 1;
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2PpELNS0_7TmaPathE0E
// Pingpong: each warpgroup's 128 rows are two m64n128 blocks; the turns are named barriers.
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX-DAG: bar.sync
// PTX-DAG: bar.arrive
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2ClELNS0_7TmaPathE0E
// A cluster: the shared B tile is multicast, consumers free stages in both CTAs, and the
// waits on barriers other CTAs complete have cluster scope.
// PTX-DAG: barrier.cluster.arrive
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// PTX-DAG: mapa.shared::cluster.u32
// PTX-DAG: mbarrier.arrive.shared::cluster.b64
// PTX-DAG: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// The packed path's kernel: the TMA path's loads and MMAs, element stores instead of TMA
// stores.
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2TnELNS0_7TmaPathE2E
// PTX-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX-DAG: st.global.u16
// PTX-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa7ColDF32ELNS0_7TmaPathE2E
// PTX-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// PTX-DAG: st.global.f32
// PTX-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// The dependent-launch kernels (the default tile's checks apply; GDC below checks the option's part).
// PTX-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2DlELNS0_7TmaPathE0E
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group

// ---- Dependent launch (FileCheck --check-prefix=GDC) -------------------------------------------
// griddepcontrol appears in the two option::DependentLaunch kernels only (the others' code is
// unchanged by the option's existence), and in each the wait comes before the kernel's first
// access of global memory: no load, store, atomic or asynchronous copy of global memory (nor a
// tensor map's prefetch) between the kernel's entry and the wait. The launch of dependents
// follows the wait at once (no instruction between them). Kernels appear in the PTX in the
// order they are instantiated.
// GDC-NOT: griddepcontrol
// GDC: .entry {{.*}}wgmma_gemm_kernel{{.*}}9wgmma_isa2DlELNS0_7TmaPathE0E
// GDC-NOT: {{(ld|st|atom|red)\.global|cp\.async|prefetch\.tensormap|griddepcontrol}}
// GDC: griddepcontrol.wait;
// GDC-NOT: {{^[[:space:]]+[a-z@]}}
// GDC: griddepcontrol.launch_dependents;
// GDC-NOT: griddepcontrol
// GDC: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// GDC-NOT: griddepcontrol
// GDC: .entry {{.*}}wgmma_cluster_split_kernel{{.*}}7DlSplit
// GDC-NOT: {{(ld|st|atom|red)\.global|cp\.async|griddepcontrol}}
// GDC: griddepcontrol.wait;
// GDC-NOT: {{^[[:space:]]+[a-z@]}}
// GDC: griddepcontrol.launch_dependents;
// GDC-NOT: griddepcontrol
