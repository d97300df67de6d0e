// Reports: what the emulator found, folded by kind and code location, and described with
// source locations (addr2line on the running binary, when it has debug information).
#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <tuple>

#include "state.hpp"

namespace tessera::amd::emulation {
namespace detail {

namespace {

using Key = std::tuple<int, std::uintptr_t, std::uintptr_t>;
std::map<Key, std::size_t>& index_of() {
  static std::map<Key, std::size_t> m;
  return m;
}

// "file:line (function)" for a code address, "0x..." when it cannot be found.
std::string symbolize(std::uintptr_t pc) {
  static std::map<std::uintptr_t, std::string> cache;
  if (pc == 0) return "?";
  const auto it = cache.find(pc);
  if (it != cache.end()) return it->second;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%zx", std::size_t(pc));
  std::string result = hex;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(pc), &info) != 0 && info.dli_fname != nullptr) {
    const std::uintptr_t offset = pc - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    char cmd[1024];
    std::snprintf(cmd, sizeof cmd, "addr2line -C -f -i -e '%s' 0x%zx 2>/dev/null", info.dli_fname,
                  std::size_t(offset));
    if (FILE* p = popen(cmd, "r")) {
      // Pairs of lines: function, file:line; with -i the innermost inlined frame first.
      std::string frames;
      char function[512], where[512];
      while (std::fgets(function, sizeof function, p) != nullptr &&
             std::fgets(where, sizeof where, p) != nullptr) {
        std::string f(function), w(where);
        while (!f.empty() && (f.back() == '\n' || f.back() == '\r')) f.pop_back();
        while (!w.empty() && (w.back() == '\n' || w.back() == '\r')) w.pop_back();
        if (w.rfind("??", 0) == 0) continue;
        const std::size_t slash = w.find_last_of('/');
        if (f.size() > 60) f = f.substr(0, 57) + "...";
        frames += (frames.empty() ? "" : " <- ") + (slash == std::string::npos ? w : w.substr(slash + 1)) +
                  " (" + f + ")";
      }
      pclose(p);
      if (!frames.empty()) result = frames;
    }
  }
  cache[pc] = result;
  return result;
}

}  // namespace

void report(Report r) {
  auto& all = emu().reports;
  const Key key{int(r.kind), r.pc, r.other_pc};
  const auto it = index_of().find(key);
  if (it != index_of().end()) {
    ++all[it->second].count;
    return;
  }
  index_of()[key] = all.size();
  all.push_back(std::move(r));
}

}  // namespace detail

using namespace detail;

const char* kind_name(ReportKind kind) {
  switch (kind) {
    case ReportKind::kLdsRace: return "LDS race";
    case ReportKind::kLdsIntraWave: return "LDS exchange within a wave without a sync point";
    case ReportKind::kLdsWriteNotWaited: return "LDS write not waited for before s_barrier";
    case ReportKind::kLdsDmaInFlight: return "read of an in-flight direct-to-LDS load";
    case ReportKind::kLdsUninitialized: return "read of unwritten LDS";
    case ReportKind::kLdsOutOfPlan: return "LDS access outside the declared bytes";
    case ReportKind::kBufferOutOfAllocation: return "buffer access outside its allocation";
    case ReportKind::kBufferStraddle: return "buffer component straddling num_records";
    case ReportKind::kDivergentCollective: return "divergent wave-level instruction";
    case ReportKind::kMisuse: return "instruction misuse";
  }
  return "?";
}

const char* trace_kind_name(TraceKind kind) {
  switch (kind) {
    case TraceKind::kSetPrio: return "s_setprio";
    case TraceKind::kSchedBarrier: return "sched_barrier";
    case TraceKind::kSchedGroupBarrier: return "sched_group_barrier";
    case TraceKind::kWaveBarrier: return "wave_barrier";
    case TraceKind::kBarrier: return "s_barrier";
    case TraceKind::kFence: return "fence";
    case TraceKind::kWaitcnt: return "s_waitcnt";
    case TraceKind::kImplicitWait: return "s_waitcnt (compiler)";
    case TraceKind::kMfma: return "v_mfma";
    case TraceKind::kBufferLoad: return "buffer_load";
    case TraceKind::kBufferStore: return "buffer_store";
    case TraceKind::kLdsDma: return "buffer_load ... lds";
  }
  return "?";
}

std::vector<Report> reports() { return emu().reports; }

std::size_t report_count(ReportKind kind) {
  std::size_t n = 0;
  for (const Report& r : emu().reports) n += r.kind == kind ? 1 : 0;
  return n;
}

void clear_reports() {
  emu().reports.clear();
  index_of().clear();
}

std::string describe(const Report& r) {
  std::string s = std::string("[") + kind_name(r.kind) + "] workgroup " + std::to_string(r.workgroup) +
                  ": " + r.detail;
  if (r.pc != 0) s += "\n    at " + symbolize(r.pc);
  if (r.other_pc != 0) s += "\n    other access at " + symbolize(r.other_pc);
  if (r.count > 1) s += "\n    (" + std::to_string(r.count) + " occurrences at these locations)";
  return s;
}

std::string describe_all() {
  std::string s;
  for (const Report& r : emu().reports) s += describe(r) + "\n";
  return s.empty() ? "no reports" : s;
}

}  // namespace tessera::amd::emulation
