// The AMD wave emulator's test-facing API: options, what it found (reports), the
// allocations it may check buffer accesses against, and the per-wave record of the
// scheduling instructions. The kernels never include this file; they include only the
// arch/ wrappers, whose emulated branches call the hooks this library defines
// (docs/emulator.md lists them and says what each models).
//
// Results computed here are EMULATED: the emulator runs Tessera's AMD kernels on the
// host with AMD semantics as documented; it is not an AMD GPU and says nothing about time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/core/status.hpp"

namespace tessera {
namespace amd {
namespace emulation {

// Which chip's rules apply: LDS capacity (64 KiB / 160 KiB), and whether the gfx950-only
// instructions (MFMA 32x32x16 and 16x16x32, 12- and 16-byte direct-to-LDS loads) exist.
enum class Target { kGfx942, kGfx950 };

// Hardware behaviours no public source settles for gfx942/gfx950 (docs/emulator.md, "What
// the model rests on"). A kernel must be right under every choice: CI runs the emulated
// MFMA suite under several (test/emulator/CMakeLists.txt).
//  mfma_denormals       MFMA f16/bf16: whether subnormal inputs (A, B, C) and outputs (D)
//                       are flushed to zero (AMD documents the flush for MI200; gfx942 and
//                       gfx950 are not documented);
//  straddle             a buffer-load dword that num_records cuts (it starts inside, ends
//                       past): read as 0 (the per-dword range check) or whole (the check on
//                       the access's first byte), its bytes past num_records then coming
//                       back as 0xff (NaN in every float format: memory the kernel must not
//                       use);
//  fence_waits_for_dma  whether block_barrier()'s release fence also waits for the wave's
//                       direct-to-LDS loads, as clang-22 emits it (LLVM has relaxed and
//                       restored that wait between versions: a kernel must state its own).
enum class Denormals { kKeep, kFlush };
enum class StraddleRule { kZero, kWhole };
struct HardwareChoices {
  Denormals mfma_denormals = Denormals::kKeep;
  StraddleRule straddle = StraddleRule::kZero;
  bool fence_waits_for_dma = true;

  // The defaults above, with the choices TESSERA_EMULATOR_HARDWARE names over them: a
  // comma-separated list of denormals=keep|flush, straddle=zero|whole,
  // fence_dma=wait|nowait (an unknown word stops the program with a message).
  static HardwareChoices from_environment();
  std::string describe() const;
};

struct Options {
  Target target = Target::kGfx950;
  HardwareChoices hardware = HardwareChoices::from_environment();
  // Run only the workgroups this accepts (by linear id); empty: all of them.
  std::function<bool(unsigned)> run_workgroup;
  // Keep every wave's scheduling record (trace()); off by default, it grows with K.
  bool record_trace = false;
  // Report reads of LDS bytes no one wrote in this workgroup.
  bool report_uninitialized_lds = true;
  // Bytes of stack per lane (each lane runs on its own stack).
  std::size_t lane_stack_bytes = 256 * 1024;
  // What current_device() reports as the CU count (0: the chip's, MI300X 304 for gfx942,
  // MI355X 256 for gfx950). Host code plans split-K from it.
  int compute_units = 0;
};

Options& options();

// Sets options for a scope and restores the previous ones after it.
class ScopedOptions {
 public:
  explicit ScopedOptions(const Options& o) : saved_(options()) { options() = o; }
  ~ScopedOptions() { options() = saved_; }
  ScopedOptions(const ScopedOptions&) = delete;
  ScopedOptions& operator=(const ScopedOptions&) = delete;

 private:
  Options saved_;
};

// ---- reports ----------------------------------------------------------------------
enum class ReportKind {
  kLdsRace,                // two waves touch the same LDS bytes, one writes, no barrier between
  kLdsIntraWave,           // two lanes of one wave exchange LDS bytes with no wave sync point
  kLdsWriteNotWaited,      // a wave's LDS write crossed a bare s_barrier with no lgkmcnt(0) wait
  kLdsDmaInFlight,         // a read of bytes whose direct-to-LDS load was not waited for
  kLdsReadNotWaited,       // a direct-to-LDS load into bytes an LDS read no lgkmcnt wait
                           // covered may still be reading (the load may land first)
  kLdsUninitialized,       // a read of LDS bytes no one wrote in this workgroup
  kLdsOutOfPlan,           // an LDS access past the bytes the kernel declared
  kBufferOutOfAllocation,  // in range for num_records, but outside the registered allocation
  kBufferStraddle,         // a store's dword straddles num_records (chip-dependent on
                           // hardware; loads follow HardwareChoices::straddle, unreported)
  kBufferMisaligned,       // a buffer access not aligned to min(its size, 4) bytes
  kDivergentCollective,    // lanes of one wave at different wave-level instructions
  kMisuse,                 // an instruction used against its rules (named in the detail)
};
const char* kind_name(ReportKind kind);

struct Report {
  explicit Report(ReportKind k) : kind(k) {}
  ReportKind kind;
  unsigned workgroup = 0;
  int wave = -1, lane = -1;              // who did the access that was caught
  int other_wave = -1, other_lane = -1;  // the earlier access it conflicts with, if any
  std::uint64_t begin = 0, end = 0;      // byte range: LDS offsets, or buffer offsets
  std::uintptr_t pc = 0, other_pc = 0;   // code addresses (symbolized by describe())
  std::string detail;
  std::uint64_t count = 1;               // occurrences folded into this report
};

// Reports since the last clear, in the order first seen. Identical findings (same kind
// and code locations) are folded into one with a count.
std::vector<Report> reports();
std::size_t report_count(ReportKind kind);
void clear_reports();
// One paragraph: kind, waves/lanes, byte range, and source locations (file:line via
// addr2line when the binary has debug information, else the raw address).
std::string describe(const Report& r);
std::string describe_all();

// ---- global memory that buffer accesses may touch ---------------------------------
// While at least one allocation is registered, a buffer access that num_records allows
// but that falls outside every registered allocation is reported (and reads 0 / is
// dropped instead of touching host memory). With none registered, num_records is trusted.
void register_allocation(const void* base, std::size_t bytes, const char* name);
void unregister_allocation(const void* base);

class ScopedAllocation {
 public:
  ScopedAllocation(const void* base, std::size_t bytes, const char* name) : base_(base) {
    register_allocation(base, bytes, name);
  }
  ~ScopedAllocation() { unregister_allocation(base_); }
  ScopedAllocation(const ScopedAllocation&) = delete;
  ScopedAllocation& operator=(const ScopedAllocation&) = delete;

 private:
  const void* base_;
};

// ---- the per-wave record of scheduling instructions ---------------------------------
enum class TraceKind {
  kSetPrio,            // a = priority
  kSchedBarrier,       // a = mask
  kSchedGroupBarrier,  // a = mask, b = count, c = sync id
  kWaveBarrier,
  kBarrier,            // the wave arrived at s_barrier; a = the barrier interval it ends
  kFence,              // workgroup release fence (block_barrier's first half)
  kWaitcnt,            // a = vmcnt, b = lgkmcnt, c = expcnt
  kImplicitWait,       // the compiler's own vmcnt wait before an LDS read of the wave's
                       // own direct-to-LDS bytes; a = operations left in flight
  kMfma,               // a = M, b = K, c = 0 f16 / 1 bf16; low-precision: 0x100 | A format << 4 |
                       // B format, plus 0x200 for the scaled forms
  kBufferLoad,         // a = bytes per lane (lane 0's view)
  kBufferStore,        // a = bytes per lane
  kLdsDma,             // a = bytes per lane
};
const char* trace_kind_name(TraceKind kind);

struct TraceEvent {
  TraceKind kind;
  std::uint32_t a = 0, b = 0, c = 0;
  std::uintptr_t pc = 0;
};

// The record of one wave of one workgroup of the last launch (Options::record_trace).
std::vector<TraceEvent> trace(unsigned workgroup, int wave);

// ---- counters of the last launch (for the emulator's own benchmark) ------------------
struct Stats {
  std::uint64_t workgroups = 0;
  std::uint64_t lanes = 0;
  std::uint64_t switches = 0;       // lane context switches
  std::uint64_t lds_accesses = 0;   // instrumented accesses that hit LDS
  std::uint64_t implicit_waits = 0;
  std::uint64_t load_straddles = 0;  // buffer-load dwords num_records cut (HardwareChoices::straddle)
};
Stats last_launch_stats();

// ---- the MFMA model's lane layouts (for tests that check them against the docs) -------
struct MfmaSlot {
  int lane;
  int index;  // element of the lane's operand vector, or accumulator register
};
// A[i][k], B[k][j] and C/D[i][j] of v_mfma_f32_<M>x<N>x<K>_{f16,bf16} as the model places them.
MfmaSlot mfma_a_slot(int m, int k_dim, int i, int k);
MfmaSlot mfma_b_slot(int n, int k_dim, int k, int j);
MfmaSlot mfma_c_slot(int m, int n, int i, int j);
// The same for the low-precision MFMAs (arch/amd/mfma_lowp.hpp; code = MfmaLowpCode::encode()):
// A[i][k] and B[k][j] in lane `lane`, value `index` of its operand (a byte; fp4: nibble
// 2 * byte + 1 for a byte's high nibble). C and D as mfma_c_slot.
MfmaSlot mfma_lowp_a_slot(std::uint32_t code, int i, int k);
MfmaSlot mfma_lowp_b_slot(std::uint32_t code, int k, int j);
// The lane whose scale register scales row i of A (column j of B) over values
// [32 block, 32 block + 32) of the instruction's K (the scaled forms).
int mfma_lowp_scale_lane(std::uint32_t code, int row, int block);

}  // namespace emulation
}  // namespace amd
}  // namespace tessera
