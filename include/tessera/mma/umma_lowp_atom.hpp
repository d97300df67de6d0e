// The fp8 form of the tcgen05 MMA atom (sm_100a) as data, beside the 16-bit one of
// umma_atom.hpp: .kind::f8f6f4 with e4m3 / e5m2 operands (any mix) and fp32 accumulators,
// no scale factors. Host-visible: test/unit/test_umma_host.cpp checks every field of its
// descriptors against the PTX ISA's table. benchmark/notes/umma.md cites each fact.
//
// Instruction descriptor, .kind::f8f6f4 (PTX ISA 9.7.16.4.2, Table 42, the .kind::f8f6f4
// column): the layout of .kind::f16 (umma_atom.hpp) with
//   bit 3      saturate: 0 (integer kinds only)
//   bits 4-5   D type: F32 = 1 (the only accumulator of this kind)
//   bits 7-9   A type, 10-12 B type: E4M3 = 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5
// K of one MMA is 32 values (32 bytes of a K-major row, as 16 values of a 16-bit .kind::f16
// MMA: CUTLASS cute/atom/mma_traits_sm100.hpp, MMA_Traits<SM100_MMA_F8F6F4_SS>, K = 32).
// The sub-byte formats (fp6, fp4) and the block-scaled kinds (.kind::mxf8f6f4,
// .kind::mxf4nvf4) are not issued: README's status table says what exists.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/float8.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/mma/umma_atom.hpp"

namespace tessera::mma::umma {

// The operand formats of .kind::f8f6f4 (the descriptor's A and B type codes).
enum class F8F6F4Format : std::uint32_t { kE4M3 = 0, kE5M2 = 1, kE2M3 = 3, kE3M2 = 4, kE2M1 = 5 };

template <class T>
constexpr bool is_umma_fp8 = std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t>;

template <class T>
TESSERA_HOST_DEVICE constexpr F8F6F4Format f8f6f4_format() {
  static_assert(is_umma_fp8<T>, "Tessera tcgen05 .kind::f8f6f4: operands are float8_e4m3_t or float8_e5m2_t");
  return std::is_same_v<T, float8_e4m3_t> ? F8F6F4Format::kE4M3 : F8F6F4Format::kE5M2;
}

// K of one tcgen05.mma, in values, for operands of type T: 32 bytes of a K-major row.
template <class T>
inline constexpr int kInstructionK = 32 / int(sizeof(T));

// The descriptor of D(f32) = A(TA) x B(TB) for .kind::f8f6f4, A and B K-major (the only
// majors Tessera's fp8 configurations take), M x N. The type fields hold the format codes.
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
