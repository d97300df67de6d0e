// The arguments of one GEMM: D = epilogue(alpha * A * B + beta * C), with A M x K, B K x N,
// C and D M x N. Layouts are compile-time (part of the kernel's Config); leading dimensions
// are runtime, counted in elements.
//
// C and D may have different element types (ElementD defaults to ElementC). A configuration
// with a fused epilogue (gemm/epilogue/epilogue.hpp) takes that epilogue's own arguments in
// `epilogue`; the default epilogue (LinearCombination: alpha and beta) needs none. Use
// Gemm<Config>::Args to name the exact type a configuration takes.
//
// `problems` describes a batch or groups of GEMMs for the configurations whose scheduler takes
// them (gemm/problem_set.hpp); every other configuration requires its default (one GEMM).
//
// `split` asks a scheduler that splits K (scheduler::StreamK<>) for a decomposition of this call;
// the default lets its rule choose. Every other scheduler ignores it.
#pragma once
#include <cstdint>

#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/scheduler/split_request.hpp"

namespace tessera::gemm {

// The arguments of an epilogue that needs none beyond alpha, beta and C.
struct NoEpilogueArguments {};

template <class ElementA, class ElementB, class ElementC, class ElementD = ElementC,
          class EpilogueArguments = NoEpilogueArguments>
struct Arguments {
  std::int64_t M = 0, N = 0, K = 0;
  const ElementA* A = nullptr;
  std::int64_t lda = 0;
  const ElementB* B = nullptr;
  std::int64_t ldb = 0;
  const ElementC* C = nullptr;  // may alias D (in place); ignored when beta == 0
  std::int64_t ldc = 0;
  ElementD* D = nullptr;
  std::int64_t ldd = 0;
  float alpha = 1.0f;
  float beta = 0.0f;
  EpilogueArguments epilogue{};  // the fused epilogue's own arguments (bias, scales, ...)
  ProblemSet problems{};         // batched / grouped GEMMs (problem_set.hpp); default: one GEMM
  SplitRequest split{};          // how a K-splitting scheduler cuts this call; default: its rule
};

}  // namespace tessera::gemm
