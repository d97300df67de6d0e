// bind_thread_context (runtime/context.hpp): the step every Gemm entry point takes before
// its first driver call. What it decides is tested here against FAKE runtime and driver
// calls (no GPU on this machine); the real calls are exercised on the GPU by
// test/gpu/test_threads.cu, from threads that never used CUDA before.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "status_string.hpp"
#include "tessera/runtime/context.hpp"

using tessera::Status;
using tessera::detail::bind_thread_context;

namespace {

// One thread's CUDA state as the runtime and the driver would report it, and what the step
// asked of them.
struct FakeCalls {
  int device = 0;                 // cudaGetDevice
  bool context = false;           // a context current on the thread (cuCtxGetCurrent)
  Status get_device_result = Status::kSuccess;
  Status context_result = Status::kSuccess;
  Status set_device_result = Status::kSuccess;
  std::vector<int> set_device_calls;

  Status get_device(int* d) {
    if (get_device_result == Status::kSuccess) *d = device;
    return get_device_result;
  }
  Status context_current(bool* current) {
    *current = context_result == Status::kSuccess && context;
    return context_result;
  }
  Status set_device(int d) {
    set_device_calls.push_back(d);
    if (set_device_result == Status::kSuccess) context = true;  // cudaSetDevice binds the primary context
    return set_device_result;
  }
};

}  // namespace

TEST_CASE("bind_thread_context binds the thread's device when no context is current",
          "[runtime][context]") {
  FakeCalls calls;
  calls.device = 3;
  int device = -1;
  REQUIRE(bind_thread_context(calls, &device) == Status::kSuccess);
  CHECK(device == 3);
  REQUIRE(calls.set_device_calls == std::vector<int>{3});
  // Bound now: the next call finds the context and binds nothing.
  REQUIRE(bind_thread_context(calls, &device) == Status::kSuccess);
  CHECK(calls.set_device_calls.size() == 1);
}

TEST_CASE("bind_thread_context leaves a current context alone (the caller's own, or the runtime's)",
          "[runtime][context]") {
  FakeCalls calls;
  calls.device = 1;
  calls.context = true;
  int device = -1;
  REQUIRE(bind_thread_context(calls, &device) == Status::kSuccess);
  CHECK(device == 1);
  CHECK(calls.set_device_calls.empty());
}

TEST_CASE("bind_thread_context initialises a driver nothing has initialised yet",
          "[runtime][context]") {
  FakeCalls calls;
  calls.context_result = Status::kErrorDriverNotInitialized;
  int device = -1;
  REQUIRE(bind_thread_context(calls, &device) == Status::kSuccess);
  CHECK(device == 0);
  CHECK(calls.set_device_calls == std::vector<int>{0});
}

TEST_CASE("bind_thread_context returns the failure of the call that failed", "[runtime][context]") {
  int device = -1;
  {
    FakeCalls calls;
    calls.get_device_result = Status::kErrorNoDevice;
    CHECK(bind_thread_context(calls, &device) == Status::kErrorNoDevice);
    CHECK(calls.set_device_calls.empty());
  }
  {
    FakeCalls calls;
    calls.context_result = Status::kErrorDriverShutDown;
    CHECK(bind_thread_context(calls, &device) == Status::kErrorDriverShutDown);
    CHECK(calls.set_device_calls.empty());
  }
  {
    FakeCalls calls;
    calls.device = 7;
    calls.set_device_result = Status::kErrorInvalidDevice;
    CHECK(bind_thread_context(calls, &device) == Status::kErrorInvalidDevice);
    CHECK(calls.set_device_calls == std::vector<int>{7});
  }
  CHECK(device == -1);  // never written on failure
}

TEST_CASE("bind_thread_context: each (fake) thread binds the device it selected, once",
          "[runtime][context][threads]") {
  constexpr int kThreads = 12;
  std::vector<FakeCalls> per_thread(kThreads);  // thread-local CUDA state, one per thread
  std::vector<int> bound(kThreads, -1);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    per_thread[std::size_t(t)].device = t % 3;
    threads.emplace_back([&, t] {
      FakeCalls& calls = per_thread[std::size_t(t)];
      for (int i = 0; i < 100; ++i) {
        if (bind_thread_context(calls, &bound[std::size_t(t)]) != Status::kSuccess) failures.fetch_add(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(failures.load() == 0);
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    CHECK(bound[std::size_t(t)] == t % 3);
    CHECK(per_thread[std::size_t(t)].set_device_calls == std::vector<int>{t % 3});
  }
}
