// What the emulated MFMA GEMM tests run (test_mfma_emulated.cpp) and what the MFMA
// mutation checks (mutation_mfma_gemm.cpp) break: the CI shapes of a configuration, and
// the schedule order read back from the emulator's per-wave trace.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "emulated_gemm_case.hpp"
#include "tessera/emulator/emulator.hpp"
#include "tessera/schedule/amd_pingpong.hpp"

namespace emu_test {

// A configuration's CI shapes, relative to its block tile so that every configuration sees
// edge tiles in M and N, odd M and N, a partial K tile, K below one tile, several K tiles
// (the loop's steady state), alpha != 1, beta != 0 and C == D, on both kernels a launch
// picks from:
//   aligned    the 16-byte kernel: leading dimensions rounded up to 8 elements, pointers
//              16-byte aligned (std::vector's storage);
//   unaligned  the element-gather kernel: a leading dimension that is not a multiple of 8
//              elements, or pointers one element off.
// The async schedule has no unaligned kernel (its direct-to-LDS loads move 16 bytes): the
// host API refuses its unaligned shapes (test_mfma_emulated.cpp checks that).
// Small: every lane runs on the host.
template <class Config>
std::vector<CaseShape> mfma_shapes(bool aligned) {
  const std::int64_t bm = Config::kBlockM, bn = Config::kBlockN, bk = Config::kBlockK;
  if (aligned) {
    std::vector<CaseShape> shapes{
        {bm, bn, 2 * bk},                                 // whole tiles
        {bm + 17, bn - 5, 2 * bk + 9, 0, 1.0f, 0.5f},     // M/N edges, K tail, beta (index 1)
        {bm - 3, 2 * bn + 1, bk - 7, 8, -1.5f, 1.0f},     // K < BlockK, padded ld, C == D
        {33, 47, 5, 0, 2.0f, -1.0f},                      // smaller than every tile, K = 5
        {bm + 3, bn + 5, 2 * bk},                         // odd M and N, whole K tiles
        {2 * bm + 1, bn + 7, 5 * bk + 3, 0, 1.0f, 0.5f},  // 3 x 2 tiles, 6 K tiles (last)
    };
    shapes[2].in_place = true;
    for (CaseShape& s : shapes) s.ld_multiple = 8;
    return shapes;
  }
  std::vector<CaseShape> shapes{
      {bm + 1, bn - 2, 2 * bk + 1, 1, 1.0f, 1.0f},  // ld = minimum + 1, C == D
      {bm - 1, bn + 3, bk + 5, 0, 0.5f, 0.25f},     // pointers one element off
      {33, 47, 5, 0, 2.0f, -1.0f},                  // ld = K = 5, M = 33 or N = 47 elements
  };
  shapes[0].in_place = true;
  shapes[1].offset_pointers = true;
  shapes[1].ld_multiple = 8;
  return shapes;
}

// Shapes whose main loop meets the operands' last, cut dword (an operand that ends at an odd
// element: its last dword holds that element and 2 bytes past it), found by a user program:
// an M- or N-contiguous operand (A column-major, B row-major) with M or N small or odd,
// its leading dimension padded to 8 elements but shorter than the tile, and K over more
// than one tile: the tile's rows past M (columns past N) alias later K lines, down to the
// last one. What those bytes hold reaches only rows past M (columns past N) of the block's
// result, which the epilogue never stores (memory/mfma_tile_copy.hpp): the result must be
// right whether the hardware reads such a dword as 0 or whole.
inline std::vector<CaseShape> cut_dword_shapes() {
  std::vector<CaseShape> shapes{
      {1, 300, 70},     // A column-major: lda = 8
      {300, 1, 70},     // B row-major: ldb = 8
      {129, 33, 389},   // B row-major: ldb = 40
  };
  for (CaseShape& s : shapes) s.ld_multiple = 8;
  return shapes;
}

// ---- the schedule order, from the emulator's trace (Options::record_trace) --------------
// Per barrier interval of one workgroup: which waves issued MFMAs, and at what priority.
struct ScheduleOrder {
  int waves = 0;
  int mfmas = 0, mfmas_raised = 0;     // MFMAs, and those issued at priority >= 1
  int dot_intervals[2] = {0, 0};       // intervals in which a wave of group 0 / 1 issued MFMAs
  int shared_intervals = 0;            // intervals in which both groups did
  std::uint32_t first_shared = 0;      // the first such interval
  std::string describe() const {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%d waves: MFMAs %d (%d at raised priority); barrier intervals with MFMAs: waves 0-%d "
                  "%d, waves %d-%d %d, both %d (first: interval %u)",
                  waves, mfmas, mfmas_raised, waves / 2 - 1, dot_intervals[0], waves / 2, waves - 1,
                  dot_intervals[1], shared_intervals, first_shared);
    return buf;
  }
};

// Groups: waves [0, waves/2) and [waves/2, waves): the ping-pong partners of the 8-wave
// schedules (wave w and w + 4 share a SIMD).
inline ScheduleOrder schedule_order(unsigned workgroup, int waves) {
  namespace emu = tessera::amd::emulation;
  ScheduleOrder o;
  o.waves = waves;
  std::vector<int> groups_in;  // bit g set: group g issued an MFMA in that interval
  for (int w = 0; w < waves; ++w) {
    const int g = w < waves / 2 ? 0 : 1;
    std::uint32_t interval = 1;  // the emulator's first barrier interval
    std::uint32_t priority = 0;
    for (const emu::TraceEvent& e : emu::trace(workgroup, w)) {
      if (e.kind == emu::TraceKind::kBarrier) interval = e.a + 1;
      if (e.kind == emu::TraceKind::kSetPrio) priority = e.a;
      if (e.kind != emu::TraceKind::kMfma) continue;
      ++o.mfmas;
      if (priority > 0) ++o.mfmas_raised;
      if (groups_in.size() <= interval) groups_in.resize(interval + 1, 0);
      groups_in[interval] |= 1 << g;
    }
  }
  for (std::size_t i = 0; i < groups_in.size(); ++i) {
    if (groups_in[i] & 1) ++o.dot_intervals[0];
    if (groups_in[i] & 2) ++o.dot_intervals[1];
    if (groups_in[i] == 3 && o.shared_intervals++ == 0) o.first_shared = std::uint32_t(i);
  }
  return o;
}

// What a schedule promises about that order (schedule/amd_pingpong.hpp):
//  - the 8-wave ping-pong schedules (two, four clusters, async): the two wave groups run
//    one cluster apart, so no barrier interval has MFMAs of both, and each has its own;
//  - the ping-pong schedules with priorities (one, two, four clusters): every MFMA issues
//    at priority 1 (the dot cluster wins the issue arbitration).
template <class Config>
bool keeps_schedule_order(const ScheduleOrder& o) {
  using tessera::schedule::PingPongKind;
  constexpr PingPongKind kKind = Config::Schedule::kKind;
  bool ok = o.mfmas > 0;
  if (Config::Schedule::kAsymmetric) {
    ok = ok && o.shared_intervals == 0 && o.dot_intervals[0] > 0 && o.dot_intervals[1] > 0;
  }
  if (kKind == PingPongKind::kOneCluster || kKind == PingPongKind::kTwoClusters ||
      kKind == PingPongKind::kFourClusters) {
    ok = ok && o.mfmas_raised == o.mfmas;
  }
  return ok;
}

}  // namespace emu_test
