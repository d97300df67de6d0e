// Finished accumulators out to memory four at a time along the output's contiguous dimension
// (a row of a row-major D, a column of a column-major one), for the families whose epilogue
// stages them through shared memory into such runs (FMA, MFMA, the split-K fix-up):
// OutputRun, D = epilogue(acc, C), converted to D's type (the configuration's epilogue,
// epilogue.hpp: by default alpha * acc + beta * C). It skips what lies outside the M x N
// matrix, uses 16-byte (8-byte for 16-bit types, 4-byte for fp8) accesses where aligned, and element accesses
// where not. (Partial tiles of split K go through StreamKFixup's RunWriter, scheduler/fixup.hpp.)
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/vector.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"

namespace tessera::gemm {

// How many of the 4 elements starting at (m, n) along Layout's contiguous dimension lie
// inside an M x N matrix (0 when the run starts outside it).
template <class Layout>
TESSERA_HOST_DEVICE TESSERA_FORCEINLINE int elements_inside(std::int64_t m, std::int64_t n,
                                                            std::int64_t M, std::int64_t N) {
  const std::int64_t strided = Layout::kIsRowMajor ? m : n;
  const std::int64_t contig = Layout::kIsRowMajor ? n : m;
  const std::int64_t strided_extent = Layout::kIsRowMajor ? M : N;
  const std::int64_t contig_extent = Layout::kIsRowMajor ? N : M;
  if (strided >= strided_extent || contig >= contig_extent) return 0;
  return contig_extent - contig >= 4 ? 4 : int(contig_extent - contig);
}

// Four elements from a 4 * sizeof(T)-aligned address, as float.
template <class T>
TESSERA_DEVICE TESSERA_FORCEINLINE void load4(const T* p, float* out) {
  if constexpr (sizeof(T) == 4) {
    const Float4 v = *reinterpret_cast<const Float4*>(p);
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = v.w;
  } else if constexpr (sizeof(T) == 1) {  // fp8: four bytes in one word
    const std::uint32_t v = *reinterpret_cast<const std::uint32_t*>(p);
    TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) out[i] = to_float(T::from_bits(std::uint8_t(v >> (8 * i))));
  } else {
    const U32x2 v = *reinterpret_cast<const U32x2*>(p);
    out[0] = to_float(T::from_bits(std::uint16_t(v.x & 0xffffu)));
    out[1] = to_float(T::from_bits(std::uint16_t(v.x >> 16)));
    out[2] = to_float(T::from_bits(std::uint16_t(v.y & 0xffffu)));
    out[3] = to_float(T::from_bits(std::uint16_t(v.y >> 16)));
  }
}

template <class T>
TESSERA_DEVICE TESSERA_FORCEINLINE void store4(T* p, const float (&in)[4]) {
  if constexpr (sizeof(T) == 4) {
    *reinterpret_cast<Float4*>(p) = Float4{in[0], in[1], in[2], in[3]};
  } else if constexpr (sizeof(T) == 1) {  // fp8: four bytes in one word
    std::uint32_t v = 0;
    TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) v |= std::uint32_t(from_float<T>(in[i]).bits) << (8 * i);
    *reinterpret_cast<std::uint32_t*>(p) = v;
  } else {
    const auto bits = [](float x) { return std::uint32_t(from_float<T>(x).bits); };
    *reinterpret_cast<U32x2*>(p) = U32x2{bits(in[0]) | (bits(in[1]) << 16),
                                         bits(in[2]) | (bits(in[3]) << 16)};
  }
}

template <class ElementC, class ElementD, class LayoutC, class Epilogue>
struct OutputRun {
  using Layout = LayoutC;
  std::int64_t M, N;
  const ElementC* C;  // read only when epilogue.reads_c()
  std::int64_t ldc;
  ElementD* D;
  std::int64_t ldd;
  bool vector_c, vector_d;  // base and ld allow aligned 4-element accesses
  Epilogue epilogue;
  // A batch's or group's entry (problem_set.hpp), as the epilogue's elements say: the problem
  // and the row its C and D pointers start at (C and D above point at that row).
  int problem = 0;
  std::int64_t element_row0 = 0;

  // The run of one problem of a batch or group: C and D moved to the problem (its strides)
  // and its first row, M its rows.
  TESSERA_HOST_DEVICE OutputRun at_problem(int problem_index, std::int64_t row_begin, std::int64_t rows,
                                           std::int64_t stride_c, std::int64_t stride_d) const {
    OutputRun r = *this;
    if (C != nullptr) r.C += problem_index * stride_c + LayoutC::offset(row_begin, 0, ldc);
    r.D += problem_index * stride_d + LayoutC::offset(row_begin, 0, ldd);
    r.M = rows;
    r.problem = problem_index;
    r.element_row0 = row_begin;
    return r;
  }

  TESSERA_DEVICE TESSERA_FORCEINLINE void operator()(std::int64_t m, std::int64_t n,
                                                     float (&acc)[4]) const {
    const int inside = elements_inside<LayoutC>(m, n, M, N);
    if (inside == 0) return;
    // Element i of the run is (m, n + i) in a row-major D, (m + i, n) in a column-major one.
    const std::int64_t dm = LayoutC::kIsRowMajor ? 0 : 1, dn = LayoutC::kIsRowMajor ? 1 : 0;
    if (epilogue.reads_c()) {
      float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      const ElementC* src = C + LayoutC::offset(m, n, ldc);
      if (inside == 4 && vector_c) {
        load4(src, c);
      } else {
        TESSERA_UNROLL  // constant indices: a run-time index would put c in local memory
        for (int i = 0; i < 4; ++i) {
          if (i < inside) c[i] = to_float(src[i]);
        }
      }
      TESSERA_UNROLL
      for (int i = 0; i < 4; ++i) {
        acc[i] = epilogue(acc[i], EpilogueElement{element_row0 + m + i * dm, n + i * dn, c[i], true, i < inside, problem});
      }
    } else {
      TESSERA_UNROLL
      for (int i = 0; i < 4; ++i) {
        acc[i] = epilogue(acc[i], EpilogueElement{element_row0 + m + i * dm, n + i * dn, 0.0f, false, i < inside, problem});
      }
    }
    ElementD* dst = D + LayoutC::offset(m, n, ldd);
    if (inside == 4 && vector_d) {
      store4(dst, acc);
    } else {
      TESSERA_UNROLL
      for (int i = 0; i < 4; ++i) {
        if (i < inside) dst[i] = from_float<ElementD>(acc[i]);
      }
    }
  }
};

}  // namespace tessera::gemm
