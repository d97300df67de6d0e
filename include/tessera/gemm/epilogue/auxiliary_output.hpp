// AuxiliaryOutput<T, Layout>: writes the value it is given to a second output and passes it on
// unchanged. Placed in a Compose before the activation, it keeps the pre-activation a backward
// pass needs (cuBLASLt's GELU_AUX, PyTorch's saved input of the activation):
//
//   using Epilogue = Compose<LinearCombination, ColumnBias<bf16>, AuxiliaryOutput<bf16>, GeluTanh>;
//   args.epilogue = {{}, {bias}, {pre_activation, ldz}, {}};
//
// Arguments: {values (device memory, the layout's M x N matrix), ld, problem_stride (elements
// between the outputs of consecutive problems of a batch or group; rows as the problem's D is
// addressed, epilogue.hpp)}. Only elements the family stores (e.inside()) are written, so the
// part of an edge tile past M or N never reaches it. Written with one store per element: it
// costs more than D's store, which the families stage and write in wide pieces.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/macros.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/epilogue/vector_epilogues.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::gemm {

template <class T, class Layout = RowMajor>
struct AuxiliaryOutput {
  static_assert(is_epilogue_vector_element<T>,
                "Tessera AuxiliaryOutput: the second output's elements must be float, half_t or bfloat16_t");
  static_assert(is_matrix_layout<Layout>,
                "Tessera AuxiliaryOutput: the second output's layout must be tessera::RowMajor or tessera::ColumnMajor");

  struct Arguments {
    T* values = nullptr;
    std::int64_t ld = 0;
    std::int64_t problem_stride = 0;
  };
  T* values;
  std::int64_t ld;
  std::int64_t problem_stride;

  static Status can_implement(const Arguments& a, const EpilogueProblem& p) {
    if (p.M <= 0 || p.N <= 0) return Status::kSuccess;
    if (a.values == nullptr) return Status::kErrorNullEpilogueOperand;
    if (a.ld < Layout::min_ld(p.M, p.N) || a.problem_stride < 0) return Status::kErrorEpilogueArgument;
    return Status::kSuccess;
  }
  static AuxiliaryOutput make(const Arguments& a, const EpilogueProblem&) { return {a.values, a.ld, a.problem_stride}; }
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE bool reads_c() const { return false; }
  template <class Element>
  TESSERA_HOST_DEVICE TESSERA_FORCEINLINE float operator()(float x, const Element& e) const {
    if (e.inside()) values[std::int64_t(e.problem) * problem_stride + Layout::offset(e.m, e.n, ld)] = from_float<T>(x);
    return x;
  }
};

}  // namespace tessera::gemm
