// The execution model: launch(), workgroups, waves, lanes, and the wave-level
// instructions (s_barrier, s_waitcnt, the release fence, the scheduling hints).
//
// Schedule. Workgroups run one after another, in linear-id order. Within a workgroup the
// emulator takes the waves in order; a wave runs each of its lanes, lane 0 first, until
// the lane stops at a wave-level instruction (MFMA, s_waitcnt, s_barrier, a direct-to-LDS
// load, a scheduling hint) or ends. When every lane of the wave has stopped at the same
// instruction, the wave executes it once for all of them and runs its lanes again. At
// s_barrier the wave waits; when every wave that has not ended waits there, the barrier
// releases them all (LLVM's barrier model for gfx6-11: the workgroup barrier expects one
// arrival per wave, and a wave that ends drops out of it; llvm/docs/
// AMDGPUExecutionSynchronization.rst, "s_barrier GFX6-11"). So a barrier reached by only
// some waves behaves as on the hardware: it counts arrivals, not source locations, and
// waves that have ended no longer count, which is what ping-pong's asymmetric barriers
// rely on.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "state.hpp"
#include "tessera/arch/amd/emulation_hooks.hpp"
#include "tessera/arch/amd/lds.hpp"
#include "tessera/arch/amd/sched.hpp"
#include "tessera/arch/global_flag.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/launch.hpp"

namespace tessera::amd::emulation {
namespace detail {

Lane* g_lane = nullptr;
std::uintptr_t g_arena_begin = 0;
std::uintptr_t g_arena_size = 0;

Emulator g_emulator;

const char* call_name(Call c) {
  switch (c) {
    case Call::kNone: return "(running)";
    case Call::kBarrier: return "s_barrier";
    case Call::kFence: return "release fence (block_barrier)";
    case Call::kWaitcnt: return "s_waitcnt";
    case Call::kSetPrio: return "s_setprio";
    case Call::kSchedBarrier: return "sched_barrier";
    case Call::kSchedGroupBarrier: return "sched_group_barrier";
    case Call::kWaveBarrier: return "wave_barrier";
    case Call::kMfma: return "MFMA";
    case Call::kMfmaLowp: return "MFMA (fp8/fp4)";
    case Call::kLdsDma: return "direct-to-LDS buffer load";
  }
  return "?";
}

bool target_is_gfx950() { return emu().options.target == Target::kGfx950; }

Lane& current_lane(const char* what) {
  if (g_lane == nullptr) {
    std::fprintf(stderr,
                 "tessera emulator: %s called outside an emulated launch (launch kernels with "
                 "tessera::launch_kernel)\n",
                 what);
    std::abort();
  }
  return *g_lane;
}

void stop_at(Lane& l, Call kind, std::uintptr_t pc, std::uint32_t a, std::uint32_t b,
             std::uint32_t c) {
  l.call = PendingCall{kind, pc, a, b, c};
  emu().stats.switches++;
  fiber_switch(&l.fiber, &emu().scheduler);
}

void record(Wave& w, TraceKind kind, std::uintptr_t pc, std::uint32_t a, std::uint32_t b,
            std::uint32_t c) {
  if (w.trace != nullptr) w.trace->push_back(TraceEvent{kind, a, b, c, pc});
}

namespace {

void lane_main(void* arg) {
  Lane* l = static_cast<Lane*>(arg);
  emu().entry(emu().context);
  l->ended = true;
  emu().stats.switches++;
  fiber_switch(&l->fiber, &emu().scheduler);
  std::abort();  // an ended lane is never resumed
}

void resume(Lane& l) {
  g_lane = &l;
  emu().stats.switches++;
  fiber_switch(&emu().scheduler, &l.fiber);
  g_lane = nullptr;
}

void abort_workgroup(Workgroup& wg, Report r) {
  r.detail += " (the workgroup was stopped: the emulator cannot give this a meaning)";
  report(std::move(r));
  wg.aborted = true;
}

// Every lane of the wave that has not ended stopped at the same instruction with the same
// operands, or the wave's control flow diverged around a wave-level instruction (the
// hardware executes such instructions once per wave; LLVM calls them convergent).
bool uniform(Workgroup& wg, Wave& w, const Lane& first) {
  auto divergence = [&](const Lane& l) {
    Report r{ReportKind::kDivergentCollective};
    r.workgroup = wg.id;
    r.wave = w.id;
    r.lane = first.lane;
    r.other_wave = w.id;
    r.other_lane = l.lane;
    r.pc = first.call.pc;
    r.other_pc = l.call.pc;
    return r;
  };
  bool counts_reported = false;
  for (int i = 0; i < w.lanes; ++i) {
    const Lane& l = wg.lanes[std::size_t(w.first_lane + i)];
    if (l.ended) continue;
    const bool same = l.call.kind == first.call.kind && l.call.a == first.call.a &&
                      l.call.b == first.call.b && l.call.c == first.call.c &&
                      (first.call.kind != Call::kBarrier || l.call.pc == first.call.pc);
    if (!same) {
      Report r = divergence(l);
      r.detail = std::string("lane ") + std::to_string(first.lane) + " is at " +
                 call_name(first.call.kind) + " but lane " + std::to_string(l.lane) + " is at " +
                 call_name(l.call.kind);
      abort_workgroup(wg, r);
      return false;
    }
    if (l.vm_issued != w.vm_issued && !counts_reported) {
      // The hardware issues a vector-memory instruction once for the wave whatever its
      // exec mask; the emulator counts per lane, so lanes that skipped one disagree.
      Report r = divergence(l);
      r.detail = "lanes issued different numbers of vector-memory instructions before " +
                 std::string(call_name(first.call.kind)) + " (" + std::to_string(l.vm_issued) +
                 " vs " + std::to_string(w.vm_issued) + "): vmcnt follows the most";
      report(r);
      counts_reported = true;
    }
  }
  for (int i = 0; i < w.lanes; ++i) wg.lanes[std::size_t(w.first_lane + i)].vm_issued = w.vm_issued;
  return true;
}

void resolve_waitcnt(Wave& w, const PendingCall& c) {
  const WaitCounts counts = waitcnt_decode(std::uint16_t(c.a));
  if (w.vm_issued - w.vm_completed > counts.vmcnt) vm_complete_until(w, w.vm_issued - counts.vmcnt);
  if (counts.lgkmcnt == 0) {
    w.flush_epochs.push_back(emu().wg.epoch);
    lds_reads_waited(w);
  }
  record(w, TraceKind::kWaitcnt, c.pc, counts.vmcnt, counts.lgkmcnt, counts.expcnt);
}

// Runs the wave's lanes until all of them stop at a barrier or end, executing the
// wave-level instructions on the way.
void run_wave(Workgroup& wg, Wave& w) {
  for (;;) {
    const Lane* first = nullptr;
    for (int i = 0; i < w.lanes; ++i) {
      Lane& l = wg.lanes[std::size_t(w.first_lane + i)];
      if (!l.ended && l.call.kind == Call::kNone) resume(l);
      if (!l.ended && first == nullptr) first = &l;
    }
    if (first == nullptr) {
      // Direct-to-LDS loads still in flight stay so: they land at some time after the
      // wave ends, which is no order another wave can rely on. Its LDS reads have returned.
      w.ended = true;
      lds_reads_waited(w);
      return;
    }
    if (!uniform(wg, w, *first)) return;
    const PendingCall c = first->call;
    if (c.kind == Call::kBarrier) {
      w.at_barrier = true;
      record(w, TraceKind::kBarrier, c.pc, wg.epoch);
      return;
    }
    switch (c.kind) {
      case Call::kWaitcnt: resolve_waitcnt(w, c); break;
      case Call::kFence:
        // What clang-22 emits for a workgroup-scope release fence on gfx942/gfx950: a wait
        // for the wave's LDS operations and (HardwareChoices::fence_waits_for_dma) for its
        // direct-to-LDS loads (LLVM's memory legalizer, S_WAITCNT_lds_direct, llvm-project
        // PR 150887; PR 131842 had relaxed such waits before).
        if (emu().options.hardware.fence_waits_for_dma && !w.dma.empty()) {
          vm_complete_until(w, w.dma.back().index + 1);
        }
        w.flush_epochs.push_back(wg.epoch);
        lds_reads_waited(w);
        record(w, TraceKind::kFence, c.pc);
        break;
      case Call::kSetPrio: record(w, TraceKind::kSetPrio, c.pc, c.a); break;
      case Call::kSchedBarrier: record(w, TraceKind::kSchedBarrier, c.pc, c.a); break;
      case Call::kSchedGroupBarrier: record(w, TraceKind::kSchedGroupBarrier, c.pc, c.a, c.b, c.c); break;
      case Call::kWaveBarrier: record(w, TraceKind::kWaveBarrier, c.pc); break;
      case Call::kMfma: resolve_mfma(w); break;
      case Call::kMfmaLowp: resolve_mfma_lowp(w); break;
      case Call::kLdsDma: resolve_lds_dma(w); break;
      case Call::kNone:
      case Call::kBarrier: break;
    }
    if (wg.aborted) return;
    ++w.segment;
    for (int i = 0; i < w.lanes; ++i) wg.lanes[std::size_t(w.first_lane + i)].call = PendingCall{};
  }
}

void run_workgroup(unsigned id, unsigned threads) {
  Emulator& e = emu();
  Workgroup& wg = e.wg;
  wg.id = id;
  wg.epoch = 1;
  wg.lds = e.arena + kLdsRedzone;
  wg.lds_bytes = 0;
  wg.lds_declared = false;
  wg.aborted = false;
  const int lanes = int(threads);
  const int waves = (lanes + kWaveSize - 1) / kWaveSize;
  wg.lanes.assign(std::size_t(lanes), Lane{});
  wg.waves.assign(std::size_t(waves), Wave{});
  if (!e.stacks.empty() && e.stacks.front().bytes() < e.options.lane_stack_bytes) e.stacks.clear();
  while (e.stacks.size() < std::size_t(lanes)) e.stacks.emplace_back(e.options.lane_stack_bytes);
  for (int i = 0; i < lanes; ++i) {
    Lane& l = wg.lanes[std::size_t(i)];
    l.id = i;
    l.wave = i / kWaveSize;
    l.lane = i % kWaveSize;
    fiber_prepare(&l.fiber, e.stacks[std::size_t(i)], &lane_main, &l);
  }
  for (int w = 0; w < waves; ++w) {
    Wave& wave = wg.waves[std::size_t(w)];
    wave.id = w;
    wave.first_lane = w * kWaveSize;
    wave.lanes = lanes - w * kWaveSize < kWaveSize ? lanes - w * kWaveSize : kWaveSize;
    if (e.options.record_trace) wave.trace = &e.traces[{id, w}];
  }
  lds_reset_for_workgroup();
  e.stats.workgroups++;
  e.stats.lanes += std::uint64_t(lanes);

  for (;;) {
    for (Wave& w : wg.waves) {
      if (!w.ended && !w.at_barrier) run_wave(wg, w);
      if (wg.aborted) return;
    }
    bool any_waiting = false;
    for (const Wave& w : wg.waves) any_waiting |= w.at_barrier;
    if (!any_waiting) {  // every wave ended
      for (Wave& w : wg.waves) vm_complete_until(w, w.vm_issued);
      return;
    }
    ++wg.epoch;
    lds_interval_ended();
    for (Wave& w : wg.waves) {
      if (!w.at_barrier) continue;
      w.at_barrier = false;
      ++w.segment;
      for (int i = 0; i < w.lanes; ++i) wg.lanes[std::size_t(w.first_lane + i)].call = PendingCall{};
    }
  }
}

}  // namespace
}  // namespace detail

using namespace detail;

HardwareChoices HardwareChoices::from_environment() {
  HardwareChoices h;
  const char* spec = std::getenv("TESSERA_EMULATOR_HARDWARE");
  if (spec == nullptr) return h;
  std::string rest = spec;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    if (item == "denormals=keep") {
      h.mfma_denormals = Denormals::kKeep;
    } else if (item == "denormals=flush") {
      h.mfma_denormals = Denormals::kFlush;
    } else if (item == "straddle=zero") {
      h.straddle = StraddleRule::kZero;
    } else if (item == "straddle=whole") {
      h.straddle = StraddleRule::kWhole;
    } else if (item == "fence_dma=wait") {
      h.fence_waits_for_dma = true;
    } else if (item == "fence_dma=nowait") {
      h.fence_waits_for_dma = false;
    } else if (!item.empty()) {
      std::fprintf(stderr,
                   "tessera emulator: TESSERA_EMULATOR_HARDWARE='%s': unknown '%s' (expected "
                   "denormals=keep|flush, straddle=zero|whole, fence_dma=wait|nowait)\n",
                   spec, item.c_str());
      std::abort();
    }
  }
  return h;
}

std::string HardwareChoices::describe() const {
  return std::string("denormals=") + (mfma_denormals == Denormals::kFlush ? "flush" : "keep") +
         ",straddle=" + (straddle == StraddleRule::kWhole ? "whole" : "zero") +
         ",fence_dma=" + (fence_waits_for_dma ? "wait" : "nowait");
}

Options& options() { return emu().options; }

Status launch(const LaunchShape& shape, void (*entry)(void*), void* context) {
  Emulator& e = emu();
  if (e.running) return Status::kErrorLaunchFailed;  // a kernel cannot launch a kernel here
  if (shape.block_x == 0 || shape.block_x > unsigned(kMaxLanes) || shape.grid_x == 0 ||
      shape.grid_y == 0 || shape.grid_z == 0) {
    return Status::kErrorInvalidValue;
  }
  // Tessera's AMD kernels use 1-D grids and static LDS (TESSERA_AMD_LDS); block_index()
  // has no y or z, and no wrapper reaches dynamic LDS.
  if (shape.grid_y * shape.grid_z != 1 || shape.dynamic_smem_bytes != 0) {
    return Status::kErrorUnsupported;
  }
  if (e.arena == nullptr) {
    e.arena = static_cast<unsigned char*>(std::malloc(kLdsRedzone + kMaxLdsBytes + kLdsRedzone));
    if (e.arena == nullptr) return Status::kErrorOutOfMemory;
    e.shadow.resize(kMaxLdsBytes);
    e.sites.resize(kMaxLdsBytes);
  }
  g_arena_begin = reinterpret_cast<std::uintptr_t>(e.arena);
  g_arena_size = kLdsRedzone + kMaxLdsBytes + kLdsRedzone;
  e.entry = entry;
  e.context = context;
  e.running = true;
  e.stats = Stats{};
  e.traces.clear();
  bool failed = false, declared_lds = false;
  for (unsigned id = 0; id < shape.grid_x; ++id) {
    if (e.options.run_workgroup && !e.options.run_workgroup(id)) continue;
    run_workgroup(id, shape.block_x);
    failed |= e.wg.aborted;
    declared_lds |= e.wg.lds_bytes > 0;
  }
  if (declared_lds && e.stats.lds_accesses == 0) {
    // LDS the emulator never saw touched: almost surely a kernel translation unit built
    // without -fsanitize=thread, where races, bounds and the compiler's waits go unseen.
    Report r{ReportKind::kMisuse};
    r.detail = "the kernel declares LDS but the emulator saw no LDS access: compile the translation "
               "unit that launches it with -fsanitize=thread (KERNELS of tessera_emulated_executable)";
    report(r);
  }
  e.running = false;
  g_arena_size = 0;  // accesses outside a launch are not LDS accesses
  // A workgroup the emulator had to stop is what a GPU fault is to a launch; the reports
  // say why.
  return failed ? Status::kErrorLaunchFailed : Status::kSuccess;
}

std::vector<TraceEvent> trace(unsigned workgroup, int wave) {
  const auto it = emu().traces.find({workgroup, wave});
  return it == emu().traces.end() ? std::vector<TraceEvent>{} : it->second;
}

Stats last_launch_stats() { return emu().stats; }

Status current_device(DeviceInfo* info) {
  const bool gfx950 = target_is_gfx950();
  *info = DeviceInfo{};
  info->amd = true;
  std::strcpy(info->arch_name, gfx950 ? "gfx950" : "gfx942");
  const int chip_cus = gfx950 ? 256 : 304;
  info->multiprocessors = emu().options.compute_units > 0 ? emu().options.compute_units : chip_cus;
  info->smem_per_block_optin = gfx950 ? kMaxLdsBytes : 64 * 1024;
  return Status::kSuccess;
}

// ---- hooks of arch/thread.hpp and arch/amd/sched.hpp ------------------------------------
#define TESSERA_EMU_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))

int workitem_id_x() { return current_lane("thread_index()").id; }
int workgroup_id_x() {
  current_lane("block_index()");
  return int(emu().wg.id);
}
void s_barrier() {
  Lane& l = current_lane("s_barrier");
  stop_at(l, Call::kBarrier, TESSERA_EMU_PC);
}
void workgroup_release_fence() {
  Lane& l = current_lane("a workgroup fence");
  stop_at(l, Call::kFence, TESSERA_EMU_PC);
}
void s_waitcnt(std::uint16_t imm) {
  Lane& l = current_lane("s_waitcnt");
  stop_at(l, Call::kWaitcnt, TESSERA_EMU_PC, imm);
}
void s_setprio(int priority) {
  Lane& l = current_lane("s_setprio");
  stop_at(l, Call::kSetPrio, TESSERA_EMU_PC, std::uint32_t(priority));
}
void sched_barrier(std::uint32_t mask) {
  Lane& l = current_lane("sched_barrier");
  stop_at(l, Call::kSchedBarrier, TESSERA_EMU_PC, mask);
}
void sched_group_barrier(std::uint32_t mask, int count, int sync_id) {
  Lane& l = current_lane("sched_group_barrier");
  stop_at(l, Call::kSchedGroupBarrier, TESSERA_EMU_PC, mask, std::uint32_t(count),
          std::uint32_t(sync_id));
}
void wave_barrier() {
  Lane& l = current_lane("wave_barrier");
  stop_at(l, Call::kWaveBarrier, TESSERA_EMU_PC);
}

// ---- hook of arch/global_flag.hpp -----------------------------------------------------------
// A wait for a global flag another workgroup sets (the stream-K fix-up): workgroups run one
// after another, so a flag not set by an earlier one never will be.
void unsatisfied_flag_wait(const void* flag, std::uint64_t expected, std::uint64_t actual) {
  Lane& l = current_lane("flag_wait");
  Workgroup& wg = emu().wg;
  Report r{ReportKind::kMisuse};
  r.workgroup = wg.id;
  r.wave = l.wave;
  r.lane = l.lane;
  r.pc = TESSERA_EMU_PC;
  char detail[160];
  std::snprintf(detail, sizeof detail, "a wait for the global flag at %p to hold %#llx (it holds %#llx)", flag,
                static_cast<unsigned long long>(expected), static_cast<unsigned long long>(actual));
  r.detail = std::string(detail) + ": no earlier workgroup set it, and workgroups run one after another";
  abort_workgroup(wg, r);
}

unsigned char* workgroup_lds(std::size_t bytes) {
  current_lane("TESSERA_AMD_LDS");
  Workgroup& wg = emu().wg;
  const std::size_t capacity = target_is_gfx950() ? kMaxLdsBytes : 64 * 1024;
  if (!wg.lds_declared) {
    wg.lds_declared = true;
    wg.lds_bytes = bytes;
    if (bytes > capacity) {
      Report r{ReportKind::kMisuse};
      r.workgroup = wg.id;
      r.wave = g_lane->wave;
      r.lane = g_lane->lane;
      r.pc = TESSERA_EMU_PC;
      r.end = bytes;
      r.detail = "the kernel declares " + std::to_string(bytes) + " bytes of LDS; the target has " +
                 std::to_string(capacity);
      report(r);
      wg.lds_bytes = capacity;
    }
  } else if (bytes != wg.lds_bytes) {
    Report r{ReportKind::kMisuse};
    r.workgroup = wg.id;
    r.wave = g_lane->wave;
    r.lane = g_lane->lane;
    r.pc = TESSERA_EMU_PC;
    r.detail = "lanes of one workgroup declare different LDS sizes (" + std::to_string(bytes) +
               " vs " + std::to_string(wg.lds_bytes) + ")";
    report(r);
  }
  return wg.lds;
}

}  // namespace tessera::amd::emulation
