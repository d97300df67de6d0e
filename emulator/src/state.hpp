// The emulator's state: one workgroup at a time, its waves, their lanes, the LDS with
// its shadow, and each wave's queue of vector-memory instructions. Internal to emulator/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fiber.hpp"
#include "tessera/arch/amd/buffer.hpp"
#include "tessera/emulator/emulator.hpp"

namespace tessera::amd::emulation::detail {

constexpr int kWaveSize = 64;
constexpr int kMaxLanes = 1024;                 // work-items per workgroup
constexpr int kMaxWaves = kMaxLanes / kWaveSize;
constexpr std::size_t kMaxLdsBytes = 160 * 1024;  // gfx950; gfx942 allows 64 KiB
constexpr unsigned kMaxVmcnt = 63;              // gfx9's 6-bit vmcnt
// The LDS sits inside a larger mapping so that an access a little past the plan (or
// before it) lands in memory the emulator owns and can report, not in someone's heap.
constexpr std::size_t kLdsRedzone = 64 * 1024;

// The wave-level instructions a lane stops at. Everything else a lane runs on its own.
enum class Call : std::uint8_t {
  kNone,
  kBarrier,
  kFence,
  kWaitcnt,
  kSetPrio,
  kSchedBarrier,
  kSchedGroupBarrier,
  kWaveBarrier,
  kMfma,
  kMfmaLowp,
  kLdsDma,
};
const char* call_name(Call c);

struct PendingCall {
  Call kind = Call::kNone;
  std::uintptr_t pc = 0;
  std::uint32_t a = 0, b = 0, c = 0;
};

struct Lane {
  Fiber fiber;
  int id = 0;    // work-item id in the workgroup
  int wave = 0;
  int lane = 0;  // 0..63 within the wave
  bool ended = false;
  PendingCall call;
  std::uint64_t vm_issued = 0;  // vector-memory instructions this lane has issued
  // MFMA: operands in, accumulators in and results out.
  std::uint16_t mfma_a[8] = {}, mfma_b[8] = {};
  float mfma_c[16] = {};
  // The low-precision MFMAs (mfma_lowp.cpp): operand bytes as words, and the scale registers.
  std::uint32_t mfma_a32[8] = {}, mfma_b32[8] = {};
  std::uint32_t mfma_scale_a = 0, mfma_scale_b = 0;
  // Direct-to-LDS load arguments.
  BufferResource dma_rsrc{};
  void* dma_lds = nullptr;
  std::uint32_t dma_voffset = 0, dma_soffset = 0;
};

// One direct-to-LDS load of a wave, in flight until a wait covers it.
struct DmaOp {
  std::uint64_t index = 0;        // the wave's vector-memory instruction number
  std::uint32_t issue_epoch = 0;
  std::uintptr_t pc = 0;
  std::int64_t lds_offset = 0;    // LDS offset of lane 0's bytes (M0)
  int bytes = 0;                  // per lane
  int slot = 4;                   // lane i's bytes start at lds_offset + slot * i
  std::uint64_t lane_mask = 0;    // lanes that took part
  unsigned char data[kWaveSize][16] = {};
};

struct Wave {
  int id = 0;
  int first_lane = 0;  // index into Workgroup::lanes
  int lanes = 0;       // 64, or fewer for the last wave of a partial workgroup
  bool ended = false;
  bool at_barrier = false;
  std::uint64_t vm_issued = 0;     // the wave's count: the most any lane issued
  std::uint64_t vm_completed = 0;  // completed in order: every instruction below this
  std::deque<DmaOp> dma;           // outstanding direct-to-LDS loads, oldest first
  // Wave sync points passed; LDS bytes two lanes exchange in one segment are a report.
  std::uint32_t segment = 1;
  // Epoch of each LDS publication point (lgkmcnt(0) or a release fence), in order.
  std::vector<std::uint32_t> flush_epochs;
  std::vector<TraceEvent>* trace = nullptr;
};

// What the race detector keeps per LDS byte, in two parts: what every access checks and
// updates (32 bytes, so that a 4-byte access touches two cache lines), and the code
// addresses that reports name (a read updates them only when the reading wave or
// interval changes).
struct ByteShadow {
  std::uint32_t write_epoch;    // 0: not written in this workgroup
  std::uint32_t write_segment;
  std::uint32_t write_flush;    // the writer's publication count at the write (kPublished: none needed)
  std::uint32_t read_epoch;
  std::uint32_t read_segment;   // of the last reader
  std::uint32_t dma_index;      // in-flight direct-to-LDS load writing this byte (0: none)
  std::uint16_t read_waves;     // waves that read it in read_epoch
  std::uint8_t write_wave, write_lane;
  std::uint8_t read_wave, read_lane, read_multi;  // the last reader; several lanes of it
  std::uint8_t dma_wave;
};
static_assert(sizeof(ByteShadow) == 32, "the LDS shadow's hot part is meant to be 32 bytes");

struct ByteSites {
  std::uintptr_t write_pc;
  std::uintptr_t read_pc;        // a read of the last reading wave in its segment
  std::uintptr_t first_read_pc;  // the first read of the interval
  std::uint8_t first_read_wave;
};
constexpr std::uint32_t kPublished = 0xffffffffu;

struct Workgroup {
  unsigned id = 0;
  std::uint32_t epoch = 1;  // barriers released so far, plus one
  unsigned char* lds = nullptr;
  std::size_t lds_bytes = 0;
  bool lds_declared = false;
  bool aborted = false;
  std::vector<Lane> lanes;
  std::vector<Wave> waves;
};

struct Allocation {
  std::uintptr_t begin, end;
  std::string name;
};

struct Emulator {
  Options options;
  std::vector<Report> reports;
  std::vector<Allocation> allocations;
  std::map<std::pair<unsigned, int>, std::vector<TraceEvent>> traces;
  Stats stats;

  // LDS: one mapping, kLdsRedzone + kMaxLdsBytes + kLdsRedzone bytes.
  unsigned char* arena = nullptr;
  std::vector<ByteShadow> shadow;
  std::vector<ByteSites> sites;

  Workgroup wg;
  std::vector<Stack> stacks;
  Fiber scheduler;
  void (*entry)(void*) = nullptr;
  void* context = nullptr;
  bool running = false;
};

// One emulator per process (launches do not nest; kernels run one workgroup at a time).
extern Emulator g_emulator;
inline Emulator& emu() { return g_emulator; }

// The lane being run (null outside a launch) and the LDS mapping's range: the memory
// hooks compare every access against these, so they are plain globals.
extern Lane* g_lane;
extern std::uintptr_t g_arena_begin;
extern std::uintptr_t g_arena_size;

Lane& current_lane(const char* what);
inline Wave& wave_of(const Lane& l) { return g_emulator.wg.waves[std::size_t(l.wave)]; }
// Suspends the calling lane at a wave-level instruction until the wave resolves it.
void stop_at(Lane& l, Call kind, std::uintptr_t pc, std::uint32_t a = 0, std::uint32_t b = 0,
             std::uint32_t c = 0);

void report(Report r);
// A finding already reported at these code addresses: counted, and true (the caller
// need not build its description again).
bool count_if_reported(ReportKind kind, std::uintptr_t pc, std::uintptr_t other_pc);
void record(Wave& w, TraceKind kind, std::uintptr_t pc, std::uint32_t a = 0, std::uint32_t b = 0,
            std::uint32_t c = 0);

// LDS (lds.cpp).
void lds_reset_for_workgroup();
void lds_access(std::uintptr_t address, std::size_t bytes, bool write, std::uintptr_t pc);
void lds_commit_dma(Wave& w, const DmaOp& op);
void lds_mark_dma(Wave& w, const DmaOp& op);
// The wave's LDS reads so far have completed (s_waitcnt lgkmcnt(0), a release fence, the
// wave's end); a barrier interval ended (reads waited for in it are now ordered).
void lds_reads_waited(const Wave& w);
void lds_interval_ended();

// Vector memory (vmem.cpp).
void vm_complete_until(Wave& w, std::uint64_t index);
void vm_count_issue(Lane& l, Wave& w);
void resolve_lds_dma(Wave& w);

// MFMA (mfma.cpp, mfma_lowp.cpp).
void resolve_mfma(Wave& w);
void resolve_mfma_lowp(Wave& w);
// True when all 64 lanes of the wave are live; else a kMisuse report (an MFMA reads every
// lane's registers), the workgroup aborted, and false.
bool mfma_wave_is_full(Wave& w);
// A kMisuse report for the wave's MFMA at pc, naming what is wrong.
void report_mfma_misuse(const Wave& w, std::uintptr_t pc, const std::string& detail);

bool target_is_gfx950();

}  // namespace tessera::amd::emulation::detail
