// Epilogues written only for the tests, once, to show that one definition of an epilogue runs
// unchanged in every family (FMA and wgmma on the GPU, MFMA on the wave emulator, tcgen05
// compiled): each element's row, column and C reach it whatever the fragment layout.
//   ScaleAndAddRow  D = scale * accumulator + row index       (C never read)
//   TimesCPlusColumn D = accumulator * C(m, n) + column index   (C always read, no alpha/beta)
// The tests write the expected D from the float64 product on their own (EpilogueCase).
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"

namespace tessera::test {

struct ScaleAndAddRow {
  struct Arguments {
    float scale = 2.0f;
  };
  float scale;

  static Status can_implement(const Arguments&, const gemm::EpilogueProblem&) { return Status::kSuccess; }
  static ScaleAndAddRow make(const Arguments& a, const gemm::EpilogueProblem&) { return {a.scale}; }
  TESSERA_HOST_DEVICE bool reads_c() const { return false; }
  template <class Element>
  TESSERA_HOST_DEVICE float operator()(float acc, const Element& e) const {
    return scale * acc + float(e.m);
  }
};

struct TimesCPlusColumn {
  using Arguments = gemm::NoEpilogueArguments;

  static Status can_implement(const Arguments&, const gemm::EpilogueProblem&) { return Status::kSuccess; }
  static TimesCPlusColumn make(const Arguments&, const gemm::EpilogueProblem&) { return {}; }
  TESSERA_HOST_DEVICE bool reads_c() const { return true; }
  template <class Element>
  TESSERA_HOST_DEVICE float operator()(float acc, const Element& e) const {
    return acc * (e.has_c() ? e.c() : 0.0f) + float(e.n);
  }
};

}  // namespace tessera::test
