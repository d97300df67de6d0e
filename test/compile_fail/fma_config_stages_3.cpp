// The FMA kernel double-buffers through registers: kStages is 2, and a third stage is
// refused rather than silently ignored.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
constexpr int kStages = 3;
#else
constexpr int kStages = 2;
#endif
using Config = gemm::FmaConfig<Sm90, float, RowMajor, float, RowMajor, float, RowMajor,
                               gemm::option::Tile<GemmShape<128, 256, 16>>,
                               gemm::option::ThreadTile<GemmShape<8, 8, 1>>, gemm::option::Stages<kStages>>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
