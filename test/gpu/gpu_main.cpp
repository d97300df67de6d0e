// Catch2 main for the GPU tests: exits 77 (ctest: skipped) when no CUDA device exists,
// so a machine without a GPU reports these tests as skipped, never as passed. A test
// executable linked with gpu_required_cc.cpp built with -DTESSERA_GPU_TEST_REQUIRES_CC=90
// also skips on any other compute capability (the wgmma family runs only on sm_90). This
// file (Catch2's implementation, the slow part) is compiled once for all of them.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>

extern const int tessera_gpu_test_required_cc;  // 0: any compute capability

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
    const int required = tessera_gpu_test_required_cc;
    if (required != 0 && prop.major * 10 + prop.minor != required) {
      std::printf("SKIPPED: these tests need compute capability %d\n", required);
      return 77;
    }
  }
  return Catch::Session().run(argc, argv);
}
