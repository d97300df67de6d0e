// The Blackwell tcgen05 GEMM configurations Tessera ships and checks (gemm/umma/config.hpp):
// together they cover both input types, the three output types, both majors of A and of B,
// both layouts of D, one CTA per MMA with and without a multicast cluster, a CTA pair
// (cta_group::2), low-precision operands (.kind::f8f6f4: fp8, fp6, fp4, mixed) on one CTA and
// on a pair, and block-scaled ones (MXFP8 / MXFP6 / MXFP4, NVFP4) on one CTA and on a pair. Shared by print_plans, the ISA tests (test/isa/umma_gemm_kernel.cpp), the
// host tests (test/unit/test_umma_host.cpp) and the GPU tests (test/gpu/test_umma_gemm.cu,
// which no Blackwell GPU has run). Each is a struct, so its name shows in the kernel's
// mangled symbol. Host-includable.
#pragma once

#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/umma/config.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace examples::umma {

using tessera::bfloat16_t;
using tessera::float4_e2m1x2_t;
using tessera::float6_e2m3x4_t;
using tessera::float6_e3m2x4_t;
using tessera::float8_e4m3_t;
using tessera::float8_e5m2_t;
using tessera::ColumnMajor;
using tessera::GemmShape;
using tessera::half_t;
using tessera::RowMajor;
using tessera::gemm::ClusterShape;
using tessera::gemm::CtaPair;
using tessera::gemm::OneCta;
using tessera::gemm::UmmaConfig;
namespace option = tessera::gemm::option;

// The default: 128x256x64 on one CTA, A and B K-major, bf16 in and out, two accumulator
// buffers of 256 columns (all 512 columns of tensor memory).
struct Tn : UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor> {};
// B N-major (row-major B), fp16 in, fp32 out, 128x128 tiles: 2 x 128 = 256 columns.
struct NnF32 : UmmaConfig<half_t, RowMajor, half_t, RowMajor, float, RowMajor, option::Tile<GemmShape<128, 128, 64>>> {};
// A M-major (column-major A), B N-major, column-major fp16 D.
struct ColD : UmmaConfig<half_t, ColumnMajor, half_t, RowMajor, half_t, ColumnMajor> {};
// One CTA per MMA in a 2x1 cluster: the B tile is loaded half by each CTA and multicast,
// and each MMA's commit frees the stage in both CTAs.
struct Multicast : UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                              option::Tile<GemmShape<128, 256, 64>>, option::Cluster<2, 1>> {};
// A CTA pair: 256x256 MMAs (cta_group::2) issued by the even CTA; each CTA loads its 128
// rows of A and half of B; fp32 column-major D.
struct Pair : UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, ColumnMajor,
                         option::Tile<GemmShape<256, 256, 64>>,
                         option::CtaGroup<CtaPair>> {};

// fp8 (.kind::f8f6f4, K = 32 per MMA): e4m3 x e4m3 -> bf16 on one CTA, 128x256 tiles with
// a 128-value K tile (128 bytes, as 64 16-bit values); A and B K-contiguous (the only fp8 form).
struct Fp8 : UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                        option::Tile<GemmShape<128, 256, 128>>> {};
// fp8 mixed formats on a CTA pair: e4m3 A x e5m2 B -> fp32, 256x256 MMAs.
struct Fp8Pair : UmmaConfig<float8_e4m3_t, RowMajor, float8_e5m2_t, ColumnMajor, float, RowMajor,
                            option::Tile<GemmShape<256, 256, 128>>, option::CtaGroup<CtaPair>> {};

// fp4 and fp6 (.kind::f8f6f4 too, K = 32 per MMA): packed in global memory (two values a
// byte; four in three bytes), unpacked by TMA to a byte a value in the stages, so the stages
// and the MMA's descriptors are fp8's. e2m1 x e2m1 -> bf16 on one CTA.
struct Fp4 : UmmaConfig<float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, bfloat16_t, RowMajor,
                        option::Tile<GemmShape<128, 256, 128>>> {};
// fp8 with fp4: e4m3 A x e2m1 B -> f16 on one CTA.
struct Fp8Fp4 : UmmaConfig<float8_e4m3_t, RowMajor, float4_e2m1x2_t, ColumnMajor, half_t, RowMajor,
                           option::Tile<GemmShape<128, 256, 128>>> {};
// fp6 on a CTA pair: e3m2 A x e2m3 B -> f32, 256x256 MMAs.
struct Fp6Pair : UmmaConfig<float6_e3m2x4_t, RowMajor, float6_e2m3x4_t, ColumnMajor, float, RowMajor,
                            option::Tile<GemmShape<256, 256, 128>>, option::CtaGroup<CtaPair>> {};

// Block scales (option::OperandScales; Arguments::epilogue.scales carries the row-major scale
// tensors). N tiles of 128: two 128-column accumulators and the scale factors' columns share
// the 512 columns of tensor memory (two of 256 would leave none for the scale factors).
using MxScales = tessera::gemm::option::Scales<tessera::gemm::scale::Mx>;
using Nvfp4Scales = tessera::gemm::option::Scales<tessera::gemm::scale::Nvfp4>;
// MXFP8 (.kind::mxf8f6f4.block_scale, ue8m0 per 32 values): e4m3 x e4m3 -> bf16, one CTA.
struct MxFp8 : UmmaConfig<float8_e4m3_t, RowMajor, float8_e4m3_t, ColumnMajor, bfloat16_t, RowMajor,
                          option::Tile<GemmShape<128, 128, 128>>, MxScales> {};
// MX with fp6 A and fp4 B (.kind::mxf8f6f4): e2m3 x e2m1 -> f32 on a CTA pair, 256 x 128 MMAs.
struct MxFp6Fp4Pair : UmmaConfig<float6_e2m3x4_t, RowMajor, float4_e2m1x2_t, ColumnMajor, float, RowMajor,
                                 option::Tile<GemmShape<256, 128, 128>>, option::CtaGroup<CtaPair>, MxScales> {};
// NVFP4 (.kind::mxf4nvf4.block_scale.scale_vec::4X, ue4m3 per 16 values): fp4 packed two a byte
// in the stages, a K tile of 256 values; -> bf16 on one CTA.
struct NvFp4 : UmmaConfig<float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, bfloat16_t, RowMajor,
                          option::Tile<GemmShape<128, 128, 256>>, Nvfp4Scales> {};
// NVFP4 on a CTA pair -> f32.
struct NvFp4Pair : UmmaConfig<float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, float, RowMajor,
                              option::Tile<GemmShape<256, 128, 256>>, option::CtaGroup<CtaPair>, Nvfp4Scales> {};
// MXFP4 (.kind::mxf4.block_scale.scale_vec::2X, ue8m0 per 32): fp4 x fp4 -> f16, one CTA.
struct MxFp4 : UmmaConfig<float4_e2m1x2_t, RowMajor, float4_e2m1x2_t, ColumnMajor, half_t, RowMajor,
                          option::Tile<GemmShape<128, 128, 256>>, MxScales> {};

}  // namespace examples::umma
