#include "tessera/memory/smem_plan.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
struct Scales : smem::Buffer<256, 24> { static constexpr const char* kName = "scales"; };
#else
struct Scales : smem::Buffer<256, 32> { static constexpr const char* kName = "scales"; };
#endif

using Plan = smem::Plan<smem::Buffers<Scales>, smem::Step<smem::Overwrite<Scales>>>;
static_assert(Plan::kTotalBytes == 256, "");
