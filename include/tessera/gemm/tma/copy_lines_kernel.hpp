// A pitched copy: `lines` lines of `length` elements from src (pitch src_ld) to dst (pitch
// dst_ld), and zeros in dst from `length` to `zero_to` on each line (the padding TMA may
// read, tma/packing.hpp; zero_to == length writes nothing past the line). The packed path of the TMA families (tma/packing.hpp) copies A and B into 16-
// byte-pitched lines before the GEMM and D back out after it.
//
// Neither side needs any alignment beyond the element's. A block of 128 threads copies a
// segment of 1024 elements of one line, each thread every 128th element, so each load and
// store instruction of a warp covers 32 consecutive elements (64 bytes of bf16: whole
// 32-byte sectors, whatever the line's start), and a thread has its 8 loads in flight before
// its stores (16 blocks x 128 x 8 x 2 B = 32 KB in flight per SM at full occupancy: what
// keeps an H100's DRAM busy). The copy moves bits: the element type only sets the width.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"
#include "tessera/runtime/launch.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

constexpr int kCopyThreads = 128, kCopyInFlight = 8, kCopySegment = kCopyThreads * kCopyInFlight;

template <class Bits>
TESSERA_GLOBAL void __launch_bounds__(kCopyThreads) copy_lines_kernel(const Bits* src, std::int64_t src_ld, Bits* dst,
                                                                      std::int64_t dst_ld, std::int64_t lines,
                                                                      std::int64_t length, std::int64_t zero_to) {
  const std::int64_t segments = (zero_to + kCopySegment - 1) / kCopySegment;
  for (std::int64_t line = blockIdx.x; line < lines; line += gridDim.x) {
    const Bits* from = src + line * src_ld;
    Bits* to = dst + line * dst_ld;
    for (std::int64_t segment = blockIdx.y; segment < segments; segment += gridDim.y) {
      const std::int64_t first = segment * kCopySegment + threadIdx.x;
      Bits v[kCopyInFlight];
      TESSERA_UNROLL
      for (int u = 0; u < kCopyInFlight; ++u) {
        const std::int64_t i = first + u * kCopyThreads;
        v[u] = i < length ? from[i] : Bits(0);
      }
      TESSERA_UNROLL
      for (int u = 0; u < kCopyInFlight; ++u) {
        const std::int64_t i = first + u * kCopyThreads;
        if (i < zero_to) to[i] = v[u];
      }
    }
  }
}

// Enqueues the copy on `stream` (nothing when there is nothing to write). zero_to >= length.
template <class T>
Status copy_lines(const T* src, std::int64_t src_ld, T* dst, std::int64_t dst_ld, std::int64_t lines,
                  std::int64_t length, std::int64_t zero_to, Stream stream) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Tessera: copy_lines moves 1-, 2- or 4-byte elements");
  using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                  std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>>;
  if (lines <= 0 || zero_to <= 0) return Status::kSuccess;
  const std::int64_t segments = (zero_to + kCopySegment - 1) / kCopySegment;
  LaunchShape shape;
  shape.grid_x = unsigned(lines < 0x7fffffff ? lines : 0x7fffffff);
  shape.grid_y = unsigned(segments < 65535 ? segments : 65535);
  shape.block_x = kCopyThreads;
  return launch_kernel(copy_lines_kernel<Bits>, shape, stream, reinterpret_cast<const Bits*>(src), src_ld,
                       reinterpret_cast<Bits*>(dst), dst_ld, lines, length, zero_to);
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
