// One emulated low-precision GEMM check (test_mfma_lowp_emulated.cpp and its mutation
// checks): the host case of test/support/lowp_gemm_case.hpp, its buffers (operands, scales,
// C, D) registered with the emulator behind poisoned guards, Gemm<Config>::run on the
// emulated device, and what came back. The callers decide what must hold.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "emulated_gemm_case.hpp"
#include "lowp_gemm_case.hpp"

namespace emu_test {

using tessera::test::LowpHostCase;
using tessera::test::ScaleLayout;

struct LowpResult : tessera::test::CaseOutcome {
  tessera::Status status = tessera::Status::kSuccess;
  std::string reports;
  std::string describe;
};

template <class Config>
LowpResult run_lowp_gemm(const CaseShape& s, std::uint64_t seed, ScaleLayout sl = {}, emu::Options base = {}) {
  using Host = LowpHostCase<Config>;
  base.target = target_of<Config>();
  emu::ScopedOptions scope(base);
  emu::clear_reports();
  const Host host(s, seed, sl);
  auto or_one = [](std::vector<std::uint8_t> v) { return v.empty() ? std::vector<std::uint8_t>(1, 0) : v; };
  GuardedBuffer<typename Host::EA> da(host.a, "A");
  GuardedBuffer<typename Host::EB> db(host.b, "B");
  GuardedBuffer<typename Host::EC> dc(host.c, "C");
  GuardedBuffer<typename Host::ED> dd(host.d, "D");
  GuardedBuffer<std::uint8_t> dsa(or_one(host.scale_a), "scales of A");
  GuardedBuffer<std::uint8_t> dsb(or_one(host.scale_b), "scales of B");
  const auto args = host.arguments(da.data.data(), db.data.data(), dc.data.data(), dd.data.data(), dsa.data.data(),
                                   dsb.data.data(), host.tensor_scale);
  LowpResult r;
  r.describe = host.describe(seed);
  r.status = EmulatedGemm<Config>::run(args, nullptr);
  r.reports = emu::describe_all();
  if constexpr (std::is_same_v<typename Host::EC, typename Host::ED>) {
    static_cast<tessera::test::CaseOutcome&>(r) =
        host.check_output((s.in_place ? dc : dd).data, GuardedBuffer<typename Host::ED>::kGuard);
  } else {
    static_cast<tessera::test::CaseOutcome&>(r) = host.check_output(dd.data, GuardedBuffer<typename Host::ED>::kGuard);
  }
  return r;
}

// Right result, nothing written outside D, no report of any kind.
template <class Config>
void check_lowp_gemm(const CaseShape& s, ScaleLayout sl = {}, const emu::Options& base = {}) {
  const std::uint64_t seed = tessera::test::fresh_seed();
  const LowpResult r = run_lowp_gemm<Config>(s, seed, sl, base);
  INFO("EMULATED " << Config::Arch::kName << " " << Config::Schedule::kName << ": " << r.describe);
  INFO("status " << tessera::status_name(r.status) << ", hardware choices " << base.hardware.describe());
  INFO(r.reports);
  INFO(r.compare.describe() << " (tolerance " << r.tolerance << ")");
  REQUIRE(r.status == tessera::Status::kSuccess);
  CHECK(emu::reports().empty());
  CHECK_CASE_OUTCOME(s, r);
}

// A configuration's CI shapes in values of K, relative to its block tile: whole tiles, M/N
// edges, K tails that end inside a 32-value scale block, K below one tile, several K tiles,
// alpha, beta, C == D; scale rows padded with NaN codes (a block read past K shows), and
// scale rows that are not 4-byte aligned (the byte-wise scale loads; the launch then takes
// the gather kernel: every other aligned shape's scale rows are 4-byte multiples, padded where
// ceil(K / 32) is not). fp4 keeps K and the leading dimensions even.
//   aligned    16-byte operand lines (the 16-byte kernel);
//   unaligned  lines or pointers off by one byte (the gather kernel).
template <class Config>
std::vector<std::pair<CaseShape, ScaleLayout>> lowp_shapes(bool aligned) {
  const std::int64_t bm = Config::kBlockM, bn = Config::kBlockN, bk = Config::kBlockKValues;
  const std::int64_t e = Config::kValuesPerUnit;  // K and ld steps that keep fp4 whole bytes
  std::vector<std::pair<CaseShape, ScaleLayout>> shapes;
  if (aligned) {
    shapes = {
        {{bm, bn, 2 * bk}, {}},                                    // whole tiles
        {{bm + 17, bn - 5, 2 * bk + 9 * e, 0, 1.0f, 0.5f}, {3}},   // edges, K tail in a block, padded scales
        {{bm - 3, 2 * bn + 1, bk - 7 * e, 16 * e, -1.5f, 1.0f}, {}},  // K < BlockK, padded ld, C == D
        {{33, 47, 5 * e, 0, 2.0f, -1.0f}, {3}},                    // smaller than a tile, K inside one block
        {{bm + 3, bn + 5, 2 * bk}, {0, true}},                     // misaligned scale rows
        {{2 * bm + 1, bn + 7, 5 * bk + 3 * e, 0, 1.0f, 0.5f}, {3}},  // 3 x 2 tiles, 6 K tiles (last)
    };
    shapes[2].first.in_place = true;
    for (auto& s : shapes) s.first.ld_multiple = 16 * e;
  } else {
    shapes = {
        {{bm + 1, bn - 2, 2 * bk + e, e, 1.0f, 1.0f}, {}},  // ld = minimum + one byte's values, C == D
        {{bm - 1, bn + 3, bk + 5 * e, 0, 0.5f, 0.25f}, {}},  // pointers one byte off
        {{33, 47, 5 * e, 0, 2.0f, -1.0f}, {0, true}},        // ld = K, scales misaligned
    };
    shapes[0].first.in_place = true;
    shapes[1].first.offset_pointers = true;
    shapes[1].first.ld_multiple = 16 * e;
  }
  return shapes;
}

}  // namespace emu_test
