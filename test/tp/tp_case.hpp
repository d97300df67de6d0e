// What the tensor-parallel GPU test's cases share: the ranks this process drives, device
// buffers, and a failure count that each case adds to (test_tp_gpu.cu runs them). Every
// rank of the layer runs the same cases in the same order with the same data (fixed seeds),
// so each can compute the float64 reference of the whole layer for its own output.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "tessera/tp/communicator.hpp"

namespace tessera::test::tp_case {

struct Ranks {
  std::vector<tessera::tp::Communicator*> comms;  // the ranks this process drives
  std::vector<cudaStream_t> streams;              // one caller stream per rank
  int size() const { return int(comms.size()); }
};

// A device buffer of `count` T on `device`, with `slack` more elements (so that a mutant
// writing past the end corrupts a guard rather than another allocation).
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  int device = 0;
  DeviceBuffer(int dev, std::size_t n, std::size_t slack = 0) : count(n), device(dev) {
    tessera::tp::DeviceScope s(dev);
    if (cudaMalloc(&ptr, (n + slack) * sizeof(T) + 16) != cudaSuccess) ptr = nullptr;
  }
  ~DeviceBuffer() {
    tessera::tp::DeviceScope s(device);
    cudaFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void upload(const std::vector<T>& h) {
    tessera::tp::DeviceScope s(device);
    cudaMemcpy(ptr, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  std::vector<T> download(std::size_t n) const;
};

// n elements of type T at p, on `device`, to the host.
template <class T>
std::vector<T> download(int device, const void* p, std::size_t n) {
  tessera::tp::DeviceScope s(device);
  std::vector<T> h(n);
  cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

template <class T>
std::vector<T> DeviceBuffer<T>::download(std::size_t n) const {
  return tp_case::download<T>(device, ptr, n);
}

// Failures of this process's ranks; `fail` prints one line per failed check.
inline int& failures() {
  static int n = 0;
  return n;
}
#define TP_CHECK(cond, ...)                                             \
  do {                                                                  \
    if (!(cond)) {                                                      \
      ++::tessera::test::tp_case::failures();                           \
      std::printf("FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
      std::printf(__VA_ARGS__);                                         \
      std::printf("\n");                                                \
    }                                                                   \
  } while (0)

// The cases (one translation unit each, one GEMM configuration each).
void all_gather_gemm_cases(Ranks& ranks);
void gemm_reduce_scatter_cases(Ranks& ranks);

}  // namespace tessera::test::tp_case
