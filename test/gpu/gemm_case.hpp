// One GPU GEMM check: random inputs, poisoned outputs (and a poisoned guard region past
// every buffer, and on both sides of the workspace), the kernel, then the float64
// reference, element by element. The host
// half (shape, operands, reference, output checks) is test/support/gemm_case_host.hpp,
// shared with the wave emulator's suite.
#pragma once
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "gemm_case_host.hpp"
#include "tessera/gemm/gemm.hpp"  // the family header is included by the test first

namespace tessera::test {

#define REQUIRE_CUDA(call)                                                              \
  do {                                                                                  \
    const cudaError_t err_ = (call);                                                    \
    INFO(#call << ": " << cudaGetErrorString(err_));                                    \
    REQUIRE(err_ == cudaSuccess);                                                       \
  } while (0)

// Device copy of a host vector, with kGuard poisoned elements after it.
template <class T>
struct DeviceBuffer {
  static constexpr std::size_t kGuard = 64;
  T* ptr = nullptr;
  std::size_t size = 0;
  explicit DeviceBuffer(const std::vector<T>& host) : size(host.size()) {
    std::vector<T> with_guard(host);
    with_guard.resize(size + kGuard, poison_value<T>());
    REQUIRE_CUDA(cudaMalloc(&ptr, with_guard.size() * sizeof(T)));
    REQUIRE_CUDA(cudaMemcpy(ptr, with_guard.data(), with_guard.size() * sizeof(T),
                            cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  // The buffer and its guard, back on the host.
  std::vector<T> download_with_guard() const {
    std::vector<T> h(size + kGuard);
    REQUIRE_CUDA(cudaMemcpy(h.data(), ptr, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// Called with the device Arguments and the workspace (nullptr or workspace_size bytes)
// before the run, e.g. to check which path the call takes.
struct NoArgsCheck {
  template <class Args>
  void operator()(const Args&, const void*) const {}
};

// `epilogue`: for a configuration with its own epilogue, its arguments and the expected D.
template <class Config, class ArgsCheck = NoArgsCheck>
void check_gemm(const CaseShape& s, ArgsCheck&& args_check = {}, EpilogueCase<Config> epilogue = {}) {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using ED = typename Config::ElementD;
  const std::uint64_t seed = fresh_seed();
  INFO(describe_case<Config>(s, seed));
  const HostCase<Config> host(s, seed, std::move(epilogue));

  DeviceBuffer<EA> da(host.a);
  DeviceBuffer<EB> db(host.b);
  DeviceBuffer<EC> dc(host.c);
  DeviceBuffer<ED> dd(host.d);
  const typename HostCase<Config>::Args args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr);
  const std::size_t workspace_bytes = s.workspace ? gemm::Gemm<Config>::workspace_size(args) : 0;
  INFO("workspace bytes " << workspace_bytes);
  if (s.must_split) REQUIRE(workspace_bytes > 0);
  // The workspace with a guard on each side as large as itself (4 KiB at least, whole KiB
  // so that it keeps cudaMalloc's alignment), all 0xff bytes (NaN: every byte the kernels
  // read must be written first): a slice written at a wrong offset lands in a guard.
  void* workspace = nullptr;
  char* allocation = nullptr;
  const std::size_t guard = workspace_bytes > 4096 ? (workspace_bytes + 1023) / 1024 * 1024 : 4096;
  if (workspace_bytes > 0) {
    REQUIRE_CUDA(cudaMalloc(&allocation, workspace_bytes + 2 * guard));
    REQUIRE_CUDA(cudaMemset(allocation, 0xff, workspace_bytes + 2 * guard));
    workspace = allocation + guard;
  }
  args_check(args, workspace);
  const Status st = gemm::Gemm<Config>::run(args, workspace);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  if (allocation != nullptr) {
    std::vector<unsigned char> before(guard), after(guard);
    REQUIRE_CUDA(cudaMemcpy(before.data(), allocation, guard, cudaMemcpyDeviceToHost));
    REQUIRE_CUDA(cudaMemcpy(after.data(), allocation + guard + workspace_bytes, guard, cudaMemcpyDeviceToHost));
    std::size_t guard_writes = 0;
    for (std::size_t i = 0; i < guard; ++i) guard_writes += (before[i] != 0xff) + (after[i] != 0xff);
    CHECK(guard_writes == 0);  // bytes of the guards around the workspace that changed
    REQUIRE_CUDA(cudaFree(allocation));
  }

  // The result against the float64 reference (same offsets and leading dimensions), and
  // nothing outside the M x N matrix changed: the padding (when D was poisoned), the
  // element before an offset D and the guard after the allocation.
  CaseOutcome r;
  if constexpr (std::is_same_v<EC, ED>) {
    r = host.check_output((s.in_place ? dc : dd).download_with_guard(), DeviceBuffer<ED>::kGuard);
  } else {
    r = host.check_output(dd.download_with_guard(), DeviceBuffer<ED>::kGuard);
  }
  CHECK_CASE_OUTCOME(s, r);
}

}  // namespace tessera::test
