// fp6 / fp4 operands are staged a byte a value, 128 values of K a stage line (and TMA unpacks
// them in boxes of 128 values): a K tile of 256 values has no stage layout.
#include "tessera/gemm/umma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr int kK = 256;
#else
constexpr int kK = 128;
#endif
using Config = gemm::UmmaConfig<float6_e3m2x4_t, RowMajor, float6_e3m2x4_t, ColumnMajor, float, RowMajor,
                                gemm::option::Tile<GemmShape<256, 256, kK>>, gemm::option::CtaGroup<gemm::CtaPair>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
