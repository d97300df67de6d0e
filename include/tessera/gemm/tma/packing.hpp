// The packed path of the TMA families (Hopper wgmma, Blackwell tcgen05): what to do when
// TMA cannot describe an operand (its base is not 16-byte aligned, or its pitch or its
// contiguous extent is not a multiple of 16 bytes; e.g. every ld odd, 4097x4095x4103).
//
// With the caller's workspace (workspace_size() bytes): each operand TMA cannot describe is
// copied line by line into it with a pitch rounded up to 128 bytes; A and B before the GEMM,
// D after it (the TMA-loading, TMA-storing kernel writes D's copy, which is then copied out).
// Without a workspace, where only D is the problem: the same kernel's loads, and D written
// with bounds-checked element stores (TmaPath::kPacked's kernel). Where A or B is the
// problem and no workspace is given: the realigning path.
//
// Why copies instead of a kernel that loads unaligned lines itself (the realigning path): a
// copy streams an operand once at memory speed, while in-kernel realignment is paid per K
// tile by a producer warpgroup that cannot keep up with the tensor cores (several times
// slower: benchmark/notes/wgmma.md, section Versions). And why D is copied out rather
// than stored directly when a workspace allows: the element stores slowed the GEMM kernel
// by more than the copy costs (same notes).
//
// A copy keeps the operand's extents in its tensor map and the copy writes zeros into each
// line's padding. (tma.hpp warns that TMA bounds-checks the contiguous dimension in 16-byte
// units; a mutation test that left NaN in the padding still passed, so TMA's loads zero-
// fill by element here. The zeros keep the result independent of that; a store past D's
// extent lands in padding that is never copied out.)
//
// C is never copied: the epilogues read C with ordinary element loads, or (the wgmma family)
// load it with TMA where TMA can describe it as the caller gave it, so C's alignment never
// changes the path. With C == D and D copied, C is read from the caller's buffer while D's
// copy is written, and copied over it afterwards.
//
// Host only (no CUDA): the plan is tested on the host (test/unit/test_tma_packing.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/gemm/arguments.hpp"

namespace tessera::gemm {

// How operands reach shared memory and D leaves it, per call.
enum class TmaPath {
  kTma,      // TMA loads (multicast in clusters), TMA stores of the epilogue
  kRealigning,  // realigning ordinary loads, direct element stores: any pointer and pitch
  kPacked,   // TMA loads and stores on 128-byte-pitched copies (in the workspace) of the
             // operands TMA cannot describe; without a workspace (only D misaligned): TMA
             // loads, direct element stores of D
};

inline const char* path_name(TmaPath p) {
  return p == TmaPath::kTma ? "tma" : p == TmaPath::kPacked ? "packed" : "realigning";
}

// One operand seen as `lines` lines of `length` contiguous elements, `ld` apart.
struct OperandLines {
  const void* base = nullptr;
  std::int64_t lines = 0, length = 0, ld = 0;
  std::int64_t element_bytes = 0;  // sizeof the element: set by whoever describes the operand

  bool tma_describable() const { return nvidia::tma_describable(base, ld, length, element_bytes); }
};

// Where one operand's copy sits in the workspace (packed == false: used in place).
struct PackedOperand {
  OperandLines source;       // the operand as the caller gave it
  bool packed = false;
  std::int64_t ld = 0;       // the copy's pitch in elements: length rounded up to 128 bytes
  std::size_t offset = 0;    // bytes from the workspace's start (256-byte aligned)
  std::size_t bytes = 0;     // lines * ld * element_bytes
};

struct PackingPlan {
  PackedOperand a, b, d;
  std::size_t bytes = 0;  // the workspace the copies need (0: nothing to copy)
  bool all_tma() const { return !a.packed && !b.packed && !d.packed; }
  bool inputs_tma() const { return !a.packed && !b.packed; }
};

// The copies' pitch is a multiple of 128 bytes, not just TMA's 16: with a pitch of 16 (mod
// 128) bytes every 128-byte line a TMA box reads straddles two L2 lines.
constexpr std::int64_t kPackedPitchBytes = 128;

namespace detail {
inline std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

inline PackedOperand place(const OperandLines& o, std::size_t& cursor) {
  PackedOperand p;
  p.source = o;
  if (o.tma_describable()) return p;
  p.packed = true;
  p.ld = std::int64_t(round_up(std::size_t(o.length), std::size_t(kPackedPitchBytes / o.element_bytes)));
  p.offset = cursor;
  p.bytes = std::size_t(o.lines) * std::size_t(p.ld) * std::size_t(o.element_bytes);
  cursor = round_up(cursor + p.bytes, 256);
  return p;
}
}  // namespace detail

// The operands of D = alpha A B + beta C as lines (row-major: a line is a row).
template <class LayoutA, class LayoutB, class LayoutC, class Args>
struct OperandsAsLines {
  OperandLines a, b, d;
  explicit OperandsAsLines(const Args& x) {
    using EA = std::remove_cv_t<std::remove_pointer_t<decltype(x.A)>>;
    using EB = std::remove_cv_t<std::remove_pointer_t<decltype(x.B)>>;
    using ED = std::remove_cv_t<std::remove_pointer_t<decltype(x.D)>>;
    a = LayoutA::kIsRowMajor ? OperandLines{x.A, x.M, x.K, x.lda, sizeof(EA)}
                             : OperandLines{x.A, x.K, x.M, x.lda, sizeof(EA)};
    b = LayoutB::kIsRowMajor ? OperandLines{x.B, x.K, x.N, x.ldb, sizeof(EB)}
                             : OperandLines{x.B, x.N, x.K, x.ldb, sizeof(EB)};
    d = LayoutC::kIsRowMajor ? OperandLines{x.D, x.M, x.N, x.ldd, sizeof(ED)}
                             : OperandLines{x.D, x.N, x.M, x.ldd, sizeof(ED)};
  }
};

// The copies of A and B alone, for a kernel that loads them by TMA only but writes D with
// element stores (the cluster split-K family, wgmma/cluster_split.hpp): D is never placed (its
// alignment does not matter to such a kernel).
template <class LayoutA, class LayoutB, class LayoutC, class Args>
PackingPlan input_packing_plan(const Args& x) {
  const OperandsAsLines<LayoutA, LayoutB, LayoutC, Args> o(x);
  PackingPlan plan;
  std::size_t cursor = 0;
  plan.a = detail::place(o.a, cursor);
  plan.b = detail::place(o.b, cursor);
  plan.d.source = o.d;
  plan.bytes = cursor;
  return plan;
}

// A, B and D: the inputs' copies, then D's after them.
template <class LayoutA, class LayoutB, class LayoutC, class Args>
PackingPlan packing_plan(const Args& x) {
  PackingPlan plan = input_packing_plan<LayoutA, LayoutB, LayoutC>(x);
  std::size_t cursor = plan.bytes;
  plan.d = detail::place(plan.d.source, cursor);
  plan.bytes = cursor;
  return plan;
}

// The path a call takes: kTma when TMA describes A, B and D as they are; kPacked with a
// workspace, or without one when only D is the problem; kRealigning otherwise.
inline TmaPath choose_path(const PackingPlan& plan, bool workspace_given) {
  if (plan.all_tma()) return TmaPath::kTma;
  return workspace_given || plan.inputs_tma() ? TmaPath::kPacked : TmaPath::kRealigning;
}

template <class LayoutA, class LayoutB, class LayoutC, class Args>
TmaPath choose_path(const Args& x, bool workspace_given) {
  return choose_path(packing_plan<LayoutA, LayoutB, LayoutC>(x), workspace_given);
}

}  // namespace tessera::gemm
