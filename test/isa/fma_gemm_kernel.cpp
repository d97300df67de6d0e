// draft
#include <cstdio>

#include "tessera/gemm/fma_config.hpp"
#include "tessera/gemm/kernel/fma_smem_plan.hpp"

namespace fma_isa {
using namespace tessera;
using gemm::FmaConfig;

struct AmdF32RowMajor
    : FmaConfig<Gfx942, float, RowMajor, float, RowMajor, float, RowMajor> {};
struct AmdF16Mixed
    : FmaConfig<Gfx942, half_t, ColumnMajor, half_t, RowMajor, float, ColumnMajor> {};

#ifndef FMA_ISA_NV_ARCH
#define FMA_ISA_NV_ARCH Sm90
#endif
struct NvF32RowMajor
    : FmaConfig<FMA_ISA_NV_ARCH, float, RowMajor, float, RowMajor, float, RowMajor> {};
struct NvBf16Mixed
    : FmaConfig<FMA_ISA_NV_ARCH, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, bfloat16_t, ColumnMajor> {};
}  // namespace fma_isa

#if defined(TESSERA_HIP) || defined(TESSERA_CUDA)
#include "tessera/gemm/kernel/fma_gemm_kernel.hpp"
namespace tessera::gemm {
#if defined(TESSERA_HIP)
template __global__ void fma_gemm_kernel<fma_isa::AmdF32RowMajor>(const FmaParams<fma_isa::AmdF32RowMajor>);
template __global__ void fma_gemm_kernel<fma_isa::AmdF16Mixed>(const FmaParams<fma_isa::AmdF16Mixed>);
#else
template __global__ void fma_gemm_kernel<fma_isa::NvF32RowMajor>(const FmaParams<fma_isa::NvF32RowMajor>);
template __global__ void fma_gemm_kernel<fma_isa::NvBf16Mixed>(const FmaParams<fma_isa::NvBf16Mixed>);
#endif
}
#else
int main() {
  std::printf("%zu %zu\n", tessera::gemm::FmaSmemPlan<fma_isa::AmdF32RowMajor>::Plan::kTotalBytes,
              tessera::gemm::FmaSmemPlan<fma_isa::AmdF16Mixed>::Plan::kTotalBytes);
}
#endif
