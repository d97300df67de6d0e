// One emulated GEMM check, the GPU suite's check (test/gpu/gemm_case.hpp) on the wave
// emulator: fresh random inputs, poisoned outputs and a poisoned guard past every
// buffer, Gemm<Config>::run on the emulated device, then the float64 reference element
// by element. The operands are registered with the emulator, so a buffer load that
// num_records allows but the allocation does not is a report, and the test requires no
// report of any kind.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
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
};

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

template <class Config>
void check_emulated_gemm(const CaseShape& s) {
  using namespace tessera;
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using LA = typename Config::LayoutA;
  using LB = typename Config::LayoutB;
  using LC = typename Config::LayoutC;
  const std::uint64_t seed = test::fresh_seed();
  INFO("EMULATED " << Config::Arch::kName << ": M=" << s.M << " N=" << s.N << " K=" << s.K
                   << " pad=" << s.pad << " alpha=" << s.alpha << " beta=" << s.beta
                   << " workspace=" << s.workspace << " seed=" << seed << " A="
                   << type_name<EA>::value << "/" << LA::kName << " B=" << type_name<EB>::value << "/"
                   << LB::kName << " C=" << type_name<EC>::value << "/" << LC::kName);
  emu::Options options;
  options.target = target_of<Config>();
  emu::ScopedOptions scope(options);
  emu::clear_reports();

  const std::int64_t lda = LA::min_ld(s.M, s.K) + s.pad;
  const std::int64_t ldb = LB::min_ld(s.K, s.N) + s.pad;
  const std::int64_t ldc = LC::min_ld(s.M, s.N) + s.pad;
  const std::int64_t ldd = LC::min_ld(s.M, s.N) + 2 * s.pad;
  auto alloc = [](std::int64_t span) { return std::size_t(span > 0 ? span : 1); };
  std::vector<EA> a(alloc(matrix_span<LA>(s.M, s.K, lda)));
  std::vector<EB> b(alloc(matrix_span<LB>(s.K, s.N, ldb)));
  std::vector<EC> c(alloc(matrix_span<LC>(s.M, s.N, ldc)));
  std::vector<EC> d(alloc(matrix_span<LC>(s.M, s.N, ldd)));
  test::fill_random(a, seed);
  test::fill_random(b, seed + 1);
  test::fill_random(c, seed + 2);
  test::poison(d);
  GuardedBuffer<EA> da(a, "A");
  GuardedBuffer<EB> db(b, "B");
  GuardedBuffer<EC> dc(c, "C");
  GuardedBuffer<EC> dd(d, "D");

  gemm::Arguments<EA, EB, EC> args{s.M, s.N, s.K, da.data.data(), lda, db.data.data(), ldb,
                                   dc.data.data(), ldc, dd.data.data(), ldd, s.alpha, s.beta};
  const std::size_t workspace_bytes = s.workspace ? EmulatedGemm<Config>::workspace_size(args) : 0;
  INFO("workspace bytes " << workspace_bytes);
  if (s.workspace && s.must_split) REQUIRE(workspace_bytes > 0);
  std::vector<float> workspace(workspace_bytes / sizeof(float) + 4);
  test::poison(workspace);  // NaN: every slice the reduce reads must have been written
  void* ws = workspace_bytes > 0 ? static_cast<void*>(workspace.data()) : nullptr;
  const Status st = EmulatedGemm<Config>::run(args, ws);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  INFO(emu::describe_all());
  CHECK(emu::reports().empty());

  gemm::Arguments<EA, EB, EC> host{s.M, s.N, s.K, a.data(), lda, b.data(), ldb, c.data(), ldc,
                                   nullptr, ldd, s.alpha, s.beta};
  const std::vector<double> ref = test::reference_gemm_f64<LA, LB, LC>(host);
  if (s.M > 0 && s.N > 0) {
    const test::CompareResult r = test::compare<LC>(s.M, s.N, dd.data.data(), ldd, ref.data(), ldd);
    INFO(r.describe());
    CHECK(r.unwritten == 0);
    CHECK(r.nan == 0);
    CHECK(r.rel_fro <= test::tolerance<EA, EC>(s.K));
  }
  // Nothing outside the M x N matrix changed: the leading-dimension padding and the guard.
  std::vector<EC> whole(dd.data.begin(), dd.data.begin() + std::ptrdiff_t(dd.size));
  CHECK(test::count_padding_writes<LC>(s.M, s.N, whole, ldd) == 0);
  for (std::size_t g = dd.size; g < dd.data.size(); ++g) REQUIRE(test::is_poison(dd.data[g]));
}

}  // namespace emu_test
