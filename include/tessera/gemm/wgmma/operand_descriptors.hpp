// Where a wgmma step's operands start in a stage of the 128-byte-swizzled operand tiles
// (tma/operand_tiles.hpp), and their shared-memory descriptors: the one piece both main loops
// (wgmma/mainloop.hpp, 16-bit; wgmma/fp8_mainloop.hpp) use to build a stage's two descriptors
// once and reach every step's by an add (arch/nvidia/wgmma.hpp, advance_smem_descriptor).
//
// K-major: row r of a tile is its r-th 128-byte line, step kk kInstructionK elements along it.
// MN-major: 64-row chunks TileA::kChunkBytes apart, step kk kInstructionK 128-byte lines down.
// (arch/nvidia/wgmma.hpp documents the canonical layouts.) Host-includable.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/wgmma.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::gemm {

template <class Operands, int kInstructionK>
struct WgmmaOperandDescriptors {
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  // One instruction's K as bytes along a K-major line, and as 128-byte lines down an MN-major chunk.
  static constexpr int kStepBytes = kInstructionK * Operands::kElementBytesA;
  static constexpr int kStepLines = kInstructionK * 128;

  // Bytes from a stage's start to the A operand of rows [row, row + 64) (row a multiple of 64),
  // k step kk; linear in both.
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset_a(int row, int kk) {
    return Operands::kKMajorA ? std::uint32_t(row * 128 + kk * kStepBytes)
                              : std::uint32_t((row / 64) * TileA::kChunkBytes + kk * kStepLines);
  }
  // The same for the whole N extent of B.
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset_b(int kk) {
    return std::uint32_t(kk * (Operands::kKMajorB ? kStepBytes : kStepLines));
  }
  // The descriptor of an operand at shared address `address` (its layout's leading byte
  // offset: 16 for K-major, the chunk's bytes for MN-major).
  TESSERA_HOST_DEVICE static constexpr std::uint64_t descriptor_a(std::uint32_t address) {
    return nvidia::make_smem_descriptor(address, Operands::kKMajorA ? 16 : TileA::kChunkBytes, 1024,
                                        nvidia::Swizzle::k128B);
  }
  TESSERA_HOST_DEVICE static constexpr std::uint64_t descriptor_b(std::uint32_t address) {
    return nvidia::make_smem_descriptor(address, Operands::kKMajorB ? 16 : TileB::kChunkBytes, 1024,
                                        nvidia::Swizzle::k128B);
  }
};

}  // namespace tessera::gemm
