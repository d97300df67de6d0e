// The fp8 configurations the GPU suite runs (test_wgmma_fp8*.cu): A row-major and B
// column-major (K-major, as fp8 wgmma needs), D row-major.
#pragma once
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
