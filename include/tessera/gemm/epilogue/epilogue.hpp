// Epilogues: what every kernel family does to each accumulator before its one store of D.
// An epilogue is a parameter of every configuration (gemm/options.hpp,
// option::Epilogue<E>) and is written once for all of them:
//
//   struct MyEpilogue {
//     using Arguments = ...;  // the caller's, in gemm::Arguments::epilogue (NoEpilogueArguments if none)
//     // Host: every precondition of its arguments, as a Status that names the problem.
//     static Status can_implement(const Arguments&, const EpilogueProblem&);
//     // Host: the device-side state of one call (trivially copyable; it travels in the
//     // kernel's parameters).
//     static MyEpilogue make(const Arguments&, const EpilogueProblem&);
//     // Whether this call reads C (the family then offers every element's C value).
//     TESSERA_HOST_DEVICE bool reads_c() const;
//     // The value D(e.m, e.n) gets, before its conversion to D's element type.
//     template <class Element>
//     TESSERA_HOST_DEVICE float operator()(float accumulator, const Element& e) const;
//   };
//
// The family calls the epilogue once per element of D it stores, in whatever order its
// accumulator fragments come (wgmma, tcgen05's TMEM loads, MFMA, FMA), with an Element that
// says where the element is and offers C: e.m, e.n (row and column of D), e.has_c() (the call
// reads C and the element lies inside M x N) and e.c() (C(m, n) as float; only where has_c()).
// Families may also call it for elements they then do not store (a tile's part past M or N);
// e.inside() says whether the element is stored, which an epilogue that writes anything of
// its own (AuxiliaryOutput) must ask. Many GEMMs in one launch (problem_set.hpp): e.problem is
// the batch entry or group, and e.m the row as that problem's C and D are addressed (the
// contiguous grouped layout: the row of the whole A and D; otherwise the row in the entry's
// own matrix); 0 and the row of D for one GEMM.
// How C arrives (ordinary loads, vector loads staged ahead, shared memory) is the family's
// business: e.c() may load when called, so an epilogue that never asks for C never reads it.
// LinearCombination, the default, is the one definition of alpha and beta:
//   D = alpha * accumulator + beta * C.
// Compose<First, Then...> applies several in order (e.g. LinearCombination, then a bias, then
// an activation); each sees the previous one's result as its `accumulator`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"

namespace tessera::gemm {

// What an epilogue may know of the whole call when it is made on the host.
struct EpilogueProblem {
  std::int64_t M = 0, N = 0, K = 0;
  float alpha = 1.0f, beta = 0.0f;
};

template <class Args>
EpilogueProblem epilogue_problem(const Args& a) {
  return {a.M, a.N, a.K, a.alpha, a.beta};
}

// An element whose C value (if any) the family has already read: the Element of families that
// load C ahead (FMA and MFMA read 4-element runs of C) and of host code and tests.
struct EpilogueElement {
  std::int64_t m, n;
  float c_value;
  bool c_present;
  bool stored = true;  // inside(): the family stores this element
  int problem = 0;
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool has_c() const { return c_present; }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float c() const { return c_value; }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool inside() const { return stored; }
};

struct LinearCombination {
  using Arguments = NoEpilogueArguments;
  float alpha, beta;

  static Status can_implement(const Arguments&, const EpilogueProblem&) { return Status::kSuccess; }
  static LinearCombination make(const Arguments&, const EpilogueProblem& p) { return {p.alpha, p.beta}; }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return beta != 0.0f; }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float acc, const Element& e) const {
    float v = alpha * acc;
    if (e.has_c()) v += beta * e.c();
    return v;
  }
};

namespace detail {
// An epilogue type: it names its Arguments and offers make() and reads_c() (the contract above).
template <class T, class = void>
struct IsEpilogue : std::false_type {};
template <class T>
struct IsEpilogue<T, std::void_t<typename T::Arguments, decltype(T::make(std::declval<const typename T::Arguments&>(),
                                                                          std::declval<const EpilogueProblem&>())),
                                 decltype(std::declval<const T&>().reads_c())>> : std::true_type {};

// A struct holding one T per position, by value (aggregate-initialisable in order: the
// arguments of Compose<A, B> are written {{a's}, {b's}}).
template <std::size_t I, class T>
struct Slot {
  T value;
};
template <class Indices, class... Ts>
struct SlotPack;
template <std::size_t... I, class... Ts>
struct SlotPack<std::index_sequence<I...>, Ts...> : Slot<I, Ts>... {};
template <std::size_t I, class T>
TESSERA_HOST_DEVICE TESSERA_FORCEINLINE const T& slot(const Slot<I, T>& s) {
  return s.value;
}
}  // namespace detail

template <class... Ops>
struct Compose {
  static_assert(sizeof...(Ops) >= 1, "Tessera Compose: give at least one epilogue to apply");
  static_assert((detail::IsEpilogue<Ops>::value && ...),
                "Tessera Compose: every part must be an epilogue (a type with Arguments, make() and reads_c(), "
                "gemm/epilogue/epilogue.hpp), e.g. LinearCombination, ColumnBias<T>, GeluTanh");
  static_assert((0 + ... + int(std::is_same_v<Ops, LinearCombination>)) <= 1,
                "Tessera Compose: LinearCombination appears twice: alpha and beta * C would be applied twice");
  using Indices = std::index_sequence_for<Ops...>;
  using Arguments = detail::SlotPack<Indices, typename Ops::Arguments...>;
  detail::SlotPack<Indices, Ops...> ops;

  static Status can_implement(const Arguments& a, const EpilogueProblem& p) { return check(a, p, Indices{}); }
  static Compose make(const Arguments& a, const EpilogueProblem& p) { return build(a, p, Indices{}); }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return any_reads_c(Indices{}); }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float acc, const Element& e) const {
    return apply(acc, e, Indices{});
  }

 private:
  template <std::size_t... I>
  static Status check(const Arguments& a, const EpilogueProblem& p, std::index_sequence<I...>) {
    Status s = Status::kSuccess;
    (void)((ok(s = Ops::can_implement(detail::slot<I>(a), p))) && ...);
    return s;
  }
  template <std::size_t... I>
  static Compose build(const Arguments& a, const EpilogueProblem& p, std::index_sequence<I...>) {
    return Compose{{{Ops::make(detail::slot<I>(a), p)}...}};
  }
  template <std::size_t... I>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool any_reads_c(std::index_sequence<I...>) const {
    return (detail::slot<I>(ops).reads_c() || ...);
  }
  template <class Element, std::size_t... I>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float apply(float x, const Element& e, std::index_sequence<I...>) const {
    ((x = detail::slot<I>(ops)(x, e)), ...);
    return x;
  }
};

// Whether an epilogue is a Compose of parts (a bias, an activation, an auxiliary output):
// heavier per element than one part, so a family may keep fewer copies of its store loop for it
// (the Hopper epilogue's own copy for staged C made ptxas spill with these: wgmma/epilogue.hpp).
template <class T>
struct IsComposedEpilogue : std::false_type {};
template <class... Ops>
struct IsComposedEpilogue<Compose<Ops...>> : std::true_type {};

}  // namespace tessera::gemm
