// The kernel configurations the examples compile, shared by the example programs and
// by print_plans (which shows their shared-memory plans on a machine without a GPU).
#pragma once

#include "tessera/gemm/fma/config.hpp"
#include "tessera/gemm/wgmma/config.hpp"

namespace examples {

// The Hopper example's configuration (examples/wgmma_gemm.cu): bf16, all row-major.
using WgmmaBf16RowMajor = tessera::gemm::WgmmaConfig<tessera::bfloat16_t, tessera::RowMajor, tessera::bfloat16_t,
                                                     tessera::RowMajor, tessera::bfloat16_t, tessera::RowMajor>;

template <class Arch>
using FmaF32RowMajor = tessera::gemm::FmaConfig<Arch, float, tessera::RowMajor, float,
                                                tessera::RowMajor, float, tessera::RowMajor>;

}  // namespace examples

// The examples proper also need the kernels and the dispatcher (nvcc or clang -x hip).
#if defined(TESSERA_CUDA) || defined(TESSERA_HIP)
#include "tessera/gemm/select/dispatch.hpp"
#include "tessera/gemm/fma/fma.hpp"

namespace examples {
// One configuration per target the build carries; the device picks at run time.
#if defined(TESSERA_HIP)
using FmaExample = tessera::gemm::Dispatch<FmaF32RowMajor<tessera::Gfx942>, FmaF32RowMajor<tessera::Gfx950>>;
#else
using FmaExample = tessera::gemm::Dispatch<FmaF32RowMajor<tessera::Sm90>, FmaF32RowMajor<tessera::Sm100>>;
#endif
}  // namespace examples
#endif
