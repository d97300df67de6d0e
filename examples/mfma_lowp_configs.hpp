// The low-precision MFMA GEMM configurations Tessera ships and checks (fp8 on gfx942, OCP
// fp8, fp6 and fp4 with MX block scales on gfx950): every schedule the formats allow, both
// MFMA sizes, both fp8 formats, both fp6 formats, and their mixes (fp6 x fp8 either way),
// unscaled, per-tensor and MX scales, the three output types and both D layouts. A and B
// are K-contiguous (row-major A, column-major B), as these configurations require. Shared
// by print_plans, the ISA tests (test/isa) and the emulated tests (test/emulator).
// Host-includable.
//
// Tiles are the 16-bit ones with K doubled (fp8 and fp6: BlockTile K 128, LDS rows of 128
// bytes; fp6 keeps one value a byte slot there, memory/mfma_tile_copy.hpp) or quadrupled
// (fp4: 256 values, 128 bytes): the same LDS bytes and read steps per K tile as bf16's 64,
// twice (four times) the MFMA work. gfx950's four-cluster schedule is not
// shipped: with 32x32x64 fp8 MFMAs (two read steps each) it needs K 256 and more registers
// than two waves per SIMD have; fp4 there runs the two-cluster schedule.
#pragma once
#include "tessera/arch/amd/mfma_lowp.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/options.hpp"
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/schedule/amd_pingpong.hpp"

namespace examples::mfma_lowp {

using tessera::bfloat16_t;
using tessera::ColumnMajor;
using tessera::float4_e2m1x2_t;
using tessera::float6_e2m3x4_t;
using tessera::float6_e3m2x4_t;
using tessera::float8_e4m3_t;
using tessera::float8_e4m3fnuz_t;
using tessera::float8_e5m2_t;
using tessera::float8_e5m2fnuz_t;
using tessera::GemmShape;
using tessera::Gfx942;
using tessera::Gfx950;
using tessera::half_t;
using tessera::RowMajor;
using tessera::amd::MfmaFormat;
using tessera::amd::MfmaLowpShape;
using tessera::gemm::MfmaConfig;
namespace schedule = tessera::schedule;
namespace option = tessera::gemm::option;
namespace scale = tessera::gemm::scale;
using PerTensor = option::Scales<scale::PerTensor>;
using Mx = option::Scales<scale::Mx>;

// ---- gfx942: fnuz fp8 and bf8, v_mfma_f32_32x32x16 / 16x16x32 ----------------------------
// No ping-pong: 128x128x128, e4m3fnuz, fp32 out.
using Fp8Baseline942 = MfmaConfig<Gfx942, float8_e4m3fnuz_t, RowMajor, float8_e4m3fnuz_t, ColumnMajor, float, RowMajor,
                                  option::Tile<GemmShape<128, 128, 128>>, option::Schedule<schedule::NoPingPong<4>>>;
// One cluster: e4m3fnuz x e5m2fnuz, per-tensor scales, bf16 out.
using Fp8OneCluster942 = MfmaConfig<Gfx942, float8_e4m3fnuz_t, RowMajor, float8_e5m2fnuz_t, ColumnMajor, bfloat16_t,
                                    RowMajor, option::Tile<GemmShape<128, 128, 128>>,
                                    option::Instruction<MfmaLowpShape<32, 32, 16, MfmaFormat::kFp8, MfmaFormat::kBf8>>, PerTensor>;
// One cluster, 16x16x32: e5m2fnuz x e4m3fnuz, fp16 column-major out.
using Fp8OneCluster16x942 = MfmaConfig<Gfx942, float8_e5m2fnuz_t, RowMajor, float8_e4m3fnuz_t, ColumnMajor, half_t,
                                       ColumnMajor, option::Tile<GemmShape<128, 128, 128>>,
                                       option::Instruction<MfmaLowpShape<16, 16, 32, MfmaFormat::kBf8, MfmaFormat::kFp8>>>;
// Two clusters: 256x128x128, e4m3fnuz, per-tensor scales, fp32 column-major out.
using Fp8TwoClusters942 = MfmaConfig<Gfx942, float8_e4m3fnuz_t, RowMajor, float8_e4m3fnuz_t, ColumnMajor, float,
                                     ColumnMajor, option::Tile<GemmShape<256, 128, 128>>,
                                     option::Instruction<MfmaLowpShape<32, 32, 16, MfmaFormat::kFp8, MfmaFormat::kFp8>>, PerTensor>;
// Four clusters: 256x256x128, e5m2fnuz x e5m2fnuz, fp32 out.
using Fp8FourClusters942 = MfmaConfig<Gfx942, float8_e5m2fnuz_t, RowMajor, float8_e5m2fnuz_t, ColumnMajor, float,
                                      RowMajor, option::Tile<GemmShape<256, 256, 128>>>;

// ---- gfx950: OCP fp8 and fp4, v_mfma[_scale]_f32_32x32x64 / 16x16x128_f8f6f4 -------------
// No ping-pong: 128x128x128 MXFP8 (e4m3, ue8m0 per 32), fp32 out.
using Mxfp8Baseline950 = MfmaConfig<Gfx950, float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, RowMajor,
                                    option::Tile<GemmShape<128, 128, 128>>, option::Schedule<schedule::NoPingPong<4>>,
                                    option::Instruction<MfmaLowpShape<32, 32, 64, MfmaFormat::kFp8, MfmaFormat::kFp8>>, Mx>;
// One cluster: e5m2 x e4m3 without block scales (the unscaled f8f6f4 MFMA), per-tensor, bf16 out.
using Fp8OneCluster950 = MfmaConfig<Gfx950, float8_e5m2_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                                    option::Tile<GemmShape<128, 128, 128>>,
                                    option::Instruction<MfmaLowpShape<32, 32, 64, MfmaFormat::kBf8, MfmaFormat::kFp8>>, PerTensor>;
// One cluster, 16x16x128: MXFP8 e4m3 x e5m2, fp16 column-major out.
using Mxfp8OneCluster16x950 = MfmaConfig<Gfx950, float8_e4m3_t, RowMajor, float8_e5m2_t, ColumnMajor, half_t,
                                         ColumnMajor, option::Tile<GemmShape<128, 128, 128>>,
                                         option::Instruction<MfmaLowpShape<16, 16, 128, MfmaFormat::kFp8, MfmaFormat::kBf8>>, Mx>;
// Two clusters: 256x128x128 MXFP8 e4m3, fp32 column-major out.
using Mxfp8TwoClusters950 = MfmaConfig<Gfx950, float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, float, ColumnMajor,
                                       option::Tile<GemmShape<256, 128, 128>>,
                                       option::Instruction<MfmaLowpShape<32, 32, 64, MfmaFormat::kFp8, MfmaFormat::kFp8>>, Mx>;
// Two clusters: 256x128x256 MXFP4 (e2m1 two a byte), bf16 out.
using Mxfp4TwoClusters950 = MfmaConfig<Gfx950, float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, bfloat16_t,
                                       RowMajor, option::Tile<GemmShape<256, 128, 256>>,
                                       option::Instruction<MfmaLowpShape<32, 32, 64, MfmaFormat::kFp4, MfmaFormat::kFp4>>, Mx>;
// One cluster, 16x16x128: 128x128x256 MXFP4, fp32 out.
using Mxfp4OneCluster16x950 = MfmaConfig<Gfx950, float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, float,
                                         RowMajor, option::Tile<GemmShape<128, 128, 256>>,
                                         option::Instruction<MfmaLowpShape<16, 16, 128, MfmaFormat::kFp4, MfmaFormat::kFp4>>, Mx>;


// ---- gfx950: fp6 (e2m3 "fp6", e3m2 "bf6"; four values in three bytes), alone and with fp8 -
// Two clusters: 256x128x128 MXFP6 e2m3, fp32 out.
using Mxfp6TwoClusters950 = MfmaConfig<Gfx950, float6_e2m3x4_t, RowMajor, float6_e2m3x4_t, ColumnMajor, float, RowMajor,
                                       option::Tile<GemmShape<256, 128, 128>>,
                                       option::Instruction<MfmaLowpShape<32, 32, 64, MfmaFormat::kFp6, MfmaFormat::kFp6>>, Mx>;
// One cluster, 16x16x128: MXFP6 e2m3 A x MXFP8 e4m3 B, fp16 column-major out.
using Mxfp6Fp8OneCluster16x950 = MfmaConfig<Gfx950, float6_e2m3x4_t, RowMajor, float8_e4m3_t, ColumnMajor, half_t,
                                            ColumnMajor, option::Tile<GemmShape<128, 128, 128>>,
                                            option::Instruction<MfmaLowpShape<16, 16, 128, MfmaFormat::kFp6, MfmaFormat::kFp8>>, Mx>;
// No ping-pong: e5m2 A x e3m2 B without block scales (the unscaled f8f6f4 MFMA), per-tensor,
// bf16 out.
using Fp8Bf6Baseline950 = MfmaConfig<Gfx950, float8_e5m2_t, RowMajor, float6_e3m2x4_t, ColumnMajor, bfloat16_t,
                                     RowMajor, option::Tile<GemmShape<128, 128, 128>>,
                                     option::Schedule<schedule::NoPingPong<4>>,
                                     option::Instruction<MfmaLowpShape<32, 32, 64, MfmaFormat::kBf8, MfmaFormat::kBf6>>, PerTensor>;

}  // namespace examples::mfma_lowp
