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
// A or B that TMA cannot describe (16-byte aligned base, pitch and contiguous extent) is copied
// into the workspace first, as ClusterSplitK does (workspace_size(args) bytes; without one such a
// call returns kErrorWorkspaceNull). kTileM < 64 needs a K-major A (row-major: the tokens' rows;
// the narrow tile is then K-major too); can_implement names the operand otherwise, and the
// shape-driven selector (gemm/select/auto.hpp) sends such calls elsewhere. Options as WgmmaConfig's:
// option::OutputElement<T>, option::Epilogue<E> (E sees D's own rows and columns).
#pragma once
#include <type_traits>

#include "tessera/core/float8.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/wgmma/cluster_split_config.hpp"
#include "tessera/gemm/options.hpp"
#include "tessera/gemm/scale_mode.hpp"
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
  template <class... Extra>
  using Make = WgmmaConfig<EB, FlipLayout<LB>, EA, FlipLayout<LA>, EC, FlipLayout<LC>,
                           option::Tile<GemmShape<kRowsPerTile, kTileM, 64>>, option::Schedule<schedule::Cooperative>,
                           option::OutputElement<typename User::ElementD>,
                           option::Epilogue<TransposedEpilogue<typename User::Epilogue>>, Extra...>;
  using type = std::conditional_t<User::kDependentLaunch, Make<option::DependentLaunch>, Make<>>;
};
}  // namespace detail

// kTileM: tokens per tile (wgmma's N); kSplits: CTAs per cluster (0: chosen per call).
template <class EA, class LA, class EB, class LB, class EC, class LC, int kTileM = 16, int kSplits = 0,
          class... Options>
using WgmmaSmallM = Transposed<
    ClusterSplitK<typename detail::SmallMTile<EA, LA, EB, LB, EC, LC, kTileM, 128, Options...>::type, kSplits>>;

// fp8 decode: WgmmaFp8SmallM<EA, EB, ED, Scales, kTileM> is the same transposed K split with fp8
// operands: A (the tokens, row-major) and B (the weights W[N][K], column-major) are K-major, and
// so are their flips, as fp8 wgmma needs. The scales change places with the operands
// (select/transposed.hpp): scale::PerTensor, PerRowColumn and Fast<...> as they are, and block
// scales (A per 1 x 128, B per 128 x 128) as scale::BlockwiseTransposed (A per 128 x 128, B per
// 128 x 1 of D^T: the same floats, applied per weight tile and per token column each K tile).
// D is 16- or 32-bit (an fp8 D is stored by the wgmma kernel's TMA epilogue only).
//
//   using Decode = WgmmaFp8SmallM<float8_e4m3_t, float8_e4m3_t, bfloat16_t, scale::PerTensor>;
//   Gemm<Decode>::run(args, nullptr, stream);  // args.epilogue: the fp8 scales (fp8_scaling.hpp)
namespace detail {
template <class EA, class EB, class ED, class Scales, int kTileM, class... Options>
struct Fp8SmallMTile {
  static_assert(is_ocp_float8<EA> && is_ocp_float8<EB>,
                "Tessera WgmmaFp8SmallM: A and B must be float8_e4m3_t or float8_e5m2_t");
  static_assert(!is_ocp_float8<ED>,
                "Tessera WgmmaFp8SmallM: D must be float, half_t or bfloat16_t (an fp8 D needs the wgmma kernel's "
                "TMA epilogue: use WgmmaConfig)");
  using User = ConfigOptions<ED, scheduler::DataParallel, Options...>;
  // The user's block scales seen from D^T (scale_mode.hpp); the other modes as they are.
  using InnerScales =
      std::conditional_t<Scales::kKind == scale::Kind::kBlockwise, scale::BlockwiseTransposed, Scales>;
  template <class... Extra>
  using Make = WgmmaConfig<EB, RowMajor, EA, ColumnMajor, ED, ColumnMajor,
                           option::Tile<GemmShape<128, kTileM, 128>>, option::Schedule<schedule::Cooperative>,
                           option::Scales<InnerScales>, option::OutputElement<ED>,
                           option::Epilogue<TransposedEpilogue<typename User::Epilogue>>, Extra...>;
  using type = std::conditional_t<User::kDependentLaunch, Make<option::DependentLaunch>, Make<>>;
};
}  // namespace detail

template <class EA, class EB, class ED, class Scales = scale::PerTensor, int kTileM = 16, int kSplits = 0,
          class... Options>
using WgmmaFp8SmallM =
    Transposed<ClusterSplitK<typename detail::Fp8SmallMTile<EA, EB, ED, Scales, kTileM, Options...>::type, kSplits>>;

}  // namespace tessera::gemm
