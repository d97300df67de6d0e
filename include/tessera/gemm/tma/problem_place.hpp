// Where the TMA families' epilogues (wgmma/epilogue.hpp, umma/epilogue.hpp) put a tile's
// values, as a policy they are given:
//   OneProblem     one GEMM: C and D at their pointers, the M x N bounds, D's 2-D tensor map;
//   ProblemOfSet   one entry of a batch or group (problem_set.hpp): C and D moved by the entry's
//                  strides, its rows as the bound, D's 3-D tensor map at the entry's layer (or,
//                  for the contiguous grouped layout, the rows of the whole D).
// Each offers: value<kReadC, LayoutC>(p, op, acc, m, n) (the epilogue op's value of any element
// of a box, C read where inside and wanted; op: p.epilogue or a thread's own copy, as
// tma/epilogue_support.hpp's apply_*), value_inside (of an element known inside), inside(p, m, n),
// d(p, m, n) (the element's address) and tma_store(p, box, inner, outer).
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/tma/epilogue_support.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

struct OneProblem {
  template <bool kReadC, class LayoutC, class Params, class Op>
  TESSERA_DEVICE TESSERA_FORCEINLINE float value(const Params& p, Op& op, float acc, std::int64_t m,
                                                 std::int64_t n) const {
    if constexpr (kReadC) {
      return detail::apply_with_c<LayoutC>(p, op, acc, m, n);
    } else {
      return detail::apply_without_c(op, acc, m, n, m < p.M && n < p.N);
    }
  }
  template <class LayoutC, class Params, class Op>
  TESSERA_DEVICE TESSERA_FORCEINLINE float value_inside(const Params& p, Op& op, float acc, std::int64_t m,
                                                        std::int64_t n) const {
    return detail::apply_inside<LayoutC>(p, op, acc, m, n);
  }
  template <class Params>
  TESSERA_DEVICE TESSERA_FORCEINLINE bool inside(const Params& p, std::int64_t m, std::int64_t n) const {
    return m < p.M && n < p.N;
  }
  template <class LayoutC, class Params>
  TESSERA_DEVICE TESSERA_FORCEINLINE auto* d(const Params& p, std::int64_t m, std::int64_t n) const {
    return p.d + LayoutC::offset(m, n, p.ldd);
  }
  template <class Params>
  TESSERA_DEVICE TESSERA_FORCEINLINE void tma_store(const Params& p, const void* box, int inner, int outer) const {
    nvidia::tma_store_2d(&p.map_d, box, inner, outer);
  }
  // Every row of a box is stored by the TMA store (which clips at M and N).
  TESSERA_DEVICE TESSERA_FORCEINLINE constexpr bool box_whole(int, int) const { return true; }
  template <class LayoutC, class Boxes, class ED, class Params>
  TESSERA_DEVICE void copy_box(const Params&, const unsigned char*, int, int, int) const {}
};

// kAllRows: every problem owns all M rows of its layer (a strided batch): the 3-D TMA store clips
// at M by itself, so no box needs the threads' copy.
template <bool kAllRows = false>
struct ProblemOfSet {
  int problem;
  int row_end;  // the problem's rows end here (rows as its D is addressed)

  // The problem of unit u. Params carries the strides (ProblemStrides strides); the offsets are
  // taken from it where used, so that no more than these two values stay live (a Pingpong
  // consumer holds 128 accumulators besides).
  template <class Params>
  TESSERA_DEVICE TESSERA_FORCEINLINE static ProblemOfSet of(const Params&, const WorkUnit& u) {
    return {u.problem, u.row_begin + u.rows};
  }

  template <bool kReadC, class LayoutC, class Params, class Op>
  TESSERA_DEVICE TESSERA_FORCEINLINE float value(const Params& p, Op& op, float acc, std::int64_t m,
                                                 std::int64_t n) const {
    const bool in = inside(p, m, n);
    if constexpr (kReadC) {
      return op(acc, detail::GlobalCElement<LayoutC, Params, true>{p, m, n, op.reads_c() && in, in, problem});
    } else {
      return op(acc, EpilogueElement{m, n, 0.0f, false, in, problem});
    }
  }
  template <class LayoutC, class Params, class Op>
  TESSERA_DEVICE TESSERA_FORCEINLINE float value_inside(const Params& p, Op& op, float acc, std::int64_t m,
                                                        std::int64_t n) const {
    return op(acc, detail::GlobalCElement<LayoutC, Params, true>{p, m, n, op.reads_c(), true, problem});
  }
  template <class Params>
  TESSERA_DEVICE TESSERA_FORCEINLINE bool inside(const Params& p, std::int64_t m, std::int64_t n) const {
    return m < row_end && n < p.N;
  }
  template <class LayoutC, class Params>
  TESSERA_DEVICE TESSERA_FORCEINLINE auto* d(const Params& p, std::int64_t m, std::int64_t n) const {
    return p.d + problem * p.strides.d + LayoutC::offset(m, n, p.ldd);
  }
  // D's layer: the problem, or 0 where D is addressed by rows (stride 0).
  template <class Params>
  TESSERA_DEVICE TESSERA_FORCEINLINE void tma_store(const Params& p, const void* box, int inner, int outer) const {
    nvidia::tma_store_3d(&p.map_d, box, inner, outer, p.strides.d != 0 ? problem : 0);
  }
  // Whether all `rows` rows from `row` are the problem's: a TMA store would write rows past
  // the problem's end (the next group's, contiguous layout), which it does not clip.
  TESSERA_DEVICE TESSERA_FORCEINLINE bool box_whole(int row, int rows) const {
    if constexpr (kAllRows) {
      return true;
    } else {
      return row + rows <= row_end;
    }
  }
  // The box's rows that are the problem's, from the staging buffer to D with 16-byte stores, by
  // the warpgroup's 128 threads. Boxes: the box's geometry (kBoxLines lines of kBoxLineBytes,
  // offset(line, element) the byte of an element). A line is a row of a row-major D (cut at N,
  // a multiple of 16 bytes for TMA) or a column of a column-major one (cut at the problem's
  // last row, element by element where a piece straddles it).
  template <class LayoutC, class Boxes, class ED, class Params>
  TESSERA_DEVICE void copy_box(const Params& p, const unsigned char* box, int row, int col, int t) const {
    constexpr int kPerChunk = 16 / int(sizeof(ED));
    constexpr int kChunksPerLine = Boxes::kBoxLineBytes / 16;
    // Rows and columns of the box that are D's (a row-major line is a row, a column-major one
    // a column), and the box's first element: one 64-bit address, then 32-bit steps.
    const int rows = row_end - row, columns = int(p.N) - col;
    ED* const first = d<LayoutC>(p, row, col);
    const int line_pitch = int(p.ldd);  // lines of a box lie in D, so line * ldd fits the span
    TESSERA_NO_UNROLL
    for (int c = t; c < Boxes::kBoxLines * kChunksPerLine; c += 128) {
      const int line = c / kChunksPerLine, element = (c % kChunksPerLine) * kPerChunk;
      const int r = LayoutC::kIsRowMajor ? line : element, k = LayoutC::kIsRowMajor ? element : line;
      if (r >= rows || k >= columns) continue;
      const ::uint4 v = *reinterpret_cast<const ::uint4*>(box + Boxes::offset(line, element));
      ED* at = first + std::int64_t(line) * line_pitch + element;
      if (LayoutC::kIsRowMajor || r + kPerChunk <= rows) {
        *reinterpret_cast<::uint4*>(at) = v;
      } else {
        const ED* e = reinterpret_cast<const ED*>(&v);
        TESSERA_UNROLL  // constant indices: a run-time one would put v in local memory
        for (int i = 0; i < kPerChunk; ++i) {
          if (r + i < rows) at[i] = e[i];
        }
      }
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
