// What the epilogues of the two TMA families (wgmma/epilogue.hpp, umma/epilogue.hpp) share:
// the configuration's epilogue applied to one accumulator, with C read by an ordinary load
// where the call reads C and the element lies inside M x N, and two floats packed into one
// word of two 16-bit values (or one 16-bit word of two fp8 codes).
//
// C is read before anything of the element is stored, so C == D (in place) is safe.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/float8.hpp"
#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"

namespace tessera::gemm {

#if defined(TESSERA_CUDA)

namespace detail {
// Two floats -> two 16-bit values in one word (lo in the low half), round to nearest even.
template <class T>
TESSERA_DEVICE TESSERA_FORCEINLINE std::uint32_t pack_pair(float lo, float hi) {
  std::uint32_t r;
  if constexpr (std::is_same_v<T, half_t>) {
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  } else {
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  }
  return r;
}

// Two floats -> two fp8 codes in one 16-bit word (lo in the low byte), round to nearest even,
// saturating to the format's largest finite value (the format's default, float8.hpp).
template <class T>
TESSERA_DEVICE TESSERA_FORCEINLINE std::uint16_t pack_fp8_pair(float lo, float hi) {
  std::uint16_t r;
  if constexpr (std::is_same_v<T, float8_e4m3_t>) {
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
  } else {
    static_assert(std::is_same_v<T, float8_e5m2_t>, "Tessera: fp8 pairs are e4m3 or e5m2");
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
  }
  return r;
}

// One element of D whose C value is read from global memory when the epilogue asks for it
// (EpilogueElement's interface, epilogue.hpp): an epilogue that does not read C costs no load,
// and one that does loads inside its own condition. Params: the kernel's parameters (c, ldc).
// kProblem: the element is of a problem of a batch or group, whose C starts problem *
// p.strides.c elements on (worked out where C is read, so nothing more stays live before).
template <class LayoutC, class Params, bool kProblem = false>
struct GlobalCElement {
  const Params& p;
  std::int64_t m, n;
  bool present;  // the call reads C and (m, n) is inside M x N
  bool stored;   // (m, n) is inside M x N (or the problem's rows)
  int problem = 0;
  TESSERA_DEVICE TESSERA_FORCEINLINE bool has_c() const { return present; }
  TESSERA_DEVICE TESSERA_FORCEINLINE float c() const {
    if constexpr (kProblem) {
      return to_float(p.c[problem * p.strides.c + LayoutC::offset(m, n, p.ldc)]);
    } else {
      return to_float(p.c[LayoutC::offset(m, n, p.ldc)]);
    }
  }
  TESSERA_DEVICE TESSERA_FORCEINLINE bool inside() const { return stored; }
};

// What each consumer thread applies to D's elements: the configuration's epilogue itself, or
// with fp8 operands (kOwnCopy) the thread's copy of it, its per-call scalars read once and the
// thread's amax of D gathered in it (Fp8Scaling::resolve, epilogue/fp8_scaling.hpp).
template <bool kOwnCopy, class Epilogue>
TESSERA_DEVICE TESSERA_FORCEINLINE decltype(auto) thread_output_op(const Epilogue& epilogue) {
  if constexpr (kOwnCopy) {
    return epilogue.resolve();
  } else {
    return (epilogue);
  }
}

// D(m, n) before its conversion: `op` applied to `acc`, with C(m, n) where the call reads C and
// (m, n) is inside M x N. `op` is p.epilogue (below) or a copy the thread owns: one whose
// per-call scalars were read once on the device and which gathers the amax of D
// (epilogue/fp8_scaling.hpp).
template <class LayoutC, class Params, class Op>
TESSERA_DEVICE TESSERA_FORCEINLINE float apply_with_c(const Params& p, Op& op, float acc, std::int64_t m,
                                                      std::int64_t n) {
  const bool inside = m < p.M && n < p.N;
  return op(acc, GlobalCElement<LayoutC, Params>{p, m, n, op.reads_c() && inside, inside});
}
// The same for an element the caller knows to be inside M x N.
template <class LayoutC, class Params, class Op>
TESSERA_DEVICE TESSERA_FORCEINLINE float apply_inside(const Params& p, Op& op, float acc, std::int64_t m,
                                                      std::int64_t n) {
  return op(acc, GlobalCElement<LayoutC, Params>{p, m, n, op.reads_c(), true});
}
// The same where the caller knows C is not read; `inside`: whether the family stores (m, n).
template <class Op>
TESSERA_DEVICE TESSERA_FORCEINLINE float apply_without_c(Op& op, float acc, std::int64_t m, std::int64_t n,
                                                         bool inside) {
  return op(acc, EpilogueElement{m, n, 0.0f, false, inside});
}

// The three with the configuration's epilogue, p.epilogue.
template <class LayoutC, class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE float epilogue_with_c(const Params& p, float acc, std::int64_t m, std::int64_t n) {
  return apply_with_c<LayoutC>(p, p.epilogue, acc, m, n);
}
template <class LayoutC, class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE float epilogue_inside(const Params& p, float acc, std::int64_t m, std::int64_t n) {
  return apply_inside<LayoutC>(p, p.epilogue, acc, m, n);
}
template <class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE float epilogue_without_c(const Params& p, float acc, std::int64_t m,
                                                            std::int64_t n) {
  return apply_without_c(p.epilogue, acc, m, n, m < p.M && n < p.N);
}
}  // namespace detail

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
