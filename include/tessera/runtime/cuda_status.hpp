// CUDA runtime error codes -> Tessera Status, and a macro that returns early on error.
//
// Only the runtime API header is needed (no nvcc, no GPU, no libcudart at link time:
// nothing here calls the runtime), so a host-only TU compiled by g++ or clang with the
// CUDA include directory can use it.
#pragma once
#include <cuda_runtime_api.h>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"

namespace tessera {

// Groups the codes a caller can act on (no device: skip; wrong architecture: rebuild
// for this GPU; out of resources: pick a smaller configuration; no context, invalid
// device or handle, stream capture: fix the calling thread's CUDA state); everything
// else is kErrorRuntime, and the caller still has the original code for
// cudaGetErrorString. The driver's CUresult codes map the same way (cuda_driver.hpp).
TESSERA_HOST_DEVICE constexpr Status status_from_cuda(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return Status::kSuccess;
    case cudaErrorMemoryAllocation:
      return Status::kErrorOutOfMemory;
    case cudaErrorInvalidValue:
      return Status::kErrorInvalidValue;
    // The thread's context: none current (201 is "invalid device context"), or destroyed.
    case cudaErrorDeviceUninitialized:
    case cudaErrorContextIsDestroyed:
      return Status::kErrorNoContext;
    case cudaErrorCudartUnloading:
      return Status::kErrorDriverShutDown;
    case cudaErrorCallRequiresNewerDriver:
      return Status::kErrorDriverTooOld;
    case cudaErrorInvalidDevice:
      return Status::kErrorInvalidDevice;
    case cudaErrorInvalidResourceHandle:
      return Status::kErrorInvalidHandle;
    case cudaErrorStreamCaptureUnsupported:
    case cudaErrorStreamCaptureInvalidated:
    case cudaErrorStreamCaptureMerge:
    case cudaErrorStreamCaptureUnmatched:
    case cudaErrorStreamCaptureUnjoined:
    case cudaErrorStreamCaptureIsolation:
    case cudaErrorStreamCaptureImplicit:
    case cudaErrorCapturedEvent:
    case cudaErrorStreamCaptureWrongThread:
      return Status::kErrorStreamCapture;
    // A missing or too-old driver (e.g. a container without the GPU mapped in) is
    // what "no device" looks like from the runtime; callers skip in all three cases.
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorDevicesUnavailable:
      return Status::kErrorNoDevice;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      return Status::kErrorWrongArchitecture;
    // Too many registers/threads/shared memory for one block, or a cooperative grid
    // larger than can be co-resident.
    case cudaErrorLaunchOutOfResources:
    case cudaErrorInvalidConfiguration:
    case cudaErrorCooperativeLaunchTooLarge:
      return Status::kErrorOutOfResources;
    // The kernel started (or was about to) and died: faults, traps, timeouts.
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorMissingConfiguration:
    case cudaErrorPriorLaunchFailure:
      return Status::kErrorLaunchFailed;
    default:
      return Status::kErrorRuntime;
  }
}

}  // namespace tessera

// Evaluates expr (a cudaError_t) once; if it is not cudaSuccess, returns the mapped
// Status from the enclosing function (which must return tessera::Status). It does not
// clear the runtime's error state: for a kernel launch, pass cudaGetLastError().
#define TESSERA_RETURN_IF_CUDA_ERROR(expr)                               \
  do {                                                                   \
    const cudaError_t tessera_cuda_error_ = (expr);                      \
    if (tessera_cuda_error_ != cudaSuccess) {                            \
      return ::tessera::status_from_cuda(tessera_cuda_error_);           \
    }                                                                    \
  } while (0)
