// Reports: what the emulator found, folded by kind and code location, and described with
// source locations (addr2line on the running binary, when it has debug information).
#include <dlfcn.h>

#include <algorithm>
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

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// The frames at a code address, innermost (inlined) first: "file:line function" joined
// with " <- ", at most four. llvm-symbolizer reads clang's DWARF 5 and its inlining
// records; binutils' addr2line is the fallback (often without line numbers for clang).
std::string frames_at(const char* file, std::uintptr_t offset) {
  char cmd[1200];
  std::snprintf(cmd, sizeof cmd,
                "llvm-symbolizer --functions=short --inlining --obj='%s' 0x%zx 2>/dev/null || "
                "addr2line -f -i -e '%s' 0x%zx 2>/dev/null",
                file, std::size_t(offset), file, std::size_t(offset));
  FILE* p = popen(cmd, "r");
  if (p == nullptr) return "";
  std::string frames;
  int count = 0;
  char function[1024], where[1024];
  while (std::fgets(function, sizeof function, p) != nullptr) {
    const std::string f = trim(function);
    if (f.empty()) continue;  // llvm-symbolizer ends the address with a blank line
    if (std::fgets(where, sizeof where, p) == nullptr) break;
    std::string w = trim(where);
    if (w.rfind("??", 0) == 0 || count == 4) continue;
    const std::size_t slash = w.find_last_of('/');
    if (slash != std::string::npos) w = w.substr(slash + 1);
    const std::size_t column = w.find(':') == std::string::npos ? std::string::npos : w.find(':', w.find(':') + 1);
    if (column != std::string::npos) w = w.substr(0, column);  // file:line, no column
    frames += (frames.empty() ? "" : " <- ") + w + " " + f;
    ++count;
  }
  pclose(p);
  return frames;
}

// Where a code address is in the source, or "0x..." when that cannot be found. The
// addresses are return addresses of hook calls: the call is the byte before.
std::string symbolize(std::uintptr_t pc) {
  static std::map<std::uintptr_t, std::string> cache;
  if (pc == 0) return "?";
  const auto it = cache.find(pc);
  if (it != cache.end()) return it->second;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%zx", std::size_t(pc));
  std::string result = hex;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(pc - 1), &info) != 0 && info.dli_fname != nullptr) {
    const std::uintptr_t offset = pc - 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    const std::string frames = frames_at(info.dli_fname, offset);
    if (!frames.empty()) result = frames;
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
  // Unrolled loops give one report per instruction; group those that name the same source
  // lines, and show the first of each group.
  std::map<std::tuple<int, std::string, std::string>, std::pair<const Report*, std::uint64_t>> groups;
  std::vector<const Report*> order;
  for (const Report& r : emu().reports) {
    auto& g = groups[{int(r.kind), symbolize(r.pc), symbolize(r.other_pc)}];
    if (g.first == nullptr) {
      g.first = &r;
      order.push_back(&r);
    }
    g.second += r.count;
  }
  // Races first (the enum's order), then in the order first seen.
  std::sort(order.begin(), order.end(), [](const Report* x, const Report* y) {
    return int(x->kind) != int(y->kind) ? int(x->kind) < int(y->kind) : x < y;  // x < y: first seen
  });
  std::string s;
  for (const Report* r : order) {
    Report shown = *r;
    shown.count = groups[{int(r->kind), symbolize(r->pc), symbolize(r->other_pc)}].second;
    s += describe(shown) + "\n";
  }
  return s.empty() ? "no reports" : s;
}

}  // namespace tessera::amd::emulation
