// The gfx9 s_waitcnt immediate built by tessera/arch/amd/sched.hpp, checked on the host.
// Reference values are the encodings LLVM's assembler prints for gfx9 (its MC tests:
// "s_waitcnt vmcnt(1)" is 0x0F71, "vmcnt(31)" 0x4F7F, ...) and the immediates MLIR's
// amdgpu.waitcnt lowering emits for gfx942 (vmcnt(0) alone is 3952, none is 53119).
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>

// Both AMD headers must be harmless in plain host code.
#include "tessera/arch/amd/buffer.hpp"
#include "tessera/arch/amd/sched.hpp"

using namespace tessera::amd;

namespace {
constexpr unsigned kVmMax = Gfx9Waitcnt::kMaxVmcnt;
constexpr unsigned kExpMax = Gfx9Waitcnt::kMaxExpcnt;
constexpr unsigned kLgkmMax = Gfx9Waitcnt::kMaxLgkmcnt;
}  // namespace

TEST_CASE("waitcnt fields sit where the gfx9 assembler puts them", "[amd][waitcnt]") {
  static_assert(waitcnt_encoding(0, 0, 0) == 0x0000, "all counters zero");
  static_assert(kWaitcntNone == 0xCF7F, "no wait: every field at its maximum");
  CHECK(kWaitcntNone == 53119);

  // One counter at a time, the others at "do not wait".
  CHECK(waitcnt_encoding(0, kExpMax, kLgkmMax) == 0x0F70);  // vmcnt(0)   = 3952
  CHECK(waitcnt_encoding(1, kExpMax, kLgkmMax) == 0x0F71);  // vmcnt(1)
  CHECK(waitcnt_encoding(9, kExpMax, kLgkmMax) == 0x0F79);  // vmcnt(9)
  CHECK(waitcnt_encoding(kVmMax, 0, kLgkmMax) == 0xCF0F);   // expcnt(0)  = 53007
  CHECK(waitcnt_encoding(kVmMax, 2, kLgkmMax) == 0xCF2F);   // expcnt(2)
  CHECK(waitcnt_encoding(kVmMax, kExpMax, 0) == 0xC07F);    // lgkmcnt(0) = 49279
  CHECK(waitcnt_encoding(kVmMax, kExpMax, 3) == 0xC37F);    // lgkmcnt(3)

  // Field masks: vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt [11:8]; bits 7, 12, 13 unused.
  CHECK(waitcnt_encoding(kVmMax, 0, 0) == 0xC00F);
  CHECK(waitcnt_encoding(0, kExpMax, 0) == 0x0070);
  CHECK(waitcnt_encoding(0, 0, kLgkmMax) == 0x0F00);
  for (unsigned vm = 0; vm <= kVmMax; ++vm)
    for (unsigned exp = 0; exp <= kExpMax; ++exp)
      for (unsigned lgkm = 0; lgkm <= kLgkmMax; ++lgkm)
        REQUIRE((waitcnt_encoding(vm, exp, lgkm) & 0x3080) == 0);
}

TEST_CASE("vmcnt above 15 goes to the high bits [15:14]", "[amd][waitcnt]") {
  CHECK(waitcnt_encoding(15, kExpMax, kLgkmMax) == 0x0F7F);  // low bits only
  CHECK(waitcnt_encoding(16, kExpMax, kLgkmMax) == 0x4F70);  // hi = 1, lo = 0
  CHECK(waitcnt_encoding(31, kExpMax, kLgkmMax) == 0x4F7F);  // the assembler's vmcnt(31)
  CHECK(waitcnt_encoding(32, kExpMax, kLgkmMax) == 0x8F70);
  CHECK(waitcnt_encoding(40, kExpMax, kLgkmMax) == 0x8F78);  // as in test/isa/amd_sched.hip
  CHECK(waitcnt_encoding(63, kExpMax, kLgkmMax) == 0xCF7F);
  for (unsigned vm = 0; vm <= kVmMax; ++vm) {
    const std::uint16_t imm = waitcnt_encoding(vm, 0, 0);
    CHECK((imm & 0xF) == (vm & 0xF));
    CHECK(((imm >> 14) & 0x3) == (vm >> 4));
  }
}

TEST_CASE("waitcnt decodes back to the counts it was built from", "[amd][waitcnt]") {
  std::set<std::uint16_t> seen;
  for (unsigned vm = 0; vm <= kVmMax; ++vm)
    for (unsigned exp = 0; exp <= kExpMax; ++exp)
      for (unsigned lgkm = 0; lgkm <= kLgkmMax; ++lgkm) {
        const std::uint16_t imm = waitcnt_encoding(vm, exp, lgkm);
        const WaitCounts c = waitcnt_decode(imm);
        REQUIRE(c.vmcnt == vm);
        REQUIRE(c.expcnt == exp);
        REQUIRE(c.lgkmcnt == lgkm);
        seen.insert(imm);
      }
  CHECK(seen.size() == (kVmMax + 1) * (kExpMax + 1) * (kLgkmMax + 1));  // no two collide

  constexpr WaitCounts c = waitcnt_decode(0x8F78);
  static_assert(c.vmcnt == 40 && c.expcnt == 7 && c.lgkmcnt == 15, "decode is constexpr");
}

TEST_CASE("waitcnt counts beyond a field saturate to 'do not wait'", "[amd][waitcnt]") {
  // Saturating never waits for less than asked: max already admits every operation.
  CHECK(waitcnt_encoding(64, kExpMax, kLgkmMax) == kWaitcntNone);
  CHECK(waitcnt_encoding(1000, 8, 16) == kWaitcntNone);
  CHECK(waitcnt_encoding(2, 100, 0) == waitcnt_encoding(2, kExpMax, 0));
}

TEST_CASE("sched_barrier masks match LLVM's values", "[amd][sched]") {
  static_assert(SchedMask::kNone == 0 && SchedMask::kAluAll == 0x1 && SchedMask::kValu == 0x2 &&
                    SchedMask::kSalu == 0x4 && SchedMask::kMfma == 0x8 && SchedMask::kVmemAll == 0x10 &&
                    SchedMask::kVmemRead == 0x20 && SchedMask::kVmemWrite == 0x40 &&
                    SchedMask::kDsAll == 0x80 && SchedMask::kDsRead == 0x100 &&
                    SchedMask::kDsWrite == 0x200 && SchedMask::kTrans == 0x400,
                "IntrinsicsAMDGPU.td mask bits");
  CHECK(kBufferConfigGfx9 == 0x00020000u);
}
