// What every example program needs besides the library: its problem size from the command
// line, and a median time of repeated launches. Host code over runtime/gpu.hpp (CUDA or
// HIP, whichever the translation unit is compiled for).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
