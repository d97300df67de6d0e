// The AMD MFMA GEMM family: Gemm<MfmaConfig<...>> (the host API is gemm/gemm.hpp's; this
// file supplies the family's kernel launch and its extra checks).
//
//   using Config = tessera::gemm::MfmaConfig<tessera::Gfx942, tessera::bfloat16_t,
//       tessera::RowMajor, tessera::bfloat16_t, tessera::ColumnMajor, float, tessera::RowMajor>;
//   tessera::Status s = tessera::gemm::Gemm<Config>::run(args, nullptr, stream);
//
// Compile with clang -x hip for gfx942 / gfx950, or as a host build for the AMD wave
// emulator (TESSERA_AMD_EMULATION). With scheduler::DataParallel no workspace is used; with
// scheduler::StreamK<> (gemm/scheduler/stream_k.hpp) the grid is persistent (CUs x the schedule's blocks
// per CU) and workspace_size(args) bytes let it split K (without them: data-parallel).
// Low-precision inputs (fp8, fp6, fp4) and their operand scales: mfma/config.hpp and
// operand_scales.hpp; the scales ride in args.epilogue. Packed fp6 operands
// (float6_e2m3x4_t, float6_e3m2x4_t) count K and their leading dimension in values, like
// fp4; their rows are ld * 3 / 4 bytes apart (ld a multiple of 4), any K.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/math.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/mfma/kernel.hpp"
#include "tessera/gemm/launch_limits.hpp"
#include "tessera/gemm/mfma/config.hpp"
#include "tessera/gemm/scheduler/persistent.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/launch.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera::gemm {

template <class Config>
struct KernelLauncher<MfmaFamily, Config> {
  using Args = typename Gemm<Config>::Args;
  using LayoutA = typename Config::LayoutA;
  using LayoutB = typename Config::LayoutB;
  using LayoutC = typename Config::LayoutC;
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;

  // Operands are read 16 bytes per lane where the pointer and the leading dimension allow
  // it and element by element otherwise, so natural alignment suffices, except for the
  // async schedule, whose direct-to-LDS loads move 16 bytes per lane and have no fallback.
  static OperandRequirements requirements() {
    OperandRequirements r;
    if constexpr (Config::kDirectToLds) r.align_a = r.align_b = 16;
    return r;
  }

  // fp4 operands hold two values of K a byte: the kernel counts K, lda and ldb in bytes
  // (storage units), which needs them even.
  static constexpr int kValuesPerUnit = Config::kValuesPerUnit;
  static bool packs_evenly(const Args& a) {
    return kValuesPerUnit == 1 || (a.K % kValuesPerUnit == 0 && a.lda % kValuesPerUnit == 0 && a.ldb % kValuesPerUnit == 0);
  }
  // The problem in storage units (K, lda, ldb in bytes for fp4; fp6: values, as given).
  static Args in_storage_units(Args a) {
    a.K /= kValuesPerUnit;
    a.lda /= kValuesPerUnit;
    a.ldb /= kValuesPerUnit;
    return a;
  }
  // Packed fp6: every row starts on a byte (four values in three bytes).
  static bool fp6_rows_whole(const Args& a) {
    return (!Config::kPackedSixA || a.lda % 4 == 0) && (!Config::kPackedSixB || a.ldb % 4 == 0);
  }
  // Bytes from A (B) to one past its last element, from the problem in storage units: a
  // packed fp6 operand's rows are ld * 3 / 4 bytes apart, its last row ceil(3 K / 4) bytes.
  static std::int64_t span_a(const Args& a) {
    if constexpr (Config::kPackedSixA) {
      return a.M <= 0 || a.K <= 0 ? 0 : (a.M - 1) * Config::bytes_a(a.lda) + (3 * a.K + 3) / 4;
    } else {
      return operand_bytes<LayoutA, EA>(a.M, a.K, a.lda);
    }
  }
  static std::int64_t span_b(const Args& a) {
    if constexpr (Config::kPackedSixB) {
      return a.N <= 0 || a.K <= 0 ? 0 : (a.N - 1) * Config::bytes_b(a.ldb) + (3 * a.K + 3) / 4;
    } else {
      return operand_bytes<LayoutB, EB>(a.K, a.N, a.ldb);
    }
  }
  // Bytes one value of K takes at most (the 32-bit offset checks): fp6 less than one.
  static constexpr std::size_t kBytesA = Config::kPackedSixA ? 1 : sizeof(EA);
  static constexpr std::size_t kBytesB = Config::kPackedSixB ? 1 : sizeof(EB);

  // 32-bit lane offsets from each workgroup's tile origin: the tile's strided extent
  // times the leading dimension stays below 2^31 bytes; K is counted in 32 bits; A and B
  // (and their block scales) each span less than 4 GiB (a buffer descriptor's num_records
  // is 32 bits).
  static Status check(const Args& given) {
    if (!packs_evenly(given)) return Status::kErrorPackedOperandOddK;
    if (!fp6_rows_whole(given)) return Status::kErrorPackedFp6Ld;
    const Args a = in_storage_units(given);
    constexpr std::int64_t k4GiB = std::int64_t(1) << 32;
    if (span_a(a) >= k4GiB || span_b(a) >= k4GiB) return Status::kErrorOffsetOverflow;
    if constexpr (Config::kBlockScaled) {
      if (scale_span(given.epilogue.scales.a, given.M, given.K) >= k4GiB ||
          scale_span(given.epilogue.scales.b, given.N, given.K) >= k4GiB) {
        return Status::kErrorOffsetOverflow;
      }
    }
    const Status s = tile_launch_limits<LayoutA, LayoutB>(a, Config::kBlockM, Config::kBlockN, Config::kBlockK,
                                                          kBytesA, kBytesB);
    if (!ok(s)) return s;
    const TileGrid grid{a.M, a.N, a.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
    if (scheduler_units<typename Config::Scheduler>(grid, a.problems) > std::int64_t(0x7fffffff)) {
      return Status::kErrorGridTooLarge;
    }
    // The async schedule's direct-to-LDS loads have no unaligned fallback: every problem's A
    // and B must start 16-byte aligned.
    if (Config::kDirectToLds && !strides_keep_alignment(problem_strides<typename Config::Scheduler>(a.problems))) {
      return Status::kErrorProblemStrideMisaligned;
    }
    return Status::kSuccess;
  }

  // Bytes from a block-scale tensor's first scale to one past the last one the kernel reads.
  template <class Tensor>
  static std::int64_t scale_span(const Tensor& t, std::int64_t rows, std::int64_t K) {
    using Mode = typename Config::OperandScales;
    const std::int64_t blocks = ceil_div<std::int64_t>(K, Mode::kBlockValues);
    return rows == 0 || blocks == 0 ? 0 : (rows - 1) * block_scale_ld<Mode>(t, K) + blocks;
  }
  // Block scales move as dwords in the main loop when every row starts 4-byte aligned.
  template <class Tensor>
  static bool scales_aligned(const Tensor& t, std::int64_t K) {
    return reinterpret_cast<std::uintptr_t>(t.data) % 4 == 0 &&
           block_scale_ld<typename Config::OperandScales>(t, K) % 4 == 0;
  }

  // The fix-up's partials (scheduler::StreamK<>; 0 when the plan would not split).
  static std::size_t workspace_size(const Args& a, const DeviceInfo& d) {
    return fixup_workspace_bound<typename Config::Scheduler>(grid(a), resident_workgroups(d), a.split);
  }
  static TileGrid grid(const Args& a) { return {a.M, a.N, a.K, Config::kBlockM, Config::kBlockN, Config::kBlockK}; }
  // Workgroups resident at once: the schedule's blocks per CU on every CU.
  static int resident_workgroups(const DeviceInfo& d) { return d.multiprocessors * Config::kBlocksPerCu; }

  // True when every line of the operand starts 16-byte aligned (the 16-byte copy path); a
  // packed fp6 operand's 12-byte pieces need its lines 4-byte aligned (ld in values).
  template <class T>
  static bool vector_aligned(const T* p, std::int64_t ld) {
    if constexpr (is_packed_fp6<T>) {
      return reinterpret_cast<std::uintptr_t>(p) % 4 == 0 && (ld * 3 / 4) % 4 == 0;
    } else {
      return lines_aligned(p, ld, 16);
    }
  }

  // Every problem's A and B start 16-byte aligned too: their strides, and where problems start
  // at rows of their own, a row-major A (a row is lda elements on; a column-major row is one).
  static bool strides_keep_alignment(const ProblemStrides& s) {
    if constexpr (takes_problem_set<typename Config::Scheduler>) {
      if (Config::Scheduler::kRowOffsets && !LayoutA::kIsRowMajor) return false;
    }
    return (s.a * std::int64_t(sizeof(EA))) % 16 == 0 && (s.b * std::int64_t(sizeof(EB))) % 16 == 0;
  }

#if defined(TESSERA_AMD_TARGET) && defined(__clang__)
  static Status launch(const Args& given, void* workspace, Stream stream, const DeviceInfo& d) {
    const Args a = in_storage_units(given);
    MfmaParams<Config> p{};
    p.a = a.A;
    p.b = a.B;
    p.lda = a.lda;
    p.ldb = a.ldb;
    p.K = a.K;
    p.span_a = span_a(a);
    p.span_b = span_b(a);
    auto aligned4 = [](const auto* ptr, std::int64_t ld) {
      return ptr != nullptr && lines_aligned(ptr, ld, 4 * sizeof(*ptr));
    };
    using Epilogue = typename Config::Epilogue;
    const Epilogue epilogue = Epilogue::make(a.epilogue, epilogue_problem(given));
    bool scales_vector_aligned = true;
    if constexpr (Config::kBlockScaled) {
      const auto& scales = given.epilogue.scales;
      p.scale_a = reinterpret_cast<const unsigned char*>(scales.a.data);
      p.scale_b = reinterpret_cast<const unsigned char*>(scales.b.data);
      p.scale_ld_a = epilogue.ld_a;
      p.scale_ld_b = epilogue.ld_b;
      p.scale_span_a = scale_span(scales.a, given.M, given.K);
      p.scale_span_b = scale_span(scales.b, given.N, given.K);
      scales_vector_aligned = scales_aligned(scales.a, given.K) && scales_aligned(scales.b, given.K);
    }
    p.output = {a.M, a.N, a.C, a.ldc, a.D, a.ldd,
                epilogue.reads_c() && aligned4(a.C, a.ldc), aligned4(a.D, a.ldd), epilogue};
    const TileGrid g = grid(a);
    // One tile per workgroup (a problem set: its bound; workgroups past the last unit leave).
    std::int64_t workers = scheduler_units<typename Config::Scheduler>(g, a.problems);
    if (workers == 0) return Status::kSuccess;
    FixupSpace space;
    if constexpr (scheduler_has_fixup<typename Config::Scheduler>) {
      // Persistent: no more workgroups than are resident (the fix-up's waits need them all).
      if (workers > resident_workgroups(d)) workers = resident_workgroups(d);
      space = fixup_space(workspace, workspace != nullptr ? workspace_size(a, d) : 0, a.split);
#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_HIP)
      // The emulator runs workgroups one after another: a reduction may wait only for lower ones.
      space.reducers = Reducers::kLastPeer;
#endif
    } else {
      (void)workspace;
      (void)d;
    }
    p.scheduler = persistent_scheduler<typename Config::Scheduler>(g, a.problems, int(workers), space);
    p.k_order = LastFirstKOrder::make(int(a.K), Config::kBlockK);
    p.strides = problem_strides<typename Config::Scheduler>(a.problems);

    LaunchShape shape;
    shape.grid_x = unsigned(workers);
    shape.block_x = Config::kThreads;
    // K = 0 reads neither operand (can_implement accepts null A and B then, whatever their
    // leading dimensions): any kernel computes D = beta * C; the aligned one is the one
    // every schedule has.
    if (a.K == 0 || (vector_aligned(a.A, a.lda) && vector_aligned(a.B, a.ldb) && strides_keep_alignment(p.strides) &&
                     scales_vector_aligned)) {
      return launch_kernel(mfma_gemm_kernel<Config, true>, shape, stream, p);
    }
    if constexpr (Config::kDirectToLds) {
      return Status::kErrorMisalignedA;  // K > 0: refused by requirements() before this point
    } else {
      return launch_kernel(mfma_gemm_kernel<Config, false>, shape, stream, p);
    }
  }
#else
  // A host build without the emulator has no AMD device: run() stops at kErrorNoDevice
  // before it gets here; this keeps Gemm<Config>::run compilable for such builds.
  static Status launch(const Args&, void*, Stream, const DeviceInfo&) { return Status::kErrorNoDevice; }
#endif
};

}  // namespace tessera::gemm
