// Vector memory: raw buffer loads and stores through a descriptor, direct-to-LDS loads,
// and the wave's vmcnt.
//
// The range check follows LLVM's description of llvm.amdgcn.raw.buffer.load/store and of
// the clang builtins (clang/docs/AMDGPUBuiltins.rst, "Raw Buffer Load/Store"): the lane
// offset is range-checked, the scalar offset is added after the check; an out-of-range
// load reads 0 and an out-of-range store is dropped. Wider accesses are checked per
// 32-bit component (the buffer.hpp contract). A dword that straddles num_records is
// chip-dependent (MLIR's AMDGPU dialect: "partially-out of bounds have chipset-dependent
// behavior"): a load reads it as HardwareChoices::straddle says (0, or whole with 0xff past
// num_records), so that CI can run a kernel under both; a straddling store is reported.
// An access whose address is not a multiple of min(size, 4) is reported: the hardware's
// answer depends on SH_MEM_CONFIG.alignment_mode (DWORD mode ignores the two low address
// bits of dword and wider accesses; the unaligned mode, which the HSA ABI asks for, does
// not); the emulator then accesses the bytes as addressed.
//
// vmcnt: a wave's vector-memory instructions complete in order (gfx9 without vscnt:
// loads and stores alike). A load into registers gives its data at once, since the
// compiler waits before the registers are used; it still occupies its place in the
// order. A direct-to-LDS load reads global memory when issued and writes LDS only when
// it completes, i.e. when an s_waitcnt vmcnt covers it, when the wave would exceed the
// 63 instructions vmcnt can count, or at one of the waits the compiler inserts on its
// own (a release fence, when HardwareChoices::fence_waits_for_dma; an LDS read of the
// wave's own in-flight bytes). Lane i's bytes land at M0 + 4 i for 1-, 2- and 4-byte loads
// and at M0 + 16 i for 12- and 16-byte ones (a 12-byte load leaves the slot's last dword
// alone): LLVM's AMDGPUDMAOperations.md and the CDNA4 ISA guide.
#include <cstring>

#include "state.hpp"

namespace tessera::amd::emulation {
namespace detail {

#define TESSERA_EMU_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))

void vm_complete_until(Wave& w, std::uint64_t index) {
  if (index <= w.vm_completed) return;
  w.vm_completed = index;
  while (!w.dma.empty() && w.dma.front().index < w.vm_completed) {
    lds_commit_dma(w, w.dma.front());
    w.dma.pop_front();
  }
}

void vm_count_issue(Lane& l, Wave& w) {
  ++l.vm_issued;
  if (l.vm_issued > w.vm_issued) w.vm_issued = l.vm_issued;
  // vmcnt has 6 bits: the wave cannot issue a 64th instruction before the oldest completes.
  if (w.vm_issued - w.vm_completed > kMaxVmcnt) vm_complete_until(w, w.vm_issued - kMaxVmcnt);
}

namespace {

const Allocation* find_allocation(std::uintptr_t begin, std::uintptr_t end) {
  for (const Allocation& a : emu().allocations) {
    if (begin >= a.begin && end <= a.end) return &a;
  }
  return nullptr;
}

std::string nearest_allocation(std::uintptr_t address) {
  const Allocation* best = nullptr;
  std::uintptr_t best_distance = ~std::uintptr_t(0);
  for (const Allocation& a : emu().allocations) {
    const std::uintptr_t d = address < a.begin ? a.begin - address
                             : address >= a.end ? address - a.end + 1 : 0;
    if (d < best_distance) {
      best_distance = d;
      best = &a;
    }
  }
  if (best == nullptr) return "no allocation";
  const std::intptr_t past = std::intptr_t(address) - std::intptr_t(best->end);
  return "'" + best->name + "', " + std::to_string(best->end - best->begin) + " bytes; the access starts " +
         (past >= 0 ? std::to_string(past) + " bytes past its end"
                    : std::to_string(std::intptr_t(best->begin) - std::intptr_t(address)) + " bytes before it");
}

Report buffer_report(ReportKind kind, std::uint64_t offset, std::uint64_t end, std::uintptr_t pc) {
  Report r{kind};
  r.workgroup = emu().wg.id;
  r.wave = g_lane->wave;
  r.lane = g_lane->lane;
  r.begin = offset;
  r.end = end;
  r.pc = pc;
  return r;
}

void report_misaligned(const BufferResource& r, std::uint32_t voffset, std::uint32_t soffset, int bytes,
                       std::uintptr_t pc, const char* access) {
  const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(r.base) + soffset + voffset;
  const std::uintptr_t alignment = std::uintptr_t(bytes < 4 ? bytes : 4);
  if (address % alignment == 0 || count_if_reported(ReportKind::kBufferMisaligned, pc, 0)) return;
  Report rep = buffer_report(ReportKind::kBufferMisaligned, voffset, std::uint64_t(voffset) + std::uint64_t(bytes), pc);
  rep.detail = std::string(access) + " of " + std::to_string(bytes) + " bytes at an address " +
               std::to_string(address % alignment) + " bytes past a multiple of " + std::to_string(alignment) +
               " (base + scalar offset " + std::to_string(soffset) + " + lane offset " + std::to_string(voffset) +
               "): what the hardware reads depends on SH_MEM_CONFIG.alignment_mode (in DWORD mode it ignores "
               "the two low address bits); the emulator accessed the bytes as addressed";
  report(rep);
}

// One lane's access of `bytes` at lane offset `voffset`: calls visit(component offset,
// size, address, in_bytes, fill) for each component: its first in_bytes bytes are at
// `address` (0: none), the rest read as `fill` (a load) or are not written (a store).
template <class Visit>
void for_each_component(const BufferResource& r, std::uint32_t voffset, std::uint32_t soffset,
                        int bytes, std::uintptr_t pc, bool store, Visit visit) {
  const int size = bytes < 4 ? bytes : 4;
  const char* access = store ? "a store" : "a load";
  report_misaligned(r, voffset, soffset, bytes, pc, access);
  const bool whole = emu().options.hardware.straddle == StraddleRule::kWhole;
  for (int c = 0; c < bytes; c += size) {
    const std::uint64_t offset = std::uint64_t(voffset) + std::uint64_t(c);
    const std::uint64_t end = offset + std::uint64_t(size);
    int in_bytes = end <= r.num_records ? size : 0;
    unsigned char fill = 0;
    if (offset < r.num_records && end > r.num_records) {  // the component straddles
      if (store) {
        if (!count_if_reported(ReportKind::kBufferStraddle, pc, 0)) {
          Report rep = buffer_report(ReportKind::kBufferStraddle, offset, end, pc);
          rep.detail = "a store component [" + std::to_string(offset) + ", " + std::to_string(end) +
                       ") straddles num_records = " + std::to_string(r.num_records) +
                       " (the hardware drops it or writes past num_records, chip-dependently; the "
                       "emulator dropped it)";
          report(rep);
        }
      } else {
        ++emu().stats.load_straddles;
        if (whole) {
          in_bytes = int(r.num_records - offset);
          fill = 0xff;
        }
      }
    }
    std::uintptr_t address = 0;
    if (in_bytes > 0) {
      address = reinterpret_cast<std::uintptr_t>(r.base) + soffset + offset;
      if (!emu().allocations.empty() &&
          find_allocation(address, address + std::uintptr_t(in_bytes)) == nullptr) {
        if (!count_if_reported(ReportKind::kBufferOutOfAllocation, pc, 0)) {
          Report rep = buffer_report(ReportKind::kBufferOutOfAllocation, offset, end, pc);
          rep.detail = std::string(access) + " at lane offset " + std::to_string(offset) +
                       " is inside num_records = " + std::to_string(r.num_records) +
                       " but outside every allocation (nearest: " + nearest_allocation(address) +
                       "); the emulator did not touch it";
          report(rep);
        }
        in_bytes = 0;
        fill = 0;
      }
    }
    visit(c, size, address, in_bytes, fill);
  }
}

// Lane i's bytes of a direct-to-LDS load start at M0 + slot * i.
int lds_dma_slot(int bytes) { return bytes <= 4 ? 4 : 16; }

}  // namespace

void resolve_lds_dma(Wave& w) {
  Workgroup& wg = emu().wg;
  const Lane* first = nullptr;
  DmaOp op;
  op.index = w.vm_issued;
  op.issue_epoch = wg.epoch;
  for (int i = 0; i < w.lanes; ++i) {
    Lane& l = wg.lanes[std::size_t(w.first_lane + i)];
    if (l.ended) continue;
    if (first == nullptr) {
      first = &l;
      op.pc = l.call.pc;
      op.bytes = int(l.call.a);
      op.slot = lds_dma_slot(op.bytes);
      op.lds_offset = std::int64_t(reinterpret_cast<std::uintptr_t>(l.dma_lds)) -
                      std::int64_t(reinterpret_cast<std::uintptr_t>(wg.lds));
    }
    // M0 and the descriptor are scalar registers: one value for the wave.
    if (l.dma_lds != first->dma_lds || l.dma_rsrc.base != first->dma_rsrc.base ||
        l.dma_rsrc.num_records != first->dma_rsrc.num_records || l.dma_soffset != first->dma_soffset) {
      Report r{ReportKind::kMisuse};
      r.workgroup = wg.id;
      r.wave = w.id;
      r.lane = l.lane;
      r.other_lane = first->lane;
      r.pc = op.pc;
      r.detail = "a direct-to-LDS load whose LDS base, descriptor or scalar offset differs between "
                 "lanes (they are scalar registers: lane " + std::to_string(first->lane) +
                 "'s values were used)";
      report(r);
    }
    op.lane_mask |= std::uint64_t(1) << l.lane;
    g_lane = &l;  // reports name the lane whose access they are about
    for_each_component(first->dma_rsrc, l.dma_voffset, first->dma_soffset, op.bytes, op.pc, false,
                       [&](int c, int size, std::uintptr_t address, int in_bytes, unsigned char fill) {
                         unsigned char* dst = &op.data[l.lane][c];
                         if (in_bytes > 0) std::memcpy(dst, reinterpret_cast<const void*>(address), std::size_t(in_bytes));
                         std::memset(dst + in_bytes, fill, std::size_t(size - in_bytes));
                       });
    g_lane = nullptr;
  }
  if (!target_is_gfx950() && op.bytes > 4) {
    Report r{ReportKind::kMisuse};
    r.workgroup = wg.id;
    r.wave = w.id;
    r.pc = op.pc;
    r.detail = "a " + std::to_string(op.bytes) +
               "-byte direct-to-LDS load: gfx942 moves 1, 2 or 4 bytes per lane (12 and 16 need gfx950)";
    report(r);
  }
  record(w, TraceKind::kLdsDma, op.pc, std::uint32_t(op.bytes));
  lds_mark_dma(w, op);
  w.dma.push_back(op);
  for (int i = 0; i < w.lanes; ++i) ++wg.lanes[std::size_t(w.first_lane + i)].vm_issued;
  ++w.vm_issued;
  if (w.vm_issued - w.vm_completed > kMaxVmcnt) vm_complete_until(w, w.vm_issued - kMaxVmcnt);
}

}  // namespace detail

using namespace detail;

void buffer_load(const BufferResource& r, std::uint32_t lane_offset, std::uint32_t scalar_offset,
                 int bytes, void* out) {
  Lane& l = current_lane("buffer_load");
  Wave& w = wave_of(l);
  const std::uintptr_t pc = TESSERA_EMU_PC;
  auto* dst = static_cast<unsigned char*>(out);
  for_each_component(r, lane_offset, scalar_offset, bytes, pc, false,
                     [&](int c, int size, std::uintptr_t address, int in_bytes, unsigned char fill) {
                       if (in_bytes > 0) std::memcpy(dst + c, reinterpret_cast<const void*>(address), std::size_t(in_bytes));
                       std::memset(dst + c + in_bytes, fill, std::size_t(size - in_bytes));
                     });
  if (l.lane == 0) record(w, TraceKind::kBufferLoad, pc, std::uint32_t(bytes));
  vm_count_issue(l, w);
}

void buffer_store(const BufferResource& r, std::uint32_t lane_offset, std::uint32_t scalar_offset,
                  int bytes, const void* in) {
  Lane& l = current_lane("buffer_store");
  Wave& w = wave_of(l);
  const std::uintptr_t pc = TESSERA_EMU_PC;
  const auto* src = static_cast<const unsigned char*>(in);
  for_each_component(r, lane_offset, scalar_offset, bytes, pc, true,
                     [&](int c, int size, std::uintptr_t address, int in_bytes, unsigned char) {
                       if (in_bytes == size) std::memcpy(reinterpret_cast<void*>(address), src + c, std::size_t(size));
                     });
  if (l.lane == 0) record(w, TraceKind::kBufferStore, pc, std::uint32_t(bytes));
  vm_count_issue(l, w);
}

void buffer_load_to_lds(const BufferResource& r, void* lds_base, std::uint32_t lane_offset,
                        std::uint32_t scalar_offset, int bytes) {
  Lane& l = current_lane("buffer_load_to_lds");
  l.dma_rsrc = r;
  l.dma_lds = lds_base;
  l.dma_voffset = lane_offset;
  l.dma_soffset = scalar_offset;
  // A wave-level stop, so that every lane's bytes are in flight before any lane reads LDS.
  stop_at(l, Call::kLdsDma, TESSERA_EMU_PC, std::uint32_t(bytes));
}

void register_allocation(const void* base, std::size_t bytes, const char* name) {
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  emu().allocations.push_back(Allocation{b, b + bytes, name != nullptr ? name : "?"});
}

void unregister_allocation(const void* base) {
  auto& all = emu().allocations;
  for (auto it = all.begin(); it != all.end(); ++it) {
    if (it->begin == reinterpret_cast<std::uintptr_t>(base)) {
      all.erase(it);
      return;
    }
  }
}

}  // namespace tessera::amd::emulation
