// RowMajor / ColumnMajor: how (row, col) of a matrix maps to an element offset given a
// runtime leading dimension, and the smallest leading dimension each layout allows.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"

namespace tessera {

struct RowMajor {
  static constexpr bool kIsRowMajor = true;
  static constexpr const char* kName = "row";
  TESSERA_HOST_DEVICE static constexpr std::int64_t offset(std::int64_t row, std::int64_t col,
                                                           std::int64_t ld) {
    return row * ld + col;
  }
  // Rows are contiguous: ld counts elements between row starts, at least one row long.
  TESSERA_HOST_DEVICE static constexpr std::int64_t min_ld(std::int64_t /*rows*/, std::int64_t cols) {
    return cols > 1 ? cols : 1;
  }
  // Extent of the contiguous (fastest-varying) dimension.
  TESSERA_HOST_DEVICE static constexpr std::int64_t contiguous_extent(std::int64_t /*rows*/,
                                                                      std::int64_t cols) {
    return cols;
  }
  TESSERA_HOST_DEVICE static constexpr std::int64_t strided_extent(std::int64_t rows,
                                                                   std::int64_t /*cols*/) {
    return rows;
  }
};

struct ColumnMajor {
  static constexpr bool kIsRowMajor = false;
  static constexpr const char* kName = "col";
  TESSERA_HOST_DEVICE static constexpr std::int64_t offset(std::int64_t row, std::int64_t col,
                                                           std::int64_t ld) {
    return col * ld + row;
  }
  TESSERA_HOST_DEVICE static constexpr std::int64_t min_ld(std::int64_t rows, std::int64_t /*cols*/) {
    return rows > 1 ? rows : 1;
  }
  TESSERA_HOST_DEVICE static constexpr std::int64_t contiguous_extent(std::int64_t rows,
                                                                      std::int64_t /*cols*/) {
    return rows;
  }
  TESSERA_HOST_DEVICE static constexpr std::int64_t strided_extent(std::int64_t /*rows*/,
                                                                   std::int64_t cols) {
    return cols;
  }
};

template <class L>
constexpr bool is_matrix_layout = std::is_same_v<L, RowMajor> || std::is_same_v<L, ColumnMajor>;

// Span in elements from the first to one past the last element a rows x cols matrix
// touches with leading dimension ld (0 for an empty matrix).
template <class Layout>
TESSERA_HOST_DEVICE constexpr std::int64_t matrix_span(std::int64_t rows, std::int64_t cols,
                                                       std::int64_t ld) {
  return (rows <= 0 || cols <= 0) ? 0 : Layout::offset(rows - 1, cols - 1, ld) + 1;
}

}  // namespace tessera
