// The decode floor of tessera_bench: a plain streaming read of a weight matrix's bytes
// with 16-byte loads from every SM, timed like any benchmark (L2 flushed first). A GEMM
// with a handful of rows must read all the weights once, so no decode GEMM can beat the
// time of this read; each decode benchmark reports the fraction of its bandwidth it
// reaches (GemmProblem::add_counters).
//
// The kernel adds up the 32-bit words it reads (one 64-bit sum per block), so that the
// loads cannot be optimised away and the check can prove that every byte was read: the
// sum must equal the host's over the same bytes. CUDA only.
#pragma once

#if defined(TESSERA_CUDA)
#include "bench_harness.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

constexpr int kFloorThreads = 256;
constexpr int kFloorUnroll = 4;  // loads in flight per thread before their sum is needed

__device__ __forceinline__ unsigned long long word_sum(const uint4& v) {
  return (unsigned long long)v.x + v.y + v.z + v.w;
}

__global__ void __launch_bounds__(kFloorThreads)
    stream_read_kernel(const uint4* __restrict__ data, std::size_t count, unsigned long long* __restrict__ block_sums) {
  const std::size_t stride = std::size_t(gridDim.x) * kFloorThreads;
  std::size_t i = std::size_t(blockIdx.x) * kFloorThreads + threadIdx.x;
  unsigned long long sum = 0;
  for (; i + (kFloorUnroll - 1) * stride < count; i += kFloorUnroll * stride) {
    uint4 v[kFloorUnroll];
#pragma unroll
    for (int u = 0; u < kFloorUnroll; ++u) v[u] = data[i + u * stride];
#pragma unroll
    for (int u = 0; u < kFloorUnroll; ++u) sum += word_sum(v[u]);
  }
  for (; i < count; i += stride) sum += word_sum(data[i]);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ unsigned long long warp_sums[kFloorThreads / 32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long block = 0;
    for (int w = 0; w < kFloorThreads / 32; ++w) block += warp_sums[w];
    block_sums[blockIdx.x] = block;
  }
}

// The host's sum of the same 32-bit words (little-endian, as the GPU reads them).
inline std::uint64_t host_word_sum(const void* bytes, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i + 4 <= n; i += 4) {
    std::uint32_t w;
    std::memcpy(&w, p + i, 4);
    sum += w;
  }
  return sum;
}

struct StreamFloor {
  const uint4* data = nullptr;
  std::size_t count = 0;  // 16-byte words
  unsigned blocks = 0;
  DeviceBuffer<unsigned long long> block_sums;

  // Every SM full (2048 threads each on sm_90), but no block without a word to read.
  Error init(const void* device_bytes, std::size_t bytes) {
    if (bytes == 0 || bytes % 16 != 0 || reinterpret_cast<std::uintptr_t>(device_bytes) % 16 != 0) {
      return "floor: the weights are not a whole number of 16-byte words on a 16-byte boundary";
    }
    data = static_cast<const uint4*>(device_bytes);
    count = bytes / 16;
    const std::size_t full = std::size_t(g_dev.prop.multiProcessorCount) *
                             std::size_t(std::max(g_dev.prop.maxThreadsPerMultiProcessor / kFloorThreads, 1));
    blocks = unsigned(std::min(full, (count + kFloorThreads - 1) / kFloorThreads));
    return block_sums.allocate(blocks);
  }

  Error launch() const {
    stream_read_kernel<<<blocks, kFloorThreads, 0, g_dev.stream>>>(data, count, block_sums.ptr);
    BENCH_GPU(gpu::get_last_error());
    return {};
  }

  // One read, then its sum against the host's (`expected`, host_word_sum of the bytes).
  Error check(std::uint64_t expected) {
    BENCH_TRY(block_sums.from_host(std::vector<unsigned long long>(blocks, 0xdeadbeefull)));
    BENCH_TRY(launch());
    std::vector<unsigned long long> sums;
    BENCH_TRY(block_sums.to_host(sums));
    std::uint64_t total = 0;
    for (unsigned long long s : sums) total += s;
    if (total != expected) {
      return "CHECK FAILED: the floor's streaming read summed to " + std::to_string(total) + ", the host's sum of " +
             "the same bytes is " + std::to_string(expected) + ": it did not read every byte once";
    }
    return {};
  }

  // The floor of `bytes` bytes at `device` (`host` holds the same bytes): set up, checked that it
  // read every byte once, then timed, median of 30 reads, into `seconds` (0 where it failed).
  Error measure(const void* device, const void* host, std::size_t bytes, double& seconds) {
    Error e = [&]() -> Error {
      BENCH_TRY(init(device, bytes));
      BENCH_TRY(check(host_word_sum(host, bytes)));
      return median_seconds(30, [&] { return launch(); }, seconds);
    }();
    if (!e.empty()) seconds = 0.0;
    return e;
  }
};

}  // namespace
#endif  // TESSERA_CUDA
