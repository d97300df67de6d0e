// How one call asks a K-splitting scheduler (scheduler::StreamK<>, scheduler/stream_k.hpp) to cut
// its problem: gemm::Arguments::split. The default (kAuto) leaves it to the scheduler's rule
// (choose_decomposition); tests, benchmarks and tuning name a decomposition per call. Schedulers
// that never split K ignore it.
#pragma once

namespace tessera::gemm {

enum class Decomposition : int { kDataParallel = 0, kSplitK = 1, kStreamK = 2, kAuto = 3 };

inline const char* decomposition_name(Decomposition d) {
  switch (d) {
    case Decomposition::kDataParallel: return "data-parallel";
    case Decomposition::kSplitK: return "split-K";
    case Decomposition::kStreamK: return "stream-K";
    case Decomposition::kAuto: return "auto";
  }
  return "?";
}

// kSplitK: the full waves run data-parallel and the tiles of the last wave in (at most) `splits`
// slices each, as many as fit the workers; kStreamK: the tiles of the last one or two waves are
// streamed K tile by K tile; kDataParallel: whole tiles. `splits` is read for kSplitK only.
struct SplitRequest {
  Decomposition mode = Decomposition::kAuto;
  int splits = 0;
};

}  // namespace tessera::gemm
