// A grouped GEMM's layout is one of the two the scheduler knows.
#include "tessera/gemm/scheduler/grouped.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Scheduler = gemm::scheduler::Grouped<int>;
#else
using Scheduler = gemm::scheduler::Grouped<gemm::group_layout::Masked>;
#endif
static_assert(sizeof(Scheduler) > 0, "");
