// The shapes of tessera_bench's "LLM shapes" suite (benchmark/suite_llm.hpp takes them from
// here), for the tests that check the selector's choice on every one of them.
#pragma once
#include <cstdint>
#include <vector>

namespace tessera::test {

struct GemmExtents {
  std::int64_t M, N, K;
};

inline std::vector<GemmExtents> llm_benchmark_shapes() {
  std::vector<GemmExtents> s = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
                                {8192, 8192, 1024}};
  for (std::int64_t nk : {4096, 8192})
    for (std::int64_t m : {1, 8, 16, 32, 64, 128}) s.push_back({m, nk, nk});
  for (const GemmExtents& x : std::vector<GemmExtents>{{4096, 14336, 4096}, {4096, 4096, 14336},
                                                        {2048, 6144, 4096},  {256, 256, 65536},
                                                        {512, 512, 16384},   {1024, 1024, 32768},
                                                        {4097, 4095, 4103},  {1000, 1000, 1000},
                                                        // a partial last wave of 128 x 256 tiles
                                                        {2048, 2304, 4096},  {1536, 4096, 4096},
                                                        {3072, 3072, 4096},  {1536, 1536, 16384}}) {
    s.push_back(x);
  }
  return s;
}

}  // namespace tessera::test
