// The CUDA driver API without linking libcuda: driver functions are reached through the
// runtime's entry-point query (cudaGetDriverEntryPointByVersion), and their CUresult codes
// map to Status the way the runtime's codes do (cuda_status.hpp).
//
// Only the API headers are needed to compile this; status_from_cu calls nothing, so a
// host-only TU can test it. A driver call needs a context current on the calling thread
// (most of them; the runtime's calls bind one themselves): see context.hpp.
#pragma once
#include <cuda.h>  // CUresult and the driver's types (the functions are called through pointers)
#include <cuda_runtime_api.h>

#include <atomic>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"
#include "tessera/runtime/cuda_status.hpp"

namespace tessera {

// The same groups as status_from_cuda, for the driver's codes: a failed tensor-map encode
// on a thread with no context says kErrorNoContext, not "invalid value".
TESSERA_HOST_DEVICE constexpr Status status_from_cu(CUresult result) {
  switch (result) {
    case CUDA_SUCCESS:
      return Status::kSuccess;
    case CUDA_ERROR_INVALID_VALUE:
      return Status::kErrorInvalidValue;
    case CUDA_ERROR_OUT_OF_MEMORY:
      return Status::kErrorOutOfMemory;
    case CUDA_ERROR_INVALID_CONTEXT:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
      return Status::kErrorNoContext;
    case CUDA_ERROR_NOT_INITIALIZED:
      return Status::kErrorDriverNotInitialized;
    case CUDA_ERROR_DEINITIALIZED:
      return Status::kErrorDriverShutDown;
    case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER:
      return Status::kErrorDriverTooOld;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_STUB_LIBRARY:
    case CUDA_ERROR_DEVICE_UNAVAILABLE:
      return Status::kErrorNoDevice;
    case CUDA_ERROR_INVALID_DEVICE:
      return Status::kErrorInvalidDevice;
    case CUDA_ERROR_INVALID_HANDLE:
      return Status::kErrorInvalidHandle;
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
      return Status::kErrorWrongArchitecture;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
      return Status::kErrorOutOfResources;
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
      return Status::kErrorLaunchFailed;
    case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED:
    case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:
    case CUDA_ERROR_STREAM_CAPTURE_MERGE:
    case CUDA_ERROR_STREAM_CAPTURE_UNMATCHED:
    case CUDA_ERROR_STREAM_CAPTURE_UNJOINED:
    case CUDA_ERROR_STREAM_CAPTURE_ISOLATION:
    case CUDA_ERROR_STREAM_CAPTURE_IMPLICIT:
    case CUDA_ERROR_CAPTURED_EVENT:
    case CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD:
      return Status::kErrorStreamCapture;
    default:
      return Status::kErrorRuntime;
  }
}

// One driver function, looked up on first use and kept. The pointer is the same for every
// device, context and thread of the process, so one slot serves all; threads that race on
// the first lookup all store the same pointer. A failed lookup is not kept (the next call
// asks again). Constant-initialised: a function-local static costs no guard.
//
//   using Encode = CUresult (*)(CUtensorMap*, ...);
//   static DriverFunction<Encode> encode{"cuTensorMapEncodeTiled", 12000};
//   Encode fn;
//   const Status s = encode.get(&fn);
template <class Fn>
class DriverFunction {
 public:
  // `version`: the CUDA version (major * 1000 + minor * 10) whose signature Fn spells.
  constexpr DriverFunction(const char* symbol, unsigned version) : symbol_(symbol), version_(version) {}

  Status get(Fn* out) {
    void* fn = fn_.load(std::memory_order_acquire);
    if (fn == nullptr) {
      cudaDriverEntryPointQueryResult found{};
      const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol_, &fn, version_, cudaEnableDefault, &found);
      if (e != cudaSuccess) return status_from_cuda(e);
      if (found != cudaDriverEntryPointSuccess || fn == nullptr) return Status::kErrorDriverTooOld;
      fn_.store(fn, std::memory_order_release);
    }
    *out = reinterpret_cast<Fn>(fn);
    return Status::kSuccess;
  }

 private:
  const char* symbol_;
  unsigned version_;
  std::atomic<void*> fn_{nullptr};
};

}  // namespace tessera
