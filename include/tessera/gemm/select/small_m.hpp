// WgmmaSmallM: the Hopper tensor-core GEMM for small M (decode: M = 1 ... 128 tokens times a
// weight matrix), where the weights must stream from memory at close to full bandwidth.
//
//   using Decode = WgmmaSmallM<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor>;  // M <= 16
//   Gemm<Decode>::run(args, nullptr, stream);
//
// The product is computed transposed (select/transposed.hpp): D^T = B^T A^T, so the weights B^T are
// the tensor cores' A operand, 128 of their rows per tile, and the M tokens are wgmma's narrow N
// (kTileM: 16, 32, 64 or 128; M above kTileM takes several tiles). Those few output tiles are
// spread over the SMs by splitting K across a cluster (ClusterSplitK: up to 8 CTAs per tile,
// summed in distributed shared memory, no workspace, the same bits on every run), so that
// every SM streams its slice of the weights with a deep TMA pipeline.
//
// Needs what ClusterSplitK needs: A and B describable by TMA (16-byte aligned base, pitch and
// contiguous extent) and, for kTileM < 64, a K-major A (row-major: the tokens' rows; the narrow
// tile is then K-major too). can_implement names the operand otherwise; the shape-driven
// selector (gemm/select/auto.hpp) sends such calls elsewhere. Options as WgmmaConfig's:
// option::OutputElement<T>, option::Epilogue<E> (E sees D's own rows and columns).
#pragma once

#include "tessera/core/shape.hpp"
#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/options.hpp"
#include "tessera/gemm/select/transposed.hpp"
#include "tessera/gemm/wgmma/config.hpp"
#include "tessera/schedule/sm90.hpp"

#if defined(TESSERA_CUDA)
#include "tessera/gemm/wgmma/cluster_split.hpp"
#endif

namespace tessera::gemm {

namespace detail {
// The transposed problem's configuration: the user's epilogue wrapped so that it sees D's own
// coordinates, D's element kept.
template <class EA, class LA, class EB, class LB, class EC, class LC, int kTileM, int kRowsPerTile, class... Options>
struct SmallMTile {
  using User = ConfigOptions<EC, scheduler::DataParallel, Options...>;
  using type = WgmmaConfig<EB, FlipLayout<LB>, EA, FlipLayout<LA>, EC, FlipLayout<LC>,
                           option::Tile<GemmShape<kRowsPerTile, kTileM, 64>>, option::Schedule<schedule::Cooperative>,
                           option::OutputElement<typename User::ElementD>,
                           option::Epilogue<TransposedEpilogue<typename User::Epilogue>>>;
};
}  // namespace detail

// kTileM: tokens per tile (wgmma's N); kSplits: CTAs per cluster (0: chosen per call).
template <class EA, class LA, class EB, class LB, class EC, class LC, int kTileM = 16, int kSplits = 0,
          class... Options>
using WgmmaSmallM = Transposed<
    ClusterSplitK<typename detail::SmallMTile<EA, LA, EB, LB, EC, LC, kTileM, 128, Options...>::type, kSplits>>;

}  // namespace tessera::gemm
