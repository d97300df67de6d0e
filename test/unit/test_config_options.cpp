// The options vocabulary (gemm/options.hpp): every parameter after the element types and
// layouts is an option, read in any order with the family's default when not given; the
// scale modes are one set (gemm/scale_mode.hpp) that each family takes its share of.
#include <type_traits>

#include <catch2/catch.hpp>

#include "tessera/gemm/fma/config.hpp"
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/gemm/umma/config.hpp"
#include "tessera/gemm/wgmma/config.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {
using bf16 = bfloat16_t;

template <class... Options>
using Wgmma = WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, Options...>;
template <class... Options>
using Umma = UmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, Options...>;
}  // namespace

TEST_CASE("options are read in any order, each with the family's default", "[options]") {
  using Given = Wgmma<option::Stages<3>, option::Cluster<2, 1>, option::Schedule<schedule::Pingpong>,
                      option::Tile<GemmShape<128, 128, 64>>, option::StagingBoxes<4>>;
  using Reordered = Wgmma<option::StagingBoxes<4>, option::Tile<GemmShape<128, 128, 64>>,
                          option::Schedule<schedule::Pingpong>, option::Stages<3>, option::Cluster<2, 1>>;
  STATIC_REQUIRE((Given::kStages == 3));
  STATIC_REQUIRE((std::is_same_v<Given::Cluster, ClusterShape<2, 1>>));
  STATIC_REQUIRE((std::is_same_v<Given::Schedule, schedule::Pingpong>));
  STATIC_REQUIRE((std::is_same_v<Given::TileShape, GemmShape<128, 128, 64>>));
  STATIC_REQUIRE((Given::kStagingBoxes == 4));
  STATIC_REQUIRE((Reordered::kStages == Given::kStages && Reordered::kStagingBoxes == Given::kStagingBoxes));
  STATIC_REQUIRE((std::is_same_v<Reordered::Cluster, Given::Cluster> &&
                 std::is_same_v<Reordered::Schedule, Given::Schedule> &&
                 std::is_same_v<Reordered::TileShape, Given::TileShape>));

  // Not given: the defaults the configurations document.
  using Defaults = Wgmma<>;
  STATIC_REQUIRE((std::is_same_v<Defaults::TileShape, GemmShape<128, 256, 64>>));
  STATIC_REQUIRE((std::is_same_v<Defaults::Cluster, ClusterShape<1, 1>>));
  STATIC_REQUIRE((Defaults::kStagingBoxes == 2));
  STATIC_REQUIRE((std::is_same_v<Defaults::Scales, scale::PerTensor>));
  using Fma = FmaConfig<Sm90, float, RowMajor, float, RowMajor, float, RowMajor>;
  STATIC_REQUIRE((std::is_same_v<Fma::BlockTile, DefaultFmaBlockTile<Sm90>> &&
                 std::is_same_v<Fma::ThreadTile, DefaultFmaThreadTile<Sm90>>));
  STATIC_REQUIRE((Fma::kStages == 2 && Fma::kMinBlocksPerSm == 1 && std::is_same_v<Fma::ElementAccumulator, float>));
  using FmaGiven = FmaConfig<Gfx942, float, RowMajor, float, RowMajor, float, RowMajor, option::MinBlocksPerSm<2>,
                             option::ThreadTile<GemmShape<4, 8, 1>>, option::Tile<GemmShape<64, 64, 8>>>;
  STATIC_REQUIRE((FmaGiven::kMinBlocksPerSm == 2 && FmaGiven::kThreadM == 4 && FmaGiven::kBlockN == 64));
  using Mfma = MfmaConfig<Gfx942, bf16, RowMajor, bf16, ColumnMajor, float, RowMajor>;
  STATIC_REQUIRE((Mfma::kBlockM == 256 && Mfma::kBlockN == 256 && Mfma::kStages == 2));
  STATIC_REQUIRE((std::is_same_v<Mfma::Instruction, tessera::gemm::detail::DefaultMfmaInstructionFor<Gfx942, bf16>>));
  STATIC_REQUIRE((std::is_same_v<Mfma::OperandScales, scale::None>));
  using U = Umma<>;
  STATIC_REQUIRE((U::kAccumulatorBuffers == 2 && U::kCtaGroup == 1 && U::kMmaN == 256));
}

TEST_CASE("a tcgen05 configuration's realigning twin keeps its other options", "[options][umma]") {
  // One CTA, no cluster, stages chosen: the configuration itself.
  using One = Umma<option::Tile<GemmShape<128, 128, 64>>, option::OutputElement<float>>;
  STATIC_REQUIRE((std::is_same_v<One::RealigningConfig, One>));
  // A pair with its own stages and buffers: one CTA of the pair's rows, stages chosen to fit,
  // the buffers, D's element and the epilogue kept.
  using Pair = Umma<option::OutputElement<float>, option::Stages<3>, option::CtaGroup<CtaPair>,
                    option::Tile<GemmShape<256, 128, 64>>, option::AccumulatorBuffers<1>>;
  using Twin = Pair::RealigningConfig;
  STATIC_REQUIRE((Twin::kCtaGroup == 1 && Twin::kMmaM == 128 && Twin::kMmaN == 128));
  STATIC_REQUIRE((Twin::kAccumulatorBuffers == 1));
  STATIC_REQUIRE((std::is_same_v<Twin::ElementD, float>));
  STATIC_REQUIRE((std::is_same_v<Twin::Cluster, ClusterShape<1, 1>>));
  STATIC_REQUIRE((Twin::kStages == Umma<option::Tile<GemmShape<128, 128, 64>>, option::AccumulatorBuffers<1>,
                                       option::OutputElement<float>>::kStages));
  // A multicast cluster: the twin has none.
  using Multicast = Umma<option::Cluster<2, 1>>;
  STATIC_REQUIRE((std::is_same_v<Multicast::RealigningConfig::Cluster, ClusterShape<1, 1>>));
}

TEST_CASE("one set of scale modes, each family taking its own", "[options][scales]") {
  using Fp8 = WgmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bf16, RowMajor,
                          option::Tile<GemmShape<128, 128, 128>>, option::Scales<scale::Fast<scale::PerRowColumn>>>;
  STATIC_REQUIRE((Fp8::Scales::kKind == scale::Kind::kPerRowColumn && !Fp8::Scales::kPromoted));
  STATIC_REQUIRE((scale::PerTensor::kPromoted && scale::Blockwise::kPromoted));
  using Mx = MfmaConfig<Gfx950, float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                        option::Tile<GemmShape<128, 128, 128>>, option::Scales<scale::Mx>>;
  STATIC_REQUIRE((Mx::kBlockScaled && Mx::kScaleBlocks == 4));
  using Nv = Umma<>;
  STATIC_REQUIRE((!Nv::kBlockScaled));
  using Nvfp4 = UmmaConfig<float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, float, RowMajor,
                           option::Tile<GemmShape<128, 128, 256>>, option::Scales<scale::Nvfp4>>;
  STATIC_REQUIRE((Nvfp4::kNvfp4 && Nvfp4::kValuesPerScale == 16));
  STATIC_REQUIRE((scale::Mx::kBlock && !scale::PerTensor::kBlock && scale::PerTensor::kPerTensor));
  // The scale tensors: ld before size, as the block-scale tensors had them.
  const ScaleTensor<float> t{nullptr, 3, 7};
  CHECK(t.ld == 3);
  CHECK(t.size == 7);
}
