// Aligned vector types for 16- and 8-byte loads and stores, the same under nvcc and
// clang-HIP (CUDA's float4/uint2 come from the runtime headers, which kernels should
// not need to see).
#pragma once
#include <cstdint>

namespace tessera {

struct alignas(16) Float4 {
  float x, y, z, w;
};
struct alignas(8) U32x2 {
  std::uint32_t x, y;
};

}  // namespace tessera
