// The arguments of one GEMM: D = alpha * A * B + beta * C, with A M x K, B K x N,
// C and D M x N. Layouts are compile-time (part of the kernel's Config); leading
// dimensions are runtime, counted in elements.
#pragma once
#include <cstdint>

namespace tessera::gemm {

template <class ElementA, class ElementB, class ElementC>
struct Arguments {
  std::int64_t M = 0, N = 0, K = 0;
  const ElementA* A = nullptr;
  std::int64_t lda = 0;
  const ElementB* B = nullptr;
  std::int64_t ldb = 0;
  const ElementC* C = nullptr;  // may equal D (in place); ignored when beta == 0
  std::int64_t ldc = 0;
  ElementC* D = nullptr;
  std::int64_t ldd = 0;
  float alpha = 1.0f;
  float beta = 0.0f;
};

}  // namespace tessera::gemm
