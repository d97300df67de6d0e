// Many GEMMs in one call: the batch or the groups a configuration computes when its scheduler
// takes a problem set (option::Scheduler<scheduler::StridedBatched> or
// <scheduler::Grouped<Layout>>, scheduler/batched.hpp, scheduler/grouped.hpp). Every other
// configuration computes one GEMM and refuses a problem set with kErrorProblemsUnsupported.
//
// A problem set lives in gemm::Arguments::problems:
//
//   strided-batched   count entries of one M x N x K shape; entry p's A is A + p * stride_a
//                     (likewise B, C, D). A stride of 0 shares the operand between entries
//                     (e.g. one B for the whole batch); D's stride must keep outputs apart.
//   grouped,          A holds every group's rows one after the other (a mixture-of-experts
//   contiguous        layer's tokens sorted by expert): group g owns rows
//                     [group_ends[g - 1], group_ends[g]) of A, C and D (group_ends[-1] = 0),
//                     M is A's row count; B is [count][K x N] at stride_b. stride_a, stride_c
//                     and stride_d are not used (every group addresses A, C and D directly).
//   grouped, masked   A, C and D are [count][M rows] at their strides (M = the most rows a
//                     group may have); group g uses its first group_rows[g] rows.
//
// The group sizes are read by the kernel from device memory (group_ends / group_rows: int32,
// `count` of them), so a router kernel can write them on the same stream and the call needs no
// host synchronisation and can be captured in a CUDA graph (replays read the sizes current at
// each replay). Sizes out of range never make the kernel read or write outside A, B, C and D:
// it clamps them (a negative count to 0, an end before the previous group's end to that end,
// rows past M cut off) and, when `status` is given, writes kErrorGroupRowsOutOfRange there as an
// int32 (Status's value). run() first sets the flag to kSuccess (0) on the call's stream, so
// once the call's work is done it says what this call found, whatever an earlier call left
// there; a call refused on the host (run() returns an error) leaves it untouched, and one with
// nothing to compute (M, N or count 0) reads no sizes and leaves kSuccess.
#pragma once
#include <cstdint>

namespace tessera::gemm {

struct ProblemSet {
  std::int64_t count = 1;  // batch entries or groups
  // Elements from one entry's (group's) operand to the next's.
  std::int64_t stride_a = 0, stride_b = 0, stride_c = 0, stride_d = 0;
  const std::int32_t* group_ends = nullptr;  // grouped, contiguous layout: device memory
  const std::int32_t* group_rows = nullptr;  // grouped, masked layout: device memory
  std::int32_t* status = nullptr;            // grouped, optional: device memory; run() sets it to
                                             // kSuccess, the kernel to kErrorGroupRowsOutOfRange
};

// Where problem p's operands start: element offsets p * stride from A, B, C and D (the kernel's
// copy of the strides; all 0 for one GEMM and for what a layout addresses by rows).
struct ProblemStrides {
  std::int64_t a = 0, b = 0, c = 0, d = 0;
};

}  // namespace tessera::gemm
