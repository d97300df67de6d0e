#include "tessera/memory/smem_plan.hpp"

using namespace tessera;

struct StagesA : smem::Buffer<8192> { static constexpr const char* kName = "A stages"; };
struct CTile : smem::Buffer<4096> { static constexpr const char* kName = "C tile"; };

#ifdef TESSERA_EXPECT_FAIL
using List = smem::Buffers<StagesA, CTile, StagesA>;
#else
using List = smem::Buffers<StagesA, CTile>;
#endif
using Plan = smem::Plan<List, smem::Seq<smem::Step<smem::Overwrite<StagesA>>, smem::Step<smem::Read<StagesA>>,
                                        smem::Step<smem::Overwrite<CTile>>, smem::Step<smem::Read<CTile>>>>;
static_assert(Plan::kTotalBytes >= 4096, "");
