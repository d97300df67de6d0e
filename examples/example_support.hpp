// What every example program needs besides the library: its problem size from the command
// line, device copies of its inputs, the float64 check of sampled outputs, and a median
// time of repeated launches. Host code over runtime/gpu.hpp (CUDA or
// HIP, whichever the translation unit is compiled for).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "tessera/runtime/gpu.hpp"

namespace examples {

struct ProblemSize {
  std::int64_t m = 4096, n = 4096, k = 4096;
};

// `program [M N K]`: no arguments gives 4096³. Each size must be a whole number from 1 to
// 2^31 - 1 (the examples allocate and verify M x N outputs; zero-sized and negative
// problems are the library's to refuse, which the tests cover). Anything else prints the
// usage and exits with status 2 before touching the GPU.
inline ProblemSize parse_problem_size(int argc, char** argv) {
  ProblemSize p;
  if (argc == 1) return p;
  auto parse = [&](const char* text, std::int64_t* out) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < 1 || v > 0x7fffffffLL) return false;
    *out = v;
    return true;
  };
  if (argc != 4 || !parse(argv[1], &p.m) || !parse(argv[2], &p.n) || !parse(argv[3], &p.k)) {
    std::fprintf(stderr, "usage: %s [M N K]   (each a whole number from 1 to 2147483647; default 4096 4096 4096)\n",
                 argv[0]);
    std::exit(2);
  }
  return p;
}

// A device copy of a host vector (freed by the caller with gpu::free_bytes).
template <class T>
T* upload(const std::vector<T>& host) {
  namespace gpu = tessera::gpu;
  T* device = nullptr;
  TESSERA_GPU_CHECK(gpu::malloc_elements(&device, host.size()));
  TESSERA_GPU_CHECK(gpu::copy_to_device(device, host.data(), host.size() * sizeof(T)));
  return device;
}

// The outputs an example compares with float64 (a full check of 4096³ on the host would
// take minutes): with `edges`, every output of the last row and of the last column (the
// partial tiles), then `random` outputs picked uniformly.
using OutputIndex = std::pair<std::int64_t, std::int64_t>;
template <class Rng>
std::vector<OutputIndex> sample_outputs(std::int64_t m, std::int64_t n, Rng& rng, bool edges, int random = 4096) {
  std::vector<OutputIndex> points;
  if (edges) {
    for (std::int64_t j = 0; j < n; ++j) points.push_back({m - 1, j});
    for (std::int64_t i = 0; i < m; ++i) points.push_back({i, n - 1});
  }
  std::uniform_int_distribution<std::int64_t> pick_m(0, m - 1), pick_n(0, n - 1);
  for (int t = 0; t < random; ++t) points.push_back({pick_m(rng), pick_n(rng)});
  return points;
}

// sqrt(sum (got - ref)^2 / sum ref^2) over the points; reference(i, j) and got(i, j) return
// doubles.
template <class Reference, class Got>
double relative_error_at(const std::vector<OutputIndex>& points, Reference&& reference, Got&& got) {
  double err2 = 0, ref2 = 0;
  for (const auto& [i, j] : points) {
    const double r = reference(i, j), g = got(i, j);
    err2 += (g - r) * (g - r);
    ref2 += r * r;
  }
  return std::sqrt(err2 / ref2);
}

// Outputs that still hold the NaN poison written before the run: never written.
template <class T>
std::size_t count_unwritten(const std::vector<T>& d) {
  return std::size_t(std::count_if(d.begin(), d.end(), [](T x) { return std::isnan(float(x)); }));
}

// Median milliseconds of `reps` launches on the default stream, timed with events.
template <class Launch>
float median_ms(Launch&& launch, int reps) {
  namespace gpu = tessera::gpu;
  gpu::event_t start, stop;
  TESSERA_GPU_CHECK(gpu::event_create(&start));
  TESSERA_GPU_CHECK(gpu::event_create(&stop));
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    TESSERA_GPU_CHECK(gpu::event_record(start, nullptr));
    launch();
    TESSERA_GPU_CHECK(gpu::event_record(stop, nullptr));
    TESSERA_GPU_CHECK(gpu::event_synchronize(stop));
    float t = 0;
    TESSERA_GPU_CHECK(gpu::event_elapsed_ms(&t, start, stop));
    ms.push_back(t);
  }
  TESSERA_GPU_CHECK(gpu::event_destroy(start));
  TESSERA_GPU_CHECK(gpu::event_destroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace examples
