// Catch2 main for the GPU tests: exits 77 (ctest: skipped) when no CUDA device exists,
// so a machine without a GPU reports these tests as skipped, never as passed. A test
// executable built with -DTESSERA_GPU_TEST_REQUIRES_CC=90 also skips on any other
// compute capability (the wgmma family runs only on sm_90).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device (%s)\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return 77;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    std::printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor,
                prop.multiProcessorCount);
#if defined(TESSERA_GPU_TEST_REQUIRES_CC)
    if (prop.major * 10 + prop.minor != TESSERA_GPU_TEST_REQUIRES_CC) {
      std::printf("SKIPPED: these tests need compute capability %d\n", TESSERA_GPU_TEST_REQUIRES_CC);
      return 77;
    }
#endif
  }
  return Catch::Session().run(argc, argv);
}
