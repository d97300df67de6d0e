// The consumer side of the Hopper main loop: for one output tile, one consumer warpgroup
// waits for each K tile's stage, issues its wgmma m64nNk16 steps (4 per 64-deep K tile and
// 64-row block) from shared-memory descriptors, and keeps one group of MMAs in flight:
// the stage of K tile t is released only once the MMAs of K tile t+1 have been issued
// and those of t have completed (wait_group 1).
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/wgmma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

template <class Config, int kStages, bool kClusterWaits = false>
struct WgmmaMainloop {
  static constexpr int kN = Config::kBlockN;
  static constexpr int kRowBlocks = Config::kWgmmaRowBlocks;
  static constexpr int kAccPerBlock = kN / 2;
  static constexpr nvidia::WgmmaType kType =
      std::is_same_v<typename Config::ElementA, half_t> ? nvidia::WgmmaType::kF16 : nvidia::WgmmaType::kBf16;
  using TileA = typename Config::TileA;
  using TileB = typename Config::TileB;

  // The A operand of rows [row, row + 64) of the tile, k step kk (16 deep), in the stage
  // at shared address `stage`. K-major: row r is the r-th 128-byte line, the step 32 bytes
  // along it. MN-major: 64-row chunks TileA::kChunkBytes apart, the step 16 lines (2048
  // bytes) down. (wgmma.hpp documents the canonical layouts.)
  TESSERA_DEVICE static std::uint64_t descriptor_a(std::uint32_t stage, int row, int kk) {
    if constexpr (Config::kKMajorA) {
      return nvidia::make_smem_descriptor(stage + row * 128 + kk * 32, 16, 1024, nvidia::Swizzle::k128B);
    } else {
      return nvidia::make_smem_descriptor(stage + (row / 64) * TileA::kChunkBytes + kk * 2048,
                                          TileA::kChunkBytes, 1024, nvidia::Swizzle::k128B);
    }
  }
  // The whole N extent of B, k step kk.
  TESSERA_DEVICE static std::uint64_t descriptor_b(std::uint32_t stage, int kk) {
    if constexpr (Config::kKMajorB) {
      return nvidia::make_smem_descriptor(stage + kk * 32, 16, 1024, nvidia::Swizzle::k128B);
    } else {
      return nvidia::make_smem_descriptor(stage + kk * 2048, TileB::kChunkBytes, 1024, nvidia::Swizzle::k128B);
    }
  }

  // acc += the tile's A rows [row0, row0 + 64 kRowBlocks) x B, over k_tiles K tiles starting
  // at ring position `pos` (advanced past them). release(stage) frees a stage.
  template <class Release>
  TESSERA_DEVICE static void run(float (&acc)[kRowBlocks][kAccPerBlock], std::uint32_t stages_a,
                                 std::uint32_t stages_b, std::uint64_t* full, RingPosition<kStages>& pos,
                                 int k_tiles, int row0, Release&& release) {
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) nvidia::fence_registers(acc[rb]);
    int previous = -1;
    for (int kt = 0; kt < k_tiles; ++kt) {
      nvidia::mbarrier_wait<kClusterWaits>(&full[pos.stage], pos.phase);
      const std::uint32_t a = stages_a + pos.stage * TileA::kBytes;
      const std::uint32_t b = stages_b + pos.stage * TileB::kBytes;
      nvidia::wgmma_fence();
      TESSERA_UNROLL
      for (int kk = 0; kk < Config::kBlockK / 16; ++kk) {
        TESSERA_UNROLL
        for (int rb = 0; rb < kRowBlocks; ++rb) {
          nvidia::wgmma_m64k16<kN, kType, Config::kKMajorA ? 0 : 1, Config::kKMajorB ? 0 : 1>(
              acc[rb], descriptor_a(a, row0 + rb * 64, kk), descriptor_b(b, kk), 1);
        }
      }
      nvidia::wgmma_commit_group();
      nvidia::wgmma_wait_group<1>();  // K tile kt - 1's MMAs are done: its stage is free
      if (previous >= 0) release(previous);
      previous = pos.stage;
      pos.advance();
    }
    nvidia::wgmma_wait_group<0>();
    if (previous >= 0) release(previous);
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) nvidia::fence_registers(acc[rb]);
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
