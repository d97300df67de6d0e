// MFMA configurations with scheduler::StreamK<> (gemm/scheduler/stream_k.hpp), for the emulator: a persistent
// grid of workgroups, each running units of a tile and a range of its K tiles, partial tiles
// through the workspace. Between them: both targets, both operand copies (16-byte K-contiguous
// and register-transposing; the element gather on unaligned shapes), the 16x16 and 32x32
// instructions, no ping-pong and the two-cluster schedule, fp32 and 16-bit D in both layouts.
#pragma once
#include "emulated_gemm.hpp"
#include "tessera/gemm/mfma/config.hpp"

namespace emu_test {
namespace stream_k {
using ::tessera::bfloat16_t;
using ::tessera::ColumnMajor;
using ::tessera::GemmShape;
using ::tessera::half_t;
using ::tessera::RowMajor;
using StreamKOption = ::tessera::gemm::option::Scheduler<::tessera::gemm::scheduler::StreamK<>>;
// No ping-pong, 128x128x64, bf16 in, fp32 row-major D; A row-, B column-major.
template <class Arch>
using Baseline = ::tessera::gemm::MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                                             ::tessera::gemm::option::Tile<GemmShape<128, 128, 64>>,
                                             ::tessera::gemm::option::Schedule<::tessera::schedule::NoPingPong<4>>,
                                             StreamKOption>;
// The 16x16 MFMA, fp16 in, fp32 column-major D; A column-, B row-major (both transposed).
template <class Arch>
using Transposed = ::tessera::gemm::MfmaConfig<
    Arch, half_t, ColumnMajor, half_t, RowMajor, float, ColumnMajor,
                                               ::tessera::gemm::option::Tile<GemmShape<128, 128, 64>>,
    ::tessera::gemm::option::Instruction<::tessera::amd::MfmaShape<16, 16, std::is_same_v<Arch, ::tessera::Gfx950> ? 32 : 16, ::tessera::amd::MfmaType::kF16>>,
    StreamKOption>;
// Two clusters (256x128x64), fp16 in and out, column-major throughout.
template <class Arch>
using TwoClusters =
    ::tessera::gemm::MfmaConfig<Arch, half_t, ColumnMajor, half_t, ColumnMajor, half_t, ColumnMajor,
                                ::tessera::gemm::option::Tile<GemmShape<256, 128, 64>>, StreamKOption>;
}  // namespace stream_k
}  // namespace emu_test

#define EMU_TEST_STREAM_K_CONFIGS(X)                          \
  X((::emu_test::stream_k::Baseline<::tessera::Gfx942>))      \
  X((::emu_test::stream_k::Transposed<::tessera::Gfx950>))    \
  X((::emu_test::stream_k::TwoClusters<::tessera::Gfx942>))
