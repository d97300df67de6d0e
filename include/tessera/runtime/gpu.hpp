// The GPU runtime calls that examples, tests and benchmarks make, spelled once for CUDA
// (nvcc) and for HIP (clang -x hip), so that one source builds for both vendors:
//
//   #include "tessera/runtime/gpu.hpp"
//   float* d = nullptr;
//   TESSERA_GPU_CHECK(tessera::gpu::malloc_elements(&d, n));   // prints and exits on error
//
// Memory, copies, streams, events, device properties and error text on the host; thread
// and block indices and a clock in kernels. The library's kernels do not use it (they
// need no runtime calls); the vendor BLAS (cuBLAS / rocBLAS) is not here: the two APIs
// differ in more than their spelling.
//
// Device code under HIP must not reach ockl (the HIP build uses -nogpulib, and Debian's
// device libraries lack gfx942/gfx950), so the indices come from the amdgcn builtins,
// never from threadIdx/blockIdx/blockDim/gridDim, which HIP implements through ockl.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tessera/core/macros.hpp"

#if defined(TESSERA_HIP)
#include <hip/hip_runtime.h>
#elif defined(TESSERA_CUDA)
#include <cuda_runtime.h>
#else
#error "tessera/runtime/gpu.hpp: compile with nvcc (CUDA) or clang -x hip (HIP)"
#endif

namespace tessera {
namespace gpu {

#if defined(TESSERA_HIP)

// ---- HIP ---------------------------------------------------------------------------------

inline constexpr const char* kRuntimeName = "HIP";
using error_t = hipError_t;
using stream_t = hipStream_t;
using event_t = hipEvent_t;
using device_prop_t = hipDeviceProp_t;
inline constexpr error_t kSuccess = hipSuccess;

inline const char* error_name(error_t e) { return hipGetErrorName(e); }
inline const char* error_string(error_t e) { return hipGetErrorString(e); }
inline error_t get_last_error() { return hipGetLastError(); }

inline error_t get_device_count(int* n) { return hipGetDeviceCount(n); }
inline error_t set_device(int d) { return hipSetDevice(d); }
inline error_t get_device_properties(device_prop_t* p, int d) { return hipGetDeviceProperties(p, d); }
inline error_t sm_clock_khz(int* v, int d) {
  return hipDeviceGetAttribute(v, hipDeviceAttributeClockRate, d);
}
inline error_t mem_clock_khz(int* v, int d) {
  return hipDeviceGetAttribute(v, hipDeviceAttributeMemoryClockRate, d);
}
inline error_t mem_bus_bits(int* v, int d) {
  return hipDeviceGetAttribute(v, hipDeviceAttributeMemoryBusWidth, d);
}
inline error_t driver_version(int* v) { return hipDriverGetVersion(v); }
inline error_t runtime_version(int* v) { return hipRuntimeGetVersion(v); }

inline error_t malloc_bytes(void** p, std::size_t bytes) { return hipMalloc(p, bytes); }
inline error_t free_bytes(void* p) { return hipFree(p); }
inline error_t memset_async(void* p, int value, std::size_t bytes, stream_t s) {
  return hipMemsetAsync(p, value, bytes, s);
}
inline error_t copy_to_host_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
  return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToHost, s);
}
inline error_t copy_to_host(void* dst, const void* src, std::size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost);
}
inline error_t copy_to_device(void* dst, const void* src, std::size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice);
}
inline error_t memset_bytes(void* p, int value, std::size_t bytes) { return hipMemset(p, value, bytes); }
inline error_t device_synchronize() { return hipDeviceSynchronize(); }

// Non-blocking: the harness's stream must not serialise with the legacy default stream.
inline error_t stream_create(stream_t* s) { return hipStreamCreateWithFlags(s, hipStreamNonBlocking); }
inline error_t stream_synchronize(stream_t s) { return hipStreamSynchronize(s); }
inline error_t stream_destroy(stream_t s) { return hipStreamDestroy(s); }

inline error_t event_create(event_t* e) { return hipEventCreate(e); }
inline error_t event_record(event_t e, stream_t s) { return hipEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return hipEventSynchronize(e); }
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return hipEventElapsedTime(ms, start, stop);
}
inline error_t event_destroy(event_t e) { return hipEventDestroy(e); }

// HIP_VERSION style (major * 10^7 + minor * 10^5 + patch) -> "5.2.21153".
inline void format_version(int v, char* out, std::size_t size) {
  std::snprintf(out, size, "%d.%d.%d", v / 10000000, (v / 100000) % 100, v % 100000);
}

__device__ TESSERA_FORCEINLINE unsigned thread_x() { return __builtin_amdgcn_workitem_id_x(); }
__device__ TESSERA_FORCEINLINE unsigned thread_y() { return __builtin_amdgcn_workitem_id_y(); }
__device__ TESSERA_FORCEINLINE unsigned block_x() { return __builtin_amdgcn_workgroup_id_x(); }
__device__ TESSERA_FORCEINLINE unsigned block_y() { return __builtin_amdgcn_workgroup_id_y(); }

// A wall clock for busy-waiting. s_memrealtime counts a constant 100 MHz reference on
// CDNA (gfx9) parts, independent of the shader clock, so one tick is 10 ns; only the
// spin before timing uses it, where an approximate length is all that matters.
__device__ TESSERA_FORCEINLINE std::uint64_t clock_ns() { return __builtin_amdgcn_s_memrealtime() * 10; }

#else

// ---- CUDA --------------------------------------------------------------------------------

inline constexpr const char* kRuntimeName = "CUDA";
using error_t = cudaError_t;
using stream_t = cudaStream_t;
using event_t = cudaEvent_t;
using device_prop_t = cudaDeviceProp;
inline constexpr error_t kSuccess = cudaSuccess;

inline const char* error_name(error_t e) { return cudaGetErrorName(e); }
inline const char* error_string(error_t e) { return cudaGetErrorString(e); }
inline error_t get_last_error() { return cudaGetLastError(); }

inline error_t get_device_count(int* n) { return cudaGetDeviceCount(n); }
inline error_t set_device(int d) { return cudaSetDevice(d); }
inline error_t get_device_properties(device_prop_t* p, int d) { return cudaGetDeviceProperties(p, d); }
inline error_t sm_clock_khz(int* v, int d) {
  return cudaDeviceGetAttribute(v, cudaDevAttrClockRate, d);
}
inline error_t mem_clock_khz(int* v, int d) {
  return cudaDeviceGetAttribute(v, cudaDevAttrMemoryClockRate, d);
}
inline error_t mem_bus_bits(int* v, int d) {
  return cudaDeviceGetAttribute(v, cudaDevAttrGlobalMemoryBusWidth, d);
}
inline error_t driver_version(int* v) { return cudaDriverGetVersion(v); }
inline error_t runtime_version(int* v) { return cudaRuntimeGetVersion(v); }

inline error_t malloc_bytes(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline error_t free_bytes(void* p) { return cudaFree(p); }
inline error_t memset_async(void* p, int value, std::size_t bytes, stream_t s) {
  return cudaMemsetAsync(p, value, bytes, s);
}
inline error_t copy_to_host_async(void* dst, const void* src, std::size_t bytes, stream_t s) {
  return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s);
}
inline error_t copy_to_host(void* dst, const void* src, std::size_t bytes) {
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
}
inline error_t copy_to_device(void* dst, const void* src, std::size_t bytes) {
  return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
}
inline error_t memset_bytes(void* p, int value, std::size_t bytes) { return cudaMemset(p, value, bytes); }
inline error_t device_synchronize() { return cudaDeviceSynchronize(); }

// Non-blocking: the harness's stream must not serialise with the legacy default stream.
inline error_t stream_create(stream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
inline error_t stream_synchronize(stream_t s) { return cudaStreamSynchronize(s); }
inline error_t stream_destroy(stream_t s) { return cudaStreamDestroy(s); }

inline error_t event_create(event_t* e) { return cudaEventCreate(e); }
inline error_t event_record(event_t e, stream_t s) { return cudaEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return cudaEventSynchronize(e); }
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return cudaEventElapsedTime(ms, start, stop);
}
inline error_t event_destroy(event_t e) { return cudaEventDestroy(e); }

// CUDA style (major * 1000 + minor * 10) -> "13.0".
inline void format_version(int v, char* out, std::size_t size) {
  std::snprintf(out, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

__device__ TESSERA_FORCEINLINE unsigned thread_x() { return threadIdx.x; }
__device__ TESSERA_FORCEINLINE unsigned thread_y() { return threadIdx.y; }
__device__ TESSERA_FORCEINLINE unsigned block_x() { return blockIdx.x; }
__device__ TESSERA_FORCEINLINE unsigned block_y() { return blockIdx.y; }

// %globaltimer: the SM's nanosecond wall clock.
__device__ TESSERA_FORCEINLINE std::uint64_t clock_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

#endif

// Prints the failed call, where it was and the runtime's message, then exits(1): for
// examples and tools, where a failed runtime call ends the program.
#define TESSERA_GPU_CHECK(call)                                                              \
  do {                                                                                       \
    const ::tessera::gpu::error_t tessera_gpu_error_ = (call);                               \
    if (tessera_gpu_error_ != ::tessera::gpu::kSuccess) {                                    \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                   ::tessera::gpu::error_string(tessera_gpu_error_));                        \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// Typed allocation on top of the byte-level call (both runtimes' own templates differ).
template <class T>
error_t malloc_elements(T** p, std::size_t count) {
  return malloc_bytes(reinterpret_cast<void**>(p), count * sizeof(T));
}

}  // namespace gpu
}  // namespace tessera
