// Block-scaled configurations run on one CTA without a multicast cluster, or on a CTA pair:
// the scale loader writes each CTA's scale factors itself and multicasts nothing.
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Cluster = gemm::ClusterShape<2, 1>;
#else
using Cluster = gemm::ClusterShape<1, 1>;
#endif
using Config = gemm::UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>,
                                gemm::option::Cluster<Cluster::kM, Cluster::kN>,
                                gemm::option::Scales<gemm::scale::Mx>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
