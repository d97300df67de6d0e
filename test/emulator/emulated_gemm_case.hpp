// One emulated GEMM check, the GPU suite's check (test/gpu/gemm_case.hpp) on the wave
// emulator: fresh random inputs, poisoned outputs and a poisoned guard past every
// buffer (and on both sides of a split-K workspace), Gemm<Config>::run on the emulated
// device, then the float64 reference element by element; the host half is the GPU suite's (test/support/gemm_case_host.hpp). The
// operands are registered with the emulator, so a buffer load that num_records allows but
// the allocation does not is a report, and the test requires no report of any kind.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "emulated_gemm.hpp"
#include "gemm_case_host.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/emulator/emulator.hpp"

namespace emu_test {

namespace emu = tessera::amd::emulation;

using tessera::test::CaseShape;

// A host buffer with kGuard poisoned elements after it, registered with the emulator.
template <class T>
struct GuardedBuffer {
  static constexpr std::size_t kGuard = 64;
  std::vector<T> data;
  std::size_t size;
  emu::ScopedAllocation registration;
  GuardedBuffer(const std::vector<T>& v, const char* name)
      : data(with_guard(v)), size(v.size()), registration(data.data(), size * sizeof(T), name) {}
  static std::vector<T> with_guard(std::vector<T> v) {
    v.resize(v.size() + kGuard, tessera::test::poison_value<T>());
    return v;
  }
};

template <class Config>
emu::Target target_of() {
  return std::is_same_v<typename Config::Arch, tessera::Gfx950> ? emu::Target::kGfx950
                                                                 : emu::Target::kGfx942;
}

// What one emulated GEMM gave: the caller decides what must hold.
struct EmulatedResult : tessera::test::CaseOutcome {
  tessera::Status status = tessera::Status::kSuccess;
  std::size_t workspace_bytes = 0;
  std::size_t workspace_guard_writes = 0;  // guard floats before and after the workspace changed
  std::string reports;  // describe_all() after the run
};

// A split-K workspace of `bytes` with a poisoned guard on each side as large as the
// workspace (at least 4 KiB), so that a slice written at a wrong offset lands in a guard
// (and is counted) instead of in someone else's memory.
struct GuardedWorkspace {
  std::size_t floats, guard;
  std::vector<float> data;
  explicit GuardedWorkspace(std::size_t bytes)
      : floats((bytes + 15) / 16 * 4), guard(floats > 1024 ? floats : 1024), data(floats + 2 * guard) {
    tessera::test::poison(data);  // NaN: every slice the reduce reads must have been written
  }
  void* get() { return floats > 0 ? data.data() + guard : nullptr; }
  std::size_t guard_writes() const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < guard; ++i) n += tessera::test::is_poison(data[i]) ? 0 : 1;
    for (std::size_t i = guard + floats; i < data.size(); ++i) n += tessera::test::is_poison(data[i]) ? 0 : 1;
    return n;
  }
};

// Under the hardware choice that MFMAs flush subnormal f16/bf16 inputs, the case's inputs carry
// none, so that the float64 reference (which does not flush) computes what the kernel must: a
// flushed f16 input (|x| < 2^-14, about 6e-5 of uniform data) moves a small-K result by more
// than the fp32 accumulation bound, a difference of the format, not of the kernel. What the
// choice checks is that the kernels rely on neither behaviour (their control flow and data
// movement), which the flushed accumulators and outputs still exercise.
template <class T>
void flush_subnormal_inputs(std::vector<T>& v) {
  using namespace tessera;
  if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>) {
    const float min_normal = std::is_same_v<T, half_t> ? 0x1p-14f : 0x1p-126f;
    for (T& x : v) {
      const float f = to_float(x);
      if (f != 0.0f && f > -min_normal && f < min_normal) x = from_float<T>(0.0f);
    }
  }
}

// Called on the output allocation after the run and before the check (`off`: where the
// matrix starts in it, `ldd` its leading dimension): the mutation checks change D here to
// show what the check catches.
template <class ED>
using AfterRun = std::function<void(std::vector<ED>& out, std::int64_t off, std::int64_t ldd)>;

// `base`: emulator options for the run (tracing, ...); its target is set to Config's.
// `epilogue`: for a configuration with its own epilogue, its arguments and the expected D.
template <class Config>
EmulatedResult run_emulated_gemm(const CaseShape& s, std::uint64_t seed, emu::Options base = {},
                                 tessera::test::EpilogueCase<Config> epilogue = {},
                                 const AfterRun<typename Config::ElementD>& after_run = {}) {
  using namespace tessera;
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using ED = typename Config::ElementD;
  base.target = target_of<Config>();
  emu::ScopedOptions scope(base);
  emu::clear_reports();

  test::HostCase<Config> host(s, seed, std::move(epilogue));
  if (base.hardware.mfma_denormals == emu::Denormals::kFlush) {
    flush_subnormal_inputs(host.a);
    flush_subnormal_inputs(host.b);
  }
  GuardedBuffer<EA> da(host.a, "A");
  GuardedBuffer<EB> db(host.b, "B");
  GuardedBuffer<EC> dc(host.c, "C");
  GuardedBuffer<ED> dd(host.d, "D");
  const typename test::HostCase<Config>::Args args =
      host.arguments(da.data.data(), db.data.data(), dc.data.data(), dd.data.data());

  EmulatedResult r;
  r.workspace_bytes = s.workspace ? EmulatedGemm<Config>::workspace_size(args) : 0;
  GuardedWorkspace workspace(r.workspace_bytes);
  r.status = EmulatedGemm<Config>::run(args, workspace.get());
  r.workspace_guard_writes = workspace.guard_writes();
  r.reports = emu::describe_all();
  std::vector<ED>* out = &dd.data;
  if constexpr (std::is_same_v<EC, ED>) {
    if (s.in_place) out = &dc.data;
  }
  if (after_run) after_run(*out, host.off, host.ldd);
  static_cast<test::CaseOutcome&>(r) = host.check_output(*out, GuardedBuffer<ED>::kGuard);
  return r;
}

// The emulated counterpart of the GPU suite's check_gemm: right result, nothing written
// outside the matrix, no report of any kind.
template <class Config>
void check_emulated_gemm(const CaseShape& s, const emu::Options& base = {}, tessera::test::EpilogueCase<Config> epilogue = {}) {
  using namespace tessera;
  const std::uint64_t seed = test::fresh_seed();
  INFO("EMULATED " << Config::Arch::kName << ": " << test::describe_case<Config>(s, seed));
  const EmulatedResult r = run_emulated_gemm<Config>(s, seed, base, std::move(epilogue));
  INFO("status " << status_name(r.status) << ", workspace bytes " << r.workspace_bytes << ", hardware choices "
                 << base.hardware.describe());
  INFO(r.reports);
  REQUIRE(r.status == Status::kSuccess);
  if (s.workspace && s.must_split) CHECK(r.workspace_bytes > 0);
  CHECK(r.workspace_guard_writes == 0);
  CHECK(emu::reports().empty());
  CHECK_CASE_OUTCOME(s, r);
}

}  // namespace emu_test
