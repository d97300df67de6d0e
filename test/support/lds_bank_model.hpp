// The shared-memory / LDS bank model the bank-conflict tests count with (test_swizzle.cpp,
// test_mfma_lds.cpp). Host-only, Catch2.
//
// NVIDIA shared memory (sm_80/sm_90/sm_100): 32 banks of 4 bytes. A warp's access is split
// into phases of 128 bytes: 32 lanes for 4-byte accesses, 16 lanes (half warps) for
// 8-byte, 8 lanes (quarter warps) for 16-byte. Within a phase the degree is the largest
// number of DISTINCT 4-byte words that fall into one bank (two lanes reading the same
// word are served by one broadcast). An access costs the sum over phases of their
// degrees ("wavefronts"); the ideal is one per phase. (Confirmed on an H200 with ncu:
// benchmark/notes/swizzle.md.)
//
// AMD LDS (gfx9: gfx942, gfx950) -- A MODEL, not measured: 32 banks of 4 bytes; a 64-lane
// wave is served as two halves of 32 lanes, and each half is split into 128-byte phases
// exactly as above. The real lane grouping of ds_read_b64/b128 on CDNA3/4 is not publicly
// specified in this detail; confirm on hardware with the profiler's LDS bank-conflict
// counter before relying on a count from here.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace tessera::test {

struct BankModel {
  const char* name;
  int banks;           // 4-byte banks
  int lanes_per_pass;  // lanes the banks serve together: a warp, or half an AMD wave
  int wave_lanes;      // lanes in one instruction
};
inline constexpr BankModel kNvidia{"NVIDIA smem", 32, 32, 32};
inline constexpr BankModel kAmdGfx9{"AMD LDS gfx9 (model)", 32, 32, 64};

struct Cost {
  int degree = 0;      // worst phase: 1 = conflict-free
  int wavefronts = 0;  // sum over phases of their degree
  int ideal = 0;       // number of phases
};

// Byte address of each lane of one instruction; access_bytes per lane (4, 8 or 16).
inline Cost count_conflicts(const BankModel& model, const std::vector<std::int64_t>& byte_addr,
                     int access_bytes) {
  const int window = model.banks * 4;
  const int lanes_per_phase = std::min(model.lanes_per_pass, window / access_bytes);
  REQUIRE(static_cast<int>(byte_addr.size()) == model.wave_lanes);
  Cost cost;
  for (int first = 0; first < model.wave_lanes; first += lanes_per_phase) {
    std::map<int, std::set<std::int64_t>> words_in_bank;
    for (int lane = first; lane < first + lanes_per_phase; ++lane) {
      // A vector access must be naturally aligned; a swizzle that broke that would
      // show up here, not as a silently wrong count.
      REQUIRE(byte_addr[lane] % access_bytes == 0);
      for (int w = 0; w < access_bytes / 4; ++w) {
        const std::int64_t word = byte_addr[lane] / 4 + w;
        words_in_bank[static_cast<int>(word % model.banks)].insert(word);
      }
    }
    int phase_degree = 0;
    for (const auto& bank : words_in_bank) {
      phase_degree = std::max(phase_degree, static_cast<int>(bank.second.size()));
    }
    cost.degree = std::max(cost.degree, phase_degree);
    cost.wavefronts += phase_degree;
    cost.ideal += 1;
  }
  return cost;
}


}  // namespace tessera::test
