// Host helpers of tessera_bench's problems that need no GPU (so that host tests can use
// them too): a counter-based hash for reproducible random inputs, scales with few
// significant bits, and the parallel loops that generate inputs and float64 references.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <future>
#include <vector>

#include "tessera/core/macros.hpp"

namespace {

// SplitMix64's finaliser: element i of stream s is splitmix64(s ^ splitmix64(i)), on the
// host or (fill kernels) the device.
TESSERA_HOST_DEVICE inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A random scale with 4 significant bits, in [2^-2, 2^3): products of two stay exact in
// fp32, and a value with 4 significant bits times one stays exact in bf16.
inline float random_scale(std::uint64_t h) { return std::ldexp(float(8 + int(h & 7)), int((h >> 3) % 5) - 5); }

// Runs fn(r) for r in [0, n) on threads of their own (float64 rows, host-side data
// generation), and waits for all of them.
template <class Fn>
void parallel_for(std::size_t n, const Fn& fn) {
  std::vector<std::future<void>> work;
  for (std::size_t r = 0; r < n; ++r) work.push_back(std::async(std::launch::async, [&fn, r] { fn(r); }));
  for (auto& w : work) w.get();
}

// fn(begin, end, slice) on kSlices contiguous slices of [0, n), in parallel (contiguous,
// so that no two threads write one cache line but at a slice's edge).
constexpr std::size_t kSlices = 16;
template <class Fn>
void parallel_slices(std::size_t n, const Fn& fn) {
  parallel_for(kSlices, [&](std::size_t t) { fn(n * t / kSlices, n * (t + 1) / kSlices, t); });
}

}  // namespace
