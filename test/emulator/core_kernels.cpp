// Kernels for the emulator's own tests (core_kernels.hpp says what each does). This
// translation unit is instrumented (-fsanitize=thread): the emulator sees its LDS
// accesses. The kernels are written as Tessera kernels are: arch/ wrappers only.
#include "core_kernels.hpp"

#include "tessera/arch/amd/buffer.hpp"
#include "tessera/arch/amd/lds.hpp"
#include "tessera/arch/amd/sched.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/runtime/launch.hpp"

namespace emu_test {

using tessera::LaunchShape;
using tessera::Status;
namespace amd = tessera::amd;

namespace {

struct IdsParams {
  int* out;
  unsigned threads;
};
TESSERA_GLOBAL void ids_kernel(const IdsParams p) {
  const int tid = tessera::thread_index();
  const int block = tessera::block_index();
  p.out[block * int(p.threads) + tid] = tid + 1000 * block;
}

struct ExchangeParams {
  Sync mode;
  unsigned threads;
  float* out;
};
TESSERA_GLOBAL void exchange_kernel(const ExchangeParams p) {
  TESSERA_AMD_LDS(lds, 1024 * sizeof(float));
  float* words = reinterpret_cast<float*>(lds);
  const int tid = tessera::thread_index();
  words[tid] = float(tid);
  switch (p.mode) {
    case Sync::kBlockBarrier: tessera::block_barrier(); break;
    case Sync::kWaitThenBarrier:
      amd::wait_lgkmcnt<0>();
      amd::barrier();
      break;
    case Sync::kBareBarrier: amd::barrier(); break;
    case Sync::kNone: break;
  }
  p.out[tid] = words[(unsigned(tid) + 64u) % p.threads];
}

struct LaneExchangeParams {
  bool wave_barrier;
  float* out;
};
TESSERA_GLOBAL void lane_exchange_kernel(const LaneExchangeParams p) {
  TESSERA_AMD_LDS(lds, 64 * sizeof(float));
  float* words = reinterpret_cast<float*>(lds);
  const int tid = tessera::thread_index();
  words[tid] = float(tid);
  if (p.wave_barrier) amd::wave_barrier();
  p.out[tid] = words[tid ^ 1];
}

struct AsymmetricParams {
  int iterations;
  bool early_exit;
};
TESSERA_GLOBAL void asymmetric_kernel(const AsymmetricParams p) {
  const int group = tessera::thread_index() / 64 / 2;
  if (p.early_exit && group == 1) return;
  if (group == 1) amd::barrier();
  for (int i = 0; i < p.iterations; ++i) amd::barrier();
  if (group == 0) amd::barrier();
}

TESSERA_GLOBAL void sched_kernel(const int /*unused*/) {
  if (tessera::thread_index() / 64 == 0) {
    amd::set_priority<1>();
    amd::sched_group_barrier<amd::SchedMask::kMfma, 1, 0>();
    amd::sched_group_barrier<amd::SchedMask::kSalu, 3, 0>();
    amd::set_priority<0>();
    amd::sched_barrier<amd::SchedMask::kNone>();
  } else {
    amd::sched_barrier<amd::SchedMask::kNone>();
    amd::set_priority<2>();
  }
}

TESSERA_GLOBAL void divergent_kernel(const int /*unused*/) {
  if (tessera::thread_index() < 32) {
    amd::wait_vmcnt<0>();
  } else {
    amd::barrier();
  }
}

struct LdsBoundsParams {
  int offset;
  bool read_unwritten;
  float* out;
};
TESSERA_GLOBAL void lds_bounds_kernel(const LdsBoundsParams p) {
  TESSERA_AMD_LDS(lds, 256);
  const int tid = tessera::thread_index();
  if (tid == 0) lds[p.offset] = 1;
  tessera::block_barrier();
  if (p.read_unwritten) p.out[tid] = reinterpret_cast<const float*>(lds)[tid];
}

struct BufferParams {
  int bytes;
  const void* src;
  std::uint32_t num_records, soffset;
  void* dst;
  std::uint32_t store_records;
};
template <int Bytes>
void buffer_copy(const BufferParams& p) {
  const auto lane = std::uint32_t(tessera::thread_index());
  const amd::BufferResource in = amd::make_buffer_resource(p.src, p.num_records);
  const amd::BufferResource out = amd::make_buffer_resource(p.dst, p.store_records);
  const auto v = amd::buffer_load<Bytes>(in, lane * Bytes, p.soffset);
  if constexpr (Bytes == 2) {  // stores move 4, 8 or 16 bytes: a 2-byte load lands in a word
    amd::buffer_store<4>(out, std::uint32_t(v), lane * 4);
  } else if constexpr (Bytes == 12) {  // no 12-byte store: three words
    for (std::uint32_t w = 0; w < 3; ++w) amd::buffer_store<4>(out, v[w], lane * 12 + 4 * w);
  } else {
    amd::buffer_store<Bytes>(out, v, lane * Bytes);
  }
}
TESSERA_GLOBAL void buffer_kernel(const BufferParams p) {
  switch (p.bytes) {
    case 2: buffer_copy<2>(p); break;
    case 4: buffer_copy<4>(p); break;
    case 8: buffer_copy<8>(p); break;
    case 12: buffer_copy<12>(p); break;
    default: buffer_copy<16>(p); break;
  }
}

struct DmaParams {
  int bytes;
  const std::uint32_t* src;
  std::uint32_t num_records;
  int wait;
  int chunk_read;
  std::uint32_t* dst;
};
template <int Bytes>
void dma_copy(const DmaParams& p, unsigned char* lds) {
  constexpr int kSlot = dma_slot_bytes(Bytes);
  const int tid = tessera::thread_index();
  const int wave = tid / 64, lane = tid % 64;
  const amd::BufferResource src = amd::make_buffer_resource(p.src, p.num_records);
  // Each lane first fills its two slots with the pattern, so that what a load leaves alone
  // is seen; the loads must not overtake these writes (wait lgkmcnt).
  for (int chunk = 0; chunk < 2; ++chunk) {
    unsigned char* slot = lds + ((wave * 2 + chunk) * 64 + lane) * kSlot;
    for (int i = 0; i < kSlot; ++i) slot[i] = kDmaPattern;
  }
  amd::wait_lgkmcnt<0>();
  for (int chunk = 0; chunk < 2; ++chunk) {
    const int block = wave * 2 + chunk;
    amd::buffer_load_to_lds<Bytes>(src, lds + block * 64 * kSlot, std::uint32_t((block * 64 + lane) * Bytes));
  }
  switch (p.wait) {
    case -1: tessera::block_barrier(); break;  // its release fence may wait for the loads
    case 0: amd::wait_vmcnt<0>(); break;
    case 1: amd::wait_vmcnt<1>(); break;
    default: amd::wait_vmcnt<2>(); break;
  }
  if (p.wait >= 0) amd::barrier();
  const int other = (wave ^ 1) * 2 + p.chunk_read;
  const unsigned char* slot = lds + (other * 64 + lane) * kSlot;
  unsigned char* out = reinterpret_cast<unsigned char*>(p.dst) + tid * kSlot;
  for (int i = 0; i < kSlot; ++i) out[i] = slot[i];
}
TESSERA_GLOBAL void dma_kernel(const DmaParams p) {
  TESSERA_AMD_LDS(lds, 4 * 64 * 16);
  switch (p.bytes) {
    case 1: dma_copy<1>(p, lds); break;
    case 2: dma_copy<2>(p, lds); break;
    case 4: dma_copy<4>(p, lds); break;
    case 12: dma_copy<12>(p, lds); break;
    default: dma_copy<16>(p, lds); break;
  }
}

struct ReadThenDmaParams {
  ReadThenDma mode;
  const std::uint32_t* src;
  float* out;
};
TESSERA_GLOBAL void read_then_dma_kernel(const ReadThenDmaParams p) {
  TESSERA_AMD_LDS(lds, 64 * 4);
  auto* words = reinterpret_cast<float*>(lds);
  const int tid = tessera::thread_index();
  const int wave = tid / 64, lane = tid % 64;
  if (wave == 0) words[lane] = float(lane);
  tessera::block_barrier();
  const bool same_wave = p.mode == ReadThenDma::kSameWaveWaited || p.mode == ReadThenDma::kSameWaveNotWaited;
  const int loader = same_wave ? 0 : 1;
  if (wave == 0) p.out[lane] = words[lane];
  const bool waited = p.mode == ReadThenDma::kOtherWaveWaited || p.mode == ReadThenDma::kSameWaveWaited;
  if (waited) amd::wait_lgkmcnt<0>();
  if (p.mode == ReadThenDma::kOtherWaveFenced) {
    tessera::block_barrier();
  } else {
    amd::barrier();
  }
  if (wave == loader) {
    amd::buffer_load_to_lds<4>(amd::make_buffer_resource(p.src, 64 * 4), lds, std::uint32_t(lane * 4));
    amd::wait_vmcnt<0>();
  }
}

}  // namespace

Status run_ids(unsigned blocks, unsigned threads, int* out) {
  return tessera::launch_kernel(ids_kernel, LaunchShape{blocks, 1, 1, threads}, nullptr,
                                IdsParams{out, threads});
}

Status run_exchange(Sync mode, unsigned threads, float* out) {
  return tessera::launch_kernel(exchange_kernel, LaunchShape{1, 1, 1, threads}, nullptr,
                                ExchangeParams{mode, threads, out});
}

Status run_lane_exchange(bool wave_barrier, float* out) {
  return tessera::launch_kernel(lane_exchange_kernel, LaunchShape{1, 1, 1, 64}, nullptr,
                                LaneExchangeParams{wave_barrier, out});
}

Status run_asymmetric(int iterations, bool early_exit) {
  return tessera::launch_kernel(asymmetric_kernel, LaunchShape{1, 1, 1, 256}, nullptr,
                                AsymmetricParams{iterations, early_exit});
}

Status run_sched() { return tessera::launch_kernel(sched_kernel, LaunchShape{1, 1, 1, 128}, nullptr, 0); }

Status run_divergent() {
  return tessera::launch_kernel(divergent_kernel, LaunchShape{1, 1, 1, 64}, nullptr, 0);
}

Status run_lds_bounds(int offset, bool read_unwritten, float* out) {
  return tessera::launch_kernel(lds_bounds_kernel, LaunchShape{1, 1, 1, 64}, nullptr,
                                LdsBoundsParams{offset, read_unwritten, out});
}

Status run_buffer(int bytes, const void* src, std::uint32_t num_records, std::uint32_t soffset, void* dst,
                  std::uint32_t store_records) {
  return tessera::launch_kernel(buffer_kernel, LaunchShape{1, 1, 1, 64}, nullptr,
                                BufferParams{bytes, src, num_records, soffset, dst, store_records});
}

Status run_dma(int bytes, const std::uint32_t* src, std::uint32_t num_records, int wait, int chunk_read,
               std::uint32_t* dst) {
  return tessera::launch_kernel(dma_kernel, LaunchShape{1, 1, 1, 128}, nullptr,
                                DmaParams{bytes, src, num_records, wait, chunk_read, dst});
}

Status run_read_then_dma(ReadThenDma mode, const std::uint32_t* src, float* out) {
  return tessera::launch_kernel(read_then_dma_kernel, LaunchShape{1, 1, 1, 128}, nullptr,
                                ReadThenDmaParams{mode, src, out});
}

}  // namespace emu_test
