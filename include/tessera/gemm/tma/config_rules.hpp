// What the configurations of the two TMA tensor-core families (wgmma/config.hpp,
// umma/config.hpp) ask of their types and how they size their stage ring. Host-includable.
#pragma once
#include <type_traits>

#include "tessera/core/numeric.hpp"

namespace tessera::gemm {

// 16-bit operands both tensor-core instructions take (fp8 and narrower are each family's own).
template <class T>
constexpr bool is_16bit_mma_operand = std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;
// Element types the families' epilogues store C and D in.
template <class T>
constexpr bool is_mma_output = is_16bit_mma_operand<T> || std::is_same_v<T, float>;

namespace detail {
// Stages that fit beside the rest of the plan (at most 8), for kStages = 0.
template <int kStageBytes, int kOtherBytes, class Arch>
constexpr int stages_that_fit() {
  const int room = int(Arch::kSmemBytesPerBlock) - kOtherBytes;
  const int stages = room / kStageBytes;
  return stages > 8 ? 8 : stages;
}
}  // namespace detail

}  // namespace tessera::gemm
