// The kernel configurations the examples compile, shared by the example programs and
// by print_plans (which shows their shared-memory plans on a machine without a GPU).
#pragma once

#include "tessera/gemm/fma_config.hpp"

namespace examples {

template <class Arch>
using FmaF32RowMajor = tessera::gemm::FmaConfig<Arch, float, tessera::RowMajor, float,
                                                tessera::RowMajor, float, tessera::RowMajor>;

// gfx942's 64 KiB LDS is the tighter limit of the two AMD targets built together, so
// one AMD configuration serves both.
#if defined(TESSERA_HIP)
using FmaExample = FmaF32RowMajor<tessera::Gfx942>;
#else
using FmaExample = FmaF32RowMajor<tessera::Sm90>;
#endif

}  // namespace examples
