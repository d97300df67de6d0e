// The buffers both TMA kernels plan in shared memory besides their barriers: the ring of
// A and B stages in the 128-byte swizzle (1024-byte aligned: the swizzle comes from address
// bits) and the epilogue's staging for D's TMA stores. Config: the family's configuration
// (kStages, TileA, TileB, kStagingBytes). Host-includable.
#pragma once
#include <cstddef>

#include "tessera/memory/smem_plan.hpp"

namespace tessera::gemm {

template <class Config>
struct TmaStageBuffers {
  struct StagesA : smem::Buffer<std::size_t(Config::kStages) * Config::TileA::kBytes, 1024> {
    static constexpr const char* kName = "A stages";
  };
  struct StagesB : smem::Buffer<std::size_t(Config::kStages) * Config::TileB::kBytes, 1024> {
    static constexpr const char* kName = "B stages";
  };
  struct Staging : smem::Buffer<Config::kStagingBytes, 1024> {
    static constexpr const char* kName = "D staging";
  };
};

}  // namespace tessera::gemm
