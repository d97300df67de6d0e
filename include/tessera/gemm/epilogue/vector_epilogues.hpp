// Epilogues that combine each value with one entry of a vector along D's rows or columns:
//
//   RowBias<T>       x + v[m]       ColumnBias<T>    x + v[n]   (a Linear layer's bias: per column)
//   RowScale<T>      x * v[m]       ColumnScale<T>   x * v[n]
//
// Arguments: {values (device memory), problem_stride}. Entry p of a batch or group (problem_set.hpp)
// reads values + p * problem_stride (0: one vector for all; N for one column bias per expert);
// the row m is the row as the problem's D is addressed (the contiguous grouped layout: the row
// of the whole D, so a per-token routing weight is RowScale with stride 0). Nothing is read past
// the vector: a row vector only where the family stores (e.inside()), a column vector at the
// column clamped below N (elements past N, which no family stores, get a wrong value).
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"

namespace tessera::gemm {

template <class T>
constexpr bool is_epilogue_vector_element =
    std::is_same_v<T, float> || std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;

namespace vector_epilogue {
struct AlongRows {};     // one entry per row of D
struct AlongColumns {};  // one entry per column of D
struct Add {
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float apply(float x, float v) { return x + v; }
};
struct Multiply {
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE static float apply(float x, float v) { return x * v; }
};
}  // namespace vector_epilogue

template <class T, class Along, class Combine>
struct VectorEpilogue {
  static_assert(is_epilogue_vector_element<T>,
                "Tessera RowBias / ColumnBias / RowScale / ColumnScale: the vector's elements must be float, "
                "half_t or bfloat16_t (convert other types once, before the GEMM)");
  static_assert(std::is_same_v<Along, vector_epilogue::AlongRows> ||
                    std::is_same_v<Along, vector_epilogue::AlongColumns>,
                "Tessera VectorEpilogue: a vector runs along D's rows (AlongRows) or its columns (AlongColumns)");
  static constexpr bool kAlongRows = std::is_same_v<Along, vector_epilogue::AlongRows>;

  struct Arguments {
    const T* values = nullptr;
    std::int64_t problem_stride = 0;  // elements between the vectors of consecutive problems
  };
  const T* values;
  std::int64_t problem_stride;
  int columns;  // N: a column vector is read for columns below it, whatever the row

  static Status can_implement(const Arguments& a, const EpilogueProblem& p) {
    if (a.values == nullptr && p.M > 0 && p.N > 0) return Status::kErrorNullEpilogueOperand;
    return a.problem_stride < 0 ? Status::kErrorEpilogueArgument : Status::kSuccess;
  }
  static VectorEpilogue make(const Arguments& a, const EpilogueProblem& p) {
    return {a.values, a.problem_stride, int(p.N)};
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return false; }
  // A column entry depends on the column only: any row of a tile may read it (a 32-bit clamp
  // into N, no row bound). A row entry is read only where stored.
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float x, const Element& e) const {
    const T* vector = values + std::int64_t(e.problem) * problem_stride;
    if constexpr (kAlongRows) {
      if (!e.inside()) return x;
      return Combine::apply(x, to_float(vector[e.m]));
    } else {
      // Read unconditionally at the column clamped into the vector: one load per column, which
      // the compiler shares between the rows of a fragment, and no branch per element. An
      // element past N gets a wrong value, which no family stores.
      const int n = int(e.n);
      return Combine::apply(x, to_float(vector[n < columns ? n : columns - 1]));
    }
  }
};

template <class T>
using RowBias = VectorEpilogue<T, vector_epilogue::AlongRows, vector_epilogue::Add>;
template <class T>
using ColumnBias = VectorEpilogue<T, vector_epilogue::AlongColumns, vector_epilogue::Add>;
template <class T>
using RowScale = VectorEpilogue<T, vector_epilogue::AlongRows, vector_epilogue::Multiply>;
template <class T>
using ColumnScale = VectorEpilogue<T, vector_epilogue::AlongColumns, vector_epilogue::Multiply>;

}  // namespace tessera::gemm
