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
//
// Block-scaled kinds (Config::kBlockScaled): before a K tile's MMAs the same thread copies the
// stage's scale-factor atoms to tensor memory (tcgen05.cp .32x128b.warpx4, one per atom, into
// the scale factors' columns the TMEM plan gives: mma/umma_scale_factors.hpp); tcgen05.cp and
// tcgen05.mma issued by one thread run in order, so one region of scale-factor columns serves
// every K tile (as in CUTLASS's sm100_blockscaled_mma_warpspecialized.hpp), and the stage's
// commit covers the copies too. Each MMA then names its K step's scale words (the scale
// operands' columns) and bytes (the descriptor's scale factor data IDs).
#pragma once
#include <cstdint>
#include <utility>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tcgen05.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/mma/umma_atom.hpp"
#include "tessera/mma/umma_block_scaled_atom.hpp"
#include "tessera/mma/umma_lowp_atom.hpp"
#include "tessera/mma/umma_scale_factors.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

// Operands: OperandTiles<...> (tma/operand_tiles.hpp); Config: the configuration (its kind,
// kKind, and the instruction descriptor of every tcgen05.mma, kIdesc / kInstr: umma_atom.hpp,
// umma_lowp_atom.hpp, umma_block_scaled_atom.hpp; with block scales its scale tiles).
template <class Operands, int kStages, class Config>
struct UmmaMainloop {
  static constexpr nvidia::UmmaKind kKind = Config::kKind;
  static constexpr std::uint32_t kIdesc = Config::kIdesc;
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

  // Where a block-scaled configuration's scale factors are: each stage's atoms in shared memory
  // (stages_sf, Config::kScaleStageBytes a stage) and their columns in tensor memory (sfa, sfb:
  // TMEM addresses, lane 0). Unused without block scales.
  struct Scales {
    std::uint32_t stages_sf = 0, sfa = 0, sfb = 0;
  };

  // The MMAs of one tile into the accumulator at TMEM address d: k_tiles K tiles from ring
  // position `pos` (advanced past them). stage_mask: the CTAs whose empty barriers hear a
  // stage's release; tile_mask: those whose full accumulator barrier hears the tile's end.
  TESSERA_DEVICE static void tile(std::uint32_t d, std::uint32_t stages_a, std::uint32_t stages_b,
                                  std::uint64_t* full, std::uint64_t* empty, std::uint64_t* accumulator_full,
                                  RingPosition<kStages>& pos, int k_tiles, std::uint16_t stage_mask,
                                  std::uint16_t tile_mask, const Scales& scales = {}) {
    for (int kt = 0; kt < k_tiles; ++kt) {
      nvidia::mbarrier_wait<kClusterWaits>(&full[pos.stage], pos.phase);
      nvidia::tcgen05_fence_after_thread_sync();
      const std::uint32_t a = stages_a + pos.stage * TileA::kBytes;
      const std::uint32_t b = stages_b + pos.stage * TileB::kBytes;
      // The tile's first MMA overwrites the buffer (the previous tile's values are stale).
      if constexpr (Config::kBlockScaled) {
        copy_scales(scales.stages_sf + std::uint32_t(pos.stage * Config::kScaleStageBytes), scales);
        scaled_steps(d, a, b, scales, kt > 0, std::make_integer_sequence<int, kSteps>{});
      } else {
        TESSERA_UNROLL
        for (int kk = 0; kk < kSteps; ++kk) {
          nvidia::umma<kKind, kCtaGroup, kIdesc>(d, descriptor_a(a, kk), descriptor_b(b, kk), kt > 0 || kk > 0);
        }
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

 private:
  // A stage's scale-factor atoms (at shared address sf) to their columns: A's, then B's.
  TESSERA_DEVICE static void copy_scales(std::uint32_t sf, const Scales& scales) {
    using TileSA = typename Config::ScaleTileA;
    using TileSB = typename Config::ScaleTileB;
    TESSERA_UNROLL
    for (int i = 0; i < TileSA::kAtoms; ++i) {
      nvidia::tmem_copy_32x128b_warpx4<kCtaGroup>(
          scales.sfa + std::uint32_t(TileSA::atom_column(i)),
          mma::umma::encode(mma::umma::scale_factor_atom_descriptor(sf + TileSA::atom_offset(i))));
    }
    TESSERA_UNROLL
    for (int i = 0; i < TileSB::kAtoms; ++i) {
      nvidia::tmem_copy_32x128b_warpx4<kCtaGroup>(
          scales.sfb + std::uint32_t(TileSB::atom_column(i)),
          mma::umma::encode(mma::umma::scale_factor_atom_descriptor(sf + std::uint32_t(TileSA::kBytes) +
                                                                    TileSB::atom_offset(i))));
    }
  }

  // The block-scaled MMAs of one stage, K step kk with its scale words' columns and the
  // descriptor carrying its data IDs (an immediate per step).
  template <int... kk>
  TESSERA_DEVICE static void scaled_steps(std::uint32_t d, std::uint32_t a, std::uint32_t b, const Scales& scales,
                                          bool accumulate, std::integer_sequence<int, kk...>) {
    constexpr auto kScaled = Config::kScaledKind;
    (nvidia::umma_block_scaled<kKind, kCtaGroup, mma::umma::with_scale_ids<kScaled>(Config::kInstr, kk)>(
         d, descriptor_a(a, kk), descriptor_b(b, kk),
         scales.sfa + std::uint32_t(Config::ScaleTileA::word_column(mma::umma::scale_word_of_step<kScaled>(kk))),
         scales.sfb + std::uint32_t(Config::ScaleTileB::word_column(mma::umma::scale_word_of_step<kScaled>(kk))),
         accumulate || kk > 0),
     ...);
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
