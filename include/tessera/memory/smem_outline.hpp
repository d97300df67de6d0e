// The vocabulary a kernel uses to describe its shared-memory buffers and what its
// program does to them, and the liveness analysis over that description.
// smem_plan.hpp turns the liveness into offsets; read this file first.
//
// The outline is a tree of types. Its leaves are Steps (one program point each); a
// Parallel scope is also one program point, because its branches run at the same time
// and so everything they touch must exist for the whole scope. Liveness is ordinary
// backward dataflow over the control-flow graph of the structured outline:
//   live_in(p) = reads(p) | (live_out(p) & ~overwrites(p)),  live_out(p) = OR live_in(succ)
// A buffer occupies memory at p if it is live into or out of p, or touched by p.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"

namespace tessera::smem {

namespace detail {
struct BufferTag {};
template <class T>
inline constexpr bool kAlwaysFalse = false;
}  // namespace detail

// A buffer is a tag type: struct StagesA : Buffer<3 * 128 * 32 * 2> { kName = "A stages"; }.
// Tag types rather than values so kernels name buffers in code and in compile errors.
// The plan checks Align (a power of two), where the error can name the derived type.
template <std::size_t Bytes, std::size_t Align = 16>
struct Buffer : detail::BufferTag {
  static constexpr std::size_t kBytes = Bytes;
  static constexpr std::size_t kAlign = Align;
  static constexpr const char* kName = "(unnamed buffer)";
};

// What one step does to buffers. Write is partial (one pipeline stage of a ring): the
// rest of the buffer is still read later, so the lifetime goes on. Overwrite replaces
// the whole contents: nothing written before it is read after it.
template <class... Bufs> struct Read {};
template <class... Bufs> struct Write {};
template <class... Bufs> struct Overwrite {};

template <class... Touches> struct Step {};
template <class... Nodes> struct Seq {};
// Runs its body (a sequence) zero or more times: zero keeps the analysis conservative
// for trip counts only known at run time.
template <class... Nodes> struct Loop {};
// Branches that run at the same time (warp-specialised producer and consumer roles).
template <class... Branches> struct Parallel {};

template <class... Bufs> struct Buffers {};

namespace detail {

// Program points and buffers are bits of 64-bit masks: kernels have a handful of each.
inline constexpr std::size_t kMaxPoints = 64;
inline constexpr std::size_t kMaxBuffers = 64;
using Mask = std::uint64_t;

constexpr Mask bit(std::size_t i) { return Mask{1} << i; }

constexpr int popcount(Mask m) {
  int n = 0;
  for (; m != 0; m &= m - 1) ++n;
  return n;
}

// ---- the buffer list --------------------------------------------------------------

template <class Buf, class... Bufs>
constexpr std::size_t index_in() {
  constexpr bool same[] = {std::is_same_v<Buf, Bufs>..., true};
  std::size_t i = 0;
  while (!same[i]) ++i;
  return i;  // sizeof...(Bufs) when absent
}

// The error templates below carry the offending type in their name and arguments, so
// the compiler's "in instantiation of" line says which buffer is wrong. Their value is
// true so that the checks that instantiate them do not repeat the error.
template <class Buf>
struct smem_buffer_is_not_derived_from_Buffer {
  static_assert(kAlwaysFalse<Buf>, "every entry of smem::Buffers<...> must derive from smem::Buffer<Bytes, Align>");
  static constexpr bool value = true;
};

template <class Buf>
struct smem_buffer_listed_twice {
  static_assert(kAlwaysFalse<Buf>, "a buffer appears twice in smem::Buffers<...>: list each buffer once");
  static constexpr bool value = true;
};

template <class Buf, class BufferList>
struct smem_buffer_missing_from_plan {
  static_assert(kAlwaysFalse<Buf>,
                "a buffer used in the outline (in a Read, Write or Overwrite) or asked for "
                "(offset, pointer) is missing from the plan's smem::Buffers<...> list");
  static constexpr bool value = true;
};

template <class Buf>
struct smem_buffer_alignment_is_not_a_power_of_two {
  static_assert(kAlwaysFalse<Buf>, "an smem::Buffer's alignment must be a power of two (1, 2, 4, 8, ... bytes)");
  static constexpr bool value = true;
};

template <class Buf, bool = std::is_base_of_v<BufferTag, Buf>>
struct AlignmentIsPow2 : std::bool_constant<is_pow2(Buf::kAlign)> {};
template <class Buf>
struct AlignmentIsPow2<Buf, false> : std::true_type {};  // reported as not a Buffer instead

// A struct, not a function: clang marks a function whose instantiation failed unusable in
// constant expressions, which would add a second, confusing error.
template <class Buf, class... Bufs>
struct BufferEntryCheck {
  static constexpr bool kDerived = std::is_base_of_v<BufferTag, Buf>;
  static constexpr bool kOnce = (std::size_t{std::is_same_v<Buf, Bufs>} + ... + 0) == 1;
  static constexpr bool value =
      std::conditional_t<kDerived, std::true_type, smem_buffer_is_not_derived_from_Buffer<Buf>>::value &&
      std::conditional_t<kOnce, std::true_type, smem_buffer_listed_twice<Buf>>::value &&
      std::conditional_t<AlignmentIsPow2<Buf>::value, std::true_type,
                         smem_buffer_alignment_is_not_a_power_of_two<Buf>>::value;
};

// Alignment as the planner uses it: a bad one has been reported, so keep arithmetic sane.
template <class Buf>
inline constexpr std::size_t kAlignOf = is_pow2(Buf::kAlign) ? Buf::kAlign : 1;

template <class Buf, class BufferList>
struct BufferIndex;

template <class Buf, class... Bufs>
struct BufferIndex<Buf, Buffers<Bufs...>> {
  static constexpr std::size_t value = index_in<Buf, Bufs...>();
  static constexpr bool kFound = value < sizeof...(Bufs);
  static_assert(std::conditional_t<kFound, std::true_type, smem_buffer_missing_from_plan<Buf, Buffers<Bufs...>>>::value,
                "");
  static constexpr Mask kBit = kFound ? bit(value) : 0;
};

template <class BufferList, class... Bufs>
inline constexpr Mask kMaskOf = (BufferIndex<Bufs, BufferList>::kBit | ... | Mask{0});

// ---- what a subtree reads, overwrites and touches ---------------------------------

template <class Touch>
struct smem_step_holds_something_other_than_Read_Write_Overwrite {
  static_assert(kAlwaysFalse<Touch>, "an smem::Step holds only Read<...>, Write<...> and Overwrite<...>");
  static constexpr bool value = true;
};
template <class Node>
struct smem_outline_node_is_not_Step_Seq_Loop_or_Parallel {
  static_assert(kAlwaysFalse<Node>, "an smem outline node must be Step<...>, Seq<...>, Loop<...> or Parallel<...>");
  static constexpr bool value = true;
};

// Misuse instantiates an error template (reported once per type) and otherwise
// contributes nothing. Not by deriving from it: clang would then treat this class as
// broken too and report every constant that depends on it.
template <class BufferList, class Touch>
struct TouchEffect {
  static_assert(smem_step_holds_something_other_than_Read_Write_Overwrite<Touch>::value, "");
  static constexpr Mask kReads = 0, kKills = 0, kTouched = 0;
};
template <class L, class... B>
struct TouchEffect<L, Read<B...>> {
  static constexpr Mask kReads = kMaskOf<L, B...>, kKills = 0, kTouched = kReads;
};
template <class L, class... B>
struct TouchEffect<L, Write<B...>> {
  static constexpr Mask kReads = 0, kKills = 0, kTouched = kMaskOf<L, B...>;
};
template <class L, class... B>
struct TouchEffect<L, Overwrite<B...>> {
  static constexpr Mask kReads = 0, kKills = kMaskOf<L, B...>, kTouched = kKills;
};

template <template <class, class> class EffectOf, class L, class... Items>
struct EffectUnion {
  static constexpr Mask kReads = (EffectOf<L, Items>::kReads | ... | Mask{0});
  static constexpr Mask kKills = (EffectOf<L, Items>::kKills | ... | Mask{0});
  static constexpr Mask kTouched = (EffectOf<L, Items>::kTouched | ... | Mask{0});
};

template <class BufferList, class Node>
struct Effect {
  static_assert(smem_outline_node_is_not_Step_Seq_Loop_or_Parallel<Node>::value, "");
  static constexpr Mask kReads = 0, kKills = 0, kTouched = 0;
};
// A step that reads and overwrites the same buffer reads the old contents first: the
// dataflow equation keeps it live into the step, as it must.
template <class L, class... T> struct Effect<L, Step<T...>> : EffectUnion<TouchEffect, L, T...> {};
template <class L, class... N> struct Effect<L, Seq<N...>> : EffectUnion<Effect, L, N...> {};
template <class L, class... N> struct Effect<L, Loop<N...>> : EffectUnion<Effect, L, N...> {};
template <class L, class... N> struct Effect<L, Parallel<N...>> : EffectUnion<Effect, L, N...> {};

// ---- lowering the outline to program points and edges -----------------------------

template <class Node> struct PointCount { static constexpr std::size_t value = 0; };  // Lower reports misuse
template <class... T> struct PointCount<Step<T...>> { static constexpr std::size_t value = 1; };
template <class... B> struct PointCount<Parallel<B...>> { static constexpr std::size_t value = 1; };
template <class... N> struct PointCount<Seq<N...>> { static constexpr std::size_t value = (PointCount<N>::value + ... + 0); };
template <class... N> struct PointCount<Loop<N...>> { static constexpr std::size_t value = PointCount<Seq<N...>>::value; };

template <std::size_t Points>
struct Program {
  static constexpr std::size_t kSlots = Points == 0 ? 1 : Points;  // no zero-length arrays
  std::size_t size = 0;
  Mask reads[kSlots] = {};
  Mask kills[kSlots] = {};
  Mask touched[kSlots] = {};
  Mask successors[kSlots] = {};  // bit q set: control may go from this point to q
  Mask entries = 0;              // points control may start at

  constexpr Mask add_point(Mask point_reads, Mask point_kills, Mask point_touched) {
    reads[size] = point_reads;
    kills[size] = point_kills;
    touched[size] = point_touched;
    return bit(size++);
  }
  constexpr void connect(Mask from, Mask to) {
    for (std::size_t p = 0; p < size; ++p)
      if (from & bit(p)) successors[p] |= to;
  }
};

// A lowered subtree: the points control can enter at, the points it can leave from,
// and whether control can pass straight through (an empty or zero-trip part).
struct Fragment {
  Mask entries = 0;
  Mask exits = 0;
  bool passes_through = true;
};

template <class P>
constexpr Fragment then(P& program, Fragment first, Fragment next) {
  program.connect(first.exits, next.entries);
  return {first.entries | (first.passes_through ? next.entries : 0),
          next.exits | (next.passes_through ? first.exits : 0),
          first.passes_through && next.passes_through};
}

template <class BufferList, class Node>
struct Lower {
  static_assert(smem_outline_node_is_not_Step_Seq_Loop_or_Parallel<Node>::value, "");
  template <class P> static constexpr Fragment emit(P&) { return {}; }
};

template <class L, class... T>
struct Lower<L, Step<T...>> {
  template <class P>
  static constexpr Fragment emit(P& program) {
    using E = Effect<L, Step<T...>>;
    const Mask point = program.add_point(E::kReads, E::kKills, E::kTouched);
    return {point, point, false};
  }
};

template <class L, class... N>
struct Lower<L, Seq<N...>> {
  template <class P>
  static constexpr Fragment emit(P& program) {
    Fragment seq;
    ((seq = then(program, seq, Lower<L, N>::emit(program))), ...);
    return seq;
  }
};

// The back edge (body exits -> body entries) is what makes a read that no earlier step
// of the same iteration overwrote live across iterations of this loop, and only this
// one: enclosing loops see the loop as an ordinary subgraph.
template <class L, class... N>
struct Lower<L, Loop<N...>> {
  template <class P>
  static constexpr Fragment emit(P& program) {
    Fragment body = Lower<L, Seq<N...>>::emit(program);
    program.connect(body.exits, body.entries);
    body.passes_through = true;
    return body;
  }
};

template <class BufferList, class Outline>
struct Liveness;

// The branches interleave in unknown ways, so the scope is one point that touches all
// the branches touch: those buffers occupy memory together, and together with whatever
// is live across the scope. It reads what some branch may read before that branch
// overwrote it (program order within a branch still holds, so a read after the
// branch's own Overwrite cannot see the value from before the scope), and it overwrites
// nothing: which write lands last is unknown.
template <class L, class... B>
struct Lower<L, Parallel<B...>> {
  template <class P>
  static constexpr Fragment emit(P& program) {
    constexpr Mask reads = (Liveness<L, B>::live_at_entry() | ... | Mask{0});
    const Mask point = program.add_point(reads, 0, Effect<L, Parallel<B...>>::kTouched);
    return {point, point, false};
  }
};

template <std::size_t Points>
struct Occupancy {
  static constexpr std::size_t kSlots = Points == 0 ? 1 : Points;
  Mask live_in[kSlots] = {};
  Mask live_out[kSlots] = {};
  Mask occupied[kSlots] = {};  // buffers that must exist at each point
};

template <class BufferList, class Outline>
struct Liveness {
  static constexpr std::size_t kPoints = PointCount<Outline>::value;
  static_assert(kPoints <= kMaxPoints,
                "the smem outline has more than 64 program points (Steps plus Parallel scopes); "
                "merge steps that touch the same buffers");

  static constexpr Program<kPoints> lower() {
    Program<kPoints> program;
    program.entries = Lower<BufferList, Outline>::emit(program).entries;
    return program;
  }
  static constexpr Program<kPoints> kProgram = lower();

  static constexpr Occupancy<kPoints> solve() {
    Occupancy<kPoints> r;
    // Reverse order visits most successors first, so this converges in a few sweeps.
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t p = kPoints; p-- > 0;) {
        Mask out = 0;
        for (std::size_t q = 0; q < kPoints; ++q)
          if (kProgram.successors[p] & bit(q)) out |= r.live_in[q];
        const Mask in = kProgram.reads[p] | (out & ~kProgram.kills[p]);
        changed = changed || in != r.live_in[p] || out != r.live_out[p];
        r.live_in[p] = in;
        r.live_out[p] = out;
      }
    }
    for (std::size_t p = 0; p < kPoints; ++p)
      r.occupied[p] = r.live_in[p] | r.live_out[p] | kProgram.touched[p];
    return r;
  }
  static constexpr Occupancy<kPoints> kResult = solve();

  // Buffers whose value from before the outline may still be read in it.
  static constexpr Mask live_at_entry() {
    Mask live = 0;
    for (std::size_t p = 0; p < kPoints; ++p)
      if (kProgram.entries & bit(p)) live |= kResult.live_in[p];
    return live;
  }
};

}  // namespace detail
}  // namespace tessera::smem
