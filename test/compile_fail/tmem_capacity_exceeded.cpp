// The tensor-memory planner on its own: an accumulator pair (the MMA fills one while the
// epilogue drains the other) of 256 columns each fits the SM's 512 columns exactly; a third
// buffer alive at the same time does not, and the error names the buffers.
#include "tessera/memory/tmem_plan.hpp"

using namespace tessera;

struct Acc0 : tmem::Buffer<256> { static constexpr const char* kName = "accumulator 0"; };
struct Acc1 : tmem::Buffer<256> { static constexpr const char* kName = "accumulator 1"; };
#ifdef TESSERA_EXPECT_FAIL
struct Scratch : tmem::Buffer<32> { static constexpr const char* kName = "scratch"; };
#else
struct Scratch : tmem::Buffer<0> { static constexpr const char* kName = "scratch"; };
#endif

using Plan = tmem::Plan<tmem::Buffers<Acc0, Acc1, Scratch>,
                        tmem::Loop<tmem::Parallel<tmem::Seq<tmem::Step<tmem::Overwrite<Acc0, Scratch>>,
                                                            tmem::Step<tmem::Overwrite<Acc1>>>,
                                                  tmem::Seq<tmem::Step<tmem::Read<Acc0, Scratch>>,
                                                            tmem::Step<tmem::Read<Acc1>>>>>>;
static_assert(tmem::AssertFits<Sm100, Plan>::value, "");
