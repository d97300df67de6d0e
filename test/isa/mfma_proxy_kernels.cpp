// The MFMA GEMM at the tiles, types and layout of the Triton reference kernels
// (test/isa/reference/triton: a TN GEMM, bf16 A row-major and B column-major, fp32 row-major
// C), compiled for gfx942 and gfx950 so that scripts/mfma_loop_proxy.py can compare the
// main loops side by side (isa.mfma_proxy.<target>: Tessera's MFMA share of the loop's issue
// cycles must be at least Triton's at the same tile; benchmark/notes/mfma.md has the table).
#include "tessera/arch/arch.hpp"
#include "tessera/gemm/mfma/kernel.hpp"
#include "tessera/gemm/mfma/config.hpp"

namespace mfma_proxy {
using namespace tessera;
using gemm::MfmaConfig;
namespace option = gemm::option;
#if defined(__gfx950__)
using Arch = Gfx950;
#else
using Arch = Gfx942;
#endif
template <class Tile, class Schedule, int kStages = 2>
using TN = MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor, option::Tile<Tile>,
                      option::Schedule<Schedule>, option::Stages<kStages>>;

struct Base128 : TN<GemmShape<128, 128, 64>, schedule::NoPingPong<4>> {};      // Triton: 4 warps, no ping-pong
struct One128 : TN<GemmShape<128, 128, 64>, schedule::PingPongOneCluster> {};  // 4 warps, ping-pong
struct Two256x128 : TN<GemmShape<256, 128, 64>, schedule::PingPongTwoClusters> {};
struct Four256 : TN<GemmShape<256, 256, 64>, schedule::PingPongFourClusters> {};
#if defined(__gfx950__)
struct Async256 : TN<GemmShape<256, 256, 32>, schedule::PingPongAsync, 3> {};
#endif
}  // namespace mfma_proxy

namespace tessera::gemm {
template __global__ void mfma_gemm_kernel<mfma_proxy::Base128, true>(const MfmaParams<mfma_proxy::Base128>);
template __global__ void mfma_gemm_kernel<mfma_proxy::One128, true>(const MfmaParams<mfma_proxy::One128>);
template __global__ void mfma_gemm_kernel<mfma_proxy::Two256x128, true>(const MfmaParams<mfma_proxy::Two256x128>);
template __global__ void mfma_gemm_kernel<mfma_proxy::Four256, true>(const MfmaParams<mfma_proxy::Four256>);
#if defined(__gfx950__)
template __global__ void mfma_gemm_kernel<mfma_proxy::Async256, true>(const MfmaParams<mfma_proxy::Async256>);
#endif
}  // namespace tessera::gemm
