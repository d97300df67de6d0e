// ISA checks of scheduler::StreamK<>'s kernels (gemm/scheduler/stream_k.hpp, scheduler/fixup.hpp):
// the wgmma family for sm_90a (also run by the GPU suite, test/gpu/test_stream_k_gemm.cu) and the
// tcgen05 family for sm_100a (compiled and checked only: no Blackwell GPU has run it), each
// explicitly instantiated with option::Scheduler<scheduler::StreamK<>>, compiled by nvcc to PTX
// (FileCheck below) and to a cubin with ptxas's resource report (no stack, no spills:
// resource_report.py). The same file serves both targets: STREAM_K_ISA_UMMA picks the
// tcgen05 half. Each configuration is a struct so its name shows in the kernel's symbol.
#if defined(STREAM_K_ISA_UMMA)
#include "tessera/gemm/umma/config.hpp"
#else
#include "tessera/gemm/wgmma/config.hpp"
#endif

namespace stream_k_isa {
using tessera::bfloat16_t;
using tessera::ColumnMajor;
using tessera::GemmShape;
using tessera::half_t;
using tessera::RowMajor;
using tessera::gemm::ClusterShape;
using StreamK = tessera::gemm::option::Scheduler<tessera::gemm::scheduler::StreamK<>>;
#if defined(STREAM_K_ISA_UMMA)
using tessera::gemm::CtaPair;
using tessera::gemm::OneCta;
using tessera::gemm::UmmaConfig;
namespace option = tessera::gemm::option;
struct SkTn : UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                         option::Tile<GemmShape<128, 256, 64>>, StreamK> {};
struct SkPair : UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, ColumnMajor,
                           option::Tile<GemmShape<256, 256, 64>>,
                           option::CtaGroup<CtaPair>, StreamK> {};
#else
using tessera::gemm::WgmmaConfig;
namespace option = tessera::gemm::option;
using tessera::schedule::Cooperative;
// The default tile, Cooperative; fp32 column-major D in a cluster; and the same default tile
// data-parallel, which must carry none of the fix-up. (Pingpong 128x128 with StreamK is left
// out: ptxas spills 12-16 bytes there, its consumers being at the register limit; the GPU
// suite runs it: benchmark/notes/stream_k.md.)
struct SkTn : WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                          option::Tile<GemmShape<128, 256, 64>>,
                          option::Schedule<Cooperative>, StreamK> {};
struct SkColDF32 : WgmmaConfig<half_t, ColumnMajor, half_t, RowMajor, float, ColumnMajor,
                               option::Tile<GemmShape<128, 256, 64>>,
                               option::Schedule<Cooperative>, option::Cluster<2, 1>, StreamK> {};
struct DpTn : WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor> {};
#endif
}  // namespace stream_k_isa

#if defined(__CUDACC__)
#if defined(STREAM_K_ISA_UMMA)
#include "tessera/gemm/umma/kernel.hpp"
namespace tessera::gemm {
template __global__ void umma_gemm_kernel<stream_k_isa::SkTn, TmaPath::kTma>(
    const __grid_constant__ TmaGemmParams<stream_k_isa::SkTn>);
template __global__ void umma_gemm_kernel<stream_k_isa::SkTn, TmaPath::kRealigning>(
    const __grid_constant__ TmaGemmParams<stream_k_isa::SkTn>);
template __global__ void umma_gemm_kernel<stream_k_isa::SkPair, TmaPath::kTma>(
    const __grid_constant__ TmaGemmParams<stream_k_isa::SkPair>);
}  // namespace tessera::gemm
#else
#include "tessera/gemm/wgmma/kernel.hpp"
namespace tessera::gemm {
template __global__ void wgmma_gemm_kernel<stream_k_isa::SkTn, TmaPath::kTma>(
    const __grid_constant__ TmaGemmParams<stream_k_isa::SkTn>);
template __global__ void wgmma_gemm_kernel<stream_k_isa::SkTn, TmaPath::kPacked>(
    const __grid_constant__ TmaGemmParams<stream_k_isa::SkTn>);
template __global__ void wgmma_gemm_kernel<stream_k_isa::SkColDF32, TmaPath::kTma>(
    const __grid_constant__ TmaGemmParams<stream_k_isa::SkColDF32>);
template __global__ void wgmma_gemm_kernel<stream_k_isa::DpTn, TmaPath::kTma>(
    const __grid_constant__ TmaGemmParams<stream_k_isa::DpTn>);
}  // namespace tessera::gemm
#endif
#endif

// ---- sm_90a PTX (FileCheck --check-prefix=SK90) -------------------------------------------
// Every StreamK kernel keeps its main loop and TMA stores and adds the fix-up: the partials'
// stores, the flags published with a release store at GPU scope, waited for with an acquire
// load, cleared with a relaxed store, and the partials read back from L2 in 16-byte runs.
// SK90-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}12stream_k_isa4SkTnELNS0_7TmaPathE0E
// SK90-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// SK90-DAG: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// SK90-DAG: st.global.v2.f32
// SK90-DAG: st.release.gpu.global.u64
// SK90-DAG: ld.acquire.gpu.global.u64
// SK90-DAG: st.relaxed.gpu.global.u64
// SK90-DAG: ld.global.cg.v4.f32
// SK90-DAG: nanosleep
// SK90-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}12stream_k_isa4SkTnELNS0_7TmaPathE2E
// SK90-DAG: st.release.gpu.global.u64
// SK90-DAG: ld.acquire.gpu.global.u64
// A column-major partial: one element per store; a cluster's multicast as before.
// SK90-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}12stream_k_isa9SkColDF32ELNS0_7TmaPathE0E
// SK90-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
// SK90-DAG: st.global.f32
// SK90-DAG: st.release.gpu.global.u64
// SK90-DAG: ld.acquire.gpu.global.u64
// The data-parallel scheduler: no fix-up at all.
// SK90-LABEL: .entry {{.*}}wgmma_gemm_kernel{{.*}}12stream_k_isa4DpTnELNS0_7TmaPathE0E
// SK90-NOT: ld.acquire.gpu
// SK90-NOT: st.release.gpu
// SK90-NOT: ld.global.cg.v4.f32

// ---- sm_100a PTX (FileCheck --check-prefix=SK100) -----------------------------------------
// The epilogue warps read the partial straight from tensor memory and store it; the reduction
// as on Hopper; the MMA warp's tcgen05.mma unchanged.
// SK100-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}12stream_k_isa4SkTnELNS0_7TmaPathE0E
// SK100-DAG: tcgen05.mma.cta_group::1.kind::f16
// SK100-DAG: tcgen05.ld.sync.aligned.32x32b.x32.b32
// SK100-DAG: st.global.v2.{{u32|b32|f32}}
// SK100-DAG: st.release.gpu.global.u64
// SK100-DAG: ld.acquire.gpu.global.u64
// SK100-DAG: st.relaxed.gpu.global.u64
// SK100-DAG: ld.global.cg.v4.f32
// SK100-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}12stream_k_isa4SkTnELNS0_7TmaPathE1E
// SK100-DAG: st.release.gpu.global.u64
// SK100-DAG: ld.acquire.gpu.global.u64
// SK100-LABEL: .entry {{.*}}umma_gemm_kernel{{.*}}12stream_k_isa6SkPairELNS0_7TmaPathE0E
// SK100-DAG: tcgen05.mma.cta_group::2.kind::f16
// SK100-DAG: st.global.{{u32|b32|f32}}
// SK100-DAG: st.release.gpu.global.u64
// SK100-DAG: ld.acquire.gpu.global.u64
