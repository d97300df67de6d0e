// The tcgen05 family applies block scales with its block-scaled MMA kinds (scale::Mx on
// fp8 runs .kind::mxf8f6f4.block_scale); per-tensor operand scales are not built for it: it
// refuses them rather than ignore them.
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Mode = gemm::scale::PerTensor;
#else
using Mode = gemm::scale::Mx;
#endif
using Config = gemm::UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<128, 128, 128>>,
                                gemm::option::Scales<Mode>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
