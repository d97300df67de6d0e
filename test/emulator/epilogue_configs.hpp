// MFMA configurations with the test-only epilogues (test/support/test_epilogues.hpp), for the
// emulator: the same epilogue definitions the GPU suites run on the FMA and wgmma families,
// here with the MFMA family's accumulator layout, and D of another type than C.
#pragma once
#include "emulated_gemm.hpp"
#include "tessera/gemm/mfma/config.hpp"
#include "test_epilogues.hpp"

namespace emu_test {
using ::tessera::bfloat16_t;
using ::tessera::ColumnMajor;
using ::tessera::GemmShape;
using ::tessera::half_t;
using ::tessera::RowMajor;
namespace option = ::tessera::gemm::option;
namespace schedule = ::tessera::schedule;
template <class Arch, class... Options>
using EpilogueBaseline = ::tessera::gemm::MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t,
                                                     RowMajor, ::tessera::gemm::option::Tile<GemmShape<128, 128, 64>>,
                                                     ::tessera::gemm::option::Schedule<schedule::NoPingPong<4>>,
                                                     Options...>;
template <class Arch, class... Options>
using EpilogueTwoClusters =
    ::tessera::gemm::MfmaConfig<Arch, half_t, ColumnMajor, half_t, ColumnMajor, half_t, ColumnMajor,
                                ::tessera::gemm::option::Tile<GemmShape<256, 128, 64>>, Options...>;
}  // namespace emu_test

#define EMU_TEST_EPILOGUE_CONFIGS(X)                                                                          \
  X((EpilogueBaseline<::tessera::Gfx942, option::Epilogue<::tessera::test::ScaleAndAddRow>>))                 \
  X((EpilogueTwoClusters<::tessera::Gfx950, option::Epilogue<::tessera::test::TimesCPlusColumn>,              \
                         option::OutputElement<float>>))                                                      \
  X((EpilogueBaseline<::tessera::Gfx950, option::OutputElement<float>>))
