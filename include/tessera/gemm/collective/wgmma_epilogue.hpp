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
// Direct (the generic path, for D/C no TMA can describe): each thread writes its values
// with ordinary, bounds-checked element stores.
//
// A group's last tile (many GEMMs, problem_place.hpp): its boxes that hold rows past the group
// are staged the same way, then copied to D by the warpgroup's threads, those rows left out.
//
// C is read (only when the epilogue reads it) with ordinary loads before the values are
// written, so C == D (in place) is safe: every element is read before the store that
// overwrites it.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/collective/epilogue_support.hpp"
#include "tessera/gemm/collective/problem_place.hpp"
#include "tessera/layout/sm90_tile.hpp"
#include "tessera/mma/wgmma_atom.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)


// ElementC, ElementD, LayoutC: C's and D's element types and their layout; kN: the N tile;
// kRowBlocks: the warpgroup's 64-row blocks. The kernel's parameters carry the epilogue. Each
// store takes a Place (problem_place.hpp): one GEMM's C, D and bounds by default, or an entry
// of a batch or group.
template <class ElementC, class ElementD, class LayoutC, int kN_, int kRowBlocks_>
struct WgmmaEpilogue {
  using EC = ElementC;
  using ED = ElementD;
  static constexpr bool kRowMajor = LayoutC::kIsRowMajor;
  static constexpr int kN = kN_;
  static constexpr int kRowBlocks = kRowBlocks_;
  static constexpr int kAccPerBlock = kN / 2;
  using Atom = mma::WgmmaAtom<(kN <= 256 ? kN : 256)>;
  // A staging box: 64 lines of kLineElements elements of D.
  static constexpr int kLineElements = 128 / int(sizeof(ED));
  using Box = Sw128StagingTile<64, int(sizeof(ED))>;
  // Box extent in rows and columns of D.
  static constexpr int kBoxRows = kRowMajor ? 64 : kLineElements;
  static constexpr int kBoxCols = kRowMajor ? kLineElements : 64;
  static_assert(64 % kBoxRows == 0 && kN % kBoxCols == 0, "Tessera: epilogue boxes must tile the warpgroup's block");

  // The warpgroup's block of the tile: rows [m0, m0 + 64 kRowBlocks), columns [n0, n0 + N).
  // staging: this warpgroup's two boxes; turn counts this warpgroup's boxes (picks the
  // buffer); barrier: the warpgroup's named-barrier id; t: thread in the warpgroup.
  template <class Params, class Place = OneProblem>
  TESSERA_DEVICE static void tma_store(const Params& p, const float (&acc)[kRowBlocks][kAccPerBlock],
                                       std::int64_t m0, std::int64_t n0, unsigned char* staging, int& turn,
                                       int barrier, int t, const Place& place = {}) {
    // A call that does not read C gets its own copy of the loop, without the per-element C
    // bounds arithmetic, which kept the tensor cores idle for a measurable share of the run
    // (benchmark/notes/wgmma.md, v9). Warpgroups with two 64-row blocks keep one copy: the
    // second made ptxas spill there.
    if constexpr (kRowBlocks == 1) {
      if (!p.epilogue.reads_c()) {
        tma_store_boxes<false>(p, acc, m0, n0, staging, turn, barrier, t, place);
        return;
      }
    }
    tma_store_boxes<true>(p, acc, m0, n0, staging, turn, barrier, t, place);
  }

 private:
  // kReadC: C may be read (where the call reads it and the element is inside M x N); else
  // the call does not read C.
  template <bool kReadC, class Params, class Place>
  TESSERA_DEVICE static void tma_store_boxes(const Params& p, const float (&acc)[kRowBlocks][kAccPerBlock],
                                             std::int64_t m0, std::int64_t n0, unsigned char* staging, int& turn,
                                             int barrier, int t, const Place& place) {
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int br = 0; br < 64 / kBoxRows; ++br) {
        TESSERA_UNROLL
        for (int bc = 0; bc < kN / kBoxCols; ++bc) {
          unsigned char* box = staging + (turn & 1) * Box::kBytes;
          // The buffer's previous store (two boxes ago) must have read it.
          if (t == 0) nvidia::bulk_wait_group_read<1>();
          nvidia::named_barrier_sync(barrier, 128);
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
          TESSERA_UNROLL
          for (int i = 0; i < kAccPerBlock; i += 2) {
            // Is the pair in this box? Its 8-column group is known at compile time; its rows
            // depend only on the warp (a box of fewer than 64 rows holds two warps' rows).
            if (8 * (i / 4) < col_lo || 8 * (i / 4) >= col_lo + kBoxCols) continue;
            if constexpr (kBoxRows < 64) {
              const int warp_rows = 16 * (t / 32);
              if (warp_rows < row_lo || warp_rows >= row_lo + kBoxRows) continue;
            }
            const auto e = Atom::element(t, i);  // (r, c) and (r, c + 1)
            const std::int64_t m = m0 + rb * 64 + e.row, n = n0 + e.col;
            const float v0 = place.template value<kReadC, LayoutC>(p, acc[rb][i], m, n);
            const float v1 = place.template value<kReadC, LayoutC>(p, acc[rb][i + 1], m, n + 1);
            if constexpr (kRowMajor) {
              const std::uint32_t at = nvidia::smem_address(box + Box::offset(e.row - row_lo, e.col - col_lo));
              if constexpr (sizeof(ED) == 4) {
                asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"(v0), "f"(v1) : "memory");
              } else {
                asm volatile("st.shared.u32 [%0], %1;" ::"r"(at), "r"(detail::pack_pair<ED>(v0, v1)) : "memory");
              }
            } else {
              // Column-major: (r, c) and (r, c + 1) are on two lines (col_base above).
              const std::uint32_t group = std::uint32_t(8 * (i / 4) - col_lo) / 8 * 1024;
              const int h = (i / 2) % 2;
              *reinterpret_cast<ED*>(box + col_base[h][0] + group) = from_float<ED>(v0);
              *reinterpret_cast<ED*>(box + col_base[h][1] + group) = from_float<ED>(v1);
            }
          }
          nvidia::fence_proxy_async_shared();
          nvidia::named_barrier_sync(barrier, 128);
          const int row = int(m0) + rb * 64 + row_lo, col = int(n0) + col_lo;
          if (place.box_whole(row, kBoxRows)) {
            if (t == 0) {
              if constexpr (kRowMajor) {
                place.tma_store(p, box, col, row);
              } else {
                place.tma_store(p, box, row, col);
              }
              nvidia::bulk_commit_group();
            }
          } else {
            // A box of a group's last tile: only the group's rows, copied by the threads (the
            // buffer is reused two boxes on, after the barrier at its start).
            place.template copy_box<LayoutC, Box, ED>(p, box, row, col, t);
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
    TESSERA_UNROLL
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      TESSERA_UNROLL
      for (int i = 0; i < kAccPerBlock; ++i) {
        const auto e = Atom::element(t, i);
        const std::int64_t m = m0 + rb * 64 + e.row, n = n0 + e.col;
        if (place.inside(p, m, n)) {
          *place.template d<LayoutC>(p, m, n) = from_float<ED>(place.template value_inside<LayoutC>(p, acc[rb][i], m, n));
        }
      }
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
