// Small kernels that exercise one mechanism of the wave emulator each, and the host
// functions that launch them (defined in core_kernels.cpp, an instrumented translation
// unit; the tests that call them are plain ones).
#pragma once
#include <cstdint>

#include "tessera/core/status.hpp"

namespace emu_test {

// out[block * threads + tid] = tid + 1000 * block, for every work-item.
tessera::Status run_ids(unsigned blocks, unsigned threads, int* out);

// Each work-item writes tid into LDS, synchronises as `mode` says, then reads the word of
// work-item (tid + 64) % threads (another wave) into out[tid].
enum class Sync {
  kBlockBarrier,       // block_barrier(): fence + s_barrier
  kWaitThenBarrier,    // wait_lgkmcnt<0>() then a bare amd::barrier()
  kBareBarrier,        // amd::barrier() with no wait for the LDS write
  kNone,               // no barrier at all
};
tessera::Status run_exchange(Sync mode, unsigned threads, float* out);

// Two lanes of one wave exchange words: lane i writes word i, reads word i ^ 1.
tessera::Status run_lane_exchange(bool wave_barrier, float* out);

// 4 waves. Waves of group 1 (waves 2, 3) pass one s_barrier before a loop of `iterations`
// barriers, group 0 (waves 0, 1) one after it: ping-pong's asymmetric synchronisation.
// If early_exit, waves 2 and 3 end at once and waves 0 and 1 run the loop alone.
tessera::Status run_asymmetric(int iterations, bool early_exit);

// Wave 0 issues its scheduling hints in one order, wave 1 in another.
tessera::Status run_sched();

// Lanes 0-31 wait on vmcnt, lanes 32-63 reach s_barrier: a divergent wave-level instruction.
tessera::Status run_divergent();

// A kernel that declares 256 bytes of LDS; lane 0 writes at `offset` bytes, everyone
// reads word lane (so reads past what was written are of unwritten bytes when read_all).
tessera::Status run_lds_bounds(int offset, bool read_unwritten, float* out);

// Raw buffer accesses of `bytes` per lane (2, 4, 8 or 16): lane i loads from lane offset
// i * bytes through a descriptor of src with `num_records` bytes (scalar offset
// `soffset`), and stores what it got at lane offset i * bytes of dst (i * 4 for 2-byte
// loads, widened to a word) through a descriptor of `store_records` bytes. One wave.
tessera::Status run_buffer(int bytes, const void* src, std::uint32_t num_records, std::uint32_t soffset,
                           void* dst, std::uint32_t store_records);

// Direct-to-LDS: 2 waves; each lane fills its two LDS slots (dma_slot_bytes(bytes) each:
// where the hardware puts a lane's bytes) with kDmaPattern, then wave w loads `bytes` per
// lane of src (lane offset (block * 64 + lane) * bytes, two loads: block 2w and 2w + 1),
// waits vmcnt(`wait`), passes a bare s_barrier (wait < 0: no explicit wait,
// block_barrier() instead); then every lane copies its slot of the other wave's block
// `chunk_read` to dst (dma_slot_bytes(bytes) bytes per work-item).
constexpr int dma_slot_bytes(int bytes) { return bytes <= 4 ? 4 : 16; }
constexpr unsigned char kDmaPattern = 0xa5;
tessera::Status run_dma(int bytes, const std::uint32_t* src, std::uint32_t num_records, int wait,
                        int chunk_read, std::uint32_t* dst);

// An LDS read, then a direct-to-LDS load into the same bytes: wave 0 reads 64 words
// (out[lane]), then, after a barrier, a 4-byte direct-to-LDS load of src overwrites them,
// issued by wave 0 itself or by wave 1, with or without an lgkmcnt(0) wait between wave
// 0's read and the barrier (kOtherWaveFenced: block_barrier(), whose fence waits).
enum class ReadThenDma { kOtherWaveWaited, kOtherWaveNotWaited, kOtherWaveFenced, kSameWaveWaited,
                         kSameWaveNotWaited };
tessera::Status run_read_then_dma(ReadThenDma mode, const std::uint32_t* src, float* out);

}  // namespace emu_test
