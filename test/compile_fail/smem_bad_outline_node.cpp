#include "tessera/memory/smem_plan.hpp"

using namespace tessera;

struct StagesA : smem::Buffer<8192> { static constexpr const char* kName = "A stages"; };

#ifdef TESSERA_EXPECT_FAIL
using Outline = smem::Seq<smem::Overwrite<StagesA>, smem::Read<StagesA>>;  // touches outside a Step
#else
using Outline = smem::Seq<smem::Step<smem::Overwrite<StagesA>>, smem::Step<smem::Read<StagesA>>>;
#endif
using Plan = smem::Plan<smem::Buffers<StagesA>, Outline>;
static_assert(Plan::kTotalBytes == 8192, "");
