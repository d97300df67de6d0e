// What the tensor-parallel GPU test's cases share: the ranks this process drives, device
// buffers, and a failure count that each case adds to (test_tp_gpu.cu runs them). Every
// rank of the layer runs the same cases in the same order with the same data (fixed seeds),
// so each can compute the float64 reference of the whole layer for its own output.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <memory>
#include <vector>

#include "reference_gemm.hpp"
#include "tessera/tp/communicator.hpp"

namespace tessera::test::tp_case {

using tessera::Status;

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

// Runs Op (tp::AllGatherGemm<...> or tp::GemmReduceScatter<...>) once over this process's
// ranks and waits for every stream; each rank's Status.
template <class Op>
std::vector<Status> run_calls(Ranks& R, std::vector<typename Op::Call>& calls, tessera::tp::Options o) {
  Op::run(calls.data(), int(calls.size()), o);
  std::vector<Status> s;
  for (int i = 0; i < R.size(); ++i) {
    tessera::tp::DeviceScope scope(R.comms[std::size_t(i)]->device());
    cudaStreamSynchronize(R.streams[std::size_t(i)]);
    s.push_back(calls[std::size_t(i)].status);
  }
  return s;
}

// One refused call: what is wrong, on which rank (-1: all), the Status that rank must return,
// and the Status every other rank must return.
struct Refusal {
  const char* what;
  int rank;
  Status own, others;
  bool applies_to(int r) const { return rank < 0 || rank == r; }
};

// Rank r's verdict on refusal k: the Status it returned, and its D still all poison (nothing
// launched).
template <class T>
void check_refused(const Refusal& k, int r, Status got, const std::vector<T>& D) {
  const Status want = k.applies_to(r) ? k.own : k.others;
  TP_CHECK(got == want, "%s: rank %d returned %s, not %s", k.what, r, status_name(got), status_name(want));
  bool untouched = true;
  for (T x : D) untouched = untouched && is_poison(x);
  TP_CHECK(untouched, "%s: rank %d wrote D although the call was refused", k.what, r);
}

// D of n elements, all poison (what no kernel writes: unwritten elements stay visible).
template <class T>
void poison_device(DeviceBuffer<T>& d, std::size_t n) {
  std::vector<T> poisoned(n);
  poison(poisoned);
  d.upload(poisoned);
}

// explain() of the first call (printed once per process) must name the path the rule takes.
template <class Op>
void check_explained(const typename Op::Call& c, std::int64_t M, tessera::tp::Mode mode) {
  const std::string why = Op::explain(c, {mode});
  std::printf("  %s\n", why.c_str());
  const char* path = tessera::tp::mode_name(tessera::tp::ModeRule::choose(M, c.comm->size(), mode).mode);
  TP_CHECK(why.find(path) != std::string::npos, "explain() names another path than %s: %s", path, why.c_str());
}

// Runs the calls three times. Run 0: every call succeeds and check_first(i, D) judges local
// rank i's D (download(i)) against the reference; runs 1 and 2 must give the same bits.
template <class Op, class Download, class CheckFirst>
void run_three_times(Ranks& R, std::vector<typename Op::Call>& calls, tessera::tp::Mode mode, Download download,
                     CheckFirst check_first) {
  std::vector<decltype(download(0))> first(calls.size());
  for (int run_index = 0; run_index < 3; ++run_index) {
    const std::vector<Status> s = run_calls<Op>(R, calls, {mode});
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const int rank = calls[i].comm->rank();
      TP_CHECK(ok(s[i]), "rank %d, run %d: %s", rank, run_index, status_name(s[i]));
      const auto D = download(i);
      if (run_index == 0) {
        check_first(i, D);
        first[i] = D;
      } else {
        TP_CHECK(std::memcmp(first[i].data(), D.data(), D.size() * sizeof(D[0])) == 0,
                 "rank %d: run %d's D differs from run 0's bits", rank, run_index);
      }
    }
  }
}

// The cases (one translation unit each, one GEMM configuration each).
void all_gather_gemm_cases(Ranks& ranks);
void gemm_reduce_scatter_cases(Ranks& ranks);

}  // namespace tessera::test::tp_case
