// The MFMA GEMM's block scales (MX: one e8m0 byte per 32 values of K for each row of A and
// each column of B), loaded alongside the operand tiles: per K tile, Rows x kBlocks bytes
// (kBlocks = BlockK values / 32) go global -> registers with the operand's loads (one ticket
// group with them), registers -> LDS with the operand's stores, and LDS -> registers with
// the operand's reads (mma/mfma_lowp_wave_tile.hpp).
//
//   MfmaScaleTiles   where a stage keeps them: after the A and B tiles, A's scales then B's,
//                    [row][kBlocks] bytes each (rows of 4 or 8 bytes, read as one ds_read_b32
//                    or b64 per lane: consecutive lanes read consecutive rows);
//   MfmaScaleCopy    one operand's scale tile, every thread its share of consecutive bytes;
//   MfmaScaledCopy   an operand copy and its scale copy as one (the kernel's CopyA/CopyB):
//                    the same interface as MfmaTileCopy, the scale loads after the operand's.
//
// Global memory: row r's scales of the block's tile start at origin + r * ld, the K tile's
// at kt * kBlocks. The cursor is the operand copy's (advance, advance_if, the prologue's
// last K tile first, limit_to_whole_tiles). The prologue reads its (possibly partial) tile
// with 1-byte loads against a descriptor moved to the tile and ending at the tensor's last
// scale (never a cut dword), and zeroes the blocks that lie wholly past K (mask_k): their
// bytes are row padding or the next row, possibly NaN (0xff), and NaN times the zeroed data
// would be NaN; 0 is 2^-127, finite. The main loop's tiles are whole, so it addresses them as
// the operand copies address a K-contiguous operand (mfma_tile_copy.hpp, "fixed"): the
// block's descriptor, built once (origin, loop_span), the K tile's kt * kBlocks bytes in the
// load's scalar offset, which the range check does not see (it checks the lane offset alone:
// arch/amd/buffer.hpp). Both cases the check must still cover hold against the fixed
// num_records = span = (rows - 1) * ld + ceil(K / 32): a row inside M reads blocks below
// ceil(K / 32) of its own row (the tile is whole), at lane offsets whose last byte is below
// span (K > BK there, so kBlocks < ceil(K / 32)); a row past M has a lane offset of at least
// (M - m0) * ld >= span (ld >= ceil(K / 32)) and reads 0, whatever the K tile. No dword
// straddles span, so neither chip-dependent answer is met. With no tile after the first
// (K <= BK) loop_span is 0 and every lane reads 0, as for the operands. So the loop keeps no
// descriptor arithmetic for scales (per tile: one scalar add of kBlocks per operand, where
// the moved descriptor took five: base add with carry, mask, remaining bytes, clamp).
// With 4-byte aligned rows (kAligned) a thread's share moves in one load (two dwords for 8
// bytes), else byte by byte.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)
#include "tessera/arch/amd/buffer.hpp"
#endif

namespace tessera {

// A stage's scale tiles for operand tiles TileA (kRowsA x BK) and TileB, with kBlocks scale
// bytes per row per K tile. Offsets from the A tile's start and from the B tile's start
// (which the kernel places TileA::kBytes after A's).
template <class TileA, class TileB, int kBlocks_>
struct MfmaScaleTiles {
  static constexpr int kBlocks = kBlocks_;
  static constexpr int kBytesA = TileA::kRows * kBlocks;
  static constexpr int kBytesB = TileB::kRows * kBlocks;
  static constexpr int kBytes = kBytesA + kBytesB;
  static constexpr int kOffsetFromA = TileA::kBytes + TileB::kBytes;
  static constexpr int kOffsetFromB = TileB::kBytes + kBytesA;
  static_assert(kBlocks == 4 || kBlocks == 8,
                "Tessera MFMA scales: a K tile holds 4 or 8 scale blocks (128 or 256 values of K)");
  static_assert(TileA::kBytes % 16 == 0 && TileB::kBytes % 16 == 0, "Tessera MFMA scales: tiles of whole chunks");
};

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)

template <int kRows, int kBlocks, int kThreads, bool kAligned>
struct MfmaScaleCopy {
  // Every thread moves kBytes consecutive bytes of the [row][kBlocks] tile (no thread idles:
  // a store some threads skip would be a branch in the main loop).
  static constexpr int kBytes = kRows * kBlocks / kThreads;
  static constexpr int kWords = (kBytes + 3) / 4;
  // VMEM instructions per thread per main-loop tile (the ticket group's share).
  static constexpr int kLoads = kAligned ? kWords : kBytes;
  static_assert(kRows * kBlocks % kThreads == 0 && (kBytes == 1 || kBytes == 2 || kBytes == 4 || kBytes == 8),
                "Tessera MFMA scales: a tile's scale bytes must split into 1, 2, 4 or 8 per thread");

  const char* origin;       // scale of row 0 of this block's tile, K block 0
  std::uint32_t span;       // bytes from origin to one past the tensor's last scale
  std::uint32_t loop_span;  // as MfmaTileCopy: span, or 0 when K <= BK
  std::uint32_t k_bytes;    // bytes from origin to the current K tile's blocks
  std::uint32_t offset;     // this thread's bytes: row * ld + first block
  int first_block;          // the block of this thread's first byte
  std::uint32_t regs[kWords];

  TESSERA_DEVICE TESSERA_FORCEINLINE void init(const void* tile_origin, std::int64_t ld, std::int64_t span_bytes,
                                               int tid) {
    origin = static_cast<const char*>(tile_origin);
    span = std::uint32_t(span_bytes);
    loop_span = span;
    k_bytes = 0;
    const int row = tid * kBytes / kBlocks;
    first_block = tid * kBytes % kBlocks;
    offset = std::uint32_t(row) * std::uint32_t(ld) + std::uint32_t(first_block);
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void advance(int tiles) { k_bytes += std::uint32_t(tiles * kBlocks); }
  TESSERA_DEVICE TESSERA_FORCEINLINE void advance_if(bool move) { k_bytes += move ? std::uint32_t(kBlocks) : 0u; }
  TESSERA_DEVICE TESSERA_FORCEINLINE void limit_to_whole_tiles(int whole_tiles) {
    loop_span = span * std::uint32_t(whole_tiles < 1 ? whole_tiles : 1);
  }

  // checked (the prologue's tile, possibly partial): a descriptor moved to the tile, every
  // byte range-checked against the tensor's end; else (the main loop's whole tiles) the
  // block's fixed descriptor with the K tile in the scalar offset (see the top of this file).
  template <bool kChecked = false>
  TESSERA_DEVICE TESSERA_FORCEINLINE void load() {
    const amd::BufferResource r = kChecked ? amd::make_buffer_resource(origin + k_bytes, span - k_bytes)
                                           : amd::make_buffer_resource(origin, loop_span);
    const std::uint32_t soffset = kChecked ? 0u : k_bytes;
    if constexpr (kAligned && !kChecked && kBytes < 4) {
      regs[0] = amd::buffer_load<kBytes>(r, offset, soffset);
    } else if constexpr (kAligned && !kChecked) {
      TESSERA_UNROLL
      for (int w = 0; w < kWords; ++w) regs[w] = amd::buffer_load<4>(r, offset + 4u * std::uint32_t(w), soffset);
    } else {
      TESSERA_UNROLL
      for (int w = 0; w < kWords; ++w) regs[w] = 0u;
      TESSERA_UNROLL
      for (int q = 0; q < kBytes; ++q) {
        regs[q / 4] |= std::uint32_t(amd::buffer_load<1>(r, offset + std::uint32_t(q), soffset)) << (8 * (q % 4));
      }
    }
  }

  // Zeroes the blocks wholly past K: block b holds values [32 b, 32 b + 32) of the tile.
  TESSERA_DEVICE TESSERA_FORCEINLINE void mask_k(int k_valid_values) {
    TESSERA_UNROLL
    for (int q = 0; q < kBytes; ++q) {
      if (32 * (first_block + q) >= k_valid_values) regs[q / 4] &= ~(0xffu << (8 * (q % 4)));
    }
  }

  // Registers -> the scale tile at `tile` ([row][kBlocks] bytes): this thread's bytes.
  TESSERA_DEVICE TESSERA_FORCEINLINE void store(unsigned char* tile, int tid) const {
    unsigned char* dst = tile + tid * kBytes;
    if constexpr (kBytes == 1) {
      *dst = static_cast<unsigned char>(regs[0]);
    } else if constexpr (kBytes == 2) {
      *reinterpret_cast<unsigned short*>(dst) = static_cast<unsigned short>(regs[0]);
    } else if constexpr (kBytes == 4) {
      *reinterpret_cast<std::uint32_t*>(dst) = regs[0];
    } else {
      *reinterpret_cast<amd::BufferWord<8>*>(dst) = amd::BufferWord<8>{regs[0], regs[1]};
    }
  }
};

// An operand's tile copy and its scale copy as one: kScaleOffset is the operand's scale tile
// from the operand tile's start in a stage; kValuesPerUnit the values of K an operand
// storage unit holds (fp4: 2 a byte), so that masking K counts values for the scales.
template <class OperandCopy, class ScaleCopy, int kScaleOffset, int kValuesPerUnit>
struct MfmaScaledCopy {
  static constexpr int kLoads = OperandCopy::kLoads + ScaleCopy::kLoads;
  // No direct-to-LDS form: the async schedule takes 16-bit operands (mfma/config.hpp).
  template <int kWaves>
  static constexpr int kDirectLoads = 0;
  OperandCopy operand;
  ScaleCopy scales;

  TESSERA_DEVICE TESSERA_FORCEINLINE void init(const void* tile_origin, std::int64_t ld, std::int64_t span_bytes,
                                               int tid) {
    operand.init(tile_origin, ld, span_bytes, tid);
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void init_scales(const void* scale_origin, std::int64_t ld,
                                                      std::int64_t span_bytes, int tid) {
    scales.init(scale_origin, ld, span_bytes, tid);
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void advance(int tiles) {
    operand.advance(tiles);
    scales.advance(tiles);
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void advance_if(bool move) {
    operand.advance_if(move);
    scales.advance_if(move);
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void limit_to_whole_tiles(int whole_tiles) {
    operand.limit_to_whole_tiles(whole_tiles);
    scales.limit_to_whole_tiles(whole_tiles);
  }
  template <bool kChecked = false>
  TESSERA_DEVICE TESSERA_FORCEINLINE void load() {
    operand.template load<kChecked>();
    scales.template load<kChecked>();
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void mask_k(int k_valid, int tid) {
    operand.mask_k(k_valid, tid);
    scales.mask_k(k_valid * kValuesPerUnit);
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE void store(unsigned char* stage, int tid) const {
    operand.store(stage, tid);
    scales.store(stage + kScaleOffset, tid);
  }
};

#endif  // TESSERA_AMD_TARGET && __clang__

}  // namespace tessera
