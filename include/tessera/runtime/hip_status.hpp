// HIP runtime error codes -> Tessera Status, and a macro that returns early on error.
//
// Only the runtime API header is needed (nothing here calls the runtime), so a
// host-only TU compiled by g++ can use it as well as clang -x hip.
//
// Do not include this and cuda_status.hpp in the same TU: HIP's AMD headers and CUDA's
// headers both define the vector types (int4, float2, ...) and cannot coexist.
#pragma once

// HIP's headers need to be told the platform; clang -x hip and nvcc set it themselves
// (hip_common.h), other host compilers must. Tessera uses HIP only for AMD (NVIDIA goes
// through CUDA directly), so a plain host compiler gets the AMD platform.
#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__) && \
    !defined(__HIP_PLATFORM_HCC__) && !defined(__HIP_PLATFORM_NVCC__) &&   \
    !defined(__HIP__) && !defined(__CUDACC__)
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"

namespace tessera {

// Same grouping as status_from_cuda. hipErrorOutOfMemory and hipErrorMemoryAllocation
// are one value (2), as are hipErrorInvalidResourceHandle and hipErrorInvalidHandle.
TESSERA_HOST_DEVICE constexpr Status status_from_hip(hipError_t error) {
  switch (error) {
    case hipSuccess:
      return Status::kSuccess;
    case hipErrorOutOfMemory:
      return Status::kErrorOutOfMemory;
    case hipErrorInvalidValue:
      return Status::kErrorInvalidValue;
    case hipErrorInvalidContext:
    case hipErrorContextIsDestroyed:
      return Status::kErrorNoContext;
    case hipErrorNotInitialized:
      return Status::kErrorDriverNotInitialized;
    case hipErrorDeinitialized:
      return Status::kErrorDriverShutDown;
    case hipErrorInvalidDevice:
      return Status::kErrorInvalidDevice;
    case hipErrorInvalidHandle:
      return Status::kErrorInvalidHandle;
    case hipErrorStreamCaptureUnsupported:
    case hipErrorStreamCaptureInvalidated:
    case hipErrorStreamCaptureMerge:
    case hipErrorStreamCaptureUnmatched:
    case hipErrorStreamCaptureUnjoined:
    case hipErrorStreamCaptureIsolation:
    case hipErrorStreamCaptureImplicit:
    case hipErrorCapturedEvent:
    case hipErrorStreamCaptureWrongThread:
      return Status::kErrorStreamCapture;
    case hipErrorNoDevice:
    case hipErrorInsufficientDriver:
      return Status::kErrorNoDevice;
    // The code object has no ISA for this GPU (e.g. built for gfx942, run on gfx950).
    case hipErrorNoBinaryForGpu:
    case hipErrorInvalidDeviceFunction:
      return Status::kErrorWrongArchitecture;
    case hipErrorLaunchOutOfResources:
    case hipErrorInvalidConfiguration:
    case hipErrorCooperativeLaunchTooLarge:
      return Status::kErrorOutOfResources;
    case hipErrorLaunchFailure:
    case hipErrorIllegalAddress:
    case hipErrorAssert:
    case hipErrorLaunchTimeOut:
    case hipErrorMissingConfiguration:
    case hipErrorPriorLaunchFailure:
      return Status::kErrorLaunchFailed;
    default:
      return Status::kErrorRuntime;
  }
}

}  // namespace tessera

// Evaluates expr (a hipError_t) once; if it is not hipSuccess, returns the mapped Status
// from the enclosing function (which must return tessera::Status). For a kernel launch,
// pass hipGetLastError().
#define TESSERA_RETURN_IF_HIP_ERROR(expr)                                \
  do {                                                                   \
    const hipError_t tessera_hip_error_ = (expr);                        \
    if (tessera_hip_error_ != hipSuccess) {                              \
      return ::tessera::status_from_hip(tessera_hip_error_);             \
    }                                                                    \
  } while (0)
