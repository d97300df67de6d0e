// Host/device qualifiers and compiler detection shared by nvcc and clang-HIP.
#pragma once

// Which front end is compiling: clang-HIP defines __HIP__, nvcc defines __CUDACC__.
#if defined(__HIP__)
#define TESSERA_HIP 1
#elif defined(__CUDACC__)
#define TESSERA_CUDA 1
#endif

// AMD semantics: clang-HIP (host and device passes), or a host build that runs AMD
// kernels on the wave emulator (TESSERA_AMD_EMULATION, set by the emulator layer).
// Kernels choose their vendor path with this, not with TESSERA_HIP, so that the same
// code runs emulated.
#if defined(TESSERA_HIP) || defined(TESSERA_AMD_EMULATION)
#define TESSERA_AMD_TARGET 1
#endif

// True only in the device pass (so host-only code paths stay out of kernels).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define TESSERA_DEVICE_PASS 1
#endif

// The device pass for an AMD GPU. clang's HIP host pass defines __AMDGCN__ too (the
// offload target's macro), so that alone does not mean AMD device code.
#if defined(__AMDGCN__) && (defined(__HIP_DEVICE_COMPILE__) || !defined(__HIP__))
#define TESSERA_AMD_DEVICE_PASS 1
#endif

#if defined(TESSERA_HIP) || defined(TESSERA_CUDA)
#define TESSERA_HOST_DEVICE __host__ __device__
#define TESSERA_DEVICE __device__
#define TESSERA_GLOBAL __global__
#else
#define TESSERA_HOST_DEVICE
#define TESSERA_DEVICE
#define TESSERA_GLOBAL
#endif

// Threads per block the kernel is compiled for, and the blocks per SM / CU its register
// use must allow. On AMD that is waves per EU (SIMD): blocks x threads / (64 lanes x 4
// SIMDs), at least 1. (CUDA's __launch_bounds__ comes from the runtime headers, which
// kernels under HIP do not see.)
#if defined(TESSERA_HIP)
#define TESSERA_LAUNCH_BOUNDS(threads, min_blocks)            \
  __attribute__((amdgpu_flat_work_group_size(1, threads),    \
                 amdgpu_waves_per_eu(((min_blocks) * (threads) + 255) / 256)))
#elif defined(TESSERA_CUDA)
#define TESSERA_LAUNCH_BOUNDS(threads, min_blocks) __launch_bounds__(threads, min_blocks)
#else
#define TESSERA_LAUNCH_BOUNDS(threads, min_blocks)
#endif

#if defined(_MSC_VER)
#define TESSERA_FORCEINLINE __forceinline
#else
#define TESSERA_FORCEINLINE inline __attribute__((always_inline))
#endif

// Loop unrolling pragma that both nvcc and clang understand.
#define TESSERA_PRAGMA(x) _Pragma(#x)
#define TESSERA_UNROLL TESSERA_PRAGMA(unroll)
#define TESSERA_NO_UNROLL TESSERA_PRAGMA(unroll 1)
