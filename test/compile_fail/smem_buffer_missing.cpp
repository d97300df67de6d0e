#include "tessera/memory/smem_plan.hpp"

using namespace tessera;

struct StagesA : smem::Buffer<8192> { static constexpr const char* kName = "A stages"; };
struct StagesB : smem::Buffer<8192> { static constexpr const char* kName = "B stages"; };

#ifdef TESSERA_EXPECT_FAIL
using List = smem::Buffers<StagesA>;  // StagesB forgotten
#else
using List = smem::Buffers<StagesA, StagesB>;
#endif
using Plan = smem::Plan<List, smem::Loop<smem::Step<smem::Read<StagesA, StagesB>, smem::Write<StagesA, StagesB>>>>;
static_assert(Plan::kTotalBytes >= 8192, "");
