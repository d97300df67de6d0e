// The MFMA GEMM configurations Tessera ships and checks: one per schedule, chosen so that
// together they cover both input types, the three output types, all four A/B layout
// combinations, both MFMA sizes and both operand copy paths (16-byte K-contiguous and
// register-transposing). Shared by print_plans, the ISA tests (test/isa) and the emulated
// tests (test/emulator). Host-includable.
#pragma once
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/schedule/amd_pingpong.hpp"

namespace examples::mfma {

using tessera::bfloat16_t;
using tessera::ColumnMajor;
using tessera::GemmShape;
using tessera::half_t;
using tessera::RowMajor;
using tessera::gemm::MfmaConfig;
namespace option = tessera::gemm::option;
namespace schedule = tessera::schedule;

// The 16x16 instruction of each architecture (gfx942: 16x16x16, gfx950: 16x16x32).
template <class Arch, bool kBf16>
using Mfma16 = tessera::amd::MfmaShape<16, 16, std::is_same_v<Arch, tessera::Gfx950> ? 32 : 16,
                                       kBf16 ? tessera::amd::MfmaType::kBf16 : tessera::amd::MfmaType::kF16>;

// No ping-pong (the baseline): 128x128x64, 4 waves, bf16 in, fp32 out; A row-, B column-major.
template <class Arch>
using Baseline = MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                            option::Tile<GemmShape<128, 128, 64>>, option::Schedule<schedule::NoPingPong<4>>>;
// One cluster (the selection rule's choice for 128x128x64): bf16 in and out, B row-major
// (transposed in registers on its way into LDS).
template <class Arch>
using OneCluster = MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor,
                              option::Tile<GemmShape<128, 128, 64>>>;
// One cluster with the 16x16 MFMA: fp16 in, fp32 column-major out, A column- and B
// row-major (both transposed).
template <class Arch>
using OneCluster16 = MfmaConfig<Arch, half_t, ColumnMajor, half_t, RowMajor, float, ColumnMajor,
                                option::Tile<GemmShape<128, 128, 64>>, option::Instruction<Mfma16<Arch, false>>>;
// Two clusters (256x128x64): fp16 in and out, column-major throughout.
template <class Arch>
using TwoClusters = MfmaConfig<Arch, half_t, ColumnMajor, half_t, ColumnMajor, half_t, ColumnMajor,
                               option::Tile<GemmShape<256, 128, 64>>>;
// Four clusters (256x256x64, the default tile): bf16 in, fp32 out, A row-, B column-major.
template <class Arch>
using FourClusters = MfmaConfig<Arch, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor>;
// gfx950 async: direct-to-LDS loads into three stages of 256x256x32 (both operands must be
// K-contiguous: A row-, B column-major).
using Async = MfmaConfig<tessera::Gfx950, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor,
                         option::Tile<GemmShape<256, 256, 32>>, option::Stages<3>>;

}  // namespace examples::mfma
