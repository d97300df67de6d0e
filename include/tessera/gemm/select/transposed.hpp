// Transposed<Inner>: D = A B computed as D^T = B^T A^T by the configuration Inner. Where M is
// small and N large (decode: a few tokens times a weight matrix), the transposed problem puts
// the weights on the tensor cores' 64-row side and the few tokens on their narrow N side, so
// no row of a 64-row wgmma is wasted (gemm/select/small_m.hpp uses it).
//
// Nothing is copied: B^T of a column-major B is the same memory read as a row-major matrix,
// and so on, so Inner's layouts are the flips of the user's (Inner::LayoutA = flip of LayoutB,
// Inner::LayoutB = flip of LayoutA, Inner::LayoutC = flip of LayoutC) and its arguments are the
// user's with M and N, A and B (and lda, ldb) exchanged. Inner's epilogue is
// TransposedEpilogue<E>, which hands the user's epilogue E each element at its place in D
// (row m, column n of D, not of D^T) and the problem as the user wrote it.
//
// Arguments are checked as the user wrote them (each Status names the user's operand), then by
// Inner's own checks on the transposed problem, whose A / B Statuses are renamed back.
//
// fp8 operands (an Inner with fp8 A and B, both K-major: the user's A row-major, B column-major,
// whose flips are K-major again): Inner's epilogue is Fp8Scaling<Mode, D, TransposedEpilogue<E>>
// and the user's Fp8Scaling<Mode, D, E>, with the same arguments; A's and B's scales change
// places with the operands: per tensor and per row / column as they are; the user's block scales
// (A per 1 x 128, B per 128 x 128) are Inner's scale::BlockwiseTransposed (A per 128 x 128, B per
// 128 x 1), the same floats at the same addresses.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/epilogue/fp8_scaling.hpp"
#include "tessera/gemm/scale_mode.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera::gemm {

template <class Layout>
using FlipLayout = std::conditional_t<Layout::kIsRowMajor, ColumnMajor, RowMajor>;

// An element of D^T seen as the element of D it is.
template <class Element>
struct TransposedElement {
  std::int64_t m, n;
  const Element& of;
  int problem = 0;  // a transposed configuration computes one GEMM (it refuses a problem set)
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool has_c() const { return of.has_c(); }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float c() const { return of.c(); }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool inside() const { return of.inside(); }
};

// The user's epilogue E inside a configuration that computes D^T.
template <class E>
struct TransposedEpilogue {
  using Arguments = typename E::Arguments;
  using User = E;
  E user;

  static EpilogueProblem transpose(const EpilogueProblem& p) { return {p.N, p.M, p.K, p.alpha, p.beta}; }
  static Status can_implement(const Arguments& a, const EpilogueProblem& p) {
    return E::can_implement(a, transpose(p));
  }
  static TransposedEpilogue make(const Arguments& a, const EpilogueProblem& p) {
    return {E::make(a, transpose(p))};
  }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return user.reads_c(); }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float acc, const Element& e) const {
    return user(acc, TransposedElement<Element>{e.n, e.m, e});
  }
};

namespace detail {
// The epilogue the user's D gets, from the inner configuration's: TransposedEpilogue<E> is E;
// an fp8 configuration's Fp8Scaling<Mode, D, TransposedEpilogue<E>> is Fp8Scaling<Mode, D, E>
// (the same arguments: the scales, D's scale and amax, E's).
template <class E>
struct UserEpilogue {
  static constexpr bool kTransposed = false;
  static constexpr bool kFp8 = false;
};
template <class E>
struct UserEpilogue<TransposedEpilogue<E>> {
  static constexpr bool kTransposed = true;
  static constexpr bool kFp8 = false;
  using type = E;
};
// The scale mode the user's call has for the inner configuration's: block scales transposed
// (A per 128 x 128, B per 128 x 1) are the user's Blockwise (A per 1 x 128, B per 128 x 128).
template <class Mode>
struct UserScaleMode {
  using type = Mode;
};
template <>
struct UserScaleMode<scale::BlockwiseTransposed> {
  using type = scale::Blockwise;
};
template <class Mode, class ElementD, class E>
struct UserEpilogue<Fp8Scaling<Mode, ElementD, TransposedEpilogue<E>>> {
  static constexpr bool kTransposed = true;
  static constexpr bool kFp8 = true;
  using type = Fp8Scaling<typename UserScaleMode<Mode>::type, ElementD, E>;
};

// A Status Inner gave about its A or B, renamed to the user's operand.
inline Status transpose_status(Status s) {
  switch (s) {
    case Status::kErrorLeadingDimA: return Status::kErrorLeadingDimB;
    case Status::kErrorLeadingDimB: return Status::kErrorLeadingDimA;
    case Status::kErrorNullA: return Status::kErrorNullB;
    case Status::kErrorNullB: return Status::kErrorNullA;
    case Status::kErrorMisalignedA: return Status::kErrorMisalignedB;
    case Status::kErrorMisalignedB: return Status::kErrorMisalignedA;
    case Status::kErrorNullScaleA: return Status::kErrorNullScaleB;
    case Status::kErrorNullScaleB: return Status::kErrorNullScaleA;
    case Status::kErrorScaleATooSmall: return Status::kErrorScaleBTooSmall;
    case Status::kErrorScaleBTooSmall: return Status::kErrorScaleATooSmall;
    default: return s;
  }
}
}  // namespace detail

// The family tag of Transposed (its launcher is below).
struct TransposedFamily {};

template <class Inner_>
struct Transposed {
  using Family = TransposedFamily;
  using Inner = Inner_;
  using Arch = typename Inner::Arch;
  using ElementA = typename Inner::ElementB;
  using ElementB = typename Inner::ElementA;
  using ElementC = typename Inner::ElementC;
  using ElementD = typename Inner::ElementD;
  using ElementAccumulator = typename Inner::ElementAccumulator;
  using LayoutA = FlipLayout<typename Inner::LayoutB>;
  using LayoutB = FlipLayout<typename Inner::LayoutA>;
  using LayoutC = FlipLayout<typename Inner::LayoutC>;
  using Outer = detail::UserEpilogue<typename Inner::Epilogue>;
  static_assert(Outer::kTransposed,
                "Tessera Transposed: the inner configuration's epilogue must be TransposedEpilogue<E> (E is what "
                "the user's D gets; fp8: Fp8Scaling<Mode, D, TransposedEpilogue<E>>)");
  static_assert(!Outer::kFp8 || Inner::Scales::kKind != scale::Kind::kBlockwise,
                "Tessera Transposed: an inner configuration with fp8 block scales reads them as its own A's and B's; "
                "give it scale::BlockwiseTransposed (the user's Blockwise seen from D^T)");
  using Epilogue = typename Outer::type;
  using Scales = typename detail::UserScaleMode<typename Inner::Scales>::type;  // fp8: as the user's call sees it
};

// The inner configuration's arguments for the user's.
template <class Config>
ConfigArguments<typename Config::Inner> transpose_arguments(const ConfigArguments<Config>& a) {
  ConfigArguments<typename Config::Inner> t;
  t.M = a.N;
  t.N = a.M;
  t.K = a.K;
  t.A = a.B;
  t.lda = a.ldb;
  t.B = a.A;
  t.ldb = a.lda;
  t.C = a.C;
  t.ldc = a.ldc;
  t.D = a.D;
  t.ldd = a.ldd;
  t.alpha = a.alpha;
  t.beta = a.beta;
  t.epilogue = a.epilogue;
  if constexpr (detail::UserEpilogue<typename Config::Inner::Epilogue>::kFp8) {
    // fp8: the inner A is the user's B, so its scales are B's (per tensor, or per row of B^T).
    t.epilogue.a = a.epilogue.b;
    t.epilogue.b = a.epilogue.a;
  }
  return t;
}

template <class Config>
struct KernelLauncher<TransposedFamily, Config> {
  using Args = ConfigArguments<Config>;
  using Inner = typename Config::Inner;
  using InnerLauncher = KernelLauncher<typename Inner::Family, Inner>;

  static OperandRequirements requirements() {
    OperandRequirements r = InnerLauncher::requirements();
    const std::size_t a = r.align_a;
    r.align_a = r.align_b;
    r.align_b = a;
    return r;
  }
  static Status check(const Args& a) { return detail::transpose_status(InnerLauncher::check(transpose_arguments<Config>(a))); }
  static std::size_t workspace_size(const Args& a, const DeviceInfo& d) {
    return InnerLauncher::workspace_size(transpose_arguments<Config>(a), d);
  }
  static Status launch(const Args& a, void* workspace, Stream stream, const DeviceInfo& d) {
    return InnerLauncher::launch(transpose_arguments<Config>(a), workspace, stream, d);
  }
};

}  // namespace tessera::gemm
