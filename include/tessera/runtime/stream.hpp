// The runtime's stream type and "did the last launch work", for CUDA and HIP.
#pragma once

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"

#if defined(TESSERA_HIP)
#include <hip/hip_runtime.h>
#include "tessera/runtime/hip_status.hpp"
#elif defined(TESSERA_CUDA)
#include <cuda_runtime_api.h>
#include "tessera/runtime/cuda_status.hpp"
#endif

namespace tessera {

#if defined(TESSERA_HIP)
using Stream = hipStream_t;
inline Status last_launch_status() { return status_from_hip(hipGetLastError()); }
#elif defined(TESSERA_CUDA)
using Stream = cudaStream_t;
inline Status last_launch_status() { return status_from_cuda(cudaGetLastError()); }
#else
// A host build (the AMD wave emulator runs kernels synchronously): no streams.
using Stream = void*;
#endif

}  // namespace tessera
