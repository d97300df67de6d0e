// Host tests of Tuned<...>'s cache (select/tuned_cache.hpp): many threads inserting and looking
// up at once, the file's round trip, and the files it must refuse (corrupt, another version,
// another device) without loading any of them.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tessera/gemm/select/tuned_cache.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {
TunedKey key(std::int64_t i, int device = 0) {
  TunedKey k;
  k.M = 1 + i;
  k.N = 4096 + 64 * (i % 7);
  k.K = 1000 + i % 13;
  k.b_row_major = i % 2 == 0;
  k.beta = i % 3 == 0;
  k.workspace = i % 5 == 0;
  k.device = device;
  return k;
}
AutoEntry entry(std::int64_t i) { return AutoEntry(int(i % kAutoEntryCount)); }

const TunedDevice kH200{"NVIDIA H200", 132};

std::string temp_path(const char* name) {
  return std::string("tessera_test_tuned_cache_") + name + "_" + std::to_string(std::uintptr_t(&kH200)) + ".txt";
}

void write(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}
}  // namespace

TEST_CASE("tuned cache: many threads inserting and looking up agree on one choice per key", "[gemm][tuned]") {
  TunedCache cache;
  constexpr int kThreads = 8, kKeys = 2000;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kKeys; ++i) {
        const int k = (i * 7 + t * 131) % kKeys;
        // Every thread offers its own answer for a key; the first one stays.
        cache.insert(key(k), entry(k + t));
        AutoEntry got{};
        if (!cache.find(key(k), &got)) ++mismatches;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(mismatches == 0);
  REQUIRE(cache.size() == std::size_t(kKeys));
  // One answer per key, and it is one of the answers offered for it.
  for (int k = 0; k < kKeys; ++k) {
    AutoEntry got{};
    REQUIRE(cache.find(key(k), &got));
    bool offered = false;
    for (int t = 0; t < kThreads; ++t) offered = offered || got == entry(k + t);
    CHECK(offered);
  }
}

TEST_CASE("tuned cache: a saved file loads back the same choices, for its device only", "[gemm][tuned]") {
  TunedCache cache;
  for (int i = 0; i < 300; ++i) cache.insert(key(i), entry(i));
  cache.insert(key(5, 1), AutoEntry::kSplit64);  // another device ordinal: not in device 0's file
  const std::string path = temp_path("round_trip");
  REQUIRE(cache.save(path, kH200, 0) == Status::kSuccess);
  TunedCache back;
  REQUIRE(back.load(path, kH200, 0) == Status::kSuccess);
  CHECK(back.size() == 300);
  for (int i = 0; i < 300; ++i) {
    AutoEntry got{};
    REQUIRE(back.find(key(i), &got));
    CHECK(got == entry(i));
  }
  AutoEntry none{};
  CHECK(!back.find(key(5, 1), &none));
  // Loaded as device 1: the same records under that ordinal.
  TunedCache other;
  REQUIRE(other.load(path, kH200, 1) == Status::kSuccess);
  CHECK(other.find(key(7, 1), &none));
  std::remove(path.c_str());
}

TEST_CASE("tuned cache: corrupt, foreign and missing files are named and load nothing", "[gemm][tuned]") {
  const std::string path = temp_path("bad");
  const std::string head = "tessera-tuned 1 sms=132 device=NVIDIA H200\n";
  const std::string good = "16 4096 4096 1 0 1 0 0 kSmallM16\n";
  struct Case {
    std::string text;
    Status want;
  };
  const Case cases[] = {
      {"", Status::kErrorTunedCacheCorrupt},
      {"not a tuned file\n" + good, Status::kErrorTunedCacheCorrupt},
      {"tessera-tuned 2 sms=132 device=NVIDIA H200\n" + good, Status::kErrorTunedCacheVersion},
      {"tessera-tuned 1 sms=114 device=NVIDIA H200\n" + good, Status::kErrorTunedCacheForeignDevice},
      {"tessera-tuned 1 sms=132 device=NVIDIA H100 80GB HBM3\n" + good, Status::kErrorTunedCacheForeignDevice},
      {"tessera-tuned 1 sms=1x2 device=NVIDIA H200\n" + good, Status::kErrorTunedCacheCorrupt},
      {"tessera-tuned 1 sms=132\n" + good, Status::kErrorTunedCacheCorrupt},
      {head + good + "16 4096 4096 1 0 1 0 0 kNoSuchEntry\n", Status::kErrorTunedCacheCorrupt},
      {head + good + "16 4096 1 0 1 0 0 kLarge\n", Status::kErrorTunedCacheCorrupt},
      {head + good + "16 4096 4096 1 0 1 0 2 kLarge\n", Status::kErrorTunedCacheCorrupt},
      {head + good + "-16 4096 4096 1 0 1 0 0 kLarge\n", Status::kErrorTunedCacheCorrupt},
      {head + good + "16 4096 4096 1 0 1 0 0 kLarge trailing\n", Status::kErrorTunedCacheCorrupt},
      {head + std::string("\x01\x02\xff garbage", 11), Status::kErrorTunedCacheCorrupt},
  };
  for (const Case& c : cases) {
    write(path, c.text);
    TunedCache cache;
    cache.insert(key(1), AutoEntry::kTile128);
    INFO(c.text);
    CHECK(cache.load(path, kH200) == c.want);
    CHECK(cache.size() == 1);  // nothing of the file added
    AutoEntry kept{};
    CHECK((cache.find(key(1), &kept) && kept == AutoEntry::kTile128));
  }
  std::remove(path.c_str());
  TunedCache cache;
  CHECK(cache.load(path, kH200) == Status::kErrorTunedCacheUnreadable);
  CHECK(cache.save("/nonexistent_dir_for_tessera/x.txt", kH200) == Status::kErrorTunedCacheUnwritable);
  // The good file itself loads.
  write(path, head + good);
  CHECK(cache.load(path, kH200) == Status::kSuccess);
  CHECK(cache.size() == 1);
  std::remove(path.c_str());
}
