// The Blackwell kernel's epilogue, per epilogue warp: D = epilogue(acc, C) (the
// configuration's epilogue; by default alpha * acc + beta * C), converted to D's type, from an
// accumulator buffer in tensor memory.
//
// Warp w of the epilogue warpgroup may read TMEM lanes 32w..32w+31 only (tcgen05.hpp), i.e.
// rows 32w..32w+31 of the CTA's 128-row block: thread l owns row 32w + l, and tcgen05.ld
// .32x32b.x32 gives it 32 consecutive columns of that row (mma/umma_atom.hpp, Load32x32b).
// So each warp works alone, on boxes of its 32 rows x 128 bytes of D:
//
// TmaStore (D's base and pitch suit the TMA): per box, the warp loads the box's columns from
// TMEM, combines them, writes them into one of its two 4 KiB staging buffers, fences the
// async proxy, and one lane issues the TMA store; the other buffer is filled while it
// drains, and a buffer is reused only once its store has read it (bulk wait_group.read).
//   row-major D:    a box is 32 rows x 128 bytes, rows as lines in the 128-byte swizzle
//                   (Sw128StagingTile): a thread writes its row as 16-byte chunks; the 8
//                   lanes of a store phase hold 8 consecutive rows, whose chunk q lands on 8
//                   different 16-byte bank groups (the swizzle XORs with the row): no conflict.
//   column-major D: a box is 128 / size columns x 32 rows, columns as unswizzled lines of 32
//                   elements: the warp's 32 threads write one line, consecutive elements.
// The TMA clips whatever falls outside M x N.
//
// Direct (the realigning path): the same TMEM reads, bounds-checked element stores.
//
// C is read (only when the epilogue reads it) with ordinary loads before anything is stored,
// so C == D (in place) is safe. After its last TMEM read of a tile the warp frees the accumulator
// buffer (`release`), before the stores: the MMAs of a later tile may then begin.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/arch/nvidia/tcgen05.hpp"
#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/tma/epilogue_support.hpp"
#include "tessera/gemm/tma/problem_place.hpp"
#include "tessera/layout/sm90_tile.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

// ElementD, LayoutC: D's element type and C's and D's layout; kN: the N tile; kStagingBoxBytes:
// one staging box of the plan. The kernel's parameters carry C and the epilogue. Each store
// takes a Place (tma/problem_place.hpp): one GEMM's C, D and bounds by default, or an entry of a
// batch or group.
template <class ElementD, class LayoutC, int kN_, int kStagingBoxBytes>
struct UmmaEpilogue {
  using ED = ElementD;
  static constexpr bool kRowMajor = LayoutC::kIsRowMajor;
  static constexpr int kN = kN_;
  static constexpr int kSize = int(sizeof(ED));
  // Columns of D per box: 128 bytes of a row, or (column-major) 128 / size lines of 32 rows.
  static constexpr int kBoxCols = 128 / kSize;
  static constexpr int kBoxBytes = 32 * 128;
  static constexpr int kBoxes = kN / kBoxCols;
  using RowBox = Sw128StagingTile<32, kSize>;
  static_assert(kBoxBytes == kStagingBoxBytes && kN % kBoxCols == 0 && kBoxCols % 32 == 0,
                "Tessera: the epilogue's boxes must tile the N extent in 32-column TMEM loads");

  // Columns [column, column + kCount) of this thread's row, as floats; zeros without an
  // accumulator (K = 0). One wait for all the loads.
  template <int kCount>
  TESSERA_DEVICE static void load(std::uint32_t taddr, bool have, std::uint32_t (&r)[kCount]) {
    if (!have) {
      TESSERA_UNROLL
      for (int j = 0; j < kCount; ++j) r[j] = 0u;  // the bits of 0.0f
      return;
    }
    TESSERA_UNROLL
    for (int h = 0; h < kCount / 32; ++h) nvidia::tmem_load_32x32b_x32(taddr + std::uint32_t(32 * h), r + 32 * h);
    nvidia::tmem_wait_ld<kCount>(r);
  }

  // This warp's rows of the tile at (m0, n0): row m0 + 32 warp + lane. taddr: the TMEM
  // address of the warp's first lane at the buffer's first column; have: the buffer holds
  // the tile's product (K > 0). staging: the warp's two boxes; turn counts its boxes (picks
  // the buffer). release() is called by every thread after its last TMEM read of the tile.
  template <class Params, class Release, class Place = OneProblem>
  TESSERA_DEVICE static void tma_store(const Params& p, std::uint32_t taddr, bool have, std::int64_t m0,
                                       std::int64_t n0, unsigned char* staging, int& turn, int warp, int lane,
                                       Release&& release, const Place& place = {}) {
    const std::int64_t row0 = m0 + 32 * warp, m = row0 + lane;
    // Boxes that hold a column inside N (uniform across the CTA). A cluster that does not
    // divide the tile grid gives some CTAs tiles wholly outside: nothing to store, but the
    // buffer must still be freed.
    const int boxes = boxes_inside(p.N - n0, kBoxCols, kBoxes);
    if (boxes == 0) release();
    for (int bx = 0; bx < boxes; ++bx) {
      std::uint32_t r[kBoxCols];
      load<kBoxCols>(taddr + std::uint32_t(bx * kBoxCols), have, r);
      if (bx == boxes - 1) release();
      unsigned char* box = staging + (turn & 1) * kBoxBytes;
      if (lane == 0) nvidia::bulk_wait_group_read<1>();  // the buffer's store of two boxes ago has read it
      __syncwarp();
      const std::int64_t col0 = n0 + std::int64_t(bx) * kBoxCols;
      if constexpr (kRowMajor) {
        constexpr int kPerChunk = 16 / kSize;
        TESSERA_UNROLL
        for (int q = 0; q < kBoxCols / kPerChunk; ++q) {
          float v[kPerChunk];
          TESSERA_UNROLL
          for (int e = 0; e < kPerChunk; ++e) {
            const int j = q * kPerChunk + e;
            v[e] = place.template value<true, LayoutC>(p, p.epilogue, __uint_as_float(r[j]), m, col0 + j);
          }
          store_chunk(nvidia::smem_address(box + RowBox::offset(lane, q * kPerChunk)), v);
        }
      } else {
        TESSERA_UNROLL
        for (int j = 0; j < kBoxCols; ++j) {
          const float v = place.template value<true, LayoutC>(p, p.epilogue, __uint_as_float(r[j]), m, col0 + j);
          *reinterpret_cast<ED*>(box + (j * 32 + lane) * kSize) = from_float<ED>(v);
        }
      }
      nvidia::fence_proxy_async_shared();  // the TMA store reads these writes
      __syncwarp();
      if (lane == 0) {
        if constexpr (kRowMajor) {
          place.tma_store(p, box, int(col0), int(row0));
        } else {
          place.tma_store(p, box, int(row0), int(col0));
        }
        nvidia::bulk_commit_group();
      }
      ++turn;
    }
  }

  // The same rows with bounds-checked element stores, 32 columns at a time.
  template <class Params, class Release, class Place = OneProblem>
  TESSERA_DEVICE static void direct_store(const Params& p, std::uint32_t taddr, bool have, std::int64_t m0,
                                          std::int64_t n0, int warp, int lane, Release&& release,
                                          const Place& place = {}) {
    const std::int64_t m = m0 + 32 * warp + lane;
    const int chunks = boxes_inside(p.N - n0, 32, kN / 32);
    if (chunks == 0) release();
    for (int c = 0; c < chunks; ++c) {
      std::uint32_t r[32];
      load<32>(taddr + std::uint32_t(32 * c), have, r);
      if (c == chunks - 1) release();
      TESSERA_UNROLL
      for (int j = 0; j < 32; ++j) {
        const std::int64_t n = n0 + 32 * c + j;
        if (place.inside(p, m, n)) {
          *place.template d<LayoutC>(p, m, n) =
              from_float<ED>(place.template value_inside<LayoutC>(p, p.epilogue, __uint_as_float(r[j]), m, n));
        }
      }
    }
  }

 private:
  // How many of `count` groups of `width` columns start before `columns_left` (0 when none).
  TESSERA_DEVICE static int boxes_inside(std::int64_t columns_left, int width, int count) {
    if (columns_left <= 0) return 0;
    const std::int64_t inside = (columns_left + width - 1) / width;
    return inside < count ? int(inside) : count;
  }

  // 16 bytes of D at shared address `at`: 8 16-bit values or 4 floats.
  template <int kCount>
  TESSERA_DEVICE static void store_chunk(std::uint32_t at, const float (&v)[kCount]) {
    if constexpr (kSize == 4) {
      asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(at), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3])
                   : "memory");
    } else {
      asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(at), "r"(detail::pack_pair<ED>(v[0], v[1])),
                   "r"(detail::pack_pair<ED>(v[2], v[3])), "r"(detail::pack_pair<ED>(v[4], v[5])),
                   "r"(detail::pack_pair<ED>(v[6], v[7]))
                   : "memory");
    }
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
