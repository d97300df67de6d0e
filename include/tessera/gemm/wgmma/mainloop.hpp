// The consumer side of the Hopper main loop: for one unit of work, one consumer warpgroup
// waits for each K tile's stage, issues its wgmma steps (K tile / instruction K per 64-row
// block) from shared-memory descriptors, and keeps one group of MMAs in flight: the stage of
// K tile t is released only once the MMAs of K tile t+1 have been issued and those of t have
// completed (wait_group 1).
//
// Operands: OperandTiles<...> (tma/operand_tiles.hpp); kRowBlocks: the 64-row blocks of the tile
// this warpgroup computes.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/wgmma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/wgmma/operand_descriptors.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

template <class Operands, int kStages, int kRowBlocks_, bool kClusterWaits = false>
struct WgmmaMainloop {
  static constexpr int kN = Operands::kBlockN;
  static constexpr int kRowBlocks = kRowBlocks_;
  static constexpr int kAccPerBlock = kN / 2;
  static constexpr nvidia::WgmmaType kType =
      std::is_same_v<typename Operands::ElementA, half_t> ? nvidia::WgmmaType::kF16 : nvidia::WgmmaType::kBf16;
  static_assert((std::is_same_v<typename Operands::ElementA, half_t> ||
                 std::is_same_v<typename Operands::ElementA, bfloat16_t>) &&
                    std::is_same_v<typename Operands::ElementA, typename Operands::ElementB>,
                "Tessera WgmmaMainloop: A and B must both be half_t or both bfloat16_t");
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  // One instruction's K (16 for 16-bit inputs); where its operands start in a stage, and their
  // descriptors (wgmma/operand_descriptors.hpp, shared with the fp8 main loop).
  static constexpr int kInstructionK = 16;
  using Descriptors = WgmmaOperandDescriptors<Operands, kInstructionK>;

  // acc += the tile's A rows [row0, row0 + 64 kRowBlocks) x B, over k_tiles K tiles starting
  // at ring position `pos` (advanced past them). release(stage) frees a stage.
  template <class Release>
  TESSERA_DEVICE static void run(float (&acc)[kRowBlocks][kAccPerBlock], std::uint32_t stages_a,
                                 std::uint32_t stages_b, std::uint64_t* full, RingPosition<kStages>& pos,
                                 int k_tiles, int row0, Release&& release) {
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) nvidia::fence_registers(acc[rb]);
    // Built once: the first stage's descriptors (this warpgroup's rows, k step 0) and the full
    // barriers' address. Every wgmma's descriptor is one of the two advanced by its stage's and
    // its step's bytes (wgmma.hpp, advance_smem_descriptor): an add, where building it anew is a
    // shift, a mask and an or for each operand of each wgmma, in the loop that must issue the
    // next K tile's MMAs while the last ones run (benchmark/notes/sweep.md, "Where the mid-size
    // kernels' time goes").
    std::uint64_t first_stage_a = Descriptors::descriptor_a(stages_a + Descriptors::offset_a(row0, 0));
    std::uint64_t first_stage_b = Descriptors::descriptor_b(stages_b);
    std::uint32_t full_at = nvidia::smem_address(full);
    nvidia::keep_computed(first_stage_a);
    nvidia::keep_computed(first_stage_b);
    nvidia::keep_computed(full_at);
    int previous = -1;
    for (int kt = 0; kt < k_tiles; ++kt) {
      nvidia::mbarrier_wait_at<kClusterWaits>(full_at + std::uint32_t(sizeof(std::uint64_t) * pos.stage), pos.phase);
      const std::uint64_t stage_a = nvidia::advance_smem_descriptor(first_stage_a, pos.stage * TileA::kBytes);
      const std::uint64_t stage_b = nvidia::advance_smem_descriptor(first_stage_b, pos.stage * TileB::kBytes);
      nvidia::wgmma_fence();
      TESSERA_UNROLL
      for (int kk = 0; kk < Operands::kBlockK / kInstructionK; ++kk) {
        TESSERA_UNROLL
        for (int rb = 0; rb < kRowBlocks; ++rb) {
          nvidia::wgmma_m64k16<kN, kType, Operands::kKMajorA ? 0 : 1, Operands::kKMajorB ? 0 : 1>(
              acc[rb], nvidia::advance_smem_descriptor(stage_a, Descriptors::offset_a(rb * 64, kk)),
              nvidia::advance_smem_descriptor(stage_b, Descriptors::offset_b(kk)), 1);
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
