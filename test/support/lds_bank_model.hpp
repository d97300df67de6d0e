// The shared-memory / LDS bank models the bank-conflict tests count with (test_swizzle.cpp,
// test_mfma_lds.cpp), one per target. Host-only, Catch2.
//
// A model says how many 4-byte banks there are and which lanes of one instruction the
// banks serve together (a "phase"). Within a phase the degree is the largest number of
// DISTINCT 4-byte words that fall into one bank (two lanes reading the same word are
// served by one broadcast). An access costs the sum over phases of their degrees
// ("wavefronts"); the ideal is one per phase.
//
// NVIDIA shared memory (sm_80/sm_90/sm_100): 32 banks; a warp's access is split into
// 128-byte phases of consecutive lanes: 32 lanes for 4-byte accesses, 16 for 8-byte, 8 for
// 16-byte. (Confirmed on an H200 with ncu: benchmark/notes/swizzle.md.)
//
// AMD LDS, not measured here (no AMD GPU). Every phase grouping below is taken from a
// source that measured it or documents it; the ones marked "assumed" are not:
//  gfx942 (CDNA3, MI300): 32 banks.
//    ds_read_b128: 8 groups of 8 lanes, not consecutive: lanes 0-3 with 20-23, 4-7 with
//      16-19, 8-11 with 28-31, 12-15 with 24-27, the same +32 (Composable Kernel's "LDS bank
//      conflicts" page in the ROCm documentation; measured on MI300 by HipKittens'
//      phase solver, whose README shows these groups).
//    ds_write_b128: 8 groups of 8 consecutive lanes (the same CK page).
//    4- and 8-byte accesses: the half wave, cut into 128-byte phases of consecutive lanes
//      (AMD's OpenCL optimisation guide for GCN: conflicts are checked per half wave)
//      -- assumed for CDNA3.
//  gfx950 (CDNA4, MI355): 64 banks (Composable Kernel, ck_tile get_n_lds_banks(gfx950_t)).
//    Measured by HipKittens' phase solver on a 64-bank chip
//    (analysis/paper_experiments/phases/ in the HipKittens repository):
//    ds_read_b128: 4 groups of 16 lanes: 0-3, 12-15, 20-23, 24-27 | 4-11, 16-19, 28-31,
//      and the same +32;
//    ds_read_b64: 2 groups of 32 consecutive lanes;
//    ds_write_b64: 4 groups of 16 consecutive lanes.
//    ds_write_b128 and 4-byte accesses: 256-byte phases of consecutive lanes -- assumed.
// Confirm on hardware with the profiler's LDS bank-conflict counter (SQ_LDS_BANK_CONFLICT)
// before relying on a count from here.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "tessera/arch/arch.hpp"

namespace tessera::test {

enum class LdsAccess { kRead, kWrite };

using LanePhases = std::vector<std::vector<int>>;

// Consecutive lanes of a `lanes`-lane instruction, `per_phase` at a time.
inline LanePhases consecutive_phases(int lanes, int per_phase) {
  LanePhases out;
  for (int first = 0; first < lanes; first += per_phase) {
    std::vector<int> phase;
    for (int lane = first; lane < first + per_phase && lane < lanes; ++lane) phase.push_back(lane);
    out.push_back(phase);
  }
  return out;
}

// Groups of 4 consecutive lanes: each entry of `quads` names its groups' first lanes; the
// pattern repeats for lanes 32..63.
inline LanePhases quad_phases(const std::vector<std::vector<int>>& quads) {
  LanePhases out;
  for (int half = 0; half < 64; half += 32) {
    for (const auto& firsts : quads) {
      std::vector<int> phase;
      for (int first : firsts)
        for (int lane = first; lane < first + 4; ++lane) phase.push_back(half + lane);
      out.push_back(phase);
    }
  }
  return out;
}

struct BankModel {
  const char* name;
  int banks;       // 4-byte banks
  int wave_lanes;  // lanes in one instruction
  // The phases of an access of `bytes` per lane (4, 8 or 16).
  LanePhases (*phases)(int bytes, LdsAccess kind);
};

namespace detail {
inline LanePhases nvidia_phases(int bytes, LdsAccess) { return consecutive_phases(32, 128 / bytes); }

inline LanePhases gfx942_phases(int bytes, LdsAccess kind) {
  if (bytes == 16) {
    if (kind == LdsAccess::kWrite) return consecutive_phases(64, 8);
    return quad_phases({{0, 20}, {4, 16}, {8, 28}, {12, 24}});
  }
  // Half waves of 32 lanes, each cut into 128-byte phases.
  return consecutive_phases(64, std::min(32, 128 / bytes));
}

inline LanePhases gfx950_phases(int bytes, LdsAccess kind) {
  if (bytes == 16 && kind == LdsAccess::kRead) return quad_phases({{0, 12, 20, 24}, {4, 8, 16, 28}});
  if (bytes == 8) return consecutive_phases(64, kind == LdsAccess::kRead ? 32 : 16);
  return consecutive_phases(64, 256 / bytes);
}
}  // namespace detail

inline constexpr BankModel kNvidia{"NVIDIA smem", 32, 32, &detail::nvidia_phases};
inline constexpr BankModel kAmdGfx942{"AMD LDS gfx942 (model)", 32, 64, &detail::gfx942_phases};
inline constexpr BankModel kAmdGfx950{"AMD LDS gfx950 (model)", 64, 64, &detail::gfx950_phases};
// The gfx9 family's 32-bank model (test_swizzle.cpp's AMD column): gfx942's.
inline constexpr const BankModel& kAmdGfx9 = kAmdGfx942;

// The model of an AMD target tag: amd_bank_model(Gfx942{}), amd_bank_model(Gfx950{}).
constexpr const BankModel& amd_bank_model(Gfx942) { return kAmdGfx942; }
constexpr const BankModel& amd_bank_model(Gfx950) { return kAmdGfx950; }

struct Cost {
  int degree = 0;      // worst phase: 1 = conflict-free
  int wavefronts = 0;  // sum over phases of their degree
  int ideal = 0;       // number of phases
};

// Byte address of each lane of one instruction; access_bytes per lane (4, 8 or 16).
inline Cost count_conflicts(const BankModel& model, const std::vector<std::int64_t>& byte_addr,
                            int access_bytes, LdsAccess kind = LdsAccess::kRead) {
  REQUIRE(static_cast<int>(byte_addr.size()) == model.wave_lanes);
  Cost cost;
  std::vector<int> served(byte_addr.size(), 0);
  for (const std::vector<int>& phase : model.phases(access_bytes, kind)) {
    std::map<int, std::set<std::int64_t>> words_in_bank;
    for (int lane : phase) {
      ++served[std::size_t(lane)];
      // A vector access must be naturally aligned; a swizzle that broke that would
      // show up here, not as a silently wrong count.
      REQUIRE(byte_addr[std::size_t(lane)] % access_bytes == 0);
      for (int w = 0; w < access_bytes / 4; ++w) {
        const std::int64_t word = byte_addr[std::size_t(lane)] / 4 + w;
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
  for (int n : served) REQUIRE(n == 1);  // the phases cover every lane once
  return cost;
}

}  // namespace tessera::test
