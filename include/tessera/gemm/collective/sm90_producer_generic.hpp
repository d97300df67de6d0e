// The generic producer of the Hopper kernel: for operands TMA cannot describe (a row
// pitch that is not a multiple of 16 bytes, e.g. lda = 4103 halves, or a base address off
// a 16-byte boundary). It fills the same 128-byte-swizzled stages the TMA would, so the
// consumers and their wgmma descriptors do not change.
//
// Why not plain loads into registers: a K tile of a 128 x 256 tile is 48 KB, and at the
// tensor cores' pace an SM needs it every ~1.2 us, i.e. ~40 KB in flight at all times
// against ~1 us of memory latency; 128 producer threads cannot hold that in registers (the
// first version did, 8 realigning loads per thread in flight, and reached 61 TFLOP/s on an
// H100; one bulk copy per line instead reached 69: the copy engine takes small copies one
// at a time. benchmark/notes/wgmma.md). So the 128 producer threads work in two steps, one
// K tile apart:
//
//  1. Copy: each line of the K tile (a row of a K-major operand, one k of an MN-major one)
//     starts wherever the row happens to start, 2-byte aligned at worst. The 16-byte words
//     of its aligned hull (8 or 9 for a K-major line) are copied with cp.async into a raw
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
#include "tessera/gemm/collective/sm90_pipeline.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

namespace detail {

struct Chunk16 {
  std::uint32_t w[4];
};

// Bytes [shift, shift + 16) of the 32 bytes lo:hi, shift even (2-byte elements).
TESSERA_DEVICE TESSERA_FORCEINLINE Chunk16 realign(const Chunk16& lo, const Chunk16& hi, int shift) {
  const std::uint32_t w[8] = {lo.w[0], lo.w[1], lo.w[2], lo.w[3], hi.w[0], hi.w[1], hi.w[2], hi.w[3]};
  const int q = shift >> 2;       // whole words to skip
  const int r = (shift & 3) * 8;  // then 0 or 16 bits
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

// Elements [valid, 8) of a chunk of 2-byte elements set to zero.
TESSERA_DEVICE TESSERA_FORCEINLINE void keep_first(Chunk16& c, int valid) {
  TESSERA_UNROLL
  for (int j = 0; j < 4; ++j) {
    const int lo = 2 * j, hi = 2 * j + 1;
    const std::uint32_t mask = (lo < valid ? 0x0000ffffu : 0u) | (hi < valid ? 0xffff0000u : 0u);
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

}  // namespace detail

template <class Config>
struct GenericProducer {
  static constexpr int kThreads = 128;
  static constexpr int kStages = Config::kGenericStages;
  static constexpr int kSlots = Config::kRawSlots;
  static constexpr int kSlotBarrier = 5;  // named barrier of the 128 producer threads
  using TileA = typename Config::TileA;
  using TileB = typename Config::TileB;

  // One operand's K tile: kLines lines (rows of a K-major operand, k of an MN-major one) of
  // kLineElements elements, kPitch bytes apart in the raw slot.
  template <bool kKMajor, int kOuter, int kPitch>
  struct OperandTile {
    static constexpr bool kIsKMajor = kKMajor;
    static constexpr int kLines = kKMajor ? kOuter : Config::kBlockK;
    static constexpr int kLineElements = kKMajor ? Config::kBlockK : kOuter;
    static constexpr int kChunksPerLine = kLineElements / 8;
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
      const int hull = (r.shift + kLineElements * 2 + 15) / 16 * 16;
      r.kind = lo >= base && lo + hull <= end ? kWords : kElements;
      return r;
    }
  };
  using TileOfA = OperandTile<Config::kKMajorA, Config::kBlockM, Config::kRawPitchA>;
  using TileOfB = OperandTile<Config::kKMajorB, Config::kBlockN, Config::kRawPitchB>;
  static constexpr int kRawBytesA = Config::kRawLinesA * Config::kRawPitchA;

  // The producer warpgroup's 128 threads (thread 0..127): every K tile of every unit.
  template <class Params>
  TESSERA_DEVICE static void run(const Params& p, std::uint64_t* full, std::uint64_t* empty,
                                 std::uint64_t* raw_full, unsigned char* raw, unsigned char* stages_a,
                                 unsigned char* stages_b, int cluster, int k_tiles, int thread) {
    const int total = p.walk.units_of(cluster) * k_tiles;  // K tiles this CTA loads
    for (int n = 0; n < total && n < kSlots; ++n) copy(p, n, raw, raw_full, cluster, k_tiles, thread);
    RingPosition<kSlots> slot;
    RingPosition<kStages> stage;
    for (int n = 0; n < total; ++n) {
      nvidia::mbarrier_wait(&raw_full[slot.stage], slot.phase);
      nvidia::mbarrier_wait(&empty[stage.stage], stage.phase ^ 1u);
      const TileOfA a = tile_a(p, n, cluster, k_tiles);
      const TileOfB b = tile_b(p, n, cluster, k_tiles);
      const std::uint32_t slot_base = nvidia::smem_address(raw + slot.stage * Config::kRawSlotBytes);
      realign<TileA>(a, slot_base, nvidia::smem_address(stages_a + stage.stage * TileA::kBytes), thread);
      realign<TileB>(b, slot_base + kRawBytesA, nvidia::smem_address(stages_b + stage.stage * TileB::kBytes),
                     thread);
      nvidia::fence_proxy_async_shared();  // wgmma reads these stores through the async proxy
      nvidia::mbarrier_arrive(&full[stage.stage]);
      if (n + kSlots < total) {
        nvidia::named_barrier_sync(kSlotBarrier, kThreads);  // every thread is done with the slot
        copy(p, n + kSlots, raw, raw_full, cluster, k_tiles, thread);
      }
      slot.advance();
      stage.advance();
    }
  }

 private:
  // K tile n of this CTA (unit n / k_tiles, K tile n % k_tiles) of A and of B.
  template <class Params>
  TESSERA_DEVICE static TileOfA tile_a(const Params& p, int n, int cluster, int k_tiles) {
    const TileCoord t = p.walk.tile(cluster, n / k_tiles, 0, 0);
    return make_tile<TileOfA>(p.a, p.lda, p.span_a, p.M, p.K, std::int64_t(t.m) * Config::kBlockM,
                              std::int64_t(n % k_tiles) * Config::kBlockK);
  }
  template <class Params>
  TESSERA_DEVICE static TileOfB tile_b(const Params& p, int n, int cluster, int k_tiles) {
    const TileCoord t = p.walk.tile(cluster, n / k_tiles, 0, 0);
    return make_tile<TileOfB>(p.b, p.ldb, p.span_b, p.N, p.K, std::int64_t(t.n) * Config::kBlockN,
                              std::int64_t(n % k_tiles) * Config::kBlockK);
  }
  template <class Tile, class T>
  TESSERA_DEVICE static Tile make_tile(const T* ptr, std::int64_t ld, std::int64_t span, std::int64_t outer_extent,
                                       std::int64_t K, std::int64_t outer0, std::int64_t k0) {
    const unsigned char* base = reinterpret_cast<const unsigned char*>(ptr);
    const std::int64_t strided0 = Tile::kIsKMajor ? outer0 : k0, along0 = Tile::kIsKMajor ? k0 : outer0;
    const std::int64_t lines = (Tile::kIsKMajor ? outer_extent : K) - strided0;
    const std::int64_t elements = (Tile::kIsKMajor ? K : outer_extent) - along0;
    return Tile{base, base + span * 2, base + (strided0 * ld + along0) * 2, ld * 2,
                int(lines < Tile::kLines ? lines : Tile::kLines),
                int(elements < Tile::kLineElements ? elements : Tile::kLineElements)};
  }

  // Step 1 for K tile n: the hull words of its lines into raw slot n % kSlots, then one
  // arrival on the slot's barrier when they have landed. Consecutive threads take
  // consecutive words of a line, so each warp's copies are coalesced.
  template <class Params>
  TESSERA_DEVICE static void copy(const Params& p, int n, unsigned char* raw, std::uint64_t* raw_full, int cluster,
                                  int k_tiles, int thread) {
    const int s = n % kSlots;
    const std::uint32_t slot_base = nvidia::smem_address(raw + s * Config::kRawSlotBytes);
    copy_words(tile_a(p, n, cluster, k_tiles), slot_base, thread);
    copy_words(tile_b(p, n, cluster, k_tiles), slot_base + kRawBytesA, thread);
    nvidia::cp_async_arrive(&raw_full[s]);
  }
  template <class Tile>
  TESSERA_DEVICE static void copy_words(const Tile& tile, std::uint32_t raw, int thread) {
    constexpr int kWords = Tile::kLines * Tile::kWordsPerLine;
    TESSERA_NO_UNROLL
    for (int w = thread; w < kWords; w += kThreads) {
      const int l = w / Tile::kWordsPerLine, word = w % Tile::kWordsPerLine;
      const auto line = tile.line(l);
      // A line that starts on a 16-byte boundary has no extra word.
      if (line.kind == Tile::kWords && (word < Tile::kChunksPerLine || line.shift != 0)) {
        nvidia::cp_async_16(raw + l * Tile::kRawPitch + word * 16, line.start - line.shift + word * 16);
      }
    }
  }

  // Step 2: every chunk of one operand's K tile. A warp takes 32 consecutive chunks (whole
  // lines, or runs of one line): lane i's second raw word is lane i+1's first when both
  // are on the same line, so each chunk costs one shared-memory read.
  template <class Stage, class Tile>
  TESSERA_DEVICE static void realign(const Tile& tile, std::uint32_t raw, std::uint32_t stage, int thread) {
    constexpr int kChunks = Tile::kLines * Tile::kChunksPerLine;
    static_assert(kChunks % 32 == 0, "Tessera: the producer realigns a K tile 32 chunks at a time");
    const int lane = thread % 32, warp = thread / 32;
    TESSERA_NO_UNROLL
    for (int first = warp * 32; first < kChunks; first += kThreads) {
      const int q = first + lane;
      const int l = q / Tile::kChunksPerLine, c = q % Tile::kChunksPerLine;
      const auto line = tile.line(l);
      const std::uint32_t word = raw + l * Tile::kRawPitch + c * 16;
      detail::Chunk16 lo{{0u, 0u, 0u, 0u}};
      if (line.kind == Tile::kWords) lo = detail::load_shared16(word);
      detail::Chunk16 hi;
      TESSERA_UNROLL
      for (int w = 0; w < 4; ++w) hi.w[w] = __shfl_down_sync(0xffffffffu, lo.w[w], 1);
      detail::Chunk16 v{{0u, 0u, 0u, 0u}};
      const int valid = tile.elements - c * 8;
      if (line.kind == Tile::kWords) {
        const bool last_of_line = c == Tile::kChunksPerLine - 1 || lane == 31;
        if (last_of_line && line.shift != 0) hi = detail::load_shared16(word + 16);
        v = detail::realign(lo, hi, line.shift);
        if (valid < 8) detail::keep_first(v, valid > 0 ? valid : 0);
      } else if (line.kind == Tile::kElements && valid > 0) {
        v = load_elements(line.start + c * 16, valid < 8 ? valid : 8);
      }
      const int outer = Tile::kIsKMajor ? l : c * 8;  // a K-major line is a row, an MN-major one a k
      const int k = Tile::kIsKMajor ? c * 8 : l;
      detail::store_shared16(stage + Stage::offset(outer, k), v);
    }
  }

  // The element path: `valid` 2-byte elements, zeros after them.
  TESSERA_DEVICE static detail::Chunk16 load_elements(const unsigned char* src, int valid) {
    std::uint16_t e[8];
    const std::uint16_t* s = reinterpret_cast<const std::uint16_t*>(src);
    TESSERA_UNROLL
    for (int i = 0; i < 8; ++i) e[i] = i < valid ? s[i] : std::uint16_t(0);
    detail::Chunk16 c;
    TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) c.w[i] = std::uint32_t(e[2 * i]) | (std::uint32_t(e[2 * i + 1]) << 16);
    return c;
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
