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

std::map<std::uintptr_t, std::string>& symbol_cache() {
  static std::map<std::uintptr_t, std::string> m;
  return m;
}

// One frame line pair of llvm-symbolizer / addr2line as "file:line function".
std::string frame(const std::string& function, std::string where) {
  const std::size_t slash = where.find_last_of('/');
  if (slash != std::string::npos) where = where.substr(slash + 1);
  const std::size_t first = where.find(':');
  const std::size_t second = first == std::string::npos ? first : where.find(':', first + 1);
  if (second != std::string::npos) where = where.substr(0, second);  // file:line, no column
  return where + " " + function;
}

// Fills the cache for code addresses of one binary: the frames at each, innermost
// (inlined) first, joined with " <- ", at most four. One llvm-symbolizer process for all
// of them (it reads clang's DWARF 5 and its inlining records; starting it costs more than
// answering); binutils' addr2line, one address at a time, where it is missing.
void symbolize_in(const char* file, const std::vector<std::pair<std::uintptr_t, std::uintptr_t>>& pcs) {
  // Any LLVM's llvm-symbolizer will do (Debian: package llvm or llvm-<version>).
  std::string cmd = std::string("S=$(command -v llvm-symbolizer || ls /usr/lib/llvm-*/bin/llvm-symbolizer "
                                "2>/dev/null | tail -n 1); [ -n \"$S\" ] && \"$S\" --functions=short "
                                "--inlining --obj='") + file + "'";
  for (const auto& p : pcs) cmd += " " + std::to_string(p.second);
  cmd += " 2>/dev/null";
  std::size_t next = 0;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    // Each address: pairs of lines (function, file:line:column), then a blank line.
    std::string frames;
    int count = 0;
    char function[1024], where[1024];
    while (next < pcs.size() && std::fgets(function, sizeof function, f) != nullptr) {
      const std::string fn = trim(function);
      if (fn.empty()) {
        if (!frames.empty()) symbol_cache()[pcs[next].first] = frames;
        ++next;
        frames.clear();
        count = 0;
        continue;
      }
      if (std::fgets(where, sizeof where, f) == nullptr) break;
      const std::string w = trim(where);
      if (w.rfind("??", 0) == 0 || count == 4) continue;
      frames += (frames.empty() ? "" : " <- ") + frame(fn, w);
      ++count;
    }
    pclose(f);
  }
  for (const auto& p : pcs) {
    if (symbol_cache().count(p.first) != 0) continue;
    char one[1200];
    std::snprintf(one, sizeof one, "addr2line -f -i -e '%s' 0x%zx 2>/dev/null", file, std::size_t(p.second));
    std::string frames;
    if (FILE* f = popen(one, "r")) {
      char function[1024], where[1024];
      while (std::fgets(function, sizeof function, f) != nullptr && std::fgets(where, sizeof where, f) != nullptr) {
        const std::string w = trim(where);
        if (w.rfind("??", 0) != 0) frames += (frames.empty() ? "" : " <- ") + frame(trim(function), w);
      }
      pclose(f);
    }
    if (!frames.empty()) symbol_cache()[p.first] = frames;
  }
}

// Symbolizes every address not in the cache yet, grouped by the binary it is in. The
// addresses are return addresses of hook calls: the call is the byte before.
void symbolize_all(const std::vector<std::uintptr_t>& pcs) {
  std::map<std::string, std::vector<std::pair<std::uintptr_t, std::uintptr_t>>> by_file;
  for (const std::uintptr_t pc : pcs) {
    if (pc == 0 || symbol_cache().count(pc) != 0) continue;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(pc - 1), &info) != 0 && info.dli_fname != nullptr) {
      by_file[info.dli_fname].push_back({pc, pc - 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase)});
    }
  }
  for (const auto& f : by_file) symbolize_in(f.first.c_str(), f.second);
  for (const std::uintptr_t pc : pcs) {
    if (pc != 0 && symbol_cache().count(pc) == 0) {
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%zx", std::size_t(pc));
      symbol_cache()[pc] = hex;
    }
  }
}

// Where a code address is in the source, or "0x..." when that cannot be found.
std::string symbolize(std::uintptr_t pc) {
  if (pc == 0) return "?";
  symbolize_all({pc});
  return symbol_cache()[pc];
}

}  // namespace

bool count_if_reported(ReportKind kind, std::uintptr_t pc, std::uintptr_t other_pc) {
  const auto it = index_of().find(Key{int(kind), pc, other_pc});
  if (it == index_of().end()) return false;
  ++emu().reports[it->second].count;
  return true;
}

void report(Report r) {
  if (count_if_reported(r.kind, r.pc, r.other_pc)) return;
  index_of()[Key{int(r.kind), r.pc, r.other_pc}] = emu().reports.size();
  emu().reports.push_back(std::move(r));
}

}  // namespace detail

using namespace detail;

const char* kind_name(ReportKind kind) {
  switch (kind) {
    case ReportKind::kLdsRace: return "LDS race";
    case ReportKind::kLdsIntraWave: return "LDS exchange within a wave without a sync point";
    case ReportKind::kLdsWriteNotWaited: return "LDS write not waited for before s_barrier";
    case ReportKind::kLdsDmaInFlight: return "read of an in-flight direct-to-LDS load";
    case ReportKind::kLdsReadNotWaited: return "direct-to-LDS load over an LDS read not waited for";
    case ReportKind::kLdsUninitialized: return "read of unwritten LDS";
    case ReportKind::kLdsOutOfPlan: return "LDS access outside the declared bytes";
    case ReportKind::kBufferOutOfAllocation: return "buffer access outside its allocation";
    case ReportKind::kBufferStraddle: return "buffer store straddling num_records";
    case ReportKind::kBufferMisaligned: return "misaligned buffer access";
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
  std::vector<std::uintptr_t> pcs;
  for (const Report& r : emu().reports) {
    pcs.push_back(r.pc);
    pcs.push_back(r.other_pc);
  }
  symbolize_all(pcs);
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
