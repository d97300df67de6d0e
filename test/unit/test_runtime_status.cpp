// status_from_cuda / status_from_hip / status_from_cu (the driver's CUresult) and the
// early-return macros. No GPU and no runtime library are involved: the codes are mapped,
// never produced by a call.
//
// CUDA's and HIP's API headers cannot share a TU, so test/CMakeLists.txt compiles this
// file twice into the one executable: once as is (the CUDA half) and once with
// TESSERA_TEST_HIP_STATUS defined (the HIP half, g++ with the Debian HIP headers; the
// AMD platform macro comes from hip_status.hpp). A half whose header is missing on this
// machine registers a test that says it was skipped rather than failing the build.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tessera/core/status.hpp"

// Failures print "kErrorOutOfMemory", not "21" (both halves of this file include it).
#include "status_string.hpp"

#if defined(TESSERA_TEST_HIP_STATUS)

#if __has_include(<hip/hip_runtime_api.h>)
#include "tessera/runtime/hip_status.hpp"

using namespace tessera;

static_assert(status_from_hip(hipSuccess) == Status::kSuccess, "usable in constant expressions");

TEST_CASE("status_from_hip maps each documented code", "[runtime][hip]") {
  struct Row {
    hipError_t code;
    Status status;
  };
  const std::vector<Row> rows = {
      {hipSuccess, Status::kSuccess},
      {hipErrorOutOfMemory, Status::kErrorOutOfMemory},
      {hipErrorMemoryAllocation, Status::kErrorOutOfMemory},
      {hipErrorInvalidValue, Status::kErrorInvalidValue},
      {hipErrorNoDevice, Status::kErrorNoDevice},
      {hipErrorInsufficientDriver, Status::kErrorNoDevice},
      {hipErrorNoBinaryForGpu, Status::kErrorWrongArchitecture},
      {hipErrorInvalidDeviceFunction, Status::kErrorWrongArchitecture},
      {hipErrorLaunchOutOfResources, Status::kErrorOutOfResources},
      {hipErrorInvalidConfiguration, Status::kErrorOutOfResources},
      {hipErrorCooperativeLaunchTooLarge, Status::kErrorOutOfResources},
      {hipErrorLaunchFailure, Status::kErrorLaunchFailed},
      {hipErrorIllegalAddress, Status::kErrorLaunchFailed},
      {hipErrorAssert, Status::kErrorLaunchFailed},
      {hipErrorLaunchTimeOut, Status::kErrorLaunchFailed},
      {hipErrorPriorLaunchFailure, Status::kErrorLaunchFailed},
      {hipErrorInvalidContext, Status::kErrorNoContext},
      {hipErrorContextIsDestroyed, Status::kErrorNoContext},
      {hipErrorNotInitialized, Status::kErrorDriverNotInitialized},
      {hipErrorDeinitialized, Status::kErrorDriverShutDown},
      {hipErrorInvalidDevice, Status::kErrorInvalidDevice},
      {hipErrorInvalidHandle, Status::kErrorInvalidHandle},
      {hipErrorStreamCaptureUnsupported, Status::kErrorStreamCapture},
      {hipErrorStreamCaptureInvalidated, Status::kErrorStreamCapture},
      {hipErrorStreamCaptureImplicit, Status::kErrorStreamCapture},
      {hipErrorStreamCaptureWrongThread, Status::kErrorStreamCapture},
      {hipErrorNotReady, Status::kErrorRuntime},
      {hipErrorNotSupported, Status::kErrorRuntime},
      {hipErrorUnknown, Status::kErrorRuntime},
  };
  for (const Row& row : rows) {
    INFO("hipError_t " << static_cast<int>(row.code) << " -> " << status_name(row.status));
    CHECK(status_from_hip(row.code) == row.status);
  }
}

TEST_CASE("status_from_hip: only hipSuccess is success", "[runtime][hip]") {
  for (int code = 0; code <= 1100; ++code) {
    const Status s = status_from_hip(static_cast<hipError_t>(code));
    INFO("hipError_t " << code);
    CHECK(ok(s) == (code == static_cast<int>(hipSuccess)));
    CHECK(static_cast<int>(s) <= static_cast<int>(Status::kErrorRuntime));
  }
}

static Status hip_steps(const std::vector<hipError_t>& steps, int& evaluated) {
  for (hipError_t e : steps) {
    TESSERA_RETURN_IF_HIP_ERROR((++evaluated, e));
  }
  return Status::kSuccess;
}

TEST_CASE("TESSERA_RETURN_IF_HIP_ERROR returns the mapped Status at the first error",
          "[runtime][hip]") {
  int evaluated = 0;
  CHECK(hip_steps({hipSuccess, hipSuccess}, evaluated) == Status::kSuccess);
  CHECK(evaluated == 2);
  evaluated = 0;
  CHECK(hip_steps({hipSuccess, hipErrorNoBinaryForGpu, hipErrorOutOfMemory}, evaluated) ==
        Status::kErrorWrongArchitecture);
  CHECK(evaluated == 2);  // expr evaluated once per use, and nothing after the error
}

#else
TEST_CASE("HIP status mapping: skipped, <hip/hip_runtime_api.h> not found", "[runtime][hip]") {
  WARN("HIP headers not found on this machine: status_from_hip not tested here");
}
#endif  // __has_include(<hip/hip_runtime_api.h>)

#else  // the CUDA half

#if __has_include(<cuda_runtime_api.h>)
#include "tessera/runtime/cuda_status.hpp"

using namespace tessera;

static_assert(status_from_cuda(cudaSuccess) == Status::kSuccess, "usable in constant expressions");
static_assert(status_from_cuda(cudaErrorNoKernelImageForDevice) == Status::kErrorWrongArchitecture,
              "");

TEST_CASE("status_from_cuda maps each documented code", "[runtime][cuda]") {
  struct Row {
    cudaError_t code;
    Status status;
  };
  const std::vector<Row> rows = {
      {cudaSuccess, Status::kSuccess},
      {cudaErrorMemoryAllocation, Status::kErrorOutOfMemory},
      {cudaErrorInvalidValue, Status::kErrorInvalidValue},
      {cudaErrorNoDevice, Status::kErrorNoDevice},
      {cudaErrorInsufficientDriver, Status::kErrorNoDevice},
      {cudaErrorStubLibrary, Status::kErrorNoDevice},
      {cudaErrorDevicesUnavailable, Status::kErrorNoDevice},
      {cudaErrorNoKernelImageForDevice, Status::kErrorWrongArchitecture},
      {cudaErrorInvalidDeviceFunction, Status::kErrorWrongArchitecture},
      {cudaErrorLaunchOutOfResources, Status::kErrorOutOfResources},
      {cudaErrorInvalidConfiguration, Status::kErrorOutOfResources},
      {cudaErrorCooperativeLaunchTooLarge, Status::kErrorOutOfResources},
      {cudaErrorLaunchFailure, Status::kErrorLaunchFailed},
      {cudaErrorIllegalAddress, Status::kErrorLaunchFailed},
      {cudaErrorMisalignedAddress, Status::kErrorLaunchFailed},
      {cudaErrorIllegalInstruction, Status::kErrorLaunchFailed},
      {cudaErrorHardwareStackError, Status::kErrorLaunchFailed},
      {cudaErrorAssert, Status::kErrorLaunchFailed},
      {cudaErrorLaunchTimeout, Status::kErrorLaunchFailed},
      {cudaErrorDeviceUninitialized, Status::kErrorNoContext},
      {cudaErrorContextIsDestroyed, Status::kErrorNoContext},
      {cudaErrorCudartUnloading, Status::kErrorDriverShutDown},
      {cudaErrorCallRequiresNewerDriver, Status::kErrorDriverTooOld},
      {cudaErrorInvalidDevice, Status::kErrorInvalidDevice},
      {cudaErrorInvalidResourceHandle, Status::kErrorInvalidHandle},
      {cudaErrorStreamCaptureUnsupported, Status::kErrorStreamCapture},
      {cudaErrorStreamCaptureInvalidated, Status::kErrorStreamCapture},
      {cudaErrorStreamCaptureMerge, Status::kErrorStreamCapture},
      {cudaErrorStreamCaptureUnmatched, Status::kErrorStreamCapture},
      {cudaErrorStreamCaptureUnjoined, Status::kErrorStreamCapture},
      {cudaErrorStreamCaptureIsolation, Status::kErrorStreamCapture},
      {cudaErrorStreamCaptureImplicit, Status::kErrorStreamCapture},
      {cudaErrorCapturedEvent, Status::kErrorStreamCapture},
      {cudaErrorStreamCaptureWrongThread, Status::kErrorStreamCapture},
      {cudaErrorNotReady, Status::kErrorRuntime},
      {cudaErrorNotSupported, Status::kErrorRuntime},
      {cudaErrorInitializationError, Status::kErrorRuntime},
      {cudaErrorUnknown, Status::kErrorRuntime},
  };
  for (const Row& row : rows) {
    INFO("cudaError_t " << static_cast<int>(row.code) << " -> " << status_name(row.status));
    CHECK(status_from_cuda(row.code) == row.status);
  }
}

TEST_CASE("status_from_cuda: only cudaSuccess is success", "[runtime][cuda]") {
  for (int code = 0; code <= 1100; ++code) {
    const Status s = status_from_cuda(static_cast<cudaError_t>(code));
    INFO("cudaError_t " << code);
    CHECK(ok(s) == (code == static_cast<int>(cudaSuccess)));
    CHECK(static_cast<int>(s) <= static_cast<int>(Status::kErrorRuntime));
  }
}

static Status cuda_steps(const std::vector<cudaError_t>& steps, int& evaluated) {
  for (cudaError_t e : steps) {
    TESSERA_RETURN_IF_CUDA_ERROR((++evaluated, e));
  }
  return Status::kSuccess;
}

TEST_CASE("TESSERA_RETURN_IF_CUDA_ERROR returns the mapped Status at the first error",
          "[runtime][cuda]") {
  int evaluated = 0;
  CHECK(cuda_steps({cudaSuccess, cudaSuccess, cudaSuccess}, evaluated) == Status::kSuccess);
  CHECK(evaluated == 3);
  evaluated = 0;
  CHECK(cuda_steps({cudaSuccess, cudaErrorMemoryAllocation, cudaErrorNoDevice}, evaluated) ==
        Status::kErrorOutOfMemory);
  CHECK(evaluated == 2);  // expr evaluated once per use, and nothing after the error
  CHECK(std::string(status_name(status_from_cuda(cudaErrorLaunchOutOfResources))) ==
        "kErrorOutOfResources");
}

// The driver's codes (cuda_driver.hpp): what a failed driver call, e.g. a tensor-map encode
// on a thread with no context, reports.
#if __has_include(<cuda.h>)
#include "tessera/runtime/cuda_driver.hpp"

static_assert(status_from_cu(CUDA_SUCCESS) == Status::kSuccess, "usable in constant expressions");
static_assert(status_from_cu(CUDA_ERROR_INVALID_CONTEXT) == Status::kErrorNoContext, "");

TEST_CASE("status_from_cu maps each documented driver code", "[runtime][cuda][driver]") {
  struct Row {
    CUresult code;
    Status status;
  };
  const std::vector<Row> rows = {
      {CUDA_SUCCESS, Status::kSuccess},
      {CUDA_ERROR_INVALID_VALUE, Status::kErrorInvalidValue},
      {CUDA_ERROR_OUT_OF_MEMORY, Status::kErrorOutOfMemory},
      {CUDA_ERROR_INVALID_CONTEXT, Status::kErrorNoContext},
      {CUDA_ERROR_CONTEXT_IS_DESTROYED, Status::kErrorNoContext},
      {CUDA_ERROR_NOT_INITIALIZED, Status::kErrorDriverNotInitialized},
      {CUDA_ERROR_DEINITIALIZED, Status::kErrorDriverShutDown},
      {CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, Status::kErrorDriverTooOld},
      {CUDA_ERROR_NO_DEVICE, Status::kErrorNoDevice},
      {CUDA_ERROR_STUB_LIBRARY, Status::kErrorNoDevice},
      {CUDA_ERROR_DEVICE_UNAVAILABLE, Status::kErrorNoDevice},
      {CUDA_ERROR_INVALID_DEVICE, Status::kErrorInvalidDevice},
      {CUDA_ERROR_INVALID_HANDLE, Status::kErrorInvalidHandle},
      {CUDA_ERROR_NO_BINARY_FOR_GPU, Status::kErrorWrongArchitecture},
      {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, Status::kErrorOutOfResources},
      {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, Status::kErrorOutOfResources},
      {CUDA_ERROR_LAUNCH_FAILED, Status::kErrorLaunchFailed},
      {CUDA_ERROR_ILLEGAL_ADDRESS, Status::kErrorLaunchFailed},
      {CUDA_ERROR_MISALIGNED_ADDRESS, Status::kErrorLaunchFailed},
      {CUDA_ERROR_ILLEGAL_INSTRUCTION, Status::kErrorLaunchFailed},
      {CUDA_ERROR_HARDWARE_STACK_ERROR, Status::kErrorLaunchFailed},
      {CUDA_ERROR_ASSERT, Status::kErrorLaunchFailed},
      {CUDA_ERROR_LAUNCH_TIMEOUT, Status::kErrorLaunchFailed},
      {CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, Status::kErrorStreamCapture},
      {CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, Status::kErrorStreamCapture},
      {CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, Status::kErrorStreamCapture},
      {CUDA_ERROR_CAPTURED_EVENT, Status::kErrorStreamCapture},
      {CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, Status::kErrorStreamCapture},
      {CUDA_ERROR_NOT_READY, Status::kErrorRuntime},
      {CUDA_ERROR_NOT_SUPPORTED, Status::kErrorRuntime},
      {CUDA_ERROR_NOT_FOUND, Status::kErrorRuntime},
      {CUDA_ERROR_UNKNOWN, Status::kErrorRuntime},
  };
  for (const Row& row : rows) {
    INFO("CUresult " << static_cast<int>(row.code) << " -> " << status_name(row.status));
    CHECK(status_from_cu(row.code) == row.status);
  }
}

TEST_CASE("status_from_cu: only CUDA_SUCCESS is success", "[runtime][cuda][driver]") {
  for (int code = 0; code <= 1100; ++code) {
    const Status s = status_from_cu(static_cast<CUresult>(code));
    INFO("CUresult " << code);
    CHECK(ok(s) == (code == static_cast<int>(CUDA_SUCCESS)));
    CHECK(static_cast<int>(s) <= static_cast<int>(Status::kErrorRuntime));
  }
}

// The runtime and the driver agree where both have a code for the same problem.
TEST_CASE("status_from_cu and status_from_cuda agree on shared meanings", "[runtime][cuda][driver]") {
  CHECK(status_from_cu(CUDA_ERROR_INVALID_CONTEXT) == status_from_cuda(cudaErrorDeviceUninitialized));
  CHECK(status_from_cu(CUDA_ERROR_INVALID_DEVICE) == status_from_cuda(cudaErrorInvalidDevice));
  CHECK(status_from_cu(CUDA_ERROR_INVALID_HANDLE) == status_from_cuda(cudaErrorInvalidResourceHandle));
  CHECK(status_from_cu(CUDA_ERROR_DEINITIALIZED) == status_from_cuda(cudaErrorCudartUnloading));
  CHECK(status_from_cu(CUDA_ERROR_OUT_OF_MEMORY) == status_from_cuda(cudaErrorMemoryAllocation));
}
#else
TEST_CASE("CUDA driver status mapping: skipped, <cuda.h> not found", "[runtime][cuda][driver]") {
  WARN("CUDA driver header not found on this machine: status_from_cu not tested here");
}
#endif  // __has_include(<cuda.h>)

#else
TEST_CASE("CUDA status mapping: skipped, <cuda_runtime_api.h> not found", "[runtime][cuda]") {
  WARN("CUDA runtime headers not found on this machine: status_from_cuda not tested here");
}
#endif  // __has_include(<cuda_runtime_api.h>)

#endif  // TESSERA_TEST_HIP_STATUS
