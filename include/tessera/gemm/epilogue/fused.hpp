// Every fused epilogue in one include: LinearCombination and Compose (epilogue.hpp), the
// vector epilogues (bias and scale per row or column), the activations, the auxiliary output.
//
//   // D = GELU(alpha A B + beta C + bias[n]), the pre-activation kept in Z:
//   using Epilogue = Compose<LinearCombination, ColumnBias<bfloat16_t>, AuxiliaryOutput<bfloat16_t>, GeluTanh>;
//   using Config = WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, option::Epilogue<Epilogue>>;
//   Gemm<Config>::Args args{M, N, K, A, lda, B, ldb, nullptr, N, D, ldd, alpha, 0.0f};
//   args.epilogue = {{}, {bias}, {Z, ldz}, {}};   // one brace per epilogue of the Compose, in order
// With fp8 operands the Compose runs after A's and B's scales and before D's scale and amax;
// its arguments go in args.epilogue.then (epilogue/fp8_scaling.hpp).
#pragma once
#include "tessera/gemm/epilogue/activations.hpp"
#include "tessera/gemm/epilogue/auxiliary_output.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/epilogue/vector_epilogues.hpp"
