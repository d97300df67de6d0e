// The translation unit scripts/compile_time.sh times (issue 28: a TU instantiating
// Gemm<Auto<...>> should compile in under 40 s with nvcc on one core): the README's usage,
// bf16 in and out, A row-major, B = W[N][K], every entry of Auto's table instantiated for it.
// Not built by CMake; the README's own copy is compiled by the docs test.
#include <cstdio>

#include "tessera/gemm/select/auto.hpp"

using namespace tessera;
using namespace tessera::gemm;

using Bf16Gemm = Auto<bfloat16_t, RowMajor,      // A: M x K
                      bfloat16_t, ColumnMajor,   // B: K x N
                      bfloat16_t, RowMajor>;     // C and D: M x N

Status multiply(int M, int N, int K, const bfloat16_t* A, const bfloat16_t* B, bfloat16_t* D,
                void* workspace, cudaStream_t stream) {
  Gemm<Bf16Gemm>::Args args{M, N, K, A, /*lda=*/K, B, /*ldb=*/K, /*C=*/nullptr, /*ldc=*/N, D, /*ldd=*/N,
                            /*alpha=*/1.0f, /*beta=*/0.0f};
  std::puts(explain<Bf16Gemm>(args, workspace).c_str());
  const Status s = Gemm<Bf16Gemm>::run(args, workspace, stream);
  if (!ok(s)) std::printf("%s: %s\n", status_name(s), status_message(s));
  return s;
}
