// MFMA configurations with batched and grouped schedulers and the fused epilogues, for the
// emulator: the same scheduler and epilogue definitions the GPU suite runs on the wgmma and
// FMA families (test/gpu/test_many_gemms.cu), here with the MFMA family's per-workgroup view
// of a problem and its accumulator layout.
#pragma once
#include "emulated_gemm.hpp"
#include "tessera/gemm/scheduler/batched.hpp"
#include "tessera/gemm/epilogue/fused.hpp"
#include "tessera/gemm/scheduler/grouped.hpp"
#include "tessera/gemm/mfma/config.hpp"

namespace emu_test {
namespace set_test {
using ::tessera::bfloat16_t;
using ::tessera::ColumnMajor;
using ::tessera::GemmShape;
using ::tessera::half_t;
using ::tessera::RowMajor;
namespace gemm = ::tessera::gemm;
namespace schedule = ::tessera::schedule;
using Contiguous = gemm::scheduler::Grouped<gemm::group_layout::Contiguous>;
using Masked = gemm::scheduler::Grouped<gemm::group_layout::Masked>;
using Batched = gemm::scheduler::StridedBatched;
using BiasGelu = gemm::Compose<gemm::LinearCombination, gemm::ColumnBias<bfloat16_t>, gemm::GeluErf>;
using ScaleSilu = gemm::Compose<gemm::LinearCombination, gemm::RowScale<float>, gemm::Silu>;

template <class Arch, class S, class... Options>
using Baseline = gemm::MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                  gemm::option::Tile<GemmShape<128, 128, 64>>,
                                  gemm::option::Schedule<schedule::NoPingPong<4>>,
                                  gemm::option::Scheduler<S>, Options...>;
template <class Arch, class S, class... Options>
using TwoClusters = gemm::MfmaConfig<Arch, half_t, ColumnMajor, half_t, ColumnMajor, half_t, ColumnMajor,
                                     gemm::option::Tile<GemmShape<256, 128, 64>>, gemm::option::Scheduler<S>,
                                     Options...>;
}  // namespace set_test
}  // namespace emu_test

#define EMU_TEST_PROBLEM_SET_CONFIGS(X)                                                                       \
  X((set_test::Baseline<::tessera::Gfx942, set_test::Contiguous, set_test::gemm::option::Epilogue<set_test::BiasGelu>>)) \
  X((set_test::TwoClusters<::tessera::Gfx950, set_test::Contiguous>))                                         \
  X((set_test::Baseline<::tessera::Gfx950, set_test::Masked>))                                                \
  X((set_test::Baseline<::tessera::Gfx942, set_test::Batched, set_test::gemm::option::Epilogue<set_test::ScaleSilu>>))
