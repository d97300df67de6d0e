// The tensor-memory (TMEM) planner: column offsets for a kernel's TMEM buffers (sm_100
// tcgen05 accumulators), computed by the shared-memory planner itself with columns as the
// unit. TMEM is a second memory kind with the same rules: buffers that exist at the same time
// (smem_outline.hpp's liveness) never share columns; the plan is checked against the target's
// columns (Sm100::kTensorMemoryColumns = 512) with a message that names the buffers.
//
//   struct Acc0 : tmem::Buffer<256> { static constexpr const char* kName = "accumulator 0"; };
//   struct Acc1 : tmem::Buffer<256> { static constexpr const char* kName = "accumulator 1"; };
//   // The MMA warp fills one while the epilogue drains the other: both live together.
//   using P = tmem::Plan<tmem::Buffers<Acc0, Acc1>,
//                        tmem::Loop<tmem::Parallel<tmem::Seq<tmem::Step<tmem::Overwrite<Acc0>>,
//                                                            tmem::Step<tmem::Overwrite<Acc1>>>,
//                                                  tmem::Seq<tmem::Step<tmem::Read<Acc0>>,
//                                                            tmem::Step<tmem::Read<Acc1>>>>>>;
//   static_assert(tmem::AssertFits<Sm100, P>::value);   // 512 columns: fits, exactly
//   tcgen05.alloc of P::kAllocColumns; Acc1 starts at column P::column<Acc1>().
//
// What differs from shared memory: tcgen05.alloc takes a power of two of at least 32
// columns, so the allocation (kAllocColumns) can exceed the plan's total.
#pragma once
#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/memory/smem_outline.hpp"
#include "tessera/memory/smem_plan.hpp"

namespace tessera::tmem {

// A TMEM buffer of Columns 32-bit columns (all 128 lanes), its first column a multiple of
// Align. The planner's "bytes" are columns here.
template <std::size_t Columns, std::size_t Align = 16>
struct Buffer : smem::Buffer<Columns, Align> {
  static constexpr std::size_t kColumns = Columns;
};

// The outline vocabulary is the shared-memory planner's.
using smem::Buffers;
using smem::Loop;
using smem::Overwrite;
using smem::Parallel;
using smem::Read;
using smem::Seq;
using smem::Step;
using smem::Write;

// The columns tcgen05.alloc is asked for: the total rounded up to a power of two, at least 32
// (PTX ISA, tcgen05.alloc: nCols is a power of two, 32 <= nCols <= 512).
constexpr int allocation_columns(std::size_t total) {
  int columns = 32;
  while (std::size_t(columns) < total) columns *= 2;
  return columns;
}

template <class BufferList, class Outline>
struct Plan : smem::Plan<BufferList, Outline> {
  using Base = smem::Plan<BufferList, Outline>;
  static constexpr std::size_t kTotalColumns = Base::kTotalBytes;
  static constexpr std::size_t kLowerBoundColumns = Base::kLowerBoundBytes;
  static constexpr int kAllocColumns = allocation_columns(kTotalColumns);

  // First column of a buffer, relative to the allocation's base address.
  template <class Buf>
  TESSERA_HOST_DEVICE static constexpr int column() {
    return int(Base::template offset<Buf>());
  }

  static void print(std::FILE* out, const char* title = nullptr) {
    Base::print_as(out, title, "tensor-memory plan", "columns", "columns");
    std::fprintf(out, "  tcgen05.alloc of %d columns\n", kAllocColumns);
  }
};

// ---- capacity -------------------------------------------------------------------------

// Instantiated only when the plan does not fit, so that the compiler's "in instantiation of"
// line spells out the target, the columns needed, the columns there are and every buffer.
template <class Arch, std::size_t TotalColumns, std::size_t CapacityColumns, class... Bufs>
struct tmem_plan_exceeds_capacity {
  static_assert(TotalColumns <= CapacityColumns,
                "the tensor-memory plan needs more columns than the target has: TotalColumns > "
                "CapacityColumns (the buffers are the remaining template arguments; fewer accumulator "
                "buffers or a narrower N tile would fit)");
};

template <class Arch, class P>
inline constexpr bool fits = P::kTotalColumns <= std::size_t(Arch::kTensorMemoryColumns);

namespace detail {
struct PlanFits {};
template <class Arch, class P, class BufferList = typename P::BufferList>
struct CapacityCheck;
template <class Arch, class P, class... Bufs>
struct CapacityCheck<Arch, P, smem::Buffers<Bufs...>> {
  using type = std::conditional_t<fits<Arch, P>, PlanFits,
                                  tmem_plan_exceeds_capacity<Arch, P::kTotalColumns,
                                                             std::size_t(Arch::kTensorMemoryColumns), Bufs...>>;
};
}  // namespace detail

// static_assert(tmem::AssertFits<Sm100, MyPlan>::value); fails with the message above.
template <class Arch, class P>
struct AssertFits : detail::CapacityCheck<Arch, P>::type {
  static constexpr bool value = fits<Arch, P>;
};

}  // namespace tessera::tmem
