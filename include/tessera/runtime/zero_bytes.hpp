// Zeroing a few bytes of device memory in stream order (before the next launch on `stream`),
// spelled once for CUDA, HIP and the AMD wave emulator. Used for flags a kernel writes only on
// error (problems.status), so that a flag left from an earlier call never reads as this one's.
#pragma once
#include <cstddef>
#include <cstring>

#include "tessera/core/status.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera {

inline Status zero_bytes_async(void* p, std::size_t bytes, Stream stream) {
#if defined(TESSERA_CUDA)
  return status_from_cuda(cudaMemsetAsync(p, 0, bytes, stream));
#elif defined(TESSERA_HIP)
  return status_from_hip(hipMemsetAsync(p, 0, bytes, stream));
#elif defined(TESSERA_AMD_EMULATION)
  // The emulator's device memory is host memory and its launches run when called: a plain
  // store is in stream order.
  (void)stream;
  std::memset(p, 0, bytes);
  return Status::kSuccess;
#else
  (void)p;
  (void)bytes;
  (void)stream;
  return Status::kErrorNoDevice;  // a host build has no device (run() stops before this)
#endif
}

}  // namespace tessera
