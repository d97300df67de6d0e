// What the epilogues of the two TMA families (wgmma_epilogue.hpp, umma_epilogue.hpp) share:
// the configuration's epilogue applied to one accumulator, with C read by an ordinary load
// where the call reads C and the element lies inside M x N, and two floats packed into one
// word of two 16-bit values.
//
// C is read before anything of the element is stored, so C == D (in place) is safe.
#pragma once
#include <cstdint>
#include <type_traits>

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

// D(m, n) before its conversion: p.epilogue applied to `acc`, with C(m, n) where the call reads
// C and (m, n) is inside M x N.
template <class LayoutC, class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE float epilogue_with_c(const Params& p, float acc, std::int64_t m, std::int64_t n) {
  const bool inside = m < p.M && n < p.N;
  return p.epilogue(acc, GlobalCElement<LayoutC, Params>{p, m, n, p.epilogue.reads_c() && inside, inside});
}
// The same for an element the caller knows to be inside M x N.
template <class LayoutC, class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE float epilogue_inside(const Params& p, float acc, std::int64_t m, std::int64_t n) {
  return p.epilogue(acc, GlobalCElement<LayoutC, Params>{p, m, n, p.epilogue.reads_c(), true});
}
// The same where the caller knows C is not read.
template <class Params>
TESSERA_DEVICE TESSERA_FORCEINLINE float epilogue_without_c(const Params& p, float acc, std::int64_t m,
                                                            std::int64_t n) {
  return p.epilogue(acc, EpilogueElement{m, n, 0.0f, false, m < p.M && n < p.N});
}
}  // namespace detail

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
