// The static shared-memory planner: byte offsets for a kernel's shared-memory (LDS)
// buffers such that buffers that exist at the same time never overlap, computed in
// constexpr code from the liveness in smem_outline.hpp.
//
//   struct StagesA : smem::Buffer<3 * 128 * 32 * 2> { static constexpr const char* kName = "A stages"; };
//   struct StagesB : smem::Buffer<3 * 128 * 32 * 2> { static constexpr const char* kName = "B stages"; };
//   struct CTile   : smem::Buffer<128 * 128 * 2>    { static constexpr const char* kName = "C tile"; };
//   using MainLoop = smem::Loop<smem::Step<smem::Read<StagesA, StagesB>, smem::Write<StagesA, StagesB>>>;
//   using P = smem::Plan<smem::Buffers<StagesA, StagesB, CTile>,
//                        smem::Seq<smem::Step<smem::Overwrite<StagesA, StagesB>>, MainLoop,
//                                  smem::Step<smem::Overwrite<CTile>>, smem::Step<smem::Read<CTile>>>>;
//   static_assert(smem::AssertFits<Gfx942, P>::value);
//   __shared__ alignas(P::kBaseAlign) char smem[P::kTotalBytes];
//   half* a = P::pointer<StagesA, half>(smem);
//
// Placement: buffers that occupy memory at a common program point interfere. Each
// buffer goes at the lowest aligned offset that overlaps no interfering buffer placed
// before it. Several orders are tried (largest first, longest-lived first, ...); if
// none reaches the lower bound and there are few buffers, a branch-and-bound search
// over orders looks for the best (exact when it finishes within its budget: see Search).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"
#include "tessera/memory/smem_outline.hpp"

namespace tessera::smem {
namespace detail {

// Exact search runs only up to this many non-empty buffers, and stops after this many
// buffer-pair overlap tests: compilers cap constant evaluation (clang at about 1M steps)
// and compile time matters more than the last bytes of an unusual plan.
inline constexpr int kExactSearchMaxBuffers = 10;
inline constexpr long kExactSearchBudget = 100000;
inline constexpr std::size_t kNoOffset = ~std::size_t{0};

template <std::size_t N>
struct Problem {
  static constexpr std::size_t kSlots = N == 0 ? 1 : N;
  std::size_t bytes[kSlots] = {};
  std::size_t align[kSlots] = {};
  Mask conflicts[kSlots] = {};  // other buffers occupying memory at a common point
  int lifetime[kSlots] = {};    // points at which the buffer occupies memory
  int first_point[kSlots] = {};
  std::size_t neighbour_bytes[kSlots] = {};
  std::size_t lower_bound = 0;
};

template <std::size_t N>
struct Layout {
  static constexpr std::size_t kSlots = N == 0 ? 1 : N;
  std::size_t offset[kSlots] = {};
  std::size_t total = 0;
};

// occupied[p]: the buffers that must exist at program point p (from the liveness).
template <std::size_t N>
constexpr Problem<N> make_problem(const std::size_t* bytes, const std::size_t* align, const Mask* occupied,
                                  std::size_t points) {
  Problem<N> pb;
  for (std::size_t b = 0; b < N; ++b) {
    pb.bytes[b] = bytes[b];
    pb.align[b] = align[b];
    pb.first_point[b] = int(points);
  }
  for (std::size_t p = 0; p < points; ++p) {
    std::size_t live_bytes = 0;
    for (std::size_t b = 0; b < N; ++b) {
      if (!(occupied[p] & bit(b))) continue;
      live_bytes += bytes[b];
      ++pb.lifetime[b];
      pb.first_point[b] = const_min(pb.first_point[b], int(p));
      // An empty buffer overlaps nothing, so it need not move anything out of its way.
      if (bytes[b] != 0) pb.conflicts[b] |= occupied[p] & ~bit(b);
    }
    // Raw bytes, no padding: padding depends on the packing, and the bound must hold for
    // every packing.
    pb.lower_bound = const_max(pb.lower_bound, live_bytes);
  }
  for (std::size_t b = 0; b < N; ++b) {
    if (bytes[b] == 0) pb.conflicts[b] = 0;
    for (std::size_t c = 0; c < N; ++c)
      if (bytes[c] == 0) pb.conflicts[b] &= ~bit(c);
    for (std::size_t c = 0; c < N; ++c)
      if (pb.conflicts[b] & bit(c)) pb.neighbour_bytes[b] += bytes[c];
  }
  return pb;
}

template <std::size_t N>
constexpr bool overlaps(const Problem<N>& pb, const std::size_t* offset, std::size_t b, std::size_t at, Mask others) {
  for (std::size_t c = 0; c < N; ++c)
    if ((others & bit(c)) && at < offset[c] + pb.bytes[c] && offset[c] < at + pb.bytes[b]) return true;
  return false;
}

// The lowest free aligned offset is 0 or the end of an interfering buffer rounded up:
// anything lower by one alignment step would overlap that buffer.
template <std::size_t N>
constexpr std::size_t lowest_offset(const Problem<N>& pb, const std::size_t* offset, Mask placed, std::size_t b) {
  if (pb.bytes[b] == 0) return 0;
  const Mask neighbours = placed & pb.conflicts[b];
  std::size_t best = overlaps(pb, offset, b, 0, neighbours) ? kNoOffset : 0;
  for (std::size_t c = 0; c < N && best != 0; ++c) {
    if (!(neighbours & bit(c))) continue;
    const std::size_t at = round_up(offset[c] + pb.bytes[c], pb.align[b]);
    if (at < best && !overlaps(pb, offset, b, at, neighbours)) best = at;
  }
  return best;
}

template <std::size_t N>
constexpr Layout<N> place_in_order(const Problem<N>& pb, const std::size_t* order) {
  Layout<N> layout;
  Mask placed = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const std::size_t b = order[i];
    layout.offset[b] = lowest_offset(pb, layout.offset, placed, b);
    layout.total = const_max(layout.total, layout.offset[b] + pb.bytes[b]);
    placed |= bit(b);
  }
  return layout;
}

// kListOrder reproduces the unshared layout's order, so the total never exceeds it.
enum class Order {
  kLargestFirst,
  kLongestLivedFirst,
  kMostAlignedFirst,
  kOutlineOrder,
  kMostCrowdedFirst,
  kListOrder,
  kCount
};

template <std::size_t N>
constexpr std::size_t sort_key(const Problem<N>& pb, Order order, std::size_t b) {
  switch (order) {
    case Order::kLongestLivedFirst: return std::size_t(pb.lifetime[b]);
    case Order::kMostAlignedFirst: return pb.align[b];
    case Order::kOutlineOrder: return kMaxPoints - std::size_t(pb.first_point[b]);
    case Order::kMostCrowdedFirst: return pb.neighbour_bytes[b];
    case Order::kListOrder: return N - b;
    default: return pb.bytes[b];
  }
}

// Larger key first; ties by size, then lifetime, then list position (deterministic).
template <std::size_t N>
constexpr bool goes_before(const Problem<N>& pb, Order order, std::size_t a, std::size_t b) {
  if (sort_key(pb, order, a) != sort_key(pb, order, b)) return sort_key(pb, order, a) > sort_key(pb, order, b);
  if (pb.bytes[a] != pb.bytes[b]) return pb.bytes[a] > pb.bytes[b];
  if (pb.lifetime[a] != pb.lifetime[b]) return pb.lifetime[a] > pb.lifetime[b];
  return a < b;
}

// Branch and bound over placement orders. Only orders whose greedy offsets never go
// down are searched: re-placing an optimal layout greedily in its own offset order
// gives offsets no higher, and repeating that reaches an optimal layout that greedy
// placement in its offset order reproduces exactly, so such an order always exists.
template <std::size_t N>
struct Search {
  const Problem<N>& pb;
  Layout<N> best;
  std::size_t offset[Layout<N>::kSlots] = {};
  Mask all = 0;
  long budget = kExactSearchBudget;

  constexpr void extend(Mask placed, std::size_t end, std::size_t floor) {
    if (best.total == pb.lower_bound || budget <= 0) return;
    if (placed == all) {
      best.total = end;
      for (std::size_t b = 0; b < N; ++b) best.offset[b] = offset[b];
      return;
    }
    // Every buffer still to place will start at or above `floor`, so the total is at
    // least floor + the largest of them.
    std::size_t largest_left = 0;
    for (std::size_t b = 0; b < N; ++b)
      if ((all & ~placed) & bit(b)) largest_left = const_max(largest_left, pb.bytes[b]);
    if (floor + largest_left >= best.total) return;
    for (std::size_t b = 0; b < N; ++b) {
      if (!(all & bit(b)) || (placed & bit(b))) continue;
      budget -= long(N * N);  // what lowest_offset costs at most
      const std::size_t at = lowest_offset(pb, offset, placed, b);
      const std::size_t new_end = const_max(end, at + pb.bytes[b]);
      if (at < floor || new_end >= best.total) continue;
      offset[b] = at;
      extend(placed | bit(b), new_end, at);
    }
  }
};

template <std::size_t N>
constexpr Layout<N> pack(const Problem<N>& pb) {
  Layout<N> best;
  best.total = kNoOffset;
  for (int k = 0; k < int(Order::kCount); ++k) {
    const Order order = Order(k);
    std::size_t sequence[Layout<N>::kSlots] = {};
    for (std::size_t i = 0; i < N; ++i) {  // insertion sort: N is small
      std::size_t j = i;
      for (; j > 0 && goes_before(pb, order, i, sequence[j - 1]); --j) sequence[j] = sequence[j - 1];
      sequence[j] = i;
    }
    const Layout<N> layout = place_in_order(pb, sequence);
    if (layout.total < best.total) best = layout;
  }
  if (N == 0) best.total = 0;
  Mask non_empty = 0;
  for (std::size_t b = 0; b < N; ++b)
    if (pb.bytes[b] != 0) non_empty |= bit(b);
  if (best.total > pb.lower_bound && popcount(non_empty) <= kExactSearchMaxBuffers) {
    Search<N> search{pb, best};
    search.all = non_empty;
    search.extend(0, 0, 0);
    best = search.best;  // empty buffers stay at 0 in both
  }
  return best;
}

template <class... Bufs>
constexpr std::size_t unshared_bytes() {
  std::size_t end = 0;
  ((end = round_up(end, kAlignOf<Bufs>) + Bufs::kBytes), ...);
  return end;
}

template <class... Bufs>
constexpr std::size_t max_align() {
  std::size_t align = 1;
  ((align = const_max(align, kAlignOf<Bufs>)), ...);
  return align;
}

}  // namespace detail

template <class BufferList, class Outline>
struct Plan {
  static_assert(detail::kAlwaysFalse<BufferList>,
                "smem::Plan<BufferList, Outline>: the first argument must be smem::Buffers<...>");
};

template <class... Bufs, class Outline>
struct Plan<Buffers<Bufs...>, Outline> {
  using BufferList = Buffers<Bufs...>;
  using OutlineType = Outline;
  static constexpr std::size_t kBufferCount = sizeof...(Bufs);
  static_assert(kBufferCount <= detail::kMaxBuffers, "an smem plan holds at most 64 buffers");
  static_assert((detail::BufferEntryCheck<Bufs, Bufs...>::value && ... && true), "");

 private:
  using Live = detail::Liveness<BufferList, Outline>;
  static constexpr std::size_t kBufferBytes[] = {Bufs::kBytes..., 0};
  static constexpr std::size_t kBufferAligns[] = {detail::kAlignOf<Bufs>..., 1};
  static constexpr detail::Problem<kBufferCount> kProblem =
      detail::make_problem<kBufferCount>(kBufferBytes, kBufferAligns, Live::kResult.occupied, Live::kPoints);
  static constexpr detail::Layout<kBufferCount> kLayout = detail::pack(kProblem);
  template <class Buf>
  using Index = detail::BufferIndex<Buf, BufferList>;

 public:
  // Program points: Steps and Parallel scopes, numbered in outline order from 0.
  static constexpr std::size_t kPointCount = Live::kPoints;
  static constexpr std::size_t kTotalBytes = kLayout.total;
  // The most bytes occupied at any one program point, padding not counted.
  static constexpr std::size_t kLowerBoundBytes = kProblem.lower_bound;
  static constexpr std::size_t kUnsharedBytes = detail::unshared_bytes<Bufs...>();
  // The shared-memory base must be aligned to this; every offset is a multiple of its
  // buffer's alignment.
  static constexpr std::size_t kBaseAlign = detail::max_align<Bufs...>();

  template <class Buf>
  static constexpr std::size_t kIndex = Index<Buf>::value;
  template <class Buf>
  static constexpr std::size_t kOffset = Index<Buf>::kFound ? kLayout.offset[Index<Buf>::value] : 0;

  template <class Buf>
  TESSERA_HOST_DEVICE static constexpr std::size_t offset() {
    return kOffset<Buf>;
  }
  template <class Buf, class T>
  TESSERA_HOST_DEVICE static T* pointer(void* smem_base) {
    return reinterpret_cast<T*>(static_cast<char*>(smem_base) + kOffset<Buf>);
  }

  // ---- queries by buffer index (list order), for tests and tools ----
  static constexpr std::size_t buffer_bytes(std::size_t i) { return kProblem.bytes[i]; }
  static constexpr std::size_t buffer_align(std::size_t i) { return kProblem.align[i]; }
  static constexpr std::size_t buffer_offset(std::size_t i) { return kLayout.offset[i]; }
  static constexpr const char* buffer_name(std::size_t i) {
    constexpr const char* names[] = {Bufs::kName..., nullptr};
    return names[i];
  }
  // Buffer i must exist at program point p (live into or out of p, or touched by p).
  static constexpr bool occupies(std::size_t i, std::size_t point) {
    return (Live::kResult.occupied[point] >> i) & 1;
  }
  // Buffers i and j may not share bytes: both exist at a common point and neither is empty.
  static constexpr bool buffers_interfere(std::size_t i, std::size_t j) {
    return (kProblem.conflicts[i] >> j) & 1;
  }
  template <class Buf>
  static constexpr bool live_at(std::size_t point) {
    return Index<Buf>::kFound && occupies(Index<Buf>::value, point);
  }
  template <class A, class B>
  static constexpr bool interfere() {
    return Index<A>::kFound && Index<B>::kFound && buffers_interfere(Index<A>::value, Index<B>::value);
  }

  // Host only (plain inline function: device passes parse it but never emit it).
  static void print(std::FILE* out, const char* title = nullptr) {
    print_as(out, title, "shared-memory plan", "bytes", "B");
  }
  // The same for a plan of another memory kind (tmem_plan.hpp: columns of tensor memory):
  // `kind` names the plan, `units` heads the size column, `unit` follows the totals.
  static void print_as(std::FILE* out, const char* title, const char* kind, const char* units, const char* unit) {
    std::fprintf(out, "%s%s%s: %zu buffers, %zu program points\n", kind, title ? ": " : "", title ? title : "",
                 kBufferCount, kPointCount);
    std::fprintf(out, "  %-24s %9s %6s %9s %9s  %s\n", "buffer", units, "align", "offset", "end", "occupies points");
    for (std::size_t i = 0; i < kBufferCount; ++i) {
      std::fprintf(out, "  %-24s %9zu %6zu %9zu %9zu  ", buffer_name(i), buffer_bytes(i), buffer_align(i),
                   buffer_offset(i), buffer_offset(i) + buffer_bytes(i));
      bool any = false;
      for (std::size_t p = 0; p < kPointCount; ++p) {
        if (!occupies(i, p) || (p > 0 && occupies(i, p - 1))) continue;
        std::size_t last = p;
        while (last + 1 < kPointCount && occupies(i, last + 1)) ++last;
        std::fprintf(out, last == p ? "%s%zu" : "%s%zu-%zu", any ? "," : "", p, last);
        any = true;
      }
      std::fprintf(out, "%s\n", any ? "" : "-");
    }
    std::fprintf(out, "  total %zu %s, lower bound %zu %s, unshared %zu %s (reuse saves %zu %s)\n", kTotalBytes, unit,
                 kLowerBoundBytes, unit, kUnsharedBytes, unit, kUnsharedBytes - kTotalBytes, unit);
  }
};

// ---- capacity -------------------------------------------------------------------------

// Instantiated only when the plan does not fit, so that the compiler's "in instantiation
// of" line spells out the target, the total, the capacity and every buffer of the plan.
template <class Arch, std::size_t TotalBytes, std::size_t CapacityBytes, class... Bufs>
struct smem_plan_exceeds_capacity {
  static_assert(TotalBytes <= CapacityBytes,
                "the shared-memory plan is larger than the target allows: TotalBytes > CapacityBytes "
                "(the buffers are the remaining template arguments; print the plan to see their lifetimes)");
};

template <class Arch, class P>
inline constexpr bool fits = P::kTotalBytes <= Arch::kSmemBytesPerBlock;

namespace detail {
struct PlanFits {};
template <class Arch, class P, class BufferList = typename P::BufferList>
struct CapacityCheck;
template <class Arch, class P, class... Bufs>
struct CapacityCheck<Arch, P, Buffers<Bufs...>> {
  using type = std::conditional_t<fits<Arch, P>, PlanFits,
                                  smem_plan_exceeds_capacity<Arch, P::kTotalBytes, Arch::kSmemBytesPerBlock, Bufs...>>;
};
}  // namespace detail

// static_assert(smem::AssertFits<Gfx942, MyPlan>::value); fails with the message above.
template <class Arch, class P>
struct AssertFits : detail::CapacityCheck<Arch, P>::type {
  static constexpr bool value = fits<Arch, P>;
};

}  // namespace tessera::smem
