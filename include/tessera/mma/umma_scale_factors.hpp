// Where the scale factors of a block-scaled tcgen05 MMA (umma_block_scaled_atom.hpp) sit on
// their way global -> shared memory -> tensor memory, as data. Host-visible: the host test
// follows every scale factor of the shipped configurations' tiles from its (row, K block)
// through the shared-memory atom and tcgen05.cp to the TMEM word and byte the MMA reads
// (test/unit/test_umma_block_scaled_host.cpp). benchmark/notes/lowp_amd_sm100.md cites each
// fact.
//
// Shared memory: atoms of 128 rows x 4 scale blocks (512 bytes), the layout CUTLASS loads
// its scale factors into (cutlass/detail/sm100_blockscaled_layout.hpp,
// Sm1xxBlockScaledBasicChunk::SfKMajorAtom: ((32, 4), (SFVec, 4)) : ((16, 4), (0, 1))):
//   row r, block b (r < 128, b < 4)  ->  byte 16 (r % 32) + 4 (r / 32) + b
// i.e. 32 lines of 16 bytes, line l holding rows l, l + 32, l + 64, l + 96, each as one
// 32-bit word of its 4 blocks. A stage holds a tile of atoms: rows in 128-row blocks, K in
// 4-block words, atom (row block rb, word w) at ((w x row blocks) + rb) x 512 bytes (CUTLASS's
// sSFA / sSFB layouts: deduce_smem_layoutSFA/SFB, 128-row blocks contiguous, then K).
//
// Shared -> tensor memory: one tcgen05.cp.cta_group::N.32x128b.warpx4 per atom (CUTLASS
// SM100_UTCCP_4x32dp128bit_1cta / _2cta, used by sm100_blockscaled_mma_warpspecialized.hpp):
// 32 rows of 128 bits from shared memory, described by a K-major, unswizzled matrix
// descriptor (rows 16 bytes apart: SBO = 128 bytes between 8-row groups, LBO unused), copied
// to 32 lanes x 4 columns and repeated in each of the 4 lane quarters (.warpx4). So line l
// lands in lanes l, 32 + l, 64 + l, 96 + l, its word c in column (destination + c): the word
// of row r = 32 c + l is in column c of the atom's 4, every lane quarter.
//
// The MMA: its [scale_A_tmem] / [scale_B_tmem] operands name the first column of the atoms
// of its K step (tcgen05.mma ... [scale_A_tmem], [scale_B_tmem]); row r's word is in column
// r / 32 (128-row blocks 4 columns apart), and the instruction descriptor's scale factor data
// ID names the word's byte of the step's first block (CUTLASS's tmem_sf_frg addresses and
// UMMA::make_runtime_instr_desc_block_scaled). Scale factors of every K step of a K tile are
// copied to tensor memory before its MMAs, by the thread that issues them: tcgen05.cp and
// tcgen05.mma issued by one thread execute in order (CUTLASS's mainloop issues them so, with
// one scale-factor region in TMEM, not one per stage).
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/mma/umma_atom.hpp"

namespace tessera::mma::umma {

struct ScaleFactorAtom {
  static constexpr int kRows = 128, kBlocks = 4, kBytes = 512;
  static constexpr int kColumns = 4;  // TMEM columns one atom takes (.32x128b: 128 bits a lane)
  // Byte of (row, block) in the atom.
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset(int row, int block) {
    return std::uint32_t(16 * (row % 32) + 4 * (row / 32) + block);
  }
};

// A stage's scale factors of one operand: kRows rows (rounded up to 128-row blocks) x kBlocks
// scale blocks of K (a multiple of 4).
template <int kRows_, int kBlocks_>
struct ScaleFactorTile {
  static_assert(kBlocks_ % 4 == 0, "Tessera: a K tile's scale blocks come in 32-bit words of 4");
  static constexpr int kRowBlocks = (kRows_ + 127) / 128;
  static constexpr int kWords = kBlocks_ / 4;
  static constexpr int kAtoms = kRowBlocks * kWords;
  static constexpr int kBytes = kAtoms * ScaleFactorAtom::kBytes;
  static constexpr int kColumns = kAtoms * ScaleFactorAtom::kColumns;  // in tensor memory

  TESSERA_HOST_DEVICE static constexpr int atom(int row_block, int word) { return word * kRowBlocks + row_block; }
  // Shared memory: byte of (row, block) from the tile's start.
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset(int row, int block) {
    return std::uint32_t(atom(row / 128, block / 4)) * ScaleFactorAtom::kBytes +
           ScaleFactorAtom::offset(row % 128, block % 4);
  }
  // Tensor memory, relative to the tile's first column: the column of (row, block)'s word (in
  // every lane quarter, lane row % 32) and the byte in it.
  TESSERA_HOST_DEVICE static constexpr int column(int row, int block) {
    return atom(row / 128, block / 4) * ScaleFactorAtom::kColumns + (row % 128) / 32;
  }
  TESSERA_HOST_DEVICE static constexpr int byte(int block) { return block % 4; }
  // The first column of word w's atoms: what an MMA reading blocks 4 w .. 4 w + 3 is given.
  TESSERA_HOST_DEVICE static constexpr int word_column(int word) { return atom(0, word) * ScaleFactorAtom::kColumns; }

  // The copy to tensor memory, one tcgen05.cp per atom: atom i's bytes (from the tile's start)
  // and its first column (from the tile's first column).
  TESSERA_HOST_DEVICE static constexpr std::uint32_t atom_offset(int i) {
    return std::uint32_t(i * ScaleFactorAtom::kBytes);
  }
  TESSERA_HOST_DEVICE static constexpr int atom_column(int i) { return i * ScaleFactorAtom::kColumns; }

  // How the scale loader fills the tile (gemm/umma/scale_loader.hpp): kLoadWords
  // 32-bit words, word w holding row load_row(w)'s blocks load_block(w) .. + 3 of the K tile
  // (rows down to the 128-row blocks' end, then the next 4 blocks).
  static constexpr int kLoadRows = kRowBlocks * 128;
  static constexpr int kLoadWords = kLoadRows * kWords;
  TESSERA_HOST_DEVICE static constexpr int load_row(int w) { return w % kLoadRows; }
  TESSERA_HOST_DEVICE static constexpr int load_block(int w) { return 4 * (w / kLoadRows); }
  // The scale tensor's block (of the whole K) word w of K tile k_tile starts at.
  TESSERA_HOST_DEVICE static constexpr std::int64_t load_global_block(std::int64_t k_tile, int w) {
    return k_tile * (4 * kWords) + load_block(w);
  }
};

// The tcgen05.cp source descriptor of one atom at shared address `atom` (16-byte aligned):
// K-major, no swizzle, 16-byte rows, 8-row groups 128 bytes apart.
TESSERA_HOST_DEVICE constexpr SmemDescriptor scale_factor_atom_descriptor(std::uint32_t atom) {
  SmemDescriptor d;
  d.start_address = atom;
  d.leading_byte_offset = 0;
  d.stride_byte_offset = 128;
  d.swizzle = Swizzle::kNone;
  return d;
}

}  // namespace tessera::mma::umma
