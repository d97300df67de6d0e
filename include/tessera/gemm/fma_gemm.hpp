// Gemm<FmaConfig<...>>: the host API of the FMA GEMM family.
//
//   using Config = tessera::gemm::FmaConfig<tessera::Sm90, float, tessera::RowMajor,
//                                           float, tessera::RowMajor, float, tessera::RowMajor>;
//   tessera::gemm::Arguments<float, float, float> args{M, N, K, A, lda, B, ldb, C, ldc, D, ldd,
//                                                      alpha, beta};
//   tessera::Status s = tessera::gemm::Gemm<Config>::run(args, nullptr, stream);
//
// Compile this header with nvcc (CUDA) or clang -x hip (HIP).
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/fma_config.hpp"
#include "tessera/gemm/kernel/fma_gemm_kernel.hpp"
#include "tessera/gemm/kernel/split_k_reduce.hpp"
#include "tessera/gemm/split_k.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera::gemm {

template <class Config>
struct Gemm {
  using Args = Arguments<typename Config::ElementA, typename Config::ElementB,
                         typename Config::ElementC>;
  using Kernel = FmaGemmKernel<Config>;
  using LayoutA = typename Config::LayoutA;
  using LayoutB = typename Config::LayoutB;
  using LayoutC = typename Config::LayoutC;

  // Every precondition, checked on the host. The FMA kernel needs only natural element
  // alignment (it takes a scalar path where vectors would be misaligned) and 32-bit
  // offsets from each block's tile origin: BlockTile rows (or columns) times the leading
  // dimension must stay below 2^31 bytes.
  static Status can_implement(const Args& a) {
    const Status s = gemm::can_implement<LayoutA, LayoutB, LayoutC>(a);
    if (!ok(s)) return s;
    // The kernel counts K and per-tile offsets in 32 bits.
    if (!block_offsets_fit_32bit(a) || a.K > std::int64_t(0x7fffffff) - Config::kBlockK) {
      return Status::kErrorOffsetOverflow;
    }
    const auto sched = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);
    if (sched.num_tiles() > std::int64_t(0x7fffffff)) return Status::kErrorGridTooLarge;
    return Status::kSuccess;
  }

  // Bytes of workspace that let run() split K across blocks, for problems whose output
  // tiles alone cannot fill the GPU (0 when no split would be chosen). The split depends
  // on the current device's multiprocessor count. run() without a workspace computes
  // the same result unsplit.
  static std::size_t workspace_size(const Args& a) {
    if (!ok(can_implement(a)) || a.M == 0 || a.N == 0) return 0;
    const SplitK split = plan_split_k(a);
    if (split.splits <= 1) return 0;
    return std::size_t(split.splits) *
           std::size_t(PartialTile<LayoutC>::slice_elements(a.M, a.N)) * sizeof(float);
  }

  // workspace: nullptr, or at least workspace_size(a) bytes, 16-byte aligned, not used by
  // anything else until the work on `stream` is done.
  static Status run(const Args& a, void* workspace = nullptr, Stream stream = nullptr) {
    const Status s = can_implement(a);
    if (!ok(s)) return s;
    if (a.M == 0 || a.N == 0) return Status::kSuccess;  // nothing to write
    if (reinterpret_cast<std::uintptr_t>(workspace) % 16 != 0) {
      return Status::kErrorWorkspaceMisaligned;
    }

    FmaParams<Config> p{};
    p.args = a;
    p.span_a = matrix_span<LayoutA>(a.M, a.K, a.lda);
    p.span_b = matrix_span<LayoutB>(a.K, a.N, a.ldb);
    p.vector_a = vector_aligned(a.A, a.lda);
    p.vector_b = vector_aligned(a.B, a.ldb);
    p.output = {a.M, a.N, a.C, a.ldc, a.D, a.ldd, a.alpha, a.beta,
                a.beta != 0.0f && vector_aligned(a.C, a.ldc), vector_aligned(a.D, a.ldd)};
    p.scheduler = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);
    const SplitK split =
        workspace != nullptr ? plan_split_k(a) : SplitK{1, int(k_tiles(a))};
    p.splits = split.splits;
    p.k_tiles_per_split = split.k_tiles_per_split;
    p.partials = static_cast<float*>(workspace);

    const unsigned blocks = unsigned(p.scheduler.num_tiles() * p.splits);
    if (p.splits == 1) {
      const Status attr = allow_dynamic_smem<false>();
      if (!ok(attr)) return attr;
      fma_gemm_kernel<Config, false><<<blocks, Config::kThreads, Kernel::kDynamicSmemBytes, stream>>>(p);
      return last_launch_status();
    }
    const Status attr = allow_dynamic_smem<true>();
    if (!ok(attr)) return attr;
    fma_gemm_kernel<Config, true><<<blocks, Config::kThreads, Kernel::kDynamicSmemBytes, stream>>>(p);
    const Status launched = last_launch_status();
    if (!ok(launched)) return launched;

    SplitKReduceParams<typename Config::ElementC, LayoutC> r{p.partials, p.splits, p.output, 0};
    const std::int64_t runs = (LayoutC::kIsRowMajor ? a.M : a.N) *
                              (PartialTile<LayoutC>::leading_dim(a.M, a.N) / 4);
    const std::int64_t wanted = (runs + kSplitKReduceThreads - 1) / kSplitKReduceThreads;
    r.blocks = int(wanted < 65536 ? wanted : 65536);
    split_k_reduce_kernel<typename Config::ElementC, LayoutC>
        <<<unsigned(r.blocks), kSplitKReduceThreads, 0, stream>>>(r);
    return last_launch_status();
  }

 private:
  static std::int64_t k_tiles(const Args& a) {
    return (a.K + Config::kBlockK - 1) / Config::kBlockK;
  }

  static SplitK plan_split_k(const Args& a) {
    int sms = 0;
    if (!ok(multiprocessor_count(&sms))) return SplitK{1, int(k_tiles(a))};
    const auto tiles = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);
    return choose_split_k(tiles.num_tiles(), k_tiles(a), sms);
  }

  // Past 48 KiB a kernel must opt in to its dynamic shared memory, once per process.
  template <bool kSplitK>
  static Status allow_dynamic_smem() {
#if defined(TESSERA_CUDA)
    if constexpr (Kernel::kDynamicSmemBytes > 48 * 1024) {
      static const Status once = status_from_cuda(cudaFuncSetAttribute(
          fma_gemm_kernel<Config, kSplitK>, cudaFuncAttributeMaxDynamicSharedMemorySize,
          int(Kernel::kDynamicSmemBytes)));
      return once;
    }
#endif
    return Status::kSuccess;
  }

  // 4-element vector accesses along every line are aligned.
  template <class T>
  static bool vector_aligned(const T* p, std::int64_t ld) {
    return p != nullptr && lines_aligned(p, ld, 4 * sizeof(T));
  }

  static bool block_offsets_fit_32bit(const Args& a) {
    // The largest per-thread offset is below (tile extent along the strided dimension)
    // x ld + ld; checking (extent + 1) * ld * size keeps it simple and safe.
    auto fits = [](std::int64_t extent, std::int64_t ld, std::size_t size) {
      return (extent + 1) * ld * std::int64_t(size) < (std::int64_t(1) << 31);
    };
    const std::int64_t a_strided = LayoutA::kIsRowMajor ? Config::kBlockM : Config::kBlockK;
    const std::int64_t b_strided = LayoutB::kIsRowMajor ? Config::kBlockK : Config::kBlockN;
    return fits(a_strided, a.lda, sizeof(typename Config::ElementA)) &&
           fits(b_strided, a.ldb, sizeof(typename Config::ElementB));
  }
};

}  // namespace tessera::gemm
