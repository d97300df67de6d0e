// The FMA GEMM configurations the emulator runs in CI: the AMD default tile (128x128x8,
// 256 work-items) for both AMD targets, every layout combination in fp32, and 16-bit
// inputs and outputs, as the GPU suite (test/gpu/test_fma_gemm.cu) runs them on NVIDIA.
#pragma once
#include "emulated_gemm.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/fma/config.hpp"
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

// X(config) for every configuration (emulated_gemm.hpp: the X-macro helpers), so that the
// instantiations and the tests agree.
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
