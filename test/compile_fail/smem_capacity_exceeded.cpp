// A persistent warp-specialised plan (stages + C, no aliasing possible) needs 112 KiB:
// it fits gfx950's 160 KiB LDS but not gfx942's 64 KiB.
#include "tessera/memory/smem_plan.hpp"

using namespace tessera;

struct StagesA : smem::Buffer<3 * 128 * 32 * 2> { static constexpr const char* kName = "A stages"; };
struct StagesB : smem::Buffer<3 * 128 * 32 * 2> { static constexpr const char* kName = "B stages"; };
struct CTile : smem::Buffer<128 * 128 * 4> { static constexpr const char* kName = "C tile"; };

using Producer = smem::Loop<smem::Step<smem::Write<StagesA, StagesB>>>;
using Consumer = smem::Seq<smem::Loop<smem::Step<smem::Read<StagesA, StagesB>>>, smem::Step<smem::Overwrite<CTile>>,
                           smem::Step<smem::Read<CTile>>>;
using Plan = smem::Plan<smem::Buffers<StagesA, StagesB, CTile>, smem::Loop<smem::Parallel<Producer, Consumer>>>;

#ifdef TESSERA_EXPECT_FAIL
static_assert(smem::AssertFits<Gfx942, Plan>::value, "");
#else
static_assert(smem::AssertFits<Gfx950, Plan>::value, "");
#endif
