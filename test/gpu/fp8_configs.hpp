// The fp8 configurations the GPU suite runs (test_wgmma_fp8*.cu): A row-major and B
// column-major (K-major, as fp8 wgmma needs), D row-major.
#pragma once
#include <type_traits>

#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/wgmma/cluster_split.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"

namespace tessera::test::fp8 {

using gemm::Accumulation;
using gemm::ClusterShape;
namespace scale = gemm::scale;
using e4m3 = float8_e4m3_t;
using e5m2 = float8_e5m2_t;

template <class EA, class EB, class ED, class Scales, class Tile = GemmShape<128, 128, 128>,
          class Schedule = schedule::AutoSm90, class Cluster = ClusterShape<1, 1>, class EC = ED>
using Fp8 = gemm::WgmmaConfig<EA, RowMajor, EB, ColumnMajor, EC, RowMajor, gemm::option::Tile<Tile>,
                              gemm::option::Schedule<Schedule>, gemm::option::Cluster<Cluster::kM, Cluster::kN>,
                              gemm::option::OutputElement<ED>, gemm::option::Scales<Scales>>;

using BlockBf16 = Fp8<e4m3, e4m3, bfloat16_t, scale::Blockwise>;
using BlockF32 = Fp8<e4m3, e5m2, float, scale::Blockwise>;
using TensorF16 = Fp8<e5m2, e4m3, half_t, scale::PerTensor>;
using RowColBf16 = Fp8<e4m3, e4m3, bfloat16_t, scale::PerRowColumn>;
using BlockE4m3D = Fp8<e4m3, e4m3, e4m3, scale::Blockwise, GemmShape<128, 128, 128>, schedule::AutoSm90,
                       ClusterShape<1, 1>, bfloat16_t>;
using TensorE5m2D = Fp8<e4m3, e4m3, e5m2, scale::PerTensor>;
using FastRowColE5m2F32 = Fp8<e5m2, e5m2, float, scale::Fast<scale::PerRowColumn>>;
using FastBf16 = Fp8<e4m3, e4m3, bfloat16_t, scale::Fast<scale::PerTensor>, GemmShape<128, 256, 128>>;
using PingpongBlock = Fp8<e4m3, e4m3, bfloat16_t, scale::Blockwise, GemmShape<64, 128, 128>, schedule::Pingpong>;
using ClusterBlock = Fp8<e4m3, e4m3, bfloat16_t, scale::Blockwise, GemmShape<128, 128, 128>, schedule::Cooperative,
                         ClusterShape<2, 1>>;

// Narrow N tiles (16, 32: the transposed small-M tiles) in the wgmma kernel.
using TensorN32 = Fp8<e4m3, e4m3, bfloat16_t, scale::PerTensor, GemmShape<128, 32, 128>>;
// K split over a cluster: decode computed transposed (gemm/select/small_m.hpp), the split chosen
// per call or fixed; and a block-scaled tile split as it is (ClusterSplitK, not transposed).
using SplitTensorBf16 = gemm::WgmmaFp8SmallM<e4m3, e4m3, bfloat16_t, scale::PerTensor>;
using SplitRowColF32M32By4 = gemm::WgmmaFp8SmallM<e4m3, e5m2, float, scale::PerRowColumn, 32, 4>;
using SplitTensorF16M64 = gemm::WgmmaFp8SmallM<e5m2, e4m3, half_t, scale::PerTensor, 64>;
using SplitFastBf16 = gemm::WgmmaFp8SmallM<e4m3, e4m3, bfloat16_t, scale::Fast<scale::PerTensor>>;
using SplitBlockBf16 = gemm::WgmmaFp8SmallM<e4m3, e4m3, bfloat16_t, scale::Blockwise>;
using SplitBlockF32M64By3 = gemm::WgmmaFp8SmallM<e5m2, e4m3, float, scale::Blockwise, 64, 3>;
using SplitBlockTile = gemm::ClusterSplitK<
    Fp8<e4m3, e4m3, bfloat16_t, scale::Blockwise, GemmShape<128, 128, 128>, schedule::Cooperative>>;

// The split (CTAs per cluster) a call of Config takes.
template <class Config, class Args>
int split_of(const Args& args) {
  if constexpr (std::is_same_v<typename Config::Family, gemm::TransposedFamily>) {
    return gemm::cluster_splits<typename Config::Inner>(gemm::transpose_arguments<Config>(args));
  } else {
    return gemm::cluster_splits<Config>(args);
  }
}

// Requires the path the call takes.
template <class Config>
auto expect_path(gemm::TmaPath want) {
  return [want](const auto& args, const void* workspace) {
    const gemm::TmaPath got = gemm::tma_path<Config>(args, workspace);
    INFO("path " << gemm::path_name(got));
    REQUIRE(got == want);
  };
}

}  // namespace tessera::test::fp8
