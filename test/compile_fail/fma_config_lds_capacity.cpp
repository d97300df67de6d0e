// The NVIDIA default tile (128x256x16) on gfx942: the epilogue's staging band of C alone
// is 64 x 260 floats (66560 B), over gfx942's 64 KiB of LDS. gfx950 (160 KiB) holds it.
// The config itself is valid; the plan's capacity check (smem::AssertFits in
// FmaSmemPlan) is what refuses it, naming the buffers.
#include "tessera/gemm/fma/smem_plan.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Arch = Gfx942;
#else
using Arch = Gfx950;
#endif
using Config = gemm::FmaConfig<Arch, float, RowMajor, float, RowMajor, float, RowMajor,
                               gemm::option::Tile<GemmShape<128, 256, 16>>>;
static_assert(gemm::FmaSmemPlan<Config>::Plan::kTotalBytes > 0, "");  // instantiates the plan
