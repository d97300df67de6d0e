// The FMA GEMM configurations the emulator runs in CI: the AMD default tile (128x128x8,
// 256 work-items) for both AMD targets, every layout combination in fp32, and 16-bit
// inputs and outputs, as the GPU suite (test/gpu/test_fma_gemm.cu) runs them on NVIDIA.
#pragma once
#include <tuple>

#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/fma_config.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace emu_test {

using tessera::bfloat16_t;
using tessera::ColumnMajor;
using tessera::half_t;
using tessera::RowMajor;

template <class EA, class EB, class EC, class LA, class LB, class LC>
using Gfx942Fma = tessera::gemm::FmaConfig<tessera::Gfx942, EA, LA, EB, LB, EC, LC>;
template <class EA, class EB, class EC, class LA, class LB, class LC>
using Gfx950Fma = tessera::gemm::FmaConfig<tessera::Gfx950, EA, LA, EB, LB, EC, LC>;

// The lists below are X-macros over parenthesised types (the types hold commas); this
// takes the parentheses off: Unparen<void (T)>::type is T.
template <class T>
struct Unparen;
template <class T>
struct Unparen<void(T)> {
  using type = T;
};
#define EMU_TEST_TUPLE_ITEM(C) , std::tuple<::emu_test::Unparen<void C>::type>{}
// std::tuple of a list's configurations (for Catch's TEMPLATE_LIST_TEST_CASE).
#define EMU_TEST_TUPLE(LIST) decltype(std::tuple_cat(std::tuple<>{} LIST(EMU_TEST_TUPLE_ITEM)))

// X(config) for every configuration, so that the instantiations and the tests agree.
#define EMU_TEST_FMA_F32_CONFIGS(X)                                               \
  X((Gfx942Fma<float, float, float, RowMajor, RowMajor, RowMajor>))              \
  X((Gfx942Fma<float, float, float, RowMajor, ColumnMajor, RowMajor>))           \
  X((Gfx942Fma<float, float, float, ColumnMajor, RowMajor, RowMajor>))           \
  X((Gfx942Fma<float, float, float, ColumnMajor, ColumnMajor, RowMajor>))        \
  X((Gfx942Fma<float, float, float, RowMajor, RowMajor, ColumnMajor>))           \
  X((Gfx942Fma<float, float, float, RowMajor, ColumnMajor, ColumnMajor>))        \
  X((Gfx942Fma<float, float, float, ColumnMajor, RowMajor, ColumnMajor>))        \
  X((Gfx942Fma<float, float, float, ColumnMajor, ColumnMajor, ColumnMajor>))     \
  X((Gfx950Fma<float, float, float, RowMajor, ColumnMajor, RowMajor>))

#define EMU_TEST_FMA_16BIT_CONFIGS(X)                                             \
  X((Gfx942Fma<half_t, half_t, float, RowMajor, RowMajor, RowMajor>))            \
  X((Gfx942Fma<half_t, half_t, float, ColumnMajor, RowMajor, ColumnMajor>))      \
  X((Gfx942Fma<bfloat16_t, bfloat16_t, float, RowMajor, ColumnMajor, ColumnMajor>)) \
  X((Gfx942Fma<half_t, half_t, half_t, ColumnMajor, ColumnMajor, ColumnMajor>))  \
  X((Gfx942Fma<bfloat16_t, bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>)) \
  X((Gfx950Fma<half_t, half_t, bfloat16_t, ColumnMajor, RowMajor, RowMajor>))

}  // namespace emu_test
