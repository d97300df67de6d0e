// The wave emulator's execution model, one mechanism at a time: ids, barriers (including
// the asymmetric ones of ping-pong schedules), the LDS race detector, the buffer range
// check, direct-to-LDS loads and their waits, and the per-wave record of hints. Every
// test that expects a finding also runs the correct variant and expects none.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "core_kernels.hpp"
#include "tessera/emulator/emulator.hpp"

namespace emu = tessera::amd::emulation;
using emu::ReportKind;
using emu_test::Sync;
using tessera::Status;

namespace {

bool is_nan_bits(float x) { return x != x; }

}  // namespace

TEST_CASE("every work-item sees its own work-item and workgroup id, partial waves included",
          "[emulator]") {
  emu::clear_reports();
  const unsigned blocks = 3, threads = 100;  // the second wave has 36 lanes
  std::vector<int> out(blocks * threads, -1);
  REQUIRE(emu_test::run_ids(blocks, threads, out.data()) == Status::kSuccess);
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < threads; ++t) REQUIRE(out[b * threads + t] == int(t + 1000 * b));
  }
  CHECK(emu::reports().empty());
}

TEST_CASE("a launch can run a chosen subset of its workgroups", "[emulator]") {
  emu::Options o;
  o.run_workgroup = [](unsigned id) { return id == 1; };
  emu::ScopedOptions scope(o);
  std::vector<int> out(3 * 64, -1);
  REQUIRE(emu_test::run_ids(3, 64, out.data()) == Status::kSuccess);
  for (unsigned i = 0; i < out.size(); ++i) REQUIRE(out[i] == (i / 64 == 1 ? int(i % 64 + 1000) : -1));
  CHECK(emu::last_launch_stats().workgroups == 1);
}

TEST_CASE("launch refuses what the emulator cannot run", "[emulator]") {
  int out = 0;
  CHECK(emu_test::run_ids(1, 0, &out) == Status::kErrorInvalidValue);
  CHECK(emu_test::run_ids(1, 1025, &out) == Status::kErrorInvalidValue);
}

TEST_CASE("LDS between waves: a barrier orders it, a missing one is a reported race", "[emulator]") {
  const unsigned threads = 256;
  for (Sync mode : {Sync::kBlockBarrier, Sync::kWaitThenBarrier, Sync::kBareBarrier, Sync::kNone}) {
    INFO("mode " << int(mode));
    emu::clear_reports();
    std::vector<float> out(threads, -1.0f);
    REQUIRE(emu_test::run_exchange(mode, threads, out.data()) == Status::kSuccess);
    INFO(emu::describe_all());
    if (mode == Sync::kNone) {
      CHECK(emu::report_count(ReportKind::kLdsRace) > 0);
      // Wave 0 ran before wave 1 wrote: it read the poison the LDS starts with.
      CHECK(is_nan_bits(out[0]));
      continue;
    }
    for (unsigned t = 0; t < threads; ++t) REQUIRE(out[t] == float((t + 64) % threads));
    if (mode == Sync::kBareBarrier) {
      // The write was not waited for before the bare s_barrier: on gfx90a+ it may not
      // have landed when the other wave reads.
      CHECK(emu::report_count(ReportKind::kLdsWriteNotWaited) > 0);
      CHECK(emu::report_count(ReportKind::kLdsRace) == 0);
    } else {
      CHECK(emu::reports().empty());
    }
  }
}

TEST_CASE("lanes of one wave exchanging LDS need a wave sync point", "[emulator]") {
  for (bool sync : {true, false}) {
    emu::clear_reports();
    std::vector<float> out(64, -1.0f);
    REQUIRE(emu_test::run_lane_exchange(sync, out.data()) == Status::kSuccess);
    INFO(emu::describe_all());
    if (sync) {
      for (int t = 0; t < 64; ++t) REQUIRE(out[std::size_t(t)] == float(t ^ 1));
      CHECK(emu::reports().empty());
    } else {
      CHECK(emu::report_count(ReportKind::kLdsIntraWave) > 0);
    }
  }
}

TEST_CASE("s_barrier counts arriving waves, not source lines, and ended waves drop out",
          "[emulator]") {
  emu::Options o;
  o.record_trace = true;
  emu::ScopedOptions scope(o);
  emu::clear_reports();
  const int iterations = 3;
  REQUIRE(emu_test::run_asymmetric(iterations, false) == Status::kSuccess);
  CHECK(emu::reports().empty());
  std::vector<std::vector<emu::TraceEvent>> waves;
  for (int w = 0; w < 4; ++w) waves.push_back(emu::trace(0, w));
  for (const auto& t : waves) REQUIRE(t.size() == std::size_t(iterations + 1));
  for (int j = 0; j <= iterations; ++j) {
    // Release j joins the j-th barrier of every wave: group 1's first is its extra barrier
    // before the loop, group 0's first is the loop's: the groups run one step apart.
    for (int w = 0; w < 4; ++w) CHECK(waves[std::size_t(w)][std::size_t(j)].a == std::uint32_t(j + 1));
  }
  CHECK(waves[0][0].pc != waves[2][0].pc);
  CHECK(waves[0][1].pc == waves[2][1].pc);  // then loop barrier against loop barrier

  REQUIRE(emu_test::run_asymmetric(iterations, true) == Status::kSuccess);  // must not hang
  CHECK(emu::trace(0, 0).size() == std::size_t(iterations + 1));
  CHECK(emu::trace(0, 2).empty());
}

TEST_CASE("scheduling hints are recorded per wave, in program order, without effect",
          "[emulator]") {
  emu::Options o;
  o.record_trace = true;
  emu::ScopedOptions scope(o);
  emu::clear_reports();
  REQUIRE(emu_test::run_sched() == Status::kSuccess);
  using K = emu::TraceKind;
  const auto w0 = emu::trace(0, 0), w1 = emu::trace(0, 1);
  REQUIRE(w0.size() == 5);
  CHECK((w0[0].kind == K::kSetPrio && w0[0].a == 1));
  CHECK((w0[1].kind == K::kSchedGroupBarrier && w0[1].a == 0x008 && w0[1].b == 1 && w0[1].c == 0));
  CHECK((w0[2].kind == K::kSchedGroupBarrier && w0[2].a == 0x004 && w0[2].b == 3));
  CHECK((w0[3].kind == K::kSetPrio && w0[3].a == 0));
  CHECK((w0[4].kind == K::kSchedBarrier && w0[4].a == 0));
  REQUIRE(w1.size() == 2);
  CHECK((w1[0].kind == K::kSchedBarrier && w1[1].kind == K::kSetPrio && w1[1].a == 2));
  CHECK(emu::reports().empty());
}

TEST_CASE("lanes of one wave at different wave-level instructions are reported", "[emulator]") {
  emu::clear_reports();
  // The workgroup cannot go on: the launch fails, as a GPU fault would fail it.
  REQUIRE(emu_test::run_divergent() == Status::kErrorLaunchFailed);
  INFO(emu::describe_all());
  CHECK(emu::report_count(ReportKind::kDivergentCollective) == 1);
}

TEST_CASE("LDS is exactly the declared bytes; unwritten bytes are reported when read",
          "[emulator]") {
  std::vector<float> out(64);
  emu::clear_reports();
  REQUIRE(emu_test::run_lds_bounds(255, false, out.data()) == Status::kSuccess);
  CHECK(emu::reports().empty());
  for (int offset : {256, 300, -1}) {
    emu::clear_reports();
    REQUIRE(emu_test::run_lds_bounds(offset, false, out.data()) == Status::kSuccess);
    INFO(emu::describe_all());
    REQUIRE(emu::report_count(ReportKind::kLdsOutOfPlan) == 1);
    CHECK(emu::reports()[0].begin == std::uint64_t(std::int64_t(offset)));
  }
  emu::clear_reports();
  REQUIRE(emu_test::run_lds_bounds(0, true, out.data()) == Status::kSuccess);
  CHECK(emu::report_count(ReportKind::kLdsUninitialized) == 1);
}

TEST_CASE("buffer loads read 0 past num_records, stores past it are dropped, per component",
          "[emulator]") {
  std::mt19937 gen(7);
  std::vector<std::uint32_t> src(64 * 4 + 16);
  for (auto& x : src) x = gen() | 1u;  // never 0: a 0 would hide a zeroed component
  const std::uint32_t soffset = 8;     // not range-checked: added after the check
  for (emu::StraddleRule rule : {emu::StraddleRule::kZero, emu::StraddleRule::kWhole}) {
    emu::Options o;
    o.hardware.straddle = rule;
    emu::ScopedOptions scope(o);
    for (int bytes : {2, 4, 8, 12, 16}) {  // 12: buffer_load_dwordx3 (packed fp6 pieces)
      for (std::uint32_t records : {0u, 37u * 4u, 64u * 16u, 75u}) {
        INFO("straddle rule " << int(rule) << " bytes " << bytes << " num_records " << records);
        const int out_stride = bytes == 2 ? 4 : bytes;
        const std::uint32_t store_records = 50u * 4u;
        std::vector<unsigned char> dst(64 * 16, 0xab);
        emu::clear_reports();
        REQUIRE(emu_test::run_buffer(bytes, src.data(), records, soffset, dst.data(), store_records) ==
                Status::kSuccess);
        const auto* s = reinterpret_cast<const unsigned char*>(src.data()) + soffset;
        const int size = bytes < 4 ? bytes : 4;
        std::uint64_t straddles = 0;
        for (int lane = 0; lane < 64; ++lane) {
          for (int c = 0; c < bytes; c += size) {
            const std::uint32_t load_at = std::uint32_t(lane * bytes + c);
            const std::uint32_t store_at = std::uint32_t(lane * out_stride + c);
            // A component num_records cuts: 0 (kZero), or its bytes in range then 0xff.
            const bool cut = load_at < records && load_at + std::uint32_t(size) > records;
            straddles += cut ? 1 : 0;
            unsigned char want[4] = {0, 0, 0, 0};
            if (load_at + std::uint32_t(size) <= records) std::memcpy(want, s + load_at, std::size_t(size));
            if (cut && rule == emu::StraddleRule::kWhole) {
              for (std::uint32_t b = 0; b < std::uint32_t(size); ++b) want[b] = load_at + b < records ? s[load_at + b] : 0xff;
            }
            const int stored = bytes == 2 ? 4 : size;  // the 2-byte case stores a zero-extended word
            if (store_at + std::uint32_t(stored) <= store_records) {
              REQUIRE(std::memcmp(&dst[store_at], want, std::size_t(size)) == 0);
            } else {
              REQUIRE(dst[store_at] == 0xab);  // dropped
            }
          }
        }
        // A cut load is not a finding (either answer is a choice the kernels must survive);
        // it is counted.
        INFO(emu::describe_all());
        CHECK(emu::reports().empty());
        CHECK(emu::last_launch_stats().load_straddles == straddles);
      }
    }
  }
  // A store that num_records cuts is reported and dropped, under either rule.
  std::vector<unsigned char> dst(64 * 16, 0xab);
  emu::clear_reports();
  REQUIRE(emu_test::run_buffer(4, src.data(), 64 * 4, 0, dst.data(), 50 * 4 + 2) == Status::kSuccess);
  CHECK(emu::report_count(ReportKind::kBufferStraddle) == 1);
  CHECK(dst[200] == 0xab);
  CHECK(std::memcmp(&dst[196], &src[49], 4) == 0);
}

TEST_CASE("a buffer access off its natural alignment is reported, not silently read", "[emulator]") {
  std::vector<std::uint32_t> src(64 * 4 + 16);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = std::uint32_t(i * 2654435761u) | 1u;
  for (int bytes : {2, 4, 8, 16}) {
    for (std::uint32_t soffset : {0u, 2u, 1u}) {
      INFO("bytes " << bytes << " scalar offset " << soffset);
      std::vector<unsigned char> dst(64 * 16, 0xab);
      emu::clear_reports();
      REQUIRE(emu_test::run_buffer(bytes, src.data(), 64 * 16, soffset, dst.data(), 64 * 16) == Status::kSuccess);
      const bool misaligned = soffset % std::uint32_t(bytes < 4 ? bytes : 4) != 0;
      INFO(emu::describe_all());
      CHECK(emu::report_count(ReportKind::kBufferMisaligned) == (misaligned ? 1u : 0u));
      CHECK(emu::reports().size() == emu::report_count(ReportKind::kBufferMisaligned));
      // Read as addressed (the unaligned mode's answer), so the report is the only sign.
      const auto* s = reinterpret_cast<const unsigned char*>(src.data()) + soffset;
      const int out_stride = bytes == 2 ? 4 : bytes;
      for (int lane = 0; lane < 64; ++lane) REQUIRE(std::memcmp(&dst[std::size_t(lane * out_stride)], s + lane * bytes, std::size_t(bytes)) == 0);
    }
  }
}

TEST_CASE("with allocations registered, num_records past them is an out-of-bounds report",
          "[emulator]") {
  std::vector<std::uint32_t> src(64, 5u), dst(64, 0u);
  emu::ScopedAllocation a(src.data(), src.size() * 4, "src");
  emu::ScopedAllocation b(dst.data(), dst.size() * 4, "dst");
  emu::clear_reports();
  REQUIRE(emu_test::run_buffer(4, src.data(), 64 * 4, 0, dst.data(), 64 * 4) == Status::kSuccess);
  CHECK(emu::reports().empty());
  REQUIRE(emu_test::run_buffer(4, src.data(), 64 * 4 + 64, 4, dst.data(), 64 * 4) == Status::kSuccess);
  INFO(emu::describe_all());
  CHECK(emu::report_count(ReportKind::kBufferOutOfAllocation) == 1);
  CHECK(dst[63] == 0u);  // the emulator did not read past the allocation
}

TEST_CASE("direct-to-LDS loads land when a wait covers them, in issue order", "[emulator]") {
  for (bool fence_waits : {true, false}) {
    emu::Options o;
    o.hardware.fence_waits_for_dma = fence_waits;
    emu::ScopedOptions scope(o);
    for (int bytes : {1, 2, 4, 12, 16}) {
      std::vector<std::uint32_t> src(4 * 64 * 4);
      for (std::size_t i = 0; i < src.size(); ++i) src[i] = std::uint32_t(i * 2654435761u) | 0x01010101u;
      const auto* src_bytes = reinterpret_cast<const unsigned char*>(src.data());
      const int slot = emu_test::dma_slot_bytes(bytes);
      // The last 8 lanes of block 3 (wave 1's second load) are past num_records: they load zeros.
      const std::uint32_t records = std::uint32_t((3 * 64 + 56) * bytes);
      for (int wait : {-1, 0, 1, 2}) {
        for (int chunk : {0, 1}) {
          INFO("fence waits for loads " << fence_waits << ", bytes " << bytes << " vmcnt(" << wait
                                        << ") reading chunk " << chunk);
          std::vector<unsigned char> dst(std::size_t(128 * slot), 0u);
          emu::clear_reports();
          REQUIRE(emu_test::run_dma(bytes, src.data(), records, wait, chunk, reinterpret_cast<std::uint32_t*>(dst.data())) ==
                  Status::kSuccess);
          INFO(emu::describe_all());
          // In order: vmcnt(1) completes chunk 0 (issued first) and leaves chunk 1 in flight;
          // block_barrier()'s release fence waits for the wave's loads when so chosen.
          const bool landed = (wait == -1 && fence_waits) || wait == 0 || (wait == 1 && chunk == 0);
          for (int tid = 0; tid < 128; ++tid) {
            const int block = ((tid / 64) ^ 1) * 2 + chunk;
            const int lane = tid % 64;
            // Lane i's bytes land at M0 + slot * i (slot 4 up to 4 bytes, else 16); the rest
            // of its slot keeps what the kernel wrote there.
            for (int i = 0; i < slot; ++i) {
              const std::uint32_t at = std::uint32_t((block * 64 + lane) * bytes + i);
              const unsigned char want = !landed || i >= bytes ? emu_test::kDmaPattern
                                         : at < records        ? src_bytes[at]
                                                               : 0u;
              REQUIRE(int(dst[std::size_t(tid * slot + i)]) == int(want));
            }
          }
          if (landed) {
            CHECK(emu::reports().empty());
          } else {
            CHECK(emu::report_count(ReportKind::kLdsDmaInFlight) > 0);
            CHECK(emu::reports().size() == emu::report_count(ReportKind::kLdsDmaInFlight));
          }
        }
      }
    }
  }
}

TEST_CASE("a direct-to-LDS load over an LDS read no lgkmcnt wait covered is reported", "[emulator]") {
  using emu_test::ReadThenDma;
  std::vector<std::uint32_t> src(64, 7u);
  for (ReadThenDma mode : {ReadThenDma::kOtherWaveWaited, ReadThenDma::kOtherWaveNotWaited, ReadThenDma::kOtherWaveFenced,
                           ReadThenDma::kSameWaveWaited, ReadThenDma::kSameWaveNotWaited}) {
    INFO("mode " << int(mode));
    std::vector<float> out(64, -1.0f);
    emu::clear_reports();
    REQUIRE(emu_test::run_read_then_dma(mode, src.data(), out.data()) == Status::kSuccess);
    INFO(emu::describe_all());
    for (int lane = 0; lane < 64; ++lane) REQUIRE(out[std::size_t(lane)] == float(lane));
    const bool unwaited = mode == ReadThenDma::kOtherWaveNotWaited || mode == ReadThenDma::kSameWaveNotWaited;
    CHECK(emu::report_count(ReportKind::kLdsReadNotWaited) == (unwaited ? 1u : 0u));
    CHECK(emu::reports().size() == emu::report_count(ReportKind::kLdsReadNotWaited));
  }
}

TEST_CASE("gfx950-only instructions are reported when emulating gfx942", "[emulator]") {
  emu::Options o;
  o.target = emu::Target::kGfx942;
  emu::ScopedOptions scope(o);
  std::vector<std::uint32_t> src(4 * 64 * 4, 1u), dst(128 * 4);
  for (int bytes : {1, 2, 4, 12, 16}) {
    emu::clear_reports();
    REQUIRE(emu_test::run_dma(bytes, src.data(), std::uint32_t(src.size() * 4), 0, 0, dst.data()) ==
            Status::kSuccess);
    CHECK((emu::report_count(ReportKind::kMisuse) > 0) == (bytes > 4));
  }
}
