// The workgroup's LDS and the LDS race detector.
//
// How LDS accesses are seen: kernels touch LDS through ordinary C++ pointers. The
// translation units that run kernels are compiled with -fsanitize=thread, which makes
// clang call __tsan_read4(p), __tsan_write16(p), ... before every memory access that may
// be shared; no ThreadSanitizer runtime is linked: the functions at the bottom of this
// file are those calls, and they look only at addresses inside the emulator's LDS mapping
// (one subtraction and one comparison for every other access).
//
// What is checked, per byte (a ByteShadow each):
//  - between waves: two accesses of which one writes, in the same barrier interval (no
//    s_barrier that both waves passed between them): kLdsRace. Barrier intervals are
//    numbered by the workgroup's epoch, which every release of s_barrier advances for all
//    waves that have not ended, so "a barrier both passed" is "a different epoch";
//  - a write that another wave reads after a bare s_barrier, where the writer did not
//    wait for its LDS writes (s_waitcnt lgkmcnt(0), or the fence of block_barrier())
//    before that barrier: kLdsWriteNotWaited (gfx90a+ do not wait at s_barrier);
//  - within a wave: two lanes exchanging bytes between two wave sync points
//    (kLdsIntraWave): the hardware runs them in lock-step, the emulator one at a time;
//  - direct-to-LDS loads: their bytes are "in flight" from issue to completion; another
//    wave reading them then gets the old bytes and a kLdsDmaInFlight report; the issuing
//    wave's own read makes the compiler's wait happen (SIInsertWaitcnts inserts a vmcnt
//    wait before an LDS read that may alias an in-flight LDS DMA: llvm-project PRs
//    74537 and 170660), recorded as kImplicitWait;
//  - LDS reads complete asynchronously: a read is complete only at the wave's next
//    s_waitcnt lgkmcnt(0) or release fence (the compiler's own waits before a value is
//    used are not seen, so this is conservative). A direct-to-LDS load is not ordered with
//    earlier LDS reads, not even the issuing wave's own (llvm-project PR 142018), so one
//    that targets bytes an unwaited read covers -- the wave's own, or another wave's not
//    waited for before the barrier interval the load is issued in -- may land before the
//    read has read them: kLdsReadNotWaited;
//  - reads of bytes no one wrote in this workgroup (kLdsUninitialized) and accesses
//    outside the declared bytes (kLdsOutOfPlan).
#include <cstring>

#include "state.hpp"

namespace tessera::amd::emulation {
namespace detail {

namespace {

std::size_t g_shadow_dirty = 0;  // bytes of shadow the last workgroup may have touched
constexpr std::uint8_t kWholeWave = 0xff;  // "lane" of bytes a direct-to-LDS load wrote

// Per wave, one bit per LDS dword: the dwords its LDS reads cover that no lgkmcnt wait has
// covered yet (pending), and those whose reads were waited for in the current barrier
// interval (waited: still unordered with another wave's load issued in this interval).
struct ReadsInFlight {
  std::vector<std::uint64_t> pending, waited;
  std::size_t lo = 0, hi = 0;  // the bitmap words that may be non-zero
  bool any_waited = false;
};
ReadsInFlight g_reads[kMaxWaves];
constexpr std::size_t kReadWords = kMaxLdsBytes / 4 / 64;

inline void note_read_in_flight(int wave, std::size_t begin, std::size_t end) {
  ReadsInFlight& r = g_reads[wave];
  const std::size_t first = begin >> 2, last = (end - 1) >> 2;
  for (std::size_t d = first; d <= last; ++d) r.pending[d >> 6] |= std::uint64_t(1) << (d & 63);
  if (r.lo == r.hi) {
    r.lo = first >> 6;
    r.hi = (last >> 6) + 1;
  } else {
    if ((first >> 6) < r.lo) r.lo = first >> 6;
    if ((last >> 6) + 1 > r.hi) r.hi = (last >> 6) + 1;
  }
}

inline bool read_bit(const std::vector<std::uint64_t>& bits, std::size_t dword) {
  return (bits[dword >> 6] >> (dword & 63) & 1u) != 0;
}

// What one access found, one entry per kind; reported once per access.
struct Finding {
  bool hit = false;
  std::uint64_t begin = 0, end = 0;
  int other_wave = -1, other_lane = -1;
  std::uintptr_t other_pc = 0;
  const char* what = "";

  void add(std::uint64_t byte, int wave, int lane, std::uintptr_t pc, const char* w) {
    if (!hit) {
      hit = true;
      begin = byte;
      other_wave = wave;
      other_lane = lane;
      other_pc = pc;
      what = w;
    }
    end = byte + 1;
  }
};

std::string range(std::uint64_t b, std::uint64_t e) {
  return "[" + std::to_string(b) + ", " + std::to_string(e) + ")";
}

void emit(ReportKind kind, const Finding& f, const Lane& l, std::uintptr_t pc, const std::string& detail) {
  Report r{kind};  // (callers test count_if_reported first: the detail is costly to build)
  r.workgroup = emu().wg.id;
  r.wave = l.wave;
  r.lane = l.lane;
  r.other_wave = f.other_wave;
  r.other_lane = f.other_lane == kWholeWave ? -1 : f.other_lane;
  r.begin = f.begin;
  r.end = f.end;
  r.pc = pc;
  r.other_pc = f.other_pc;
  r.detail = detail;
  report(std::move(r));
}

std::string who(int wave, int lane) {
  return "wave " + std::to_string(wave) + (lane >= 0 && lane != kWholeWave ? " lane " + std::to_string(lane) : "");
}

bool published_before(const ByteShadow& b, std::uint32_t epoch) {
  const Wave& writer = emu().wg.waves[b.write_wave];
  return b.write_flush < writer.flush_epochs.size() && writer.flush_epochs[b.write_flush] < epoch;
}

void out_of_plan(const Lane& l, std::int64_t offset, std::size_t bytes, std::uintptr_t pc, bool write) {
  Finding f;
  f.add(std::uint64_t(offset), -1, -1, 0, "");
  f.end = std::uint64_t(offset + std::int64_t(bytes));
  emit(ReportKind::kLdsOutOfPlan, f, l, pc,
       std::string(write ? "a write" : "a read") + " of LDS bytes " +
           range(std::uint64_t(offset), std::uint64_t(offset + std::int64_t(bytes))) +
           " outside the " + std::to_string(emu().wg.lds_bytes) + " bytes the kernel declared" +
           (offset < 0 ? " (before them)" : ""));
}

// What every access leaves in the shadow, found something or not.
inline void note_read(std::size_t i, const Wave& w, const Lane& l, std::uint32_t epoch,
                      std::uintptr_t pc) {
  ByteShadow& b = emu().shadow[i];
  if (b.read_epoch != epoch) {
    b.read_epoch = epoch;
    b.read_waves = 0;
    b.read_multi = 0;
    emu().sites[i].first_read_wave = std::uint8_t(w.id);
    emu().sites[i].first_read_pc = pc;
  }
  b.read_waves = std::uint16_t(b.read_waves | (1u << w.id));
  if (b.read_wave == w.id && b.read_segment == w.segment) {
    if (b.read_lane != l.lane) b.read_multi = 1;
  } else {
    b.read_multi = 0;
    emu().sites[i].read_pc = pc;
  }
  b.read_wave = std::uint8_t(w.id);
  b.read_lane = std::uint8_t(l.lane);
  b.read_segment = w.segment;
}

inline void note_write(std::size_t i, const Wave& w, const Lane& l, std::uint32_t epoch,
                       std::uintptr_t pc) {
  ByteShadow& b = emu().shadow[i];
  b.write_epoch = epoch;
  b.write_wave = std::uint8_t(w.id);
  b.write_lane = std::uint8_t(l.lane);
  b.write_segment = w.segment;
  b.write_flush = std::uint32_t(w.flush_epochs.size());
  emu().sites[i].write_pc = pc;
}

// True when the access finds nothing to report in any of its bytes: the common case,
// decided without changing the shadow (but for caching that a write was published), so
// that the full check below runs only on a hit.
inline bool clean(ByteShadow* shadow, std::size_t begin, std::size_t end, const Wave& w,
                  const Lane& l, std::uint32_t epoch, bool write, bool uninitialized_matters) {
  const unsigned me = 1u << w.id;
  for (std::size_t i = begin; i < end; ++i) {
    ByteShadow& b = shadow[i];
    if (b.dma_index != 0) return false;
    const bool same_segment_other_lane_write = b.write_wave == w.id && b.write_epoch != 0 &&
                                               b.write_segment == w.segment &&
                                               b.write_lane != l.lane && b.write_lane != kWholeWave;
    if (same_segment_other_lane_write) return false;
    if (!write) {
      if (b.write_epoch == 0) {
        if (uninitialized_matters) return false;
      } else if (b.write_wave != w.id) {
        if (b.write_epoch == epoch) return false;
        if (b.write_flush != kPublished) {
          if (!published_before(b, epoch)) return false;
          b.write_flush = kPublished;  // true for every later interval too: check once
        }
      }
    } else {
      if (b.write_epoch == epoch && b.write_wave != w.id) return false;
      if (b.read_epoch == epoch && (b.read_waves & ~me) != 0) return false;
      if (b.read_epoch == epoch && b.read_wave == w.id && b.read_segment == w.segment &&
          (b.read_lane != l.lane || b.read_multi)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

void lds_reads_waited(const Wave& w) {
  ReadsInFlight& r = g_reads[w.id];
  for (std::size_t i = r.lo; i < r.hi; ++i) {
    r.waited[i] |= r.pending[i];
    r.pending[i] = 0;
  }
  r.any_waited = r.any_waited || r.hi > r.lo;
}

void lds_interval_ended() {
  for (ReadsInFlight& r : g_reads) {
    if (!r.any_waited) continue;
    for (std::size_t i = r.lo; i < r.hi; ++i) r.waited[i] = 0;
    r.any_waited = false;
  }
}

void lds_reset_for_workgroup() {
  Emulator& e = emu();
  for (ReadsInFlight& r : g_reads) {
    if (r.pending.empty()) {
      r.pending.assign(kReadWords, 0);
      r.waited.assign(kReadWords, 0);
    }
    for (std::size_t i = r.lo; i < r.hi; ++i) r.pending[i] = r.waited[i] = 0;
    r.lo = r.hi = 0;
    r.any_waited = false;
  }
  // The hardware leaves LDS holding whatever the last workgroup left; 0xff bytes read as
  // NaN in every float format, so a read of bytes no one wrote is hard to miss.
  std::memset(e.arena, 0xff, kLdsRedzone + kMaxLdsBytes + kLdsRedzone);
  std::memset(static_cast<void*>(e.shadow.data()), 0, g_shadow_dirty * sizeof(ByteShadow));
  std::memset(static_cast<void*>(e.sites.data()), 0, g_shadow_dirty * sizeof(ByteSites));
  g_shadow_dirty = 0;
}

void lds_access(std::uintptr_t address, std::size_t bytes, bool write, std::uintptr_t pc) {
  Lane* lp = g_lane;
  if (lp == nullptr) return;  // the emulator's own accesses
  Lane& l = *lp;
  Emulator& e = emu();
  Workgroup& wg = e.wg;
  const std::int64_t offset = std::int64_t(address) - std::int64_t(reinterpret_cast<std::uintptr_t>(wg.lds));
  if (offset < 0 || std::uint64_t(offset) + bytes > wg.lds_bytes) {
    out_of_plan(l, offset, bytes, pc, write);
    return;
  }
  ++e.stats.lds_accesses;
  const std::size_t begin = std::size_t(offset), end = begin + bytes;
  if (end > g_shadow_dirty) g_shadow_dirty = end;
  Wave& w = wave_of(l);
  const std::uint32_t epoch = wg.epoch;
  const std::uint16_t me = std::uint16_t(1u << w.id);

  if (!write && !w.dma.empty()) {  // the compiler's wait before reading the wave's own in-flight bytes
    std::uint64_t need = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const ByteShadow& b = e.shadow[i];
      if (b.dma_index != 0 && b.dma_wave == w.id && b.dma_index > need) need = b.dma_index;
    }
    if (need > w.vm_completed) {
      vm_complete_until(w, need);
      ++e.stats.implicit_waits;
      record(w, TraceKind::kImplicitWait, pc, std::uint32_t(w.vm_issued - w.vm_completed));
    }
  }

  if (!write) note_read_in_flight(w.id, begin, end);

  if (clean(e.shadow.data(), begin, end, w, l, epoch, write, e.options.report_uninitialized_lds)) {
    for (std::size_t i = begin; i < end; ++i) {
      if (write) {
        note_write(i, w, l, epoch, pc);
      } else {
        note_read(i, w, l, epoch, pc);
      }
    }
    return;
  }

  Finding race, intra, not_waited, in_flight, uninitialized;
  for (std::size_t i = begin; i < end; ++i) {
    ByteShadow& b = e.shadow[i];
    if (b.dma_index != 0) {  // bytes of another wave's load in flight (or, for writes, any)
      const DmaOp* op = nullptr;
      for (const DmaOp& d : wg.waves[b.dma_wave].dma) {
        if (d.index + 1 == b.dma_index) op = &d;
      }
      (write ? race : in_flight).add(i, b.dma_wave, kWholeWave, op != nullptr ? op->pc : 0,
                                     "has a direct-to-LDS load to it in flight");
      if (!write) continue;  // the read sees the old bytes; nothing else to say about them
    }
    if (!write) {
      if (b.write_epoch == 0) {
        if (e.options.report_uninitialized_lds) uninitialized.add(i, -1, -1, 0, "");
      } else if (b.write_wave != w.id) {
        if (b.write_epoch == epoch) {
          race.add(i, b.write_wave, b.write_lane, e.sites[i].write_pc, "wrote it in the same barrier interval");
        } else if (b.write_flush != kPublished) {
          if (published_before(b, epoch)) {
            b.write_flush = kPublished;  // true for every later interval too: check once
          } else {
            not_waited.add(i, b.write_wave, b.write_lane, e.sites[i].write_pc, "");
          }
        }
      } else if (b.write_lane != l.lane && b.write_lane != kWholeWave && b.write_segment == w.segment) {
        intra.add(i, w.id, b.write_lane, e.sites[i].write_pc, "wrote it");
      }
      note_read(i, w, l, epoch, pc);
      continue;
    }
    // A write.
    if (b.write_epoch == epoch && b.write_wave != w.id) {
      race.add(i, b.write_wave, b.write_lane, e.sites[i].write_pc, "also wrote it in the same barrier interval");
    } else if (b.read_epoch == epoch && (b.read_waves & ~me) != 0) {
      const ByteSites& site = e.sites[i];
      const bool other_is_first = site.first_read_wave != w.id;
      race.add(i, other_is_first ? site.first_read_wave : b.read_wave, -1,
               other_is_first ? site.first_read_pc : site.read_pc, "read it in the same barrier interval");
    } else if (b.write_wave == w.id && b.write_epoch != 0 && b.write_segment == w.segment &&
               b.write_lane != l.lane && b.write_lane != kWholeWave) {
      intra.add(i, w.id, b.write_lane, e.sites[i].write_pc, "also wrote it");
    } else if (b.read_epoch == epoch && b.read_wave == w.id && b.read_segment == w.segment &&
               (b.read_lane != l.lane || b.read_multi)) {
      intra.add(i, w.id, b.read_multi ? -1 : b.read_lane, e.sites[i].read_pc, "read it");
    }
    note_write(i, w, l, epoch, pc);
  }

  if (!(race.hit || in_flight.hit || not_waited.hit || intra.hit || uninitialized.hit)) return;
  const char* verb = write ? "wrote" : "read";
  auto me_str = [&] { return who(w.id, l.lane); };
  if (race.hit && !count_if_reported(ReportKind::kLdsRace, pc, race.other_pc)) {
    emit(ReportKind::kLdsRace, race, l, pc,
         me_str() + " " + verb + " LDS " + range(race.begin, race.end) + "; " +
             who(race.other_wave, race.other_lane) + " " + race.what +
             " (no s_barrier both waves passed lies between the two accesses)");
  }
  if (in_flight.hit && !count_if_reported(ReportKind::kLdsDmaInFlight, pc, in_flight.other_pc)) {
    emit(ReportKind::kLdsDmaInFlight, in_flight, l, pc,
         me_str() + " read LDS " + range(in_flight.begin, in_flight.end) + " that a direct-to-LDS load of " +
             who(in_flight.other_wave, -1) +
             " writes, but no s_waitcnt vmcnt of that wave covered the load before the barrier: "
             "the read sees the old bytes");
  }
  if (not_waited.hit && !count_if_reported(ReportKind::kLdsWriteNotWaited, pc, not_waited.other_pc)) {
    emit(ReportKind::kLdsWriteNotWaited, not_waited, l, pc,
         me_str() + " read LDS " + range(not_waited.begin, not_waited.end) + " written by " +
             who(not_waited.other_wave, not_waited.other_lane) +
             ", which passed a bare s_barrier with no s_waitcnt lgkmcnt(0) after the write: the "
             "write may not have landed (gfx90a+ do not wait at s_barrier)");
  }
  if (intra.hit && !count_if_reported(ReportKind::kLdsIntraWave, pc, intra.other_pc)) {
    emit(ReportKind::kLdsIntraWave, intra, l, pc,
         me_str() + " " + verb + " LDS " + range(intra.begin, intra.end) + "; " +
             who(intra.other_wave, intra.other_lane) + " of the same wave " + intra.what +
             " with no wave sync point between: the emulator runs one lane at a time between "
             "such points; put amd::wave_barrier() (or a wait) between the write and the read");
  }
  if (uninitialized.hit && !count_if_reported(ReportKind::kLdsUninitialized, pc, uninitialized.other_pc)) {
    emit(ReportKind::kLdsUninitialized, uninitialized, l, pc,
         me_str() + " read LDS " + range(uninitialized.begin, uninitialized.end) +
             ", which nothing wrote in this workgroup");
  }
}

void lds_mark_dma(Wave& w, const DmaOp& op) {
  Workgroup& wg = emu().wg;
  for (int lane = 0; lane < kWaveSize; ++lane) {
    if ((op.lane_mask >> lane & 1u) == 0) continue;
    const std::int64_t dst = op.lds_offset + std::int64_t(lane) * op.slot;
    Lane& l = wg.lanes[std::size_t(w.first_lane + lane)];
    if (dst < 0 || std::uint64_t(dst) + std::uint64_t(op.bytes) > wg.lds_bytes) {
      out_of_plan(l, dst, std::size_t(op.bytes), op.pc, true);
      continue;
    }
    if (std::size_t(dst) + std::size_t(op.bytes) > g_shadow_dirty) g_shadow_dirty = std::size_t(dst + op.bytes);
    Finding race;
    for (std::int64_t i = dst; i < dst + op.bytes; ++i) {
      ByteShadow& b = emu().shadow[std::size_t(i)];
      // The load may land at any time until the wait: bytes another wave touches in this
      // interval, or another wave's load in flight to them, race with it.
      if (b.dma_index != 0 && b.dma_wave != w.id) {
        race.add(std::uint64_t(i), b.dma_wave, kWholeWave, 0, "has its own direct-to-LDS load to it in flight");
      } else if (b.write_epoch == wg.epoch && b.write_wave != w.id) {
        race.add(std::uint64_t(i), b.write_wave, b.write_lane, emu().sites[std::size_t(i)].write_pc,
                 "wrote it in the same barrier interval");
      } else if (b.read_epoch == wg.epoch && (b.read_waves & ~(1u << w.id)) != 0) {
        race.add(std::uint64_t(i), emu().sites[std::size_t(i)].first_read_wave, -1,
                 emu().sites[std::size_t(i)].first_read_pc, "read it in the same barrier interval");
      }
      b.dma_index = std::uint32_t(op.index + 1);
      b.dma_wave = std::uint8_t(w.id);
    }
    if (race.hit) {
      emit(ReportKind::kLdsRace, race, l, op.pc,
           who(w.id, lane) + "'s direct-to-LDS load targets LDS " + range(race.begin, race.end) +
               ", which may land at any time until its wait; " + who(race.other_wave, race.other_lane) +
               " " + race.what);
    }
    Finding unwaited;
    for (std::int64_t i = dst & ~std::int64_t(3); i < dst + op.bytes; i += 4) {
      const std::size_t dword = std::size_t(i) >> 2;
      for (const Wave& reader : wg.waves) {
        const ReadsInFlight& r = g_reads[reader.id];
        if (read_bit(r.pending, dword) || (reader.id != w.id && read_bit(r.waited, dword))) {
          const ByteSites& site = emu().sites[std::size_t(i)];
          unwaited.add(std::uint64_t(i), reader.id, -1,
                       emu().shadow[std::size_t(i)].read_wave == reader.id ? site.read_pc : 0, "");
          unwaited.end = std::uint64_t(i + 4);
          break;
        }
      }
    }
    if (unwaited.hit && !count_if_reported(ReportKind::kLdsReadNotWaited, op.pc, unwaited.other_pc)) {
      const bool own = unwaited.other_wave == w.id;
      emit(ReportKind::kLdsReadNotWaited, unwaited, l, op.pc,
           who(w.id, lane) + "'s direct-to-LDS load targets LDS " + range(unwaited.begin, unwaited.end) +
               (own ? ", which this wave read with no s_waitcnt lgkmcnt(0) between the read and the load"
                    : ", which " + who(unwaited.other_wave, -1) +
                          " read with no s_waitcnt lgkmcnt(0) before the barrier interval the load is issued in") +
               ": direct-to-LDS loads are not ordered with earlier LDS reads, so the load may land before "
               "the read has read");
    }
  }
}

void lds_commit_dma(Wave& w, const DmaOp& op) {
  Workgroup& wg = emu().wg;
  for (int lane = 0; lane < kWaveSize; ++lane) {
    if ((op.lane_mask >> lane & 1u) == 0) continue;
    const std::int64_t dst = op.lds_offset + std::int64_t(lane) * op.slot;
    if (dst < 0 || std::uint64_t(dst) + std::uint64_t(op.bytes) > wg.lds_bytes) continue;
    std::memcpy(wg.lds + dst, op.data[lane], std::size_t(op.bytes));
    for (std::int64_t i = dst; i < dst + op.bytes; ++i) {
      ByteShadow& b = emu().shadow[std::size_t(i)];
      if (b.dma_index == op.index + 1 && b.dma_wave == w.id) b.dma_index = 0;
      b.write_epoch = wg.epoch;
      b.write_wave = std::uint8_t(w.id);
      b.write_lane = kWholeWave;
      b.write_segment = w.segment;
      emu().sites[std::size_t(i)].write_pc = op.pc;
      b.write_flush = kPublished;  // completion is the data being in LDS
    }
  }
}

}  // namespace detail
}  // namespace tessera::amd::emulation

// ---- the ThreadSanitizer instrumentation ABI, without its runtime ---------------------
using tessera::amd::emulation::detail::g_arena_begin;
using tessera::amd::emulation::detail::g_arena_size;

namespace {
inline __attribute__((always_inline)) void check(const volatile void* p, std::size_t n, bool write,
                                                 std::uintptr_t pc) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a - g_arena_begin < g_arena_size) tessera::amd::emulation::detail::lds_access(a, n, write, pc);
}
}  // namespace

#define TESSERA_EMU_CALLER reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
#define TESSERA_EMU_ACCESS(n)                                                                 \
  void __tsan_read##n(void* p) { check(p, n, false, TESSERA_EMU_CALLER); }                    \
  void __tsan_write##n(void* p) { check(p, n, true, TESSERA_EMU_CALLER); }                    \
  void __tsan_unaligned_read##n(void* p) { check(p, n, false, TESSERA_EMU_CALLER); }          \
  void __tsan_unaligned_write##n(void* p) { check(p, n, true, TESSERA_EMU_CALLER); }          \
  void __tsan_volatile_read##n(void* p) { check(p, n, false, TESSERA_EMU_CALLER); }           \
  void __tsan_volatile_write##n(void* p) { check(p, n, true, TESSERA_EMU_CALLER); }

extern "C" {
void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
TESSERA_EMU_ACCESS(1)
TESSERA_EMU_ACCESS(2)
TESSERA_EMU_ACCESS(4)
TESSERA_EMU_ACCESS(8)
TESSERA_EMU_ACCESS(16)
void __tsan_read_range(void* p, unsigned long n) { check(p, n, false, TESSERA_EMU_CALLER); }
void __tsan_write_range(void* p, unsigned long n) { check(p, n, true, TESSERA_EMU_CALLER); }
void* __tsan_memcpy(void* d, const void* s, unsigned long n) {
  check(s, n, false, TESSERA_EMU_CALLER);
  check(d, n, true, TESSERA_EMU_CALLER);
  return std::memcpy(d, s, n);
}
void* __tsan_memmove(void* d, const void* s, unsigned long n) {
  check(s, n, false, TESSERA_EMU_CALLER);
  check(d, n, true, TESSERA_EMU_CALLER);
  return std::memmove(d, s, n);
}
void* __tsan_memset(void* d, int c, unsigned long n) {
  check(d, n, true, TESSERA_EMU_CALLER);
  return std::memset(d, c, n);
}
}  // extern "C"

// Atomics (an instrumented translation unit that uses any, e.g. through the standard
// library): performed sequentially consistent, and seen as a read and a write.
#define TESSERA_EMU_RMW(bits, T, op)                                                    \
  extern "C" T __tsan_atomic##bits##_##op(volatile T* a, T v, int) {                    \
    check(a, sizeof(T), true, TESSERA_EMU_CALLER);                                      \
    return __atomic_##op(a, v, __ATOMIC_SEQ_CST);                                        \
  }
#define TESSERA_EMU_CAS(bits, T, name, weak)                                              \
  extern "C" int __tsan_atomic##bits##_compare_exchange_##name(volatile T* a, T* c, T v, int, int) { \
    check(a, sizeof(T), true, TESSERA_EMU_CALLER);                                      \
    return __atomic_compare_exchange_n(a, c, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }
#define TESSERA_EMU_ATOMICS(bits, T)                                                     \
  extern "C" T __tsan_atomic##bits##_load(const volatile T* a, int) {                   \
    check(a, sizeof(T), false, TESSERA_EMU_CALLER);                                     \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                         \
  }                                                                                      \
  extern "C" void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                \
    check(a, sizeof(T), true, TESSERA_EMU_CALLER);                                      \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                            \
  }                                                                                      \
  extern "C" T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                \
    check(a, sizeof(T), true, TESSERA_EMU_CALLER);                                      \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                  \
  }                                                                                      \
  TESSERA_EMU_RMW(bits, T, fetch_add)                                                    \
  TESSERA_EMU_RMW(bits, T, fetch_sub)                                                    \
  TESSERA_EMU_RMW(bits, T, fetch_and)                                                    \
  TESSERA_EMU_RMW(bits, T, fetch_or)                                                     \
  TESSERA_EMU_RMW(bits, T, fetch_xor)                                                    \
  TESSERA_EMU_RMW(bits, T, fetch_nand)                                                   \
  TESSERA_EMU_CAS(bits, T, strong, false)                                                \
  TESSERA_EMU_CAS(bits, T, weak, true)                                                   \
  extern "C" T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) { \
    check(a, sizeof(T), true, TESSERA_EMU_CALLER);                                      \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
    return c;                                                                            \
  }

TESSERA_EMU_ATOMICS(8, char)
TESSERA_EMU_ATOMICS(16, short)
TESSERA_EMU_ATOMICS(32, int)
TESSERA_EMU_ATOMICS(64, long long)

extern "C" void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
