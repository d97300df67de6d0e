// The generic producer of the Hopper kernel: for operands TMA cannot describe (a row
// pitch that is not a multiple of 16 bytes, e.g. lda = 4103 halves, or a base address off
// a 16-byte boundary). The producer warpgroup's 128 threads load each K tile with
// ordinary loads and write it into the same 128-byte-swizzled stage layout the TMA would,
// so the consumers and their wgmma descriptors do not change.
//
// The unit of work is a 16-byte chunk of the stage (8 consecutive elements along the
// operand's contiguous dimension). In global memory those 8 elements start wherever the
// row happens to start (2-byte aligned at worst); a chunk is read as the two aligned
// 16-byte words that cover it and shifted into place ("realigning" loads), so rows of any
// pitch still move in 16-byte loads. Chunks at the matrix's edges (partly outside M, N or
// K) and the few whose covering words would leave the operand's memory take an element
// path, so nothing outside the operand is ever read. Out-of-range elements are zeros.
//
// Each thread issues the loads of kBatch chunks before it shifts and stores any of them,
// so that many loads are in flight; then it fences (its generic-proxy stores must be
// visible to wgmma, which reads through the async proxy) and arrives on the stage's full
// barrier, which expects all 128 threads.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/gemm/collective/sm90_pipeline.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

namespace detail {

struct Chunk16 {
  std::uint32_t w[4];
};

// 16 bytes from a 16-byte aligned address (read-only path).
TESSERA_DEVICE TESSERA_FORCEINLINE Chunk16 load_aligned16(const unsigned char* p) {
  Chunk16 c;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(c.w[0]), "=r"(c.w[1]), "=r"(c.w[2]), "=r"(c.w[3])
               : "l"(p));
  return c;
}

// Bytes [shift, shift + 16) of the 32 bytes lo:hi, shift even (2-byte elements).
TESSERA_DEVICE TESSERA_FORCEINLINE Chunk16 realign(const Chunk16& lo, const Chunk16& hi, int shift) {
  const std::uint32_t w[8] = {lo.w[0], lo.w[1], lo.w[2], lo.w[3], hi.w[0], hi.w[1], hi.w[2], hi.w[3]};
  const int q = shift >> 2;          // whole words to skip
  const int r = (shift & 3) * 8;     // then 0 or 16 bits
  Chunk16 out;
  TESSERA_UNROLL
  for (int j = 0; j < 4; ++j) {
    // w[q + j] and w[q + j + 1] with q in 0..3, by selects: a register array indexed at
    // run time would move to local memory.
    const std::uint32_t a = q == 0 ? w[j] : q == 1 ? w[j + 1] : q == 2 ? w[j + 2] : w[j + 3];
    const std::uint32_t b = q == 0 ? w[j + 1] : q == 1 ? w[j + 2] : q == 2 ? w[j + 3] : w[j + 4];
    out.w[j] = __funnelshift_r(a, b, r);
  }
  return out;
}

}  // namespace detail

template <class Config>
struct GenericProducer {
  static constexpr int kThreads = 128;
  static constexpr int kMaxBatch = 4;  // chunks whose loads a thread keeps in flight
  using TileA = typename Config::TileA;
  using TileB = typename Config::TileB;

  template <class Params>
  TESSERA_DEVICE static void run(const Params& p, std::uint64_t* full, std::uint64_t* empty,
                                 unsigned char* stages_a, unsigned char* stages_b, int cluster, int k_tiles,
                                 int thread) {
    RingPosition<Config::kStages> pos;
    const int units = p.walk.units_of(cluster);
    const Operand a{reinterpret_cast<const unsigned char*>(p.a), p.lda, p.span_a * 2, p.M};
    const Operand b{reinterpret_cast<const unsigned char*>(p.b), p.ldb, p.span_b * 2, p.N};
    for (int j = 0; j < units; ++j) {
      const TileCoord tile = p.walk.tile(cluster, j, 0, 0);
      for (int kt = 0; kt < k_tiles; ++kt) {
        nvidia::mbarrier_wait(&empty[pos.stage], pos.phase ^ 1u);
        const int k0 = kt * Config::kBlockK;
        load_tile<TileA, Config::kBlockM, Config::kKMajorA>(a, tile.m * Config::kBlockM, k0, p.K,
                                                            stages_a + pos.stage * TileA::kBytes, thread);
        load_tile<TileB, Config::kBlockN, Config::kKMajorB>(b, tile.n * Config::kBlockN, k0, p.K,
                                                            stages_b + pos.stage * TileB::kBytes, thread);
        nvidia::fence_proxy_async_shared();
        nvidia::mbarrier_arrive(&full[pos.stage]);
        pos.advance();
      }
    }
  }

 private:
  struct Operand {
    const unsigned char* base;
    std::int64_t ld;      // elements between lines (rows of a K-major operand, k of MN-major)
    std::int64_t bytes;   // from base to one past the operand's last element
    std::int64_t outer;   // M (A) or N (B)
  };

  // One operand's K tile: `kOuter` rows/columns from outer0, 64 deep from k0.
  template <class Tile, int kOuter, bool kKMajor>
  TESSERA_DEVICE static void load_tile(const Operand& op, int outer0, int k0, int K, unsigned char* dst,
                                       int thread) {
    // Lines of the stage and 16-byte chunks per line (a line is 128 bytes either way).
    constexpr int kLines = kKMajor ? kOuter : Config::kBlockK;
    constexpr int kChunksPerLine = 8;
    constexpr int kChunks = kLines * kChunksPerLine * (kKMajor ? 1 : kOuter / 64);
    constexpr int kBatch = kChunks / kThreads < kMaxBatch ? kChunks / kThreads : kMaxBatch;
    static_assert(kChunks % (kThreads * kBatch) == 0,
                  "Tessera: the generic producer splits each tile into batches of 16-byte chunks per thread");
    TESSERA_NO_UNROLL
    for (int first = 0; first < kChunks; first += kThreads * kBatch) {
      detail::Chunk16 lo[kBatch], hi[kBatch];
      int shift[kBatch];
      bool fast[kBatch];
      const unsigned char* src[kBatch];
      int valid[kBatch];
      std::uint32_t offset[kBatch];
      TESSERA_UNROLL
      for (int g = 0; g < kBatch; ++g) {
        const int q = first + g * kThreads + thread;
        // (strided, contiguous) position of the chunk in the operand: a K-major line is a
        // row of M/N with K contiguous; an MN-major line is one k with M/N contiguous.
        int outer, k;
        if constexpr (kKMajor) {
          outer = q / kChunksPerLine;
          k = (q % kChunksPerLine) * 8;
        } else {
          constexpr int kChunksPerK = kOuter / 8;
          k = q / kChunksPerK;
          outer = (q % kChunksPerK) * 8;
        }
        offset[g] = Tile::offset(outer, k);
        const std::int64_t gouter = std::int64_t(outer0) + outer, gk = std::int64_t(k0) + k;
        const std::int64_t line = kKMajor ? gouter : gk, along = kKMajor ? gk : gouter;
        const bool line_ok = kKMajor ? (gouter < op.outer) : (gk < K);
        const std::int64_t extent = kKMajor ? K : op.outer;
        valid[g] = !line_ok ? 0 : (along >= extent ? 0 : (extent - along >= 8 ? 8 : int(extent - along)));
        src[g] = op.base + (line * op.ld + along) * 2;
        const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(src[g]);
        shift[g] = int(addr & 15u);
        const unsigned char* aligned = src[g] - shift[g];
        fast[g] = valid[g] == 8 && aligned >= op.base && aligned + (shift[g] ? 32 : 16) <= op.base + op.bytes;
        lo[g] = hi[g] = detail::Chunk16{{0u, 0u, 0u, 0u}};
        if (fast[g]) {
          lo[g] = detail::load_aligned16(aligned);
          if (shift[g] != 0) hi[g] = detail::load_aligned16(aligned + 16);
        }
      }
      TESSERA_UNROLL
      for (int g = 0; g < kBatch; ++g) {
        detail::Chunk16 v = fast[g] ? detail::realign(lo[g], hi[g], shift[g]) : load_elements(src[g], valid[g]);
        asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(nvidia::smem_address(dst + offset[g])),
                     "r"(v.w[0]), "r"(v.w[1]), "r"(v.w[2]), "r"(v.w[3])
                     : "memory");
      }
    }
  }

  // The edge path: `valid` 2-byte elements, zeros after them.
  TESSERA_DEVICE static detail::Chunk16 load_elements(const unsigned char* src, int valid) {
    std::uint16_t e[8];
    const std::uint16_t* s = reinterpret_cast<const std::uint16_t*>(src);
    TESSERA_UNROLL
    for (int i = 0; i < 8; ++i) e[i] = i < valid ? s[i] : std::uint16_t(0);
    detail::Chunk16 c;
    TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) c.w[i] = std::uint32_t(e[2 * i]) | (std::uint32_t(e[2 * i + 1]) << 16);
    return c;
  }
};

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
