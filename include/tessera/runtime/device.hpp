// Facts about the current device that host code plans launches with.
#pragma once

#include "tessera/core/status.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera {

// Multiprocessors (SMs / CUs) of the current device, cached per device id.
inline Status multiprocessor_count(int* count) {
  constexpr int kMaxDevices = 64;
  static int cached[kMaxDevices] = {};
  int device = 0;
#if defined(TESSERA_HIP)
  TESSERA_RETURN_IF_HIP_ERROR(hipGetDevice(&device));
#else
  TESSERA_RETURN_IF_CUDA_ERROR(cudaGetDevice(&device));
#endif
  if (device >= 0 && device < kMaxDevices && cached[device] > 0) {
    *count = cached[device];
    return Status::kSuccess;
  }
  int value = 0;
#if defined(TESSERA_HIP)
  TESSERA_RETURN_IF_HIP_ERROR(
      hipDeviceGetAttribute(&value, hipDeviceAttributeMultiprocessorCount, device));
#else
  TESSERA_RETURN_IF_CUDA_ERROR(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, device));
#endif
  if (device >= 0 && device < kMaxDevices) cached[device] = value;
  *count = value;
  return Status::kSuccess;
}

}  // namespace tessera
