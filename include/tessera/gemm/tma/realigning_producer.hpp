// The realigning producer of the TMA families (Hopper wgmma, Blackwell tcgen05): for operands TMA
// cannot describe (a row pitch that is not a multiple of 16 bytes, e.g. lda = 4103 halves, or
// a base address off a 16-byte boundary). It fills the same 128-byte-swizzled stages the TMA
// would, so the consumers and their MMA descriptors do not change.
//
// Why not plain loads into registers: a K tile of a 128 x 256 tile is 48 KB, and at the
// tensor cores' pace an SM needs one about every microsecond, i.e. tens of KB in flight at
// all times against about a microsecond of memory latency; 128 producer threads cannot hold that in registers, and one
// bulk copy per line is no better: the copy engine takes small copies one at a time
// (benchmark/notes/wgmma.md, section Versions). So the 128 producer
// threads work in two steps, one K tile apart:
//
//  1. Copy: each line of the K tile (a row of a K-major operand, one k of an MN-major one)
//     starts wherever the row happens to start, element-aligned at worst. The 16-byte words
//     of its aligned hull (8 or 9 for a 128-byte line) are copied with cp.async into a raw
//     slot: asynchronous, no registers, as many in flight as there are words. Each thread
//     then arrives on the slot's barrier once its copies have landed.
//  2. Realign: each 16-byte chunk of the stage is bytes [shift, shift + 16) of two
//     consecutive raw words (the second taken from the neighbouring lane by a shuffle),
//     masked where the line passes the matrix's edge, stored at its swizzled place. Then
//     every thread fences the async proxy (wgmma reads what they wrote) and arrives on the
//     stage's full barrier.
// K tile n is realigned while the copies of tile n + kRawSlots fly.
//
// Lines outside the matrix are zeros. A line whose hull would leave the operand's memory
// (the first line of an operand that starts off a 16-byte boundary, the last line of one
// that ends off it) is loaded element by element in step 2 instead, so nothing outside the
// operand is ever read.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

// The realigning path's raw line slots for the stage tiles of Operands (tma/operand_tiles.hpp): a
// slot holds one K tile's lines of A and of B, each line the 16-byte-aligned hull of its
// elements (one 16-byte word more than the line). Two stages, and two slots where they fit
// beside them in Arch's shared memory, else one. Host-includable (the plan is built from it).
template <class Operands, class Arch>
struct RawLineSlots {
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  static constexpr int kRawLinesA = Operands::kKMajorA ? Operands::kBlockM : Operands::kBlockK;
  static constexpr int kRawPitchA = (Operands::kKMajorA ? Operands::kBlockK : Operands::kBlockM) *
                                        Operands::kElementBytesA + 16;
  static constexpr int kRawLinesB = Operands::kKMajorB ? Operands::kBlockN : Operands::kBlockK;
  static constexpr int kRawPitchB = (Operands::kKMajorB ? Operands::kBlockK : Operands::kBlockN) *
                                        Operands::kElementBytesB + 16;
  static constexpr int kRawBytesA = kRawLinesA * kRawPitchA;
  static constexpr int kRawSlotBytes = kRawBytesA + kRawLinesB * kRawPitchB;
  static constexpr int kStages = 2;
  static constexpr int kSlots =
      2 * (TileA::kBytes + TileB::kBytes) + 2 * kRawSlotBytes + 128 <= int(Arch::kSmemBytesPerBlock) ? 2 : 1;
};

#if defined(TESSERA_CUDA)

namespace detail {

struct Chunk16 {
  std::uint32_t w[4];
};

// Bytes [shift, shift + 16) of the 32 bytes lo:hi.
TESSERA_DEVICE TESSERA_FORCEINLINE Chunk16 realign(const Chunk16& lo, const Chunk16& hi, int shift) {
  const std::uint32_t w[8] = {lo.w[0], lo.w[1], lo.w[2], lo.w[3], hi.w[0], hi.w[1], hi.w[2], hi.w[3]};
  const int q = shift >> 2;       // whole words to skip
  const int r = (shift & 3) * 8;  // then 0 to 24 bits
  Chunk16 out;
  TESSERA_UNROLL
  for (int j = 0; j < 4; ++j) {
    // w[q + j] and w[q + j + 1] with q in 0..3, by selects: a register array indexed at
    // run time would move to local memory.
    const std::uint32_t a = q == 0 ? w[j] : q == 1 ? w[j + 1] : q == 2 ? w[j + 2] : w[j + 3];
    const std::uint32_t b = q == 0 ? w[j + 1] : q == 1 ? w[j + 2] : q == 2 ? w[j + 3] : w[j + 4];
    out.w[j] = __funnelshift_r(a, b, r);
  }
  return out;
}

// Elements [valid, 16 / kElementBytes) of a chunk set to zero.
template <int kElementBytes>
TESSERA_DEVICE TESSERA_FORCEINLINE void keep_first(Chunk16& c, int valid) {
  constexpr int kPerWord = 4 / kElementBytes;
  constexpr std::uint32_t kOnes = kElementBytes == 4 ? 0xffffffffu : (1u << (8 * kElementBytes)) - 1u;
  TESSERA_UNROLL
  for (int j = 0; j < 4; ++j) {
    std::uint32_t mask = 0;
    TESSERA_UNROLL
    for (int e = 0; e < kPerWord; ++e) mask |= (kPerWord * j + e < valid ? kOnes << (8 * kElementBytes * e) : 0u);
    c.w[j] &= mask;
  }
}

TESSERA_DEVICE TESSERA_FORCEINLINE Chunk16 load_shared16(std::uint32_t address) {
  Chunk16 c;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(c.w[0]), "=r"(c.w[1]), "=r"(c.w[2]), "=r"(c.w[3])
               : "r"(address));
  return c;
}
TESSERA_DEVICE TESSERA_FORCEINLINE void store_shared16(std::uint32_t address, const Chunk16& c) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(c.w[0]), "r"(c.w[1]), "r"(c.w[2]),
               "r"(c.w[3])
               : "memory");
}

template <int kBytes>
struct UnsignedOf;
template <>
struct UnsignedOf<1> {
  using type = std::uint8_t;
};
template <>
struct UnsignedOf<2> {
  using type = std::uint16_t;
};
template <>
struct UnsignedOf<4> {
  using type = std::uint32_t;
};

}  // namespace detail

// The K tiles of a worker's units, one after the other: unit j's tiles [k_begin, k_end), then
// unit j + 1's. Units without K tiles (K = 0) are stepped over.
template <class Scheduler>
struct KTileCursor {
  const Scheduler* scheduler;
  int worker, units, j, kt;
  WorkUnit unit;

  TESSERA_DEVICE static KTileCursor begin(const Scheduler& s, int worker) {
    KTileCursor c{&s, worker, s.units_of(worker), 0, 0, WorkUnit{}};
    if (c.units > 0) {
      c.unit = s.unit(worker, 0, 0, 0);
      c.kt = c.unit.k_begin;
      c.settle();
    }
    return c;
  }
  TESSERA_DEVICE bool valid() const { return j < units; }
  TESSERA_DEVICE void next() {
    ++kt;
    settle();
  }

 private:
  TESSERA_DEVICE void settle() {
    while (j < units && kt >= unit.k_end) {
      if (++j < units) {
        unit = scheduler->unit(worker, j, 0, 0);
        kt = unit.k_begin;
      }
    }
  }
};

template <class Operands, class Slots>
struct RealigningProducer {
  static constexpr int kThreads = 128;
  static constexpr int kStages = Slots::kStages;
  static constexpr int kSlots = Slots::kSlots;
  static constexpr int kSlotBarrier = 5;  // named barrier of the 128 producer threads
  static constexpr int kBK = Operands::kBlockK;
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;

  // One operand's K tile: kLines lines (rows of a K-major operand, k of an MN-major one) of
  // kLineElements elements, kPitch bytes apart in the raw slot.
  template <bool kKMajor, int kOuter, int kPitch, int kElementBytes>
  struct OperandTile {
    static constexpr bool kIsKMajor = kKMajor;
    static constexpr int kBytesPerElement = kElementBytes;
    static constexpr int kLines = kKMajor ? kOuter : kBK;
    static constexpr int kLineElements = kKMajor ? kBK : kOuter;
    static constexpr int kPerChunk = 16 / kElementBytes;  // elements per 16-byte chunk
    static constexpr int kChunksPerLine = kLineElements / kPerChunk;
    static constexpr int kWordsPerLine = kChunksPerLine + 1;  // a misaligned line spans one more
    static constexpr int kRawPitch = kPitch;
    const unsigned char* base;   // the operand's memory: [base, end)
    const unsigned char* end;
    const unsigned char* first;  // line 0's first element
    std::int64_t pitch;          // bytes between lines
    int lines;                   // lines inside the matrix
    int elements;                // elements of each line inside the matrix

    enum Kind { kZero, kWords, kElements };
    struct Line {
      Kind kind;
      const unsigned char* start;
      int shift;  // start's offset into its 16-byte word
    };
    TESSERA_DEVICE Line line(int l) const {
      Line r{kZero, nullptr, 0};
      if (l >= lines || elements <= 0) return r;
      r.start = first + l * pitch;
      r.shift = int(reinterpret_cast<std::uintptr_t>(r.start) & 15u);
      const unsigned char* lo = r.start - r.shift;
      const int hull = (r.shift + kLineElements * kElementBytes + 15) / 16 * 16;
      r.kind = lo >= base && lo + hull <= end ? kWords : kElements;
      return r;
    }
  };
  using TileOfA = OperandTile<Operands::kKMajorA, Operands::kBlockM, Slots::kRawPitchA, Operands::kElementBytesA>;
  using TileOfB = OperandTile<Operands::kKMajorB, Operands::kBlockN, Slots::kRawPitchB, Operands::kElementBytesB>;
  static constexpr int kRawBytesA = Slots::kRawBytesA;

  // The producer warpgroup's 128 threads (thread 0..127): every K tile of every unit of the
  // worker, in order.
  template <class Params>
  TESSERA_DEVICE static void run(const Params& p, std::uint64_t* full, std::uint64_t* empty,
                                 std::uint64_t* raw_full, unsigned char* raw, unsigned char* stages_a,
                                 unsigned char* stages_b, int worker, int thread) {
    using Cursor = KTileCursor<decltype(p.scheduler)>;
    Cursor ahead = Cursor::begin(p.scheduler, worker);  // the next K tile to copy
    for (int s = 0; s < kSlots && ahead.valid(); ++s, ahead.next()) copy(p, ahead, s, raw, raw_full, thread);
    RingPosition<kSlots> slot;
    RingPosition<kStages> stage;
    for (Cursor now = Cursor::begin(p.scheduler, worker); now.valid(); now.next()) {
      nvidia::mbarrier_wait(&raw_full[slot.stage], slot.phase);
      nvidia::mbarrier_wait(&empty[stage.stage], stage.phase ^ 1u);
      const TileOfA a = tile_a(p, now);
      const TileOfB b = tile_b(p, now);
      const std::uint32_t slot_base = nvidia::smem_address(raw + slot.stage * Slots::kRawSlotBytes);
      realign<TileA>(a, slot_base, nvidia::smem_address(stages_a + stage.stage * TileA::kBytes), thread);
      realign<TileB>(b, slot_base + kRawBytesA, nvidia::smem_address(stages_b + stage.stage * TileB::kBytes),
                     thread);
      nvidia::fence_proxy_async_shared();  // the tensor cores read these stores through the async proxy
      nvidia::mbarrier_arrive(&full[stage.stage]);
      if (ahead.valid()) {  // into the slot just read
        nvidia::named_barrier_sync(kSlotBarrier, kThreads);  // every thread is done with the slot
        copy(p, ahead, slot.stage, raw, raw_full, thread);
        ahead.next();
      }
      slot.advance();
      stage.advance();
    }
  }

 private:
  // The K tile at the cursor, of A and of B.
  template <class Params, class Cursor>
  TESSERA_DEVICE static TileOfA tile_a(const Params& p, const Cursor& at) {
    return make_tile<TileOfA>(p.a, p.lda, p.span_a, p.M, p.K, std::int64_t(at.unit.m) * Operands::kBlockM,
                              std::int64_t(at.kt) * kBK);
  }
  template <class Params, class Cursor>
  TESSERA_DEVICE static TileOfB tile_b(const Params& p, const Cursor& at) {
    return make_tile<TileOfB>(p.b, p.ldb, p.span_b, p.N, p.K, std::int64_t(at.unit.n) * Operands::kBlockN,
                              std::int64_t(at.kt) * kBK);
  }
  template <class Tile, class T>
  TESSERA_DEVICE static Tile make_tile(const T* ptr, std::int64_t ld, std::int64_t span, std::int64_t outer_extent,
                                       std::int64_t K, std::int64_t outer0, std::int64_t k0) {
    constexpr std::int64_t kSize = Tile::kBytesPerElement;
    const unsigned char* base = reinterpret_cast<const unsigned char*>(ptr);
    const std::int64_t strided0 = Tile::kIsKMajor ? outer0 : k0, along0 = Tile::kIsKMajor ? k0 : outer0;
    const std::int64_t lines = (Tile::kIsKMajor ? outer_extent : K) - strided0;
    const std::int64_t elements = (Tile::kIsKMajor ? K : outer_extent) - along0;
    return Tile{base, base + span * kSize, base + (strided0 * ld + along0) * kSize, ld * kSize,
                int(lines < Tile::kLines ? lines : Tile::kLines),
                int(elements < Tile::kLineElements ? elements : Tile::kLineElements)};
  }

  // Step 1 for the K tile at the cursor: the hull words of its lines into raw slot `s`, then
  // one arrival on the slot's barrier when they have landed. Consecutive threads take
  // consecutive words of a line, so each warp's copies are coalesced.
  template <class Params, class Cursor>
  TESSERA_DEVICE static void copy(const Params& p, const Cursor& at, int s, unsigned char* raw,
                                  std::uint64_t* raw_full, int thread) {
    const std::uint32_t slot_base = nvidia::smem_address(raw + s * Slots::kRawSlotBytes);
    copy_words(tile_a(p, at), slot_base, thread);
    copy_words(tile_b(p, at), slot_base + kRawBytesA, thread);
    nvidia::cp_async_arrive(&raw_full[s]);
  }

  template <class Tile>
  TESSERA_DEVICE static void copy_words(const Tile& tile, std::uint32_t raw, int thread) {
    constexpr int kWords = Tile::kLines * Tile::kWordsPerLine;
    constexpr int kIterations = (kWords + kThreads - 1) / kThreads;
    // Unrolled by 4: the address arithmetic of several words overlaps (one warp per
    // scheduler has nothing else to hide latency with).
    TESSERA_PRAGMA(unroll 4)
    for (int i = 0; i < kIterations; ++i) {
      const int w = i * kThreads + thread;
      const int l = w / Tile::kWordsPerLine, word = w % Tile::kWordsPerLine;
      const auto line = tile.line(l);
      // A line that starts on a 16-byte boundary has no extra word.
      if (w < kWords && line.kind == Tile::kWords && (word < Tile::kChunksPerLine || line.shift != 0)) {
        nvidia::cp_async_16(raw + l * Tile::kRawPitch + word * 16, line.start - line.shift + word * 16);
      }
    }
  }

  // Step 2: every chunk of one operand's K tile. A warp takes 32 consecutive chunks (whole
  // lines, or runs of one line): lane i's second raw word is lane i+1's first when both
  // are on the same line, so each chunk costs one shared-memory read. kUnroll groups are
  // in flight at once: each group is a chain of dependent steps (read, shuffle, shift,
  // store), and with one producer warp per scheduler only independent groups hide their
  // latency (one group at a time was several times slower: benchmark/notes/wgmma.md, section
  // Versions, the realigning path's chunk groups).
  template <class Stage, class Tile>
  TESSERA_DEVICE static void realign(const Tile& tile, std::uint32_t raw, std::uint32_t stage, int thread) {
    constexpr int kChunks = Tile::kLines * Tile::kChunksPerLine;
    static_assert(kChunks % kThreads == 0, "Tessera: the producer realigns a K tile 128 chunks at a time");
    constexpr int kGroups = kChunks / kThreads;  // per warp
    constexpr int kUnroll = kGroups < 4 ? kGroups : 4;
    static_assert(kGroups % kUnroll == 0, "");
    const int lane = thread % 32, warp = thread / 32;
    TESSERA_NO_UNROLL
    for (int g0 = 0; g0 < kGroups; g0 += kUnroll) {
      detail::Chunk16 lo[kUnroll], hi[kUnroll];
      typename Tile::Line line[kUnroll];
      int l[kUnroll], c[kUnroll];
      TESSERA_UNROLL
      for (int u = 0; u < kUnroll; ++u) {
        const int q = (g0 + u) * kThreads + warp * 32 + lane;
        l[u] = q / Tile::kChunksPerLine;
        c[u] = q % Tile::kChunksPerLine;
        line[u] = tile.line(l[u]);
        lo[u] = detail::Chunk16{{0u, 0u, 0u, 0u}};
        if (line[u].kind == Tile::kWords) lo[u] = detail::load_shared16(raw + l[u] * Tile::kRawPitch + c[u] * 16);
      }
      TESSERA_UNROLL
      for (int u = 0; u < kUnroll; ++u) {
        TESSERA_UNROLL
        for (int w = 0; w < 4; ++w) hi[u].w[w] = __shfl_down_sync(0xffffffffu, lo[u].w[w], 1);
        const bool last_of_line = c[u] == Tile::kChunksPerLine - 1 || lane == 31;
        if (line[u].kind == Tile::kWords && last_of_line && line[u].shift != 0) {
          hi[u] = detail::load_shared16(raw + l[u] * Tile::kRawPitch + c[u] * 16 + 16);
        }
      }
      TESSERA_UNROLL
      for (int u = 0; u < kUnroll; ++u) {
        detail::Chunk16 v{{0u, 0u, 0u, 0u}};
        constexpr int kPer = Tile::kPerChunk;
        const int valid = tile.elements - c[u] * kPer;
        if (line[u].kind == Tile::kWords) {
          v = detail::realign(lo[u], hi[u], line[u].shift);
          if (valid < kPer) detail::keep_first<Tile::kBytesPerElement>(v, valid > 0 ? valid : 0);
        } else if (line[u].kind == Tile::kElements && valid > 0) {
          v = load_elements<Tile::kBytesPerElement>(line[u].start + c[u] * 16, valid < kPer ? valid : kPer);
        }
        // (outer, k) of the chunk's first element: a K-major line is a row, an MN-major one a k.
        const int outer = Tile::kIsKMajor ? l[u] : c[u] * kPer;
        const int k = Tile::kIsKMajor ? c[u] * kPer : l[u];
        detail::store_shared16(stage + Stage::offset(outer, k), v);
      }
    }
  }

  // The element path: `valid` elements of kElementBytes, zeros after them.
  template <int kElementBytes>
  TESSERA_DEVICE static detail::Chunk16 load_elements(const unsigned char* src, int valid) {
    using E = typename detail::UnsignedOf<kElementBytes>::type;
    constexpr int kPer = 16 / kElementBytes, kPerWord = 4 / kElementBytes;
    E e[kPer];
    const E* s = reinterpret_cast<const E*>(src);
    TESSERA_UNROLL
    for (int i = 0; i < kPer; ++i) e[i] = i < valid ? s[i] : E(0);
    detail::Chunk16 c;
    TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) {
      std::uint32_t w = 0;
      TESSERA_UNROLL
      for (int k = 0; k < kPerWord; ++k) w |= std::uint32_t(e[kPerWord * i + k]) << (8 * kElementBytes * k);
      c.w[i] = w;
    }
    return c;
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
