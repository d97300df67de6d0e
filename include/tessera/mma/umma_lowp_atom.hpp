// The low-precision form of the tcgen05 MMA atom (sm_100a) as data, beside the 16-bit one of
// umma_atom.hpp: .kind::f8f6f4 with fp8 (e4m3, e5m2), fp6 (e2m3, e3m2) and fp4 (e2m1)
// operands in any mix and fp32 accumulators, no scale factors. Host-visible:
// test/unit/test_umma_host.cpp checks every field of its descriptors against the PTX ISA's
// table. benchmark/notes/lowp_amd_sm100.md cites each fact.
//
// Instruction descriptor, .kind::f8f6f4 (PTX ISA 9.7.16.4.2, Table 42, the .kind::f8f6f4
// column): the layout of .kind::f16 (umma_atom.hpp) with
//   bit 3      saturate: 0 (integer kinds only)
//   bits 4-5   D type: F32 = 1 (the accumulator Tessera uses)
//   bits 7-9   A type, 10-12 B type: E4M3 = 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5
// (the same codes in CUTLASS cute/arch/mma_sm100_desc.hpp, UMMA::MXF8F6F4Format).
//
// Operands in shared memory (PTX ISA 9.7.16.10.4.4, "Packing format used for matrix A and B
// by .kind::mxf8f6f4 in Shared Memory", which .kind::f8f6f4 shares): fp8 one value a byte;
// fp6 and fp4 in 16-byte units of 16 values, packed at the unit's start (12 or 8 bytes) and
// padded to 16 bytes. So every format takes one byte a value in a stage, and one MMA reads
// K = 32 values, 32 bytes of a K-major row, as 16 values of a 16-bit .kind::f16 MMA (CUTLASS
// cute/atom/mma_traits_sm100.hpp, MMA_Traits<SM100_MMA_F8F6F4_SS>: K = 32 for every type).
// The shared-memory descriptor and its K steps are fp8's.
//
// Operands in global memory: fp8 one value a byte; fp4 packed two a byte (float4_e2m1x2_t,
// the lower K in the low nibble); fp6 packed four in three bytes (float6_e2m3x4_t,
// float6_e3m2x4_t: a little-endian bit stream). TMA unpacks them on the way: tensor-map
// types CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B ("16 x U4 packed values ... 8 byte gaps
// between every 8 byte chunk") and 16U6_ALIGN16B ("... 4 byte gaps between every 12 byte
// chunk"), cuda.h of CUDA 13.0; CUTLASS maps float_e2m1_unpacksmem_t / float_e2m3_unpacksmem_t
// to them (cute/arch/copy_sm90_desc.hpp). Only K-major operands: CUTLASS's descriptor
// ("Major value of 1 is only valid for E4M3, E5M2, INT8 ...", UMMA::InstrDescriptor) and
// TMA's rule that the packed types' first coordinate counts values of the contiguous
// dimension.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/mma/umma_atom.hpp"

namespace tessera::mma::umma {

// The operand formats of .kind::f8f6f4 (the descriptor's A and B type codes).
enum class F8F6F4Format : std::uint32_t { kE4M3 = 0, kE5M2 = 1, kE2M3 = 3, kE3M2 = 4, kE2M1 = 5 };

// Tessera's storage type of each format as a .kind::f8f6f4 operand in global memory.
template <class T>
constexpr bool is_umma_fp8 = std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t>;
template <class T>
constexpr bool is_umma_f8f6f4 = is_umma_fp8<T> || std::is_same_v<T, float6_e2m3x4_t> ||
                                std::is_same_v<T, float6_e3m2x4_t> || std::is_same_v<T, float4_e2m1x2_t>;
// fp6 and fp4: several values an element in global memory, one a byte in shared memory.
template <class T>
constexpr bool is_umma_sub_byte = is_umma_f8f6f4<T> && values_per_element<T> > 1;

template <class T>
TESSERA_HOST_DEVICE constexpr F8F6F4Format f8f6f4_format() {
  static_assert(is_umma_f8f6f4<T>,
                "Tessera tcgen05 .kind::f8f6f4: operands are float8_e4m3_t, float8_e5m2_t, float6_e2m3x4_t, "
                "float6_e3m2x4_t or float4_e2m1x2_t");
  if constexpr (std::is_same_v<T, float8_e4m3_t>) return F8F6F4Format::kE4M3;
  else if constexpr (std::is_same_v<T, float8_e5m2_t>) return F8F6F4Format::kE5M2;
  else if constexpr (std::is_same_v<T, float6_e2m3x4_t>) return F8F6F4Format::kE2M3;
  else if constexpr (std::is_same_v<T, float6_e3m2x4_t>) return F8F6F4Format::kE3M2;
  else return F8F6F4Format::kE2M1;
}

// K of one tcgen05.mma of .kind::f8f6f4, in values, whatever the formats.
inline constexpr int kF8F6F4K = 32;

// How TMA moves an operand: as it is, or unpacking 16 packed 4- or 6-bit values into a
// 16-byte unit of shared memory (the tensor-map types named above).
enum class TmaUnpack { kNone, kU4To16B, kU6To16B };
template <class T>
inline constexpr TmaUnpack tma_unpack = !is_umma_sub_byte<T> ? TmaUnpack::kNone
                                        : value_bits<T> == 4 ? TmaUnpack::kU4To16B
                                                             : TmaUnpack::kU6To16B;

// The descriptor of D(f32) = A(TA) x B(TB) for .kind::f8f6f4, A and B K-major (the only
// majors Tessera's low-precision configurations take), M x N. The type fields hold the
// format codes.
template <class TA, class TB>
TESSERA_HOST_DEVICE constexpr InstrDescriptor f8f6f4_f32_descriptor(int m, int n) {
  InstrDescriptor d;
  d.d_type = AccumulatorType::kF32;
  d.a_type = OperandType(std::uint32_t(f8f6f4_format<TA>()));
  d.b_type = OperandType(std::uint32_t(f8f6f4_format<TB>()));
  d.a_major = Major::kK;
  d.b_major = Major::kK;
  d.m = m;
  d.n = n;
  return d;
}

}  // namespace tessera::mma::umma
