// The MMA side of the Blackwell main loop: one thread of the MMA warp, per output tile, waits
// for a free accumulator buffer in tensor memory, then for each K tile's stage issues the
// tcgen05.mma steps (4 per 128-byte K tile: K = 16 each of 16-bit inputs, .kind::f16; K = 32
// each of fp8 / fp6 / fp4 inputs, staged a byte a value, .kind::f8f6f4) from shared-memory
// descriptors, and
// frees the stage with tcgen05.commit on its empty barrier: the commit arrives once those
// MMAs have read it, so the thread never waits for an MMA itself. After the last K tile one
// more commit, on the buffer's full barrier, tells the epilogue the accumulator is complete.
//
// Who hears a commit:
//   one CTA, no cluster   this CTA's barrier;
//   one CTA, a cluster    every CTA that wrote into the stage (the multicast sharers, as in
//                         the Hopper kernel) for empty barriers; this CTA for full ones;
//   a CTA pair            both CTAs (the MMA read both CTAs' stages and wrote both CTAs'
//                         tensor memory); only the leader (even CTA) issues.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tcgen05.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/collective/stage_ring.hpp"
#include "tessera/mma/umma_atom.hpp"
#include "tessera/mma/umma_lowp_atom.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

// Operands: OperandTiles<...> (operand_tiles.hpp); kIdesc: the instruction descriptor of every
// tcgen05.mma of the configuration (umma_atom.hpp, umma_lowp_atom.hpp); kKind: its kind.
template <class Operands, int kStages, std::uint32_t kIdesc, nvidia::UmmaKind kKind>
struct UmmaMainloop {
  using TileA = typename Operands::TileA;
  using TileB = typename Operands::TileB;
  using Cluster = typename Operands::Cluster;
  static constexpr int kCtaGroup = Operands::kCtaPair ? 2 : 1;
  // 32 bytes of a stage's K per MMA whatever the kind (16 16-bit values, or 32 values of
  // .kind::f8f6f4, each staged in a byte): K units per MMA.
  static constexpr int kInstructionK = 32 / Operands::kElementBytesA;
  static constexpr int kSteps = Operands::kBlockK / kInstructionK;
  // Barriers other CTAs complete (multicast bytes, a pair's peer copies) need cluster-scope
  // waits, as in the Hopper kernel.
  static constexpr bool kClusterWaits = Cluster::kSize > 1;

  // The descriptors of K step kk of the stage tiles at shared addresses a and b.
  TESSERA_DEVICE static std::uint64_t descriptor_a(std::uint32_t a, int kk) {
    return mma::umma::encode(mma::umma::sw128_k_step<TileA, Operands::kKMajorA, kInstructionK>(a, kk));
  }
  TESSERA_DEVICE static std::uint64_t descriptor_b(std::uint32_t b, int kk) {
    return mma::umma::encode(mma::umma::sw128_k_step<TileB, Operands::kKMajorB, kInstructionK>(b, kk));
  }

  // One arrival on `bar` in this CTA, or in every CTA of `mask`, when the MMAs issued so far
  // have completed.
  TESSERA_DEVICE static void commit(std::uint64_t* bar, std::uint16_t mask) {
    if constexpr (Cluster::kSize > 1) {
      nvidia::umma_commit_multicast<kCtaGroup>(bar, mask);
    } else {
      (void)mask;
      nvidia::umma_commit<kCtaGroup>(bar);
    }
  }

  // The MMAs of one tile into the accumulator at TMEM address d: k_tiles K tiles from ring
  // position `pos` (advanced past them). stage_mask: the CTAs whose empty barriers hear a
  // stage's release; tile_mask: those whose full accumulator barrier hears the tile's end.
  TESSERA_DEVICE static void tile(std::uint32_t d, std::uint32_t stages_a, std::uint32_t stages_b,
                                  std::uint64_t* full, std::uint64_t* empty, std::uint64_t* accumulator_full,
                                  RingPosition<kStages>& pos, int k_tiles, std::uint16_t stage_mask,
                                  std::uint16_t tile_mask) {
    for (int kt = 0; kt < k_tiles; ++kt) {
      nvidia::mbarrier_wait<kClusterWaits>(&full[pos.stage], pos.phase);
      nvidia::tcgen05_fence_after_thread_sync();
      const std::uint32_t a = stages_a + pos.stage * TileA::kBytes;
      const std::uint32_t b = stages_b + pos.stage * TileB::kBytes;
      TESSERA_UNROLL
      for (int kk = 0; kk < kSteps; ++kk) {
        // The tile's first MMA overwrites the buffer (the previous tile's values are stale).
        nvidia::umma<kKind, kCtaGroup, kIdesc>(d, descriptor_a(a, kk), descriptor_b(b, kk), kt > 0 || kk > 0);
      }
      commit(&empty[pos.stage], stage_mask);
      pos.advance();
    }
    if constexpr (kCtaGroup == 2) {
      commit(accumulator_full, tile_mask);
    } else {
      (void)tile_mask;
      nvidia::umma_commit<1>(accumulator_full);  // the accumulator is this CTA's alone
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
