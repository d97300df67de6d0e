// The FMA GEMM family: Gemm<FmaConfig<...>> (the host API is gemm/gemm.hpp's; this file
// supplies the family's kernel launch, its extra checks and its split-K workspace).
//
//   using Config = tessera::gemm::FmaConfig<tessera::Sm90, float, tessera::RowMajor,
//                                           float, tessera::RowMajor, float, tessera::RowMajor>;
//   tessera::gemm::Arguments<float, float, float> args{M, N, K, A, lda, B, ldb, C, ldc, D, ldd,
//                                                      alpha, beta};
//   tessera::Status s = tessera::gemm::Gemm<Config>::run(args, nullptr, stream);
//
// Compile this header with nvcc (CUDA) or clang -x hip (HIP), or as a host build for the
// AMD wave emulator.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/fma_config.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/kernel/fma_gemm_kernel.hpp"
#include "tessera/gemm/kernel/split_k_reduce.hpp"
#include "tessera/gemm/split_k.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/launch.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera::gemm {

template <class Config>
struct KernelLauncher<FmaFamily, Config> {
  using Args = Arguments<typename Config::ElementA, typename Config::ElementB,
                         typename Config::ElementC>;
  using Kernel = FmaGemmKernel<Config>;
  using LayoutA = typename Config::LayoutA;
  using LayoutB = typename Config::LayoutB;
  using LayoutC = typename Config::LayoutC;

  // The FMA kernel needs only natural element alignment (it takes a scalar path where
  // vectors would be misaligned).
  static OperandRequirements requirements() { return {}; }

  // 32-bit offsets from each block's tile origin: BlockTile rows (or columns) times the
  // leading dimension must stay below 2^31 bytes; K is counted in 32 bits.
  static Status check(const Args& a) {
    if (!block_offsets_fit_32bit(a) || a.K > std::int64_t(0x7fffffff) - Config::kBlockK) {
      return Status::kErrorOffsetOverflow;
    }
    const auto sched = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);
    if (sched.num_tiles() > std::int64_t(0x7fffffff)) return Status::kErrorGridTooLarge;
    return Status::kSuccess;
  }

  // Bytes of workspace that let launch() split K across blocks, for problems whose
  // output tiles alone cannot fill the device (0 when no split would be chosen).
  static std::size_t workspace_size(const Args& a, const DeviceInfo& d) {
    const SplitK split = plan_split_k(a, d);
    if (split.splits <= 1) return 0;
    return std::size_t(split.splits) *
           std::size_t(PartialTile<LayoutC>::slice_elements(a.M, a.N)) * sizeof(float);
  }

  static Status launch(const Args& a, void* workspace, Stream stream, const DeviceInfo& d) {
    FmaParams<Config> p{};
    p.args = a;
    p.span_a = matrix_span<LayoutA>(a.M, a.K, a.lda);
    p.span_b = matrix_span<LayoutB>(a.K, a.N, a.ldb);
    p.vector_a = vector_aligned(a.A, a.lda);
    p.vector_b = vector_aligned(a.B, a.ldb);
    p.output = {a.M, a.N, a.C, a.ldc, a.D, a.ldd, a.alpha, a.beta,
                a.beta != 0.0f && vector_aligned(a.C, a.ldc), vector_aligned(a.D, a.ldd)};
    p.scheduler = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);
    const SplitK split = workspace != nullptr ? plan_split_k(a, d) : SplitK{1, int(k_tiles(a))};
    p.splits = split.splits;
    p.k_tiles_per_split = split.k_tiles_per_split;
    p.partials = static_cast<float*>(workspace);

    LaunchShape shape;
    shape.grid_x = unsigned(p.scheduler.num_tiles() * p.splits);
    shape.block_x = Config::kThreads;
    shape.dynamic_smem_bytes = Kernel::kDynamicSmemBytes;
    if (p.splits == 1) {
      const Status attr = allow_dynamic_smem<fma_gemm_kernel<Config, false>>(Kernel::kDynamicSmemBytes);
      if (!ok(attr)) return attr;
      return launch_kernel(fma_gemm_kernel<Config, false>, shape, stream, p);
    }
    const Status attr = allow_dynamic_smem<fma_gemm_kernel<Config, true>>(Kernel::kDynamicSmemBytes);
    if (!ok(attr)) return attr;
    const Status launched = launch_kernel(fma_gemm_kernel<Config, true>, shape, stream, p);
    if (!ok(launched)) return launched;

    SplitKReduceParams<typename Config::ElementC, LayoutC> r{p.partials, p.splits, p.output, 0};
    const std::int64_t runs = (LayoutC::kIsRowMajor ? a.M : a.N) *
                              (PartialTile<LayoutC>::leading_dim(a.M, a.N) / 4);
    const std::int64_t wanted = (runs + kSplitKReduceThreads - 1) / kSplitKReduceThreads;
    r.blocks = int(wanted < 65536 ? wanted : 65536);
    LaunchShape reduce;
    reduce.grid_x = unsigned(r.blocks);
    reduce.block_x = kSplitKReduceThreads;
    return launch_kernel(split_k_reduce_kernel<typename Config::ElementC, LayoutC>, reduce, stream, r);
  }

 private:
  static std::int64_t k_tiles(const Args& a) {
    return (a.K + Config::kBlockK - 1) / Config::kBlockK;
  }

  static SplitK plan_split_k(const Args& a, const DeviceInfo& d) {
    const auto tiles = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);
    return choose_split_k(tiles.num_tiles(), k_tiles(a), d.multiprocessors);
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
