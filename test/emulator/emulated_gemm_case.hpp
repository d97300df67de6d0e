// One emulated GEMM check, the GPU suite's check (test/gpu/gemm_case.hpp) on the wave
// emulator: fresh random inputs, poisoned outputs and a poisoned guard past every
// buffer, Gemm<Config>::run on the emulated device, then the float64 reference element
// by element. The operands are registered with the emulator, so a buffer load that
// num_records allows but the allocation does not is a report, and the test requires no
// report of any kind.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "emulated_gemm.hpp"
#include "reference_gemm.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/emulator/emulator.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace emu_test {

namespace emu = tessera::amd::emulation;

struct CaseShape {
  std::int64_t M, N, K;
  std::int64_t pad = 0;  // added to every leading dimension
  float alpha = 1.0f, beta = 0.0f;
  bool workspace = false;  // pass workspace_size() bytes: split-K where it applies
  bool must_split = false; // with the workspace, require that a split was chosen
  bool in_place = false;   // C and D are the same buffer
  bool offset_pointers = false;  // operands start one element into their allocation
  std::int64_t ld_multiple = 1;  // every leading dimension rounded up to a multiple of this
                                 // (elements) before `pad` is added: 8 keeps 16-bit lines
                                 // 16-byte aligned whatever K, M or N
};

// The leading dimension of a case: the layout's minimum, rounded up, padded.
inline std::int64_t case_ld(const CaseShape& s, std::int64_t min_ld, std::int64_t pad) {
  const std::int64_t m = s.ld_multiple > 0 ? s.ld_multiple : 1;
  return (min_ld + m - 1) / m * m + pad;
}

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
struct EmulatedResult {
  tessera::Status status = tessera::Status::kSuccess;
  std::size_t workspace_bytes = 0;
  tessera::test::CompareResult compare;
  double tolerance = 0.0;
  std::int64_t padding_writes = 0;  // elements of D's leading-dimension padding changed
  bool outside_intact = true;       // the element before an offset D and the guard
  std::string reports;              // describe_all() after the run
};

// `base`: emulator options for the run (tracing, ...); its target is set to Config's.
template <class Config>
EmulatedResult run_emulated_gemm(const CaseShape& s, std::uint64_t seed, emu::Options base = {}) {
  using namespace tessera;
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using LA = typename Config::LayoutA;
  using LB = typename Config::LayoutB;
  using LC = typename Config::LayoutC;
  base.target = target_of<Config>();
  emu::ScopedOptions scope(base);
  emu::clear_reports();

  const std::int64_t lda = case_ld(s, LA::min_ld(s.M, s.K), s.pad);
  const std::int64_t ldb = case_ld(s, LB::min_ld(s.K, s.N), s.pad);
  const std::int64_t ldc = case_ld(s, LC::min_ld(s.M, s.N), s.pad);
  const std::int64_t ldd = s.in_place ? ldc : case_ld(s, LC::min_ld(s.M, s.N), 2 * s.pad);
  const std::int64_t off = s.offset_pointers ? 1 : 0;
  auto alloc = [&](std::int64_t span) { return std::size_t(off + (span > 0 ? span : 1)); };
  std::vector<EA> a(alloc(matrix_span<LA>(s.M, s.K, lda)));
  std::vector<EB> b(alloc(matrix_span<LB>(s.K, s.N, ldb)));
  std::vector<EC> c(alloc(matrix_span<LC>(s.M, s.N, ldc)));
  std::vector<EC> d(alloc(matrix_span<LC>(s.M, s.N, ldd)));
  test::fill_random(a, seed);
  test::fill_random(b, seed + 1);
  test::fill_random(c, seed + 2);
  test::poison(d);
  if (s.in_place) d = c;
  GuardedBuffer<EA> da(a, "A");
  GuardedBuffer<EB> db(b, "B");
  GuardedBuffer<EC> dc(c, "C");
  GuardedBuffer<EC> dd(d, "D");
  GuardedBuffer<EC>& out = s.in_place ? dc : dd;

  EmulatedResult r;
  gemm::Arguments<EA, EB, EC> args{s.M, s.N, s.K, da.data.data() + off, lda, db.data.data() + off, ldb,
                                   dc.data.data() + off, ldc, out.data.data() + off, ldd, s.alpha, s.beta};
  r.workspace_bytes = s.workspace ? EmulatedGemm<Config>::workspace_size(args) : 0;
  std::vector<float> workspace(r.workspace_bytes / sizeof(float) + 4);
  test::poison(workspace);  // NaN: every slice the reduce reads must have been written
  r.status = EmulatedGemm<Config>::run(args, r.workspace_bytes > 0 ? workspace.data() : nullptr);
  r.reports = emu::describe_all();

  gemm::Arguments<EA, EB, EC> host{s.M, s.N, s.K, a.data() + off, lda, b.data() + off, ldb,
                                   c.data() + off, ldc, nullptr, ldd, s.alpha, s.beta};
  const std::vector<double> ref = test::reference_gemm_f64<LA, LB, LC>(host);
  if (s.M > 0 && s.N > 0) r.compare = test::compare<LC>(s.M, s.N, out.data.data() + off, ldd, ref.data(), ldd);
  r.tolerance = test::tolerance<EA, EC>(s.K);
  if (!s.in_place) {
    std::vector<EC> whole(dd.data.begin() + off, dd.data.begin() + std::ptrdiff_t(dd.size));
    r.padding_writes = test::count_padding_writes<LC>(s.M, s.N, whole, ldd);
    if (off) r.outside_intact = test::is_poison(dd.data[0]);
  }
  for (std::size_t g = out.size; g < out.data.size(); ++g) r.outside_intact &= test::is_poison(out.data[g]);
  return r;
}

// The emulated counterpart of the GPU suite's check_gemm: right result, nothing written
// outside the matrix, no report of any kind.
template <class Config>
void check_emulated_gemm(const CaseShape& s, const emu::Options& base = {}) {
  using namespace tessera;
  const std::uint64_t seed = test::fresh_seed();
  INFO("EMULATED " << Config::Arch::kName << ": M=" << s.M << " N=" << s.N << " K=" << s.K
                   << " pad=" << s.pad << " ld_multiple=" << s.ld_multiple << " alpha=" << s.alpha << " beta=" << s.beta
                   << " workspace=" << s.workspace << " in_place=" << s.in_place
                   << " offset=" << s.offset_pointers << " seed=" << seed << " A="
                   << type_name<typename Config::ElementA>::value << "/" << Config::LayoutA::kName
                   << " B=" << type_name<typename Config::ElementB>::value << "/" << Config::LayoutB::kName
                   << " C=" << type_name<typename Config::ElementC>::value << "/" << Config::LayoutC::kName);
  const EmulatedResult r = run_emulated_gemm<Config>(s, seed, base);
  INFO("status " << status_name(r.status) << ", workspace bytes " << r.workspace_bytes);
  INFO(r.reports);
  INFO(r.compare.describe());
  REQUIRE(r.status == Status::kSuccess);
  if (s.workspace && s.must_split) CHECK(r.workspace_bytes > 0);
  CHECK(emu::reports().empty());
  if (s.M > 0 && s.N > 0) {
    CHECK(r.compare.unwritten == 0);
    CHECK(r.compare.nan == 0);
    CHECK(r.compare.rel_fro <= r.tolerance);
  }
  CHECK(r.padding_writes == 0);
  CHECK(r.outside_intact);
}

}  // namespace emu_test
