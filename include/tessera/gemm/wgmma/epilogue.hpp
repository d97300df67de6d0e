// The Hopper kernel's epilogue, per consumer warpgroup: D = epilogue(acc, C) (the
// configuration's epilogue; by default alpha * acc + beta * C), converted to D's type.
//
// TmaStore (when D's base and pitch suit the TMA): the warpgroup's rows are cut into
// boxes of 64 lines x 128 bytes (a line is a row of a row-major D, a column of a
// column-major one). For each box the threads write their values into one of two
// staging buffers in the 128-byte-swizzled layout (conflict-free for the accumulator
// layout: test_sm90_tiles counts it), fence the async proxy, meet at the warpgroup's
// named barrier, and one thread issues the TMA store; the other buffer is filled while it
// drains, and a buffer is reused only once its store has read it (bulk wait_group.read).
// The TMA clips whatever falls outside M x N.
//
// Direct (the realigning path, for D/C no TMA can describe): each thread writes its values
// with ordinary, bounds-checked element stores.
//
// A group's last tile (many GEMMs, tma/problem_place.hpp): its boxes that hold rows past the group
// are staged the same way, then copied to D by the warpgroup's threads, those rows left out.
//
// C is read only when the epilogue reads it, before the values are written, so C == D (in
// place) is safe: every element is read before the store that overwrites it. Where the call
// stages C (p.c_staged: the TMA path, C's element of D's size and TMA able to describe C),
// the kernel's C loader has loaded each box of C with TMA into the very staging box whose D
// it becomes, ahead of the epilogue: a thread reads its C values there and writes D in their
// place, and a box is released to the loader (c_empty) once its store has read it. Else C
// comes with ordinary loads from global memory (always for a batch or groups: the launch
// stages C only for one GEMM).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/tma/epilogue_support.hpp"
#include "tessera/gemm/tma/problem_place.hpp"
#include "tessera/layout/sm90_tile.hpp"
#include "tessera/mma/wgmma_atom.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)


// ElementC, ElementD, LayoutC: C's and D's element types and their layout; kN: the N tile;
// kRowBlocks: the warpgroup's 64-row blocks; kBoxes: its staging boxes (at least 2). The
// kernel's parameters carry the epilogue. Each store takes a Place (tma/problem_place.hpp): one
// GEMM's C, D and bounds by default, or an entry of a batch or group.
template <class ElementC, class ElementD, class LayoutC, int kN_, int kRowBlocks_, int kBoxes_ = 2>
struct WgmmaEpilogue {
  using EC = ElementC;
  using ED = ElementD;
  static constexpr bool kRowMajor = LayoutC::kIsRowMajor;
  static constexpr int kN = kN_;
  static constexpr int kRowBlocks = kRowBlocks_;
  static constexpr int kBoxes = kBoxes_;
  static constexpr int kAccPerBlock = kN / 2;
  using Atom = mma::WgmmaAtom<(kN <= 256 ? kN : 256)>;
  // A staging box: lines of 128 bytes of D (rows of a row-major D, columns of a
  // column-major one), 128-byte swizzled; where the N tile is narrower than one line of a
  // row-major D, 64 rows of kN elements, unswizzled (a box must not reach into the next tile).
  static constexpr int kLineElements = 128 / int(sizeof(ED));
  static constexpr bool kNarrowRows = kRowMajor && kN < kLineElements;
  // Box extent in rows and columns of D.
  static constexpr int kBoxRows = kRowMajor ? 64 : kLineElements;
  static constexpr int kBoxCols = kRowMajor ? (kNarrowRows ? kN : kLineElements) : (kN < 64 ? kN : 64);
  static constexpr int kBoxLineBytes = kNarrowRows ? kN * int(sizeof(ED)) : 128;
  static constexpr int kBoxLines = kRowMajor ? 64 : kBoxCols;
  static constexpr int kBoxBytes = kBoxLines * kBoxLineBytes;
  // Boxes sit this far apart in the staging buffer (the configuration's kStagingBoxBytes).
  static constexpr int kBoxStride = 64 * 128;
  using Box = Sw128StagingTile<64, int(sizeof(ED))>;
  static_assert(64 % kBoxRows == 0 && kN % kBoxCols == 0, "Tessera: epilogue boxes must tile the warpgroup's block");
  static_assert(kBoxBytes <= kBoxStride && kBoxLineBytes % 16 == 0, "Tessera: an epilogue box is 16-byte lines of at most 8 KiB");
  static_assert(kBoxes >= 2, "Tessera: the epilogue needs at least two staging boxes per warpgroup");
  // The boxes of one warpgroup's block, in the order they are stored (and C is loaded).
  static constexpr int kBoxesPerBlock = kRowBlocks * (64 / kBoxRows) * (kN / kBoxCols);

  // Where C comes from: not read; ordinary loads from global memory; the staging box itself
  // (loaded there with TMA by the kernel's C loader, wgmma/staged_c_loader.hpp); or, as the
  // call says (p.c_staged), either.
  enum class CSource { kNone, kGlobal, kStaged, kGlobalOrStaged };

  // Byte offset of element (row, col) of a box (row-major D: line = row).
  TESSERA_HOST_DEVICE static constexpr std::uint32_t offset(int line, int element) {
    if constexpr (kNarrowRows) {
      return std::uint32_t(line * kBoxLineBytes + element * int(sizeof(ED)));
    } else {
      return Box::offset(line, element);
    }
  }

  // The origin (row, column of D) of box b of the warpgroup's block at (m0, n0), b in store order.
  struct BoxOrigin {
    int row, col;
  };
  TESSERA_HOST_DEVICE static constexpr BoxOrigin box_origin(int b) {
    const int per_block = kBoxesPerBlock / kRowBlocks;
    const int rb = b / per_block, within = b % per_block;
    const int br = within / (kN / kBoxCols), bc = within % (kN / kBoxCols);
    return {rb * 64 + br * kBoxRows, bc * kBoxCols};
  }
  // The box's coordinates as its tensor map (D's, and C's) takes them: {inner, outer}.
  TESSERA_HOST_DEVICE static constexpr BoxOrigin map_coordinates(int row, int col) {
    return kRowMajor ? BoxOrigin{col, row} : BoxOrigin{row, col};
  }

  // The warpgroup's block of the tile: rows [m0, m0 + 64 kRowBlocks), columns [n0, n0 + N).
  // staging: this warpgroup's kBoxes boxes; turn counts this warpgroup's boxes (picks the
  // buffer and, with staged C, its barrier phase); barrier: the warpgroup's named-barrier
  // id; t: thread in the warpgroup; c_full / c_empty: this warpgroup's C barriers, one pair
  // per box (used only where the call stages C: p.c_staged).
  template <class Params, class Place = OneProblem>
  TESSERA_DEVICE static void tma_store(const Params& p, const float (&acc)[kRowBlocks][kAccPerBlock],
                                       std::int64_t m0, std::int64_t n0, unsigned char* staging, int& turn,
                                       int barrier, int t, std::uint64_t* c_full, std::uint64_t* c_empty,
                                       const Place& place = {}) {
    tma_store_with(p, p.epilogue, acc, m0, n0, staging, turn, barrier, t, c_full, c_empty, place);
  }
  // The same with the epilogue `op` (tma/epilogue_support.hpp: p.epilogue or a thread's own copy).
  template <class Params, class Op, class Place = OneProblem>
  TESSERA_DEVICE static void tma_store_with(const Params& p, Op& op, const float (&acc)[kRowBlocks][kAccPerBlock],
                                            std::int64_t m0, std::int64_t n0, unsigned char* staging, int& turn,
                                            int barrier, int t, std::uint64_t* c_full, std::uint64_t* c_empty,
                                            const Place& place = {}) {
    // A call that does not read C gets its own copy of the loop, without the per-element C
    // bounds arithmetic, which kept the tensor cores idle for a measurable share of the run
    // (benchmark/notes/wgmma.md, section Versions, the beta == 0 store loop). So does staged C:
    // in a copy shared with C from global memory every element chose between the staging box
    // and the bounds-checked global path, which made the epilogue instruction-bound at beta = 1
    // (benchmark/notes/sweep.md, section "beta = 1"). Two exceptions keep one shared copy, because
    // another copy made ptxas spill: warpgroups with two 64-row blocks (one copy for everything),
    // and composed epilogues (staged C and C from global memory share one).
    constexpr bool kStageable = sizeof(EC) == sizeof(ED) && sizeof(ED) >= 2;  // an fp8 C is never staged
    constexpr bool kStagedCopy = kRowBlocks == 1 && kStageable && std::is_same_v<Place, OneProblem> &&
                                 !IsComposedEpilogue<std::remove_cv_t<Op>>::value;
    if constexpr (kRowBlocks == 1) {
      if (!op.reads_c()) {
        tma_store_boxes<CSource::kNone>(p, op, acc, m0, n0, staging, turn, barrier, t, c_full, c_empty, place);
        return;
      }
    }
    if constexpr (kStagedCopy) {
      if (p.c_staged) {
        tma_store_boxes<CSource::kStaged>(p, op, acc, m0, n0, staging, turn, barrier, t, c_full, c_empty, place);
      } else {
        tma_store_boxes<CSource::kGlobal>(p, op, acc, m0, n0, staging, turn, barrier, t, c_full, c_empty, place);
      }
    } else if constexpr (kStageable) {
      tma_store_boxes<CSource::kGlobalOrStaged>(p, op, acc, m0, n0, staging, turn, barrier, t, c_full, c_empty,
                                                place);
    } else {
      tma_store_boxes<CSource::kGlobal>(p, op, acc, m0, n0, staging, turn, barrier, t, c_full, c_empty, place);
    }
  }

 private:
  // C's pair from the staging box (C has D's element size, so its box has D's geometry): in
  // one load where the pair is adjacent (row-major), else one load each.
  TESSERA_DEVICE static void staged_c_pair(const unsigned char* at0, const unsigned char* at1, float& c0,
                                           float& c1) {
    static_assert(sizeof(EC) == sizeof(ED), "Tessera: C is staged in D's boxes only when it has D's element size");
    if constexpr (kRowMajor && sizeof(EC) == 4) {
      asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(c0), "=f"(c1) : "r"(nvidia::smem_address(at0)) : "memory");
    } else if constexpr (kRowMajor) {
      std::uint32_t w;
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(w) : "r"(nvidia::smem_address(at0)) : "memory");
      c0 = to_float(EC::from_bits(std::uint16_t(w & 0xffffu)));
      c1 = to_float(EC::from_bits(std::uint16_t(w >> 16)));
    } else if constexpr (sizeof(EC) == 4) {
      asm volatile("ld.shared.f32 %0, [%1];" : "=f"(c0) : "r"(nvidia::smem_address(at0)) : "memory");
      asm volatile("ld.shared.f32 %0, [%1];" : "=f"(c1) : "r"(nvidia::smem_address(at1)) : "memory");
    } else {
      std::uint16_t h0, h1;
      asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h0) : "r"(nvidia::smem_address(at0)) : "memory");
      asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h1) : "r"(nvidia::smem_address(at1)) : "memory");
      c0 = to_float(EC::from_bits(h0));
      c1 = to_float(EC::from_bits(h1));
    }
  }

  // D's pair at its two staging addresses.
  TESSERA_DEVICE TESSERA_FORCEINLINE static void store_pair(unsigned char* at0, unsigned char* at1, float v0,
                                                            float v1) {
    if constexpr (kRowMajor) {
      const std::uint32_t at = nvidia::smem_address(at0);
      if constexpr (sizeof(ED) == 4) {
        asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"(v0), "f"(v1) : "memory");
      } else if constexpr (sizeof(ED) == 1) {
        asm volatile("st.shared.u16 [%0], %1;" ::"r"(at), "h"(detail::pack_fp8_pair<ED>(v0, v1)) : "memory");
      } else {
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(at), "r"(detail::pack_pair<ED>(v0, v1)) : "memory");
      }
    } else {
      *reinterpret_cast<ED*>(at0) = from_float<ED>(v0);
      *reinterpret_cast<ED*>(at1) = from_float<ED>(v1);
    }
  }

  // Is accumulator pair i (of thread t) in the box at (row_lo, col_lo)? Its 8-column group is
  // known at compile time; its rows depend only on the warp (a box of fewer than 64 rows holds
  // two warps' rows).
  TESSERA_DEVICE TESSERA_FORCEINLINE static bool pair_in_box(int i, int row_lo, int col_lo, int t) {
    if (8 * (i / 4) < col_lo || 8 * (i / 4) >= col_lo + kBoxCols) return false;
    if constexpr (kBoxRows < 64) {
      const int warp_rows = 16 * (t / 32);
      if (warp_rows < row_lo || warp_rows >= row_lo + kBoxRows) return false;
    }
    return true;
  }

  // One box of a row-major D with C staged in it (kStaged: one 64-row block, kRowBlocks == 1;
  // row0: the block's first row): every C pair of the box read and every value computed before
  // the first store. Each store is an asm with a memory clobber, so with the two interleaved each
  // pair's reads of C waited behind the previous pair's store (benchmark/notes/sweep.md, section
  // "Staged C: a box's values before its stores"). Only this copy: in the others, and for a
  // column-major D, a box's values held beside the accumulators made ptxas spill.
  template <class Params, class Op, class Place>
  TESSERA_DEVICE TESSERA_FORCEINLINE static void staged_box(const Params& p, Op& op, const float (&acc)[kAccPerBlock],
                                                            std::int64_t row0, std::int64_t n0, unsigned char* box,
                                                            int row_lo, int col_lo, int t, const Place& place) {
    static_assert(kRowMajor, "Tessera: the staged-C box loop is for a row-major D");
    // The pair's two staging addresses (adjacent in a row-major box).
    auto at_pair = [&](int i) {
      const auto e = Atom::element(t, i);
      return box + offset(e.row - row_lo, e.col - col_lo);
    };
    float values[kAccPerBlock];
    TESSERA_UNROLL
    for (int i = 0; i < kAccPerBlock; i += 2) {
      if (!pair_in_box(i, row_lo, col_lo, t)) continue;
      const auto e = Atom::element(t, i);  // (r, c) and (r, c + 1)
      const std::int64_t m = row0 + e.row, n = n0 + e.col;
      unsigned char* at0 = at_pair(i);
      float c0, c1;
      staged_c_pair(at0, at0 + sizeof(ED), c0, c1);
      values[i] = op(acc[i], EpilogueElement{m, n, c0, true, place.inside(p, m, n)});
      values[i + 1] = op(acc[i + 1], EpilogueElement{m, n + 1, c1, true, place.inside(p, m, n + 1)});
    }
    TESSERA_UNROLL
    for (int i = 0; i < kAccPerBlock; i += 2) {
      if (!pair_in_box(i, row_lo, col_lo, t)) continue;
      unsigned char* at0 = at_pair(i);
      store_pair(at0, at0 + sizeof(ED), values[i], values[i + 1]);
    }
  }

  template <CSource kC, class Params, class Op, class Place>
  TESSERA_DEVICE static void tma_store_boxes(const Params& p, Op& op, const float (&acc)[kRowBlocks][kAccPerBlock],
                                             std::int64_t m0, std::int64_t n0, unsigned char* staging, int& turn,
                                             int barrier, int t, std::uint64_t* c_full, std::uint64_t* c_empty,
                                             const Place& place) {
    // Whether C is in the staging boxes (known at compile time but for kGlobalOrStaged; only
    // one GEMM stages C).
    constexpr bool kMayStage = kC == CSource::kGlobalOrStaged && std::is_same_v<Place, OneProblem>;
    const bool staged = kC == CSource::kStaged || (kMayStage && p.c_staged);
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int br = 0; br < 64 / kBoxRows; ++br) {
        TESSERA_UNROLL
        for (int bc = 0; bc < kN / kBoxCols; ++bc) {
          const int slot = (kBoxes & (kBoxes - 1)) == 0 ? (turn & (kBoxes - 1)) : turn % kBoxes;
          unsigned char* box = staging + slot * kBoxStride;
          if (staged) {
            // C's box has landed; the loader wrote it only after the box's previous store
            // had read it (the release below).
            nvidia::mbarrier_wait(&c_full[slot], std::uint32_t((turn / kBoxes) & 1));
          } else {
            // The buffer's previous store (kBoxes boxes ago) must have read it.
            if (t == 0) nvidia::bulk_wait_group_read<kBoxes - 1>();
            nvidia::named_barrier_sync(barrier, 128);
          }
          const int row_lo = br * kBoxRows, col_lo = bc * kBoxCols;
          // Column-major: the thread's four staging addresses of the box's first 8-column group
          // (rows r and r + 8, columns c and c + 1, c = 2 (lane % 4)); every other group is 8
          // lines (1024 bytes) further, since the swizzle XORs a line's chunks with line % 8,
          // which a whole group leaves unchanged. Spelled out, the addresses are a constant
          // each, not 128 computed ones kept live (the computed form spilled: sass_check).
          std::uint32_t col_base[2][2] = {};
          if constexpr (!kRowMajor) {
            const int c = 2 * (t % 4), r = 16 * (t / 32) + (t % 32) / 4 - row_lo;
            TESSERA_UNROLL
            for (int h = 0; h < 2; ++h) {
              col_base[h][0] = Box::offset(c, r + 8 * h);
              col_base[h][1] = Box::offset(c + 1, r + 8 * h);
            }
          }
          if constexpr (kC == CSource::kStaged && kRowMajor) {
            staged_box(p, op, acc[rb], m0 + rb * 64, n0, box, row_lo, col_lo, t, place);
          } else {
            TESSERA_UNROLL
            for (int i = 0; i < kAccPerBlock; i += 2) {
              if (!pair_in_box(i, row_lo, col_lo, t)) continue;
              const auto e = Atom::element(t, i);  // (r, c) and (r, c + 1)
              const std::int64_t m = m0 + rb * 64 + e.row, n = n0 + e.col;
              // The pair's two staging addresses (row-major: adjacent; column-major: two lines).
              unsigned char* at0;
              unsigned char* at1;
              if constexpr (kRowMajor) {
                at0 = box + offset(e.row - row_lo, e.col - col_lo);
                at1 = at0 + sizeof(ED);
              } else {
                const std::uint32_t group = std::uint32_t(8 * (i / 4) - col_lo) / 8 * 1024;
                const int h = (i / 2) % 2;
                at0 = box + col_base[h][0] + group;
                at1 = box + col_base[h][1] + group;
              }
              float v0, v1;
              if constexpr (kC == CSource::kStaged || kC == CSource::kGlobalOrStaged) {
                // Staged: every thread reads exactly the C elements whose D it then writes in
                // their place (kStaged: `staged` is true at compile time, and the global path
                // below is not generated).
                float c0 = 0.0f, c1 = 0.0f;
                if (staged) staged_c_pair(at0, at1, c0, c1);
                // inside(): an epilogue with side effects (AuxiliaryOutput) writes only there.
                v0 = staged ? op(acc[rb][i], EpilogueElement{m, n, c0, true, place.inside(p, m, n)})
                            : place.template value<true, LayoutC>(p, op, acc[rb][i], m, n);
                v1 = staged ? op(acc[rb][i + 1], EpilogueElement{m, n + 1, c1, true, place.inside(p, m, n + 1)})
                            : place.template value<true, LayoutC>(p, op, acc[rb][i + 1], m, n + 1);
              } else {
                v0 = place.template value<kC == CSource::kGlobal, LayoutC>(p, op, acc[rb][i], m, n);
                v1 = place.template value<kC == CSource::kGlobal, LayoutC>(p, op, acc[rb][i + 1], m, n + 1);
              }
              store_pair(at0, at1, v0, v1);
            }
          }
          nvidia::fence_proxy_async_shared();
          nvidia::named_barrier_sync(barrier, 128);
          const int row = int(m0) + rb * 64 + row_lo, col = int(n0) + col_lo;
          if (place.box_whole(row, kBoxRows)) {
            if (t == 0) {
              const BoxOrigin at = map_coordinates(row, col);
              place.tma_store(p, box, at.row, at.col);
              nvidia::bulk_commit_group();
              if (staged) {
                // Once the store has read the box, C of a later box may be loaded into it: released
                // at once, so that the loads of the tile's later boxes are not chained one behind
                // another (one box later, they were, and beta = 1 ran slower: benchmark/notes/small_m.md,
                // section Versions, staged C).
                nvidia::bulk_wait_group_read<0>();
                nvidia::mbarrier_arrive(&c_empty[slot]);
              }
            }
          } else {
            // A box of a group's last tile: only the group's rows, copied by the threads (the
            // buffer is reused kBoxes boxes on, after the barrier at its start).
            place.template copy_box<LayoutC, WgmmaEpilogue, ED>(p, box, row, col, t);
          }
          ++turn;
        }
      }
    }
  }

 public:
  // Bounds-checked element stores straight from the accumulators.
  template <class Params, class Place = OneProblem>
  TESSERA_DEVICE static void direct_store(const Params& p, const float (&acc)[kRowBlocks][kAccPerBlock],
                                          std::int64_t m0, std::int64_t n0, int t, const Place& place = {}) {
    direct_store_with(p, p.epilogue, acc, m0, n0, t, place);
  }
  template <class Params, class Op, class Place = OneProblem>
  TESSERA_DEVICE static void direct_store_with(const Params& p, Op& op, const float (&acc)[kRowBlocks][kAccPerBlock],
                                               std::int64_t m0, std::int64_t n0, int t, const Place& place = {}) {
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int i = 0; i < kAccPerBlock; ++i) {
        const auto e = Atom::element(t, i);
        const std::int64_t m = m0 + rb * 64 + e.row, n = n0 + e.col;
        if (place.inside(p, m, n)) {
          *place.template d<LayoutC>(p, m, n) = from_float<ED>(place.template value_inside<LayoutC>(p, op, acc[rb][i], m, n));
        }
      }
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
