// PerDeviceCache<T>: one value per device ordinal, computed by the first call that needs it
// and read without a lock after that. Tessera's per-process host caches are all of this
// kind (device facts, device.hpp; the dynamic shared-memory opt-in, launch.hpp; resident
// clusters, gemm/tma/launch.hpp), so that a thread working on device 1 gets device 1's
// value whatever other threads did first, and threads that arrive together neither tear
// a value nor run a fill twice.
//
//   static PerDeviceCache<int> cache;     // constant-initialised: no guard, no order issue
//   int value;
//   Status s = cache.get(device, &value, [](int device, int* out) { ...; return status; });
//
// Host-only C++ (no GPU runtime): the unit tests fake several devices through the fill
// function (test/unit/test_device_cache.cpp).
#pragma once
#include <atomic>
#include <mutex>

#include "tessera/core/status.hpp"

namespace tessera {

template <class T, int kDevices = 64>
class PerDeviceCache {
 public:
  constexpr PerDeviceCache() = default;

  // *out = the value for `device`: the cached one, or else what fill(device, &value)
  // computes. Fills run one at a time (under a lock), and only the first for a device runs
  // (another thread that waited for the lock finds the value there); the value is published
  // after it is complete, so a lock-free reader sees it whole or not at all. A failed fill
  // (not kSuccess) is not cached: the next call tries again. Ordinals outside [0, kDevices)
  // are filled on every call, never cached.
  template <class Fill>
  Status get(int device, T* out, Fill&& fill) {
    if (device < 0 || device >= kDevices) return fill(device, out);
    Slot& slot = slots_[device];
    if (!slot.filled.load(std::memory_order_acquire)) {
      const std::lock_guard<std::mutex> lock(fill_lock_);
      if (!slot.filled.load(std::memory_order_relaxed)) {
        T value{};
        const Status s = fill(device, &value);
        if (!ok(s)) return s;
        slot.value = value;
        slot.filled.store(true, std::memory_order_release);
      }
    }
    *out = slot.value;
    return Status::kSuccess;
  }

 private:
  struct Slot {
    T value{};
    std::atomic<bool> filled{false};
  };
  Slot slots_[kDevices]{};
  std::mutex fill_lock_;
};

}  // namespace tessera
