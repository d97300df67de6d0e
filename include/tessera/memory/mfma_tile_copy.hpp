// Copies one operand tile of the MFMA GEMM from global memory into its K-contiguous,
// swizzled LDS layout (gemm/mfma/smem_plan.hpp): Rows (M of A, N of B) x BK
// 16-bit elements, or 8-bit ones (fp8, fp4 pairs: bytes) of a K-contiguous operand, or
// packed fp6 values (below). Three ways, chosen at compile time (below for 16-bit
// elements; 8-bit ones move 16 a piece):
//
//  kContiguousK  the operand is K-contiguous (A row-major, B column-major) and 16-byte
//                aligned: each lane loads 8 K values of one row (buffer_load_dwordx4) and
//                writes them as one ds_write_b128. Lanes t..t+7 cover one 128-byte row.
//  kTransposing  the operand is M/N-contiguous (A column-major, B row-major) and aligned:
//                each lane loads 8 rows at kP consecutive K (kP x buffer_load_dwordx4),
//                transposes the kP x 8 block in registers and writes 8 pieces of kP K
//                values (ds_write_b64 for kP = 4). Consecutive lanes load consecutive
//                16-byte pieces of one K row: coalesced.
//  kGather       any layout, any alignment (the fallback for unaligned pointers or leading
//                dimensions): each lane loads its 8 K values one element at a time
//                (8 x buffer_load_ushort) and writes them as one ds_write_b128.
//
// Canonical pointers: each operand keeps one buffer descriptor (base address, bytes to
// the end of the operand) that advances one K tile per step (scalar work), and each lane
// a 32-bit byte offset from it computed once. num_records is 32 bits: the host refuses
// operands of 4 GiB or more (kErrorOffsetOverflow). Lanes past the operand's end read 0 through
// the descriptor's range check, and lanes past M / N inside it read values only outputs
// past M / N ever see: edge tiles take no branch. Only K matters inside a tile row: the
// first tile a block loads is the last K tile (gemm/mfma/k_tile_order.hpp), masked once in the
// prologue when partial (mask_k), so the main loop's tiles are all whole.
//
// The operand's last dword: when an operand ends mid-dword (an odd K of 16-bit elements, a
// K not a multiple of 4 of 8-bit ones, for a K-contiguous operand; an odd M or N for the
// others), its last dword holds the last elements and bytes past the operand. Whether the
// range check returns such a dword whole or as zero is chip-dependent (MLIR's AMDGPU
// dialect documents it; the wave emulator runs the kernels under both answers), so its
// value must not reach D:
//  - the last elements themselves are read by the prologue alone (the last K tile goes
//    first: gemm/mfma/k_tile_order.hpp), whose checked descriptor ends at the last whole dword;
//    they come from one 2-byte load (8-bit elements: one to three 1-byte loads; load<true>);
//  - main-loop loads of rows inside M (columns inside N) never reach the last K line;
//  - main-loop loads of an M- or N-contiguous operand can still meet the dword, through
//    tile rows past M (columns past N): with a leading dimension shorter than the tile
//    (e.g. M = 1, lda = 8), row r of K line k is line k + r / lda's data, down to the last
//    one. Those bytes land in tile rows past M (columns past N), and row i of A (column j
//    of B) reaches only row i (column j) of the block's D, which the epilogue does not
//    store past M (N). test/emulator/test_mfma_emulated.cpp runs such shapes under both
//    answers.
//
// Packed fp6 (kSixBitGroups > 0; core/float6.hpp): global memory holds a row's values
// densely, four in three bytes, value k in bits [6k, 6k + 6) of the row's byte stream, rows
// ld values (ld * 3 / 4 bytes; the host keeps ld a multiple of 4) apart. The LDS tile keeps
// them one value a byte slot, as an 8-bit tile of BK values: each 16-byte chunk holds 16
// values packed in its first 12 bytes (the stream's bytes [12 j, 12 j + 12) for K chunk j
// of the row) and zeros in the last 4, which the MFMA reads skip
// (mma/mfma_lowp_wave_tile.hpp). So a piece is 12 global bytes (one buffer_load_dwordx3; the
// gather kind: 12 byte loads) stored as one 16-byte chunk, the swizzle and the bank
// behaviour are the 8-bit tile's, and masking K (mask_k) clears 6-bit fields. The operand's
// last dword is handled as for 8-bit elements (1 to 3 byte loads); its bytes go into the
// piece's three data words only. The 4 bytes a chunk wastes are the price of those shared
// layouts (a quarter of the tile's LDS and of the operand reads' bytes); what that costs in time
// is not known (the AMD kernels are emulated and compiled, not run).
// Where a chunk is stored (stored_k): an f8f6f4 instruction with kG = kSixBitGroups lane
// groups covers 2 kG chunks of K, and its reads (the 8-bit ones, mma/mfma_atom.hpp) give lane
// group g, in its read h, the chunk at position kG h + g of that span; an fp6 lane needs its
// run's half h there, K chunk 2 g + h. So K chunk 2 g + h of each span is stored at position
// kG h + g (a permutation inside the span, the same for every row): the reads stay the 8-bit
// ones, which the swizzle makes bank-conflict free (reading the runs in place instead costs
// degree 2 on gfx950's 16x16x128 in the bank model), and fp6 and fp8 operands read alike.
//
// Direct-to-LDS (gfx950, the async schedule): load_direct() sends each wave's 1 KiB LDS
// chunks straight from global memory, lane i's 16 bytes landing at chunk + 16 i. The
// swizzle is applied in reverse to choose what each lane fetches.
//
// The thread -> element maps (Map) are host-visible for the bank-conflict test.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)
#include "tessera/arch/amd/buffer.hpp"
#include "tessera/arch/amd/perm.hpp"
#endif

namespace tessera {

enum class TileCopyKind { kContiguousK, kTransposing, kGather };

// The copy an operand takes: element gathers when its pointer or leading dimension is not
// 16-byte aligned, else 16-byte pieces, transposed in registers when M/N-contiguous.
constexpr TileCopyKind tile_copy_kind(bool aligned, bool k_contiguous) {
  return !aligned ? TileCopyKind::kGather : (k_contiguous ? TileCopyKind::kContiguousK : TileCopyKind::kTransposing);
}

// Which elements each thread moves. Tile is the LDS layout (MfmaOperandTile);
// kPhaseRowChunks (transposing kind): the row chunks one write phase spans (the tile's
// second swizzle level tells them apart); kRunGroups > 0: a packed fp6 operand read by an
// instruction with that many lane groups (its chunks stored by stored_k).
template <class Tile, int kThreads, TileCopyKind kKind, int kPhaseRowChunks = 1, int kRunGroups = 0>
struct MfmaTileCopyMap {
  static constexpr int kRows = Tile::kRows;
  static constexpr int kBK = Tile::kCols;
  static constexpr int kElementBytes = Tile::kElementBytes;
  static_assert(kElementBytes == 2 || (kElementBytes == 1 && kKind != TileCopyKind::kTransposing),
                "Tessera MFMA tile copy: it moves 16-bit elements, or 8-bit elements of a K-contiguous "
                "operand (the transposing copy packs pairs of 16-bit elements into words)");
  static constexpr int kVec = 16 / kElementBytes;  // elements per 16-byte piece
  static constexpr int kChunksK = kBK / kVec;
  static constexpr int kRowChunks = kRows / kVec;

  // kContiguousK and kGather: vector v of thread t is the 8 K values from k0 of one row.
  static constexpr int kPieces = kRows * kChunksK / kThreads;   // per thread
  static constexpr int kRowsPerPass = kThreads / kChunksK;      // rows one pass of the block covers
  // kTransposing: each thread owns a block of 8 rows (row chunk r) at the kP consecutive K
  // values of K group g. The lanes of one LDS write phase (128 bytes: kPhaseLanes lanes of
  // kP elements) take kPhaseRowChunks row chunks x the rest in K groups, so that their
  // writes cover 8 distinct 16-byte chunks (both swizzle levels); the next lanes continue
  // along the row chunks (consecutive lanes of a global load read along one K row).
  static constexpr int kKGroups = kThreads / kRowChunks;
  static constexpr int kP = kKGroups > 0 ? kBK / kKGroups : 0;
  static constexpr int kPhaseLanes = kP > 0 ? 128 / (kElementBytes * kP) : 1;
  static constexpr int kPhaseKGroups = kPhaseLanes / kPhaseRowChunks;

  static_assert(kKind == TileCopyKind::kTransposing || kRows * kChunksK % kThreads == 0,
                "Tessera MFMA tile copy: the tile's 16-byte pieces must split evenly over the threads");
  static_assert(kKind != TileCopyKind::kTransposing ||
                    (kThreads % kRowChunks == 0 && kKGroups * kP == kBK && (kP == 2 || kP == 4 || kP == 8) &&
                     kRowChunks % kPhaseRowChunks == 0 && kKGroups % kPhaseKGroups == 0),
                "Tessera MFMA tile copy: an M- or N-contiguous operand tile is transposed by lanes "
                "holding 8 rows at 2, 4 or 8 consecutive K values; this tile and thread count do not "
                "split that way (threads must be a multiple of rows/8, and BK/(threads/(rows/8)) "
                "must be 2, 4 or 8)");

  struct Coord {
    int row;
    int k;
  };
  // Piece v of thread t: its first element (contiguous-K and gather kinds).
  TESSERA_HOST_DEVICE static constexpr Coord piece(int t, int v) {
    return {t / kChunksK + v * kRowsPerPass, (t % kChunksK) * kVec};
  }
  // Transposing kind: the first row and first K value of thread t's block.
  TESSERA_HOST_DEVICE static constexpr Coord block(int t) {
    const int lo = t % kPhaseLanes, hi = t / kPhaseLanes;
    constexpr int kHiRowChunks = kRowChunks / kPhaseRowChunks;
    const int row_chunk = lo % kPhaseRowChunks + kPhaseRowChunks * (hi % kHiRowChunks);
    const int k_group = lo / kPhaseRowChunks + kPhaseKGroups * (hi / kHiRowChunks);
    return {row_chunk * kVec, k_group * kP};
  }

  // The tile-local K at which the piece whose values start at K = k is stored: k itself,
  // or for packed fp6 the position its instruction's reads expect (see the top of this
  // file: chunk 2 g + h of a span of 2 kRunGroups chunks at kRunGroups h + g).
  TESSERA_HOST_DEVICE static constexpr int stored_k(int k) {
    if constexpr (kRunGroups > 0) {
      constexpr int kSpan = 2 * kRunGroups;
      const int c = k / kVec, q = c % kSpan;
      return (c - q + q / 2 + kRunGroups * (q % 2)) * kVec + k % kVec;
    } else {
      return k;
    }
  }
  static_assert(kRunGroups == 0 || (kVec == 16 && kBK % (2 * kRunGroups * kVec) == 0),
                "Tessera MFMA tile copy: a packed fp6 tile holds whole instructions' spans of K");

  // LDS byte offset of thread t's piece v (contiguous-K and gather kinds), as the kernel
  // computes it: the rows of one thread's pieces are kRowsPerPass apart, and when that is
  // a whole number of swizzle periods their offsets differ by a constant (folded into the
  // ds_write's offset field) instead of each needing its own address register.
  static constexpr bool kConstantPieceStride = (kRowsPerPass * kBK) % Tile::SwizzleType::kPeriod == 0;
  TESSERA_HOST_DEVICE static constexpr int piece_offset(int t, int v) {
    return kConstantPieceStride
               ? Tile::byte_offset(piece(t, 0).row, stored_k(piece(t, 0).k)) + v * kRowsPerPass * kBK * kElementBytes
               : Tile::byte_offset(piece(t, v).row, stored_k(piece(t, v).k));
  }
  // LDS byte offset of the write of element e of thread t's block (transposing kind):
  // row block.row + e, K values block.k .. block.k + kP - 1.
  TESSERA_HOST_DEVICE static constexpr int transposed_offset(int t, int e) {
    return Tile::byte_offset(block(t).row + e, block(t).k);
  }

  // VMEM instructions per thread per tile (one ticket group).
  static constexpr int kLoads = kKind == TileCopyKind::kTransposing ? kP
                                : kKind == TileCopyKind::kGather     ? kPieces * kVec
                                                                     : kPieces;

  // Direct-to-LDS: LDS chunk q of wave w is chunk w + kWaves * q of the tile.
  static constexpr int kDirectChunks = Tile::kBytes / 1024;
  // The element lane `lane` fetches so that it lands at byte 16 * lane of `chunk`.
  TESSERA_HOST_DEVICE static constexpr Coord direct(int chunk, int lane) {
    const int e = Tile::SwizzleType::apply((chunk * 1024 + lane * 16) / kElementBytes);  // an involution
    return {e / kBK, e % kBK};
  }
};

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)

// kSixBitGroups > 0: a packed fp6 operand, read by an instruction with that many lane groups.
template <class Tile, int kThreads, TileCopyKind kKind, bool kKContiguousGlobal, int kPhaseRowChunks = 1,
          int kSixBitGroups = 0>
struct MfmaTileCopy {
  using Map = MfmaTileCopyMap<Tile, kThreads, kKind, kPhaseRowChunks, kSixBitGroups>;
  static constexpr bool kPackedSix = kSixBitGroups > 0;
  using U32x4 = amd::BufferWord<16>;
  static constexpr int kVec = Map::kVec;
  static constexpr int kRegs = kKind == TileCopyKind::kTransposing ? Map::kP : Map::kPieces;
  // Global bytes of one 16-byte LDS piece, and the words of it that carry data.
  static constexpr int kPieceBytes = kPackedSix ? 12 : 16;
  static constexpr int kDataWords = kPieceBytes / 4;
  static constexpr int kLoads = kPackedSix && kKind == TileCopyKind::kGather ? Map::kPieces * kPieceBytes : Map::kLoads;
  static_assert(kKind != TileCopyKind::kContiguousK || kKContiguousGlobal,
                "Tessera MFMA tile copy: the contiguous-K copy needs a K-contiguous operand");
  static_assert(kKind != TileCopyKind::kTransposing || !kKContiguousGlobal,
                "Tessera MFMA tile copy: the transposing copy is for M- or N-contiguous operands");
  static_assert(!kPackedSix || (kKContiguousGlobal && Map::kElementBytes == 1 && Map::kVec == 16),
                "Tessera MFMA tile copy: packed fp6 operands are K-contiguous, one value a byte slot in LDS");

  const char* origin;         // element (row 0 of this block's tile, k = 0)
  std::uint32_t span;         // bytes from `origin` to one past the operand's last element
                              // (the host keeps each operand below 4 GiB: 32 bits hold it)
  std::uint32_t loop_span;    // the most num_records the main loop's descriptors (below) get:
                              // `span`, or 0 when K <= BK (every lane then reads 0)
  std::uint32_t k_bytes;      // bytes from `origin` to the current K tile
  std::uint32_t step;         // bytes from one K tile to the next
  std::uint32_t ld_bytes;     // leading dimension in bytes
  std::uint32_t offset[kRegs];  // per lane, from the K tile (gather: of the piece's first element)
  U32x4 regs[kRegs];

  // Global bytes of n units along K (packed fp6: n a multiple of 4).
  TESSERA_HOST_DEVICE static constexpr std::uint32_t k_bytes_of(std::int64_t n) {
    return std::uint32_t(kPackedSix ? n * 3 / 4 : n * Map::kElementBytes);
  }
  // Byte offset of element (row, k) from the tile's base (packed fp6: k a piece's start).
  TESSERA_DEVICE TESSERA_FORCEINLINE std::uint32_t element_offset(int row, int k) const {
    return kKContiguousGlobal ? std::uint32_t(row) * ld_bytes + k_bytes_of(k)
                              : std::uint32_t(k) * ld_bytes + std::uint32_t(row * Map::kElementBytes);
  }

  // origin: the operand's element (row 0 of this block's tile, k = 0); ld in elements;
  // span_bytes: from origin to one past the operand's last element; tid: the thread.
  TESSERA_DEVICE TESSERA_FORCEINLINE void init(const void* tile_origin, std::int64_t ld, std::int64_t span_bytes,
                                               int tid) {
    origin = static_cast<const char*>(tile_origin);
    span = std::uint32_t(span_bytes);
    loop_span = span;
    k_bytes = 0;
    ld_bytes = k_bytes_of(ld);
    step = kKContiguousGlobal ? k_bytes_of(Map::kBK) : std::uint32_t(Map::kBK) * ld_bytes;
    TESSERA_UNROLL
    for (int v = 0; v < kRegs; ++v) {
      if constexpr (kKind == TileCopyKind::kTransposing) {
        const auto b = Map::block(tid);
        offset[v] = element_offset(b.row, b.k + v);
      } else {
        const auto p = Map::piece(tid, v);
        offset[v] = element_offset(p.row, p.k);
      }
    }
  }

  // Moves the cursor `tiles` K tiles on or back (the prologue's jumps).
  TESSERA_DEVICE TESSERA_FORCEINLINE void advance(int tiles) { k_bytes += std::uint32_t(tiles) * step; }
  // One tile on when `move`, else stay (the main loop's step: a select, no multiply).
  TESSERA_DEVICE TESSERA_FORCEINLINE void advance_if(bool move) { k_bytes += move ? step : 0u; }

  // Two ways to address the current K tile:
  //  checked  a descriptor moved to the tile (base + k_bytes, span - k_bytes): every lane
  //           is range-checked against the operand's end, whatever it reads. The prologue
  //           uses it (its tile may be the partial one, whose rows reach past K), and so do
  //           M/N-contiguous operands (a lane past M / N in a tile's last K row may reach
  //           past the operand's end);
  //  fixed    the block's descriptor (computed once: loop-invariant) with the K offset in
  //           the instruction's scalar offset, which the range check does not see. Safe
  //           for the main loop's whole tiles of a K-contiguous operand: a lane in a row
  //           past M has an offset past `span` (rows are ld apart and K <= ld) and reads 0,
  //           and a lane in a row inside ends at most at that row's K-th element. It saves
  //           rebuilding the descriptor every iteration (5-6 scalar instructions per operand).
  //           With no tile after the first (K <= BK) the loop's loads have nothing to fetch
  //           (they run ahead into positions never read back, which would repeat the first
  //           tile and its cut last dword): limit_to_whole_tiles() makes them read 0, for
  //           the moved descriptors of M/N-contiguous operands too (num_records capped by
  //           loop_span: one s_min per tile).
  // (An integer product, no comparison: see gemm/mfma/k_tile_order.hpp.)
  TESSERA_DEVICE TESSERA_FORCEINLINE void limit_to_whole_tiles(int whole_tiles) {
    loop_span = span * std::uint32_t(whole_tiles < 1 ? whole_tiles : 1);
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE amd::BufferResource checked_resource() const {
    return amd::make_buffer_resource(origin + k_bytes, span - k_bytes);
  }
  template <bool kChecked>
  static constexpr bool kUseScalarOffset = !kChecked && kKContiguousGlobal;

  // The tile at the cursor -> registers: kLoads VMEM instructions, in ticket order (the
  // checked form, the prologue's, may issue up to three more: last_element()).
  template <bool kChecked = false>
  TESSERA_DEVICE TESSERA_FORCEINLINE void load() {
    // The prologue's 16-byte loads: the descriptor ends at the operand's last whole dword
    // (a dword cut by num_records would read chip-dependently: see the top of this file);
    // the last elements come from 1- or 2-byte loads (last_element()).
    constexpr bool kLastElement = kChecked && kKind != TileCopyKind::kGather;
    const std::uint32_t end = span - k_bytes;  // bytes from the tile to the operand's end
    const amd::BufferResource r =
        kUseScalarOffset<kChecked> ? amd::make_buffer_resource(origin, loop_span)
        : kChecked                 ? amd::make_buffer_resource(origin + k_bytes, kLastElement ? end & ~3u : end)
                                   : amd::make_buffer_resource(origin + k_bytes, end < loop_span ? end : loop_span);
    const std::uint32_t soffset = kUseScalarOffset<kChecked> ? k_bytes : 0u;
    TESSERA_UNROLL
    for (int v = 0; v < kRegs; ++v) {
      if constexpr (kPackedSix && kKind == TileCopyKind::kGather) {
        // The piece's 12 bytes one at a time; the chunk's last word stays zero.
        using Lanes = unsigned char __attribute__((ext_vector_type(16)));
        Lanes h = Lanes(0);
        TESSERA_UNROLL
        for (int x = 0; x < kPieceBytes; ++x) h[x] = amd::buffer_load<1>(r, offset[v] + std::uint32_t(x), soffset);
        regs[v] = __builtin_bit_cast(U32x4, h);
      } else if constexpr (kPackedSix) {
        const amd::BufferWord<12> w = amd::buffer_load<12>(r, offset[v], soffset);
        regs[v] = U32x4{w[0], w[1], w[2], 0u};
      } else if constexpr (kKind == TileCopyKind::kGather) {
        // Built as a vector of element-sized lanes, so that the compiler may load the odd
        // elements straight into their place in the word.
        using Lane = amd::BufferWord<Map::kElementBytes>;
        using Lanes = Lane __attribute__((ext_vector_type(kVec)));
        Lanes h;
        TESSERA_UNROLL
        for (int x = 0; x < kVec; ++x) {
          h[x] = amd::buffer_load<Map::kElementBytes>(r, offset[v] + element_offset(0, x), soffset);
        }
        regs[v] = __builtin_bit_cast(U32x4, h);
      } else {
        regs[v] = amd::buffer_load<16>(r, offset[v], soffset);
      }
    }
    // Only an operand that ends mid-dword needs it: a wave-uniform (scalar) branch, so that
    // the common case (K, M, N multiples of the dword) pays one scalar test in the prologue.
    if constexpr (kLastElement) {
      if ((end & 3u) != 0u) last_element(end);
    }
  }

  // The operand's last elements, the 1 to 3 bytes from end & ~3 to end (16-bit elements:
  // the one at end - 2): the low part of a dword the rounded-down descriptor read as 0,
  // into the register that holds it. Every lane loads them (one address each; 1- and
  // 2-byte loads are never cut by the range check); the lane whose piece covers the dword
  // ORs them into place (pieces start 4-byte aligned, so the dword is piece dword
  // (dword - offset) / 4; a packed fp6 piece has three).
  TESSERA_DEVICE TESSERA_FORCEINLINE void last_element(std::uint32_t end) {
    const std::uint32_t dword = end & ~3u;
    std::uint32_t value;
    if constexpr (Map::kElementBytes == 2) {
      value = amd::buffer_load<2>(checked_resource(), dword);
    } else {
      value = amd::buffer_load<1>(checked_resource(), dword);
      if ((end & 3u) > 1u) value |= std::uint32_t(amd::buffer_load<1>(checked_resource(), dword + 1u)) << 8;
      if ((end & 3u) > 2u) value |= std::uint32_t(amd::buffer_load<1>(checked_resource(), dword + 2u)) << 16;
    }
    TESSERA_UNROLL
    for (int v = 0; v < kRegs; ++v) {
      const std::uint32_t d = dword - offset[v];  // wraps past the piece unless it holds it
      TESSERA_UNROLL
      for (int h = 0; h < kDataWords; ++h) regs[v][h] |= d == 4u * h ? value : 0u;
    }
  }

  // Zeroes the loaded elements whose tile-local K is >= k_valid (the partial K tile).
  TESSERA_DEVICE TESSERA_FORCEINLINE void mask_k(int k_valid, int tid) {
    TESSERA_UNROLL
    for (int v = 0; v < kRegs; ++v) {
      if constexpr (kPackedSix) {
        // Values k0 + x in bits [6 * x, 6 * x + 6) of the piece's 96 bits: keep the low 6 n bits.
        const int n = k_valid - Map::piece(tid, v).k;
        const int bits = 6 * (n < 0 ? 0 : n > kVec ? kVec : n);
        TESSERA_UNROLL
        for (int h = 0; h < kDataWords; ++h) {
          const int keep = bits - 32 * h;
          regs[v][h] &= keep >= 32 ? ~0u : keep <= 0 ? 0u : (1u << keep) - 1u;
        }
      } else if constexpr (kKind == TileCopyKind::kTransposing) {
        if (Map::block(tid).k + v >= k_valid) regs[v] = U32x4{0, 0, 0, 0};
      } else {
        const int k0 = Map::piece(tid, v).k;
        constexpr int kPerWord = 4 / Map::kElementBytes;
        constexpr std::uint32_t kElementMask = Map::kElementBytes == 2 ? 0xffffu : 0xffu;
        TESSERA_UNROLL
        for (int h = 0; h < 4; ++h) {
          std::uint32_t keep = 0u;
          TESSERA_UNROLL
          for (int x = 0; x < kPerWord; ++x) {
            keep |= k0 + kPerWord * h + x < k_valid ? kElementMask << (8 * Map::kElementBytes * x) : 0u;
          }
          regs[v][h] &= keep;
        }
      }
    }
  }

  // Registers -> the LDS stage at `stage` (Tile layout).
  TESSERA_DEVICE TESSERA_FORCEINLINE void store(unsigned char* stage, int tid) const {
    if constexpr (kKind == TileCopyKind::kTransposing) {
      TESSERA_UNROLL
      for (int e = 0; e < kVec; ++e) {
        // Element e of each of the kP loaded pieces is K = block.k .. block.k + kP - 1 of
        // row block.row + e: pairs of them packed into words with one v_perm_b32 each.
        constexpr int kWords = Map::kP / 2;
        std::uint32_t w[kWords];
        TESSERA_UNROLL
        for (int x = 0; x < kWords; ++x) {
          w[x] = amd::byte_perm(regs[2 * x + 1][e / 2], regs[2 * x][e / 2],
                                e % 2 == 0 ? amd::kPermLowHalves : amd::kPermHighHalves);
        }
        unsigned char* dst = stage + Map::transposed_offset(tid, e);
        if constexpr (kWords == 1) {
          *reinterpret_cast<std::uint32_t*>(dst) = w[0];
        } else if constexpr (kWords == 2) {
          *reinterpret_cast<amd::BufferWord<8>*>(dst) = amd::BufferWord<8>{w[0], w[1]};
        } else {
          *reinterpret_cast<U32x4*>(dst) = U32x4{w[0], w[1], w[2], w[3]};
        }
      }
    } else {
      TESSERA_UNROLL
      for (int v = 0; v < kRegs; ++v) *reinterpret_cast<U32x4*>(stage + Map::piece_offset(tid, v)) = regs[v];
    }
  }

  // Direct-to-LDS (gfx950): the tile at the cursor straight into `stage`; wave w of kWaves
  // sends chunks w, w + kWaves, ...: kDirectLoads instructions per lane.
  template <int kWaves>
  static constexpr int kDirectLoads = Map::kDirectChunks / kWaves;

  template <int kWaves>
  TESSERA_DEVICE TESSERA_FORCEINLINE void direct_offsets(std::uint32_t (&out)[kDirectLoads<kWaves>], int wave,
                                                         int lane) const {
    TESSERA_UNROLL
    for (int q = 0; q < kDirectLoads<kWaves>; ++q) {
      const auto c = Map::direct(wave + kWaves * q, lane);
      out[q] = element_offset(c.row, c.k);
    }
  }

  template <int kWaves, bool kChecked = false>
  TESSERA_DEVICE TESSERA_FORCEINLINE void load_direct(unsigned char* stage, int wave,
                                                      const std::uint32_t (&lane_offset)[kDirectLoads<kWaves>]) const {
    static_assert(!kPackedSix, "Tessera MFMA tile copy: packed fp6 pieces are not loaded straight into LDS");
    static_assert(Map::kDirectChunks % kWaves == 0,
                  "Tessera MFMA tile copy: the tile's 1 KiB chunks must split evenly over the waves");
    const amd::BufferResource r =
        kUseScalarOffset<kChecked> ? amd::make_buffer_resource(origin, loop_span) : checked_resource();
    const std::uint32_t soffset = kUseScalarOffset<kChecked> ? k_bytes : 0u;
    TESSERA_UNROLL
    for (int q = 0; q < kDirectLoads<kWaves>; ++q) {
      amd::buffer_load_to_lds<16>(r, stage + 1024 * (wave + kWaves * q), lane_offset[q], soffset);
    }
  }
};

#endif  // TESSERA_AMD_TARGET && __clang__

}  // namespace tessera
