// GPU tests of the wgmma family with fp8 operands, the other consumer schedules and
// accumulation: Accumulation::kFast (the sum kept in the tensor core over all of K, 128 x 256
// tiles), the Pingpong schedule with block scales, a 2x1 multicast cluster, and the K split
// over a cluster (WgmmaFp8SmallM, decode, transposed; a block-scaled tile as it is). Checked as
// test_wgmma_fp8.cu checks (fp8_case.hpp). Label `gpu`; needs sm_90.
#include "fp8_case.hpp"
#include "fp8_configs.hpp"

using namespace tessera;
using namespace tessera::test::fp8;
using gemm::TmaPath;
using test::check_fp8;
using test::Fp8Case;

TEMPLATE_TEST_CASE("wgmma fp8 GEMM: fast accumulation, Pingpong, clusters", "[gpu][fp8][schedule]", FastBf16,
                   PingpongBlock, ClusterBlock) {
  for (const Fp8Case& s : {Fp8Case{128, 256, 128}, Fp8Case{200, 512, 400, 16, 1.0f, 0.5f},
                           Fp8Case{520, 264, 1040, 0, -1.0f, 0.0f}, Fp8Case{8, 16, 32}}) {
    check_fp8<TestType>(s);
  }
  check_fp8<TestType>({264, 512, 656}, expect_path<TestType>(TmaPath::kTma));
  Fp8Case odd{129, 127, 131, 3, 1.0f, 0.5f};
  check_fp8<TestType>(odd, expect_path<TestType>(TmaPath::kRealigning));
  odd.workspace = true;
  check_fp8<TestType>(odd, expect_path<TestType>(TmaPath::kPacked));
  Fp8Case in_place{136, 256, 272, 16, 1.0f, 1.0f};
  in_place.in_place = true;
  check_fp8<TestType>(in_place);
}

TEST_CASE("wgmma fp8 GEMM: shapes that fill the machine", "[gpu][fp8][large]") {
  check_fp8<BlockBf16>({1024, 1024, 1024});
  check_fp8<TensorF16>({1031, 1553, 777, 1, 1.0f, 1.0f});
  check_fp8<ClusterBlock>({2048, 1536, 1000, 0, 1.0f, 0.5f});
  check_fp8<FastBf16>({1536, 1040, 512});
}

// The K split over a cluster: WgmmaFp8SmallM (decode, computed transposed) at M 1-64 and a
// few more rows (several token tiles), N with a partial weight tile, K deep enough for splits
// of 2-16 CTAs with a tail inside the last 128 (1040, 4112); beta, C == D, K = 0; and a
// block-scaled tile split as it is. The rule splits 16 x 1024 x 4096 (8 tiles of 32 K tiles).
TEMPLATE_TEST_CASE("wgmma fp8 GEMM: K split over a cluster", "[gpu][fp8][split]", SplitTensorBf16,
                   SplitRowColF32M32By4, SplitTensorF16M64, SplitFastBf16, SplitBlockBf16, SplitBlockF32M64By3,
                   SplitBlockTile) {
  for (const Fp8Case& s : {Fp8Case{1, 256, 2048}, Fp8Case{16, 1024, 4096, 0, 1.0f, 0.5f}, Fp8Case{33, 200, 1040, 16},
                           Fp8Case{64, 512, 4112, 0, -1.0f, 0.0f}, Fp8Case{200, 384, 2048, 16, 1.0f, 1.0f},
                           Fp8Case{16, 128, 0, 0, 1.0f, 0.5f}}) {
    check_fp8<TestType>(s, [&](const auto& args, const void*) {
      const int split = split_of<TestType>(args);
      INFO("cluster split " << split);
      REQUIRE(split >= 1);
      if (s.N == 1024) REQUIRE(split > 1);
    });
  }
  Fp8Case in_place{48, 256, 3072, 0, 1.0f, 1.0f};
  in_place.in_place = true;
  check_fp8<TestType>(in_place);
}

// The sanitizer cross-section (scripts/device/check.sh --sanitizers): small cases of
// every main loop (promoted with block and per-tensor scales, fast), fp8 D, each path.
TEST_CASE("wgmma fp8 GEMM: sanitizer cross-section", "[gpu][fp8][sanitize]") {
  check_fp8<BlockBf16>({136, 128, 272, 0, 1.0f, 0.5f});
  check_fp8<FastBf16>({72, 256, 160});
  check_fp8<ClusterBlock>({264, 128, 384});
  check_fp8<TensorE5m2D>({64, 128, 96, 0, 1.0f, 0.5f});
  Fp8Case odd{65, 33, 131, 3};
  check_fp8<RowColBf16>(odd);  // realigning path
  odd.workspace = true;
  check_fp8<BlockE4m3D>(odd);  // packed path
  check_fp8<SplitTensorBf16>({16, 256, 2048, 0, 1.0f, 0.5f});  // K split over a cluster, transposed
  check_fp8<SplitBlockBf16>({33, 200, 1040, 16, 1.0f, 0.5f});   // the same with block scales
}

// Block scales staged with the stages, K deep enough that the ring wraps (a stage's scale slot
// refilled by producer warp 1's cp.async once the consumers' empty-barrier arrivals have
// released it): one CTA, a 2x1 cluster, Pingpong. memcheck and synccheck run these
// (scripts/device/check.sh); racecheck does not, since it does not follow the ordering an
// mbarrier's arrive (release) and wait (acquire) give and reports every refill as a WAR hazard
// (the same count whether one thread of the warpgroup or every warp releases the stage).
TEST_CASE("wgmma fp8 GEMM: sanitizer cross-section, scale slots refilled", "[gpu][fp8][sanitize_ring]") {
  check_fp8<BlockBf16>({264, 256, 1040});
  check_fp8<ClusterBlock>({264, 256, 1040, 0, 1.0f, 0.5f});
  check_fp8<PingpongBlock>({200, 256, 1040});
}
