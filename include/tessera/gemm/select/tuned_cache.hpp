// The per-process cache of Tuned<...> (select/tuned.hpp): which Auto table entry won the timing
// of a call's shape, and its file. Host-only, so the host tests drive it from many threads and
// feed it corrupt and foreign files.
//
// File (text, one record a line, written by save and read by load):
//   tessera-tuned 1 sms=<SM count> device=<device name>
//   <M> <N> <K> <A row-major 0/1> <B row-major 0/1> <C row-major 0/1> <beta != 0> <workspace> <entry>
// where <entry> is an AutoEntry's word (auto_entry_token: kLarge, kSmallM16, ...). load reads the
// whole file before it adds anything: a file that does not parse, has another version, or was
// tuned on another device (name or SM count) adds nothing and returns a Status naming why.
#pragma once
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>

#include "tessera/core/status.hpp"
#include "tessera/gemm/select/auto_rule.hpp"

namespace tessera::gemm {

// What a tuned choice is for: the shape, the layouts, whether C is read, whether a workspace is
// passed (entries that split K through one run differently without it), and the device ordinal
// in this process (not written to the file: a file is for one device, its stamp).
struct TunedKey {
  std::int64_t M = 0, N = 0, K = 0;
  bool a_row_major = true, b_row_major = false, c_row_major = true;
  bool beta = false;
  bool workspace = false;
  int device = 0;
  auto tie() const { return std::tie(M, N, K, a_row_major, b_row_major, c_row_major, beta, workspace, device); }
  bool operator<(const TunedKey& o) const { return tie() < o.tie(); }
  bool operator==(const TunedKey& o) const { return tie() == o.tie(); }
};

// The device a file was tuned on.
struct TunedDevice {
  std::string name;
  int sms = 0;
};

class TunedCache {
 public:
  static constexpr int kVersion = 1;

  bool find(const TunedKey& k, AutoEntry* e) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = choices_.find(k);
    if (it == choices_.end()) return false;
    *e = it->second;
    return true;
  }
  // The first choice for a key stays (two threads timing the same shape at once keep one answer).
  void insert(const TunedKey& k, AutoEntry e) {
    std::lock_guard<std::mutex> lock(mutex_);
    choices_.emplace(k, e);
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return choices_.size();
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    choices_.clear();
  }

  // The choices for device ordinal `device`, stamped with what it is.
  Status save(const std::string& path, const TunedDevice& d, int device = 0) const {
    std::ostringstream o;
    o << "tessera-tuned " << kVersion << " sms=" << d.sms << " device=" << d.name << "\n";
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (const auto& [k, e] : choices_) {
        if (k.device != device) continue;
        o << k.M << ' ' << k.N << ' ' << k.K << ' ' << k.a_row_major << ' ' << k.b_row_major << ' ' << k.c_row_major
          << ' ' << k.beta << ' ' << k.workspace << ' ' << auto_entry_token(e) << "\n";
      }
    }
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) return Status::kErrorTunedCacheUnwritable;
    f << o.str();
    f.flush();
    return f ? Status::kSuccess : Status::kErrorTunedCacheUnwritable;
  }

  // Adds the file's choices for device ordinal `device`, which must be the device `d`; all or
  // nothing.
  Status load(const std::string& path, const TunedDevice& d, int device = 0) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return Status::kErrorTunedCacheUnreadable;
    std::string line;
    if (!std::getline(f, line)) return f.bad() ? Status::kErrorTunedCacheUnreadable : Status::kErrorTunedCacheCorrupt;
    std::istringstream head(line);
    std::string magic, sms_field;
    int version = 0;
    if (!(head >> magic >> version >> sms_field) || magic != "tessera-tuned") return Status::kErrorTunedCacheCorrupt;
    if (version != kVersion) return Status::kErrorTunedCacheVersion;
    const std::string device_prefix = " device=";
    const std::size_t at = line.find(device_prefix);
    if (sms_field.rfind("sms=", 0) != 0 || at == std::string::npos) return Status::kErrorTunedCacheCorrupt;
    int sms = 0;
    if (!parse_int(sms_field.substr(4), &sms)) return Status::kErrorTunedCacheCorrupt;
    if (sms != d.sms || line.substr(at + device_prefix.size()) != d.name) return Status::kErrorTunedCacheForeignDevice;
    std::map<TunedKey, AutoEntry> read;
    while (std::getline(f, line)) {
      if (line.empty()) continue;
      std::istringstream rec(line);
      TunedKey k;
      int flags[5] = {};
      std::string token, extra;
      if (!(rec >> k.M >> k.N >> k.K >> flags[0] >> flags[1] >> flags[2] >> flags[3] >> flags[4] >> token) ||
          (rec >> extra) || k.M < 0 || k.N < 0 || k.K < 0) {
        return Status::kErrorTunedCacheCorrupt;
      }
      for (const int b : flags) {
        if (b != 0 && b != 1) return Status::kErrorTunedCacheCorrupt;
      }
      k.a_row_major = flags[0], k.b_row_major = flags[1], k.c_row_major = flags[2];
      k.beta = flags[3], k.workspace = flags[4];
      k.device = device;
      AutoEntry e{};
      if (!entry_of(token, &e)) return Status::kErrorTunedCacheCorrupt;
      read.emplace(k, e);
    }
    if (f.bad()) return Status::kErrorTunedCacheUnreadable;
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [k, e] : read) choices_[k] = e;  // the file's choice replaces a timed one
    return Status::kSuccess;
  }

 private:
  static bool parse_int(const std::string& s, int* v) {
    if (s.empty() || s.size() > 9) return false;
    int x = 0;
    for (const char c : s) {
      if (c < '0' || c > '9') return false;
      x = x * 10 + (c - '0');
    }
    *v = x;
    return true;
  }
  static bool entry_of(const std::string& token, AutoEntry* e) {
    for (int i = 0; i < kAutoEntryCount; ++i) {
      if (token == auto_entry_token(AutoEntry(i))) {
        *e = AutoEntry(i);
        return true;
      }
    }
    return false;
  }

  mutable std::mutex mutex_;
  std::map<TunedKey, AutoEntry> choices_;
};

}  // namespace tessera::gemm
