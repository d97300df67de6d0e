// PerDeviceCache (runtime/device_cache.hpp), the per-process, per-device cache behind the
// device facts, the dynamic shared-memory opt-in and the resident-cluster count, hammered
// from many threads.
//
// The devices here are FAKE: this machine has no GPU (and the GPU machines one), so the
// fill function plays several devices, each with facts of its own, and every thread
// "selects" one by the ordinal it passes, as a thread after cudaSetDevice(n) would. Fills
// are slow on purpose (they sleep and write their value a byte at a time), so that threads
// pile up behind the first fill and a value published before it is complete, a fill run
// twice or a value served from another device's slot would show.
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "tessera/runtime/device_cache.hpp"

using tessera::PerDeviceCache;
using tessera::Status;

namespace {

constexpr int kFakeDevices = 4;
constexpr int kThreads = 16;

// A fake device's facts: every byte says which device they are from, so a torn read or a
// value from another slot has bytes that disagree with the reader's device.
struct FakeFacts {
  int device = -1;
  std::array<std::uint8_t, 256> bytes{};
};

std::uint8_t fingerprint(int device) { return std::uint8_t(device * 37 + 11); }

bool is_device(const FakeFacts& f, int device) {
  if (f.device != device) return false;
  for (std::uint8_t b : f.bytes) {
    if (b != fingerprint(device)) return false;
  }
  return true;
}

// The fake devices: counts the fills per ordinal, fails the first `failures` fills of one
// device, and takes its time.
struct FakeDevices {
  std::array<std::atomic<int>, 128> fills{};
  int failing_device = -1;
  std::atomic<int> failures_left{0};

  Status fill(int device, FakeFacts* out) {
    fills[std::size_t(device + 1)].fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (device == failing_device && failures_left.fetch_sub(1) > 0) return Status::kErrorNoContext;
    out->device = device;
    for (std::uint8_t& b : out->bytes) {
      b = fingerprint(device);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // keep the byte-by-byte writes
    }
    return Status::kSuccess;
  }
  int fills_of(int device) const { return fills[std::size_t(device + 1)].load(); }
};

// Runs body(thread index) on kThreads threads released together.
template <class Body>
void hammer(Body body) {
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      body(t);
    });
  }
  go.store(true);
  for (std::thread& t : threads) t.join();
}

// kThreads threads x `gets` calls of cache.get, call i of thread t on device_of(t, i);
// counts the calls that failed and the successful ones whose value was not their device's.
struct Outcome {
  int failed = 0, wrong = 0;
};
template <class Cache, class DeviceOf>
Outcome hammer_gets(Cache& cache, FakeDevices& devices, int gets, DeviceOf device_of) {
  std::atomic<int> wrong{0}, failed{0};
  hammer([&](int t) {
    for (int i = 0; i < gets; ++i) {
      const int device = device_of(t, i);
      FakeFacts got;
      const Status s = cache.get(device, &got, [&](int d, FakeFacts* out) { return devices.fill(d, out); });
      if (s != Status::kSuccess) {
        failed.fetch_add(1);
      } else if (!is_device(got, device)) {
        wrong.fetch_add(1);
      }
    }
  });
  return {failed.load(), wrong.load()};
}

}  // namespace

TEST_CASE("PerDeviceCache: each thread gets its own (fake) device's value, filled once per device",
          "[runtime][device_cache][threads]") {
  static PerDeviceCache<FakeFacts> cache;  // static, as the library's caches are
  FakeDevices devices;
  // Thread t stays on device t % kFakeDevices: its "cudaSetDevice(t % kFakeDevices)".
  const Outcome r = hammer_gets(cache, devices, 2000, [](int t, int) { return t % kFakeDevices; });
  CHECK(r.failed == 0);
  CHECK(r.wrong == 0);
  for (int d = 0; d < kFakeDevices; ++d) {
    INFO("fake device " << d);
    CHECK(devices.fills_of(d) == 1);
  }
}

// Threads that select another device before each call (cudaSetDevice(n) per call) meet
// slots that another thread filled while they were busy elsewhere: their first read of such
// a slot is lock-free, so only the flag's release/acquire orders it after the fill (run
// under ThreadSanitizer, a relaxed load there is reported as a race).
TEST_CASE("PerDeviceCache: threads switching (fake) devices between calls get each device's value",
          "[runtime][device_cache][threads]") {
  PerDeviceCache<FakeFacts> cache;
  FakeDevices devices;
  const Outcome r = hammer_gets(cache, devices, 2000, [](int t, int i) { return (t + i) % kFakeDevices; });
  CHECK(r.failed == 0);
  CHECK(r.wrong == 0);
  for (int d = 0; d < kFakeDevices; ++d) CHECK(devices.fills_of(d) == 1);
}

TEST_CASE("PerDeviceCache: a failed fill is not cached; the next call fills again",
          "[runtime][device_cache][threads]") {
  PerDeviceCache<FakeFacts> cache;
  FakeDevices devices;
  devices.failing_device = 2;
  devices.failures_left = 3;  // only device 2's fill fails, three times
  const Outcome r = hammer_gets(cache, devices, 200, [](int t, int) { return t % kFakeDevices; });
  CHECK(r.wrong == 0);
  CHECK(r.failed == 3);             // each failure reached one caller, and was not kept
  CHECK(devices.fills_of(2) == 4);  // three failures, then the fill that stuck
  CHECK(devices.fills_of(0) == 1);
}

TEST_CASE("PerDeviceCache: ordinals outside the cache are filled on every call, never mixed up",
          "[runtime][device_cache]") {
  PerDeviceCache<FakeFacts, 8> cache;
  FakeDevices devices;
  auto fill = [&](int d, FakeFacts* out) { return devices.fill(d, out); };
  for (int device : {-1, 8, 100}) {
    for (int i = 0; i < 3; ++i) {
      FakeFacts got;
      REQUIRE(cache.get(device, &got, fill) == Status::kSuccess);
      CHECK(is_device(got, device));
    }
    CHECK(devices.fills_of(device) == 3);
  }
  FakeFacts got;
  REQUIRE(cache.get(7, &got, fill) == Status::kSuccess);
  REQUIRE(cache.get(7, &got, fill) == Status::kSuccess);
  CHECK(is_device(got, 7));
  CHECK(devices.fills_of(7) == 1);
}
