// The FMA GEMM family: Gemm<FmaConfig<...>> (the host API is gemm/gemm.hpp's; this file
// supplies the family's kernel launch, its extra checks and its split-K workspace). One GEMM
// of at most kFmaSmallMMaxRows rows on an NVIDIA target runs the small-M kernel
// (fma/small_m_kernel.hpp); everything else the tile kernel (fma/kernel.hpp).
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
#include <type_traits>

#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/fma/config.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/fma/kernel.hpp"
#if defined(TESSERA_CUDA)
#include "tessera/gemm/fma/small_m_kernel.hpp"
#endif
#include "tessera/gemm/launch_limits.hpp"
#include "tessera/gemm/scheduler/fixup.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/launch.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera::gemm {

template <class Config>
struct KernelLauncher<FmaFamily, Config> {
  using Args = typename Gemm<Config>::Args;
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
    const Status s = tile_launch_limits<LayoutA, LayoutB>(a, Config::kBlockM, Config::kBlockN, Config::kBlockK,
                                                          sizeof(typename Config::ElementA),
                                                          sizeof(typename Config::ElementB));
    if constexpr (kProblemSet) {
      if (ok(s) && scheduler_units<typename Config::Scheduler>(grid(a), a.problems) > std::int64_t(0x7fffffff)) {
        return Status::kErrorGridTooLarge;
      }
    }
    return s;
  }

  // Bytes of workspace that let launch() split K across blocks, for problems whose
  // output tiles alone cannot fill the device (0 when no split would be chosen): a partial
  // tile per K slice of every tile.
  static std::size_t workspace_size(const Args& a, const DeviceInfo& d) {
    if constexpr (kProblemSet) {
      return 0;  // a batch or groups is not split
    } else {
#if defined(TESSERA_CUDA)
      if (small_m(a)) {
        return a.M <= 8 ? small_m_workspace<8>(a, d) : small_m_workspace<kFmaSmallMMaxRows>(a, d);
      }
#endif
      return Config::Scheduler::workspace_bound(grid(a), d.multiprocessors, a.split);
    }
  }

  static Status launch(const Args& a, void* workspace, Stream stream, const DeviceInfo& d) {
    FmaParams<Config> p{};
    p.a = a.A;
    p.b = a.B;
    p.lda = a.lda;
    p.ldb = a.ldb;
    p.M = a.M;
    p.N = a.N;
    p.K = a.K;
    p.span_a = matrix_span<LayoutA>(a.M, a.K, a.lda);
    p.span_b = matrix_span<LayoutB>(a.K, a.N, a.ldb);
    p.vector_a = vector_aligned(a.A, a.lda);
    p.vector_b = vector_aligned(a.B, a.ldb);
    using Epilogue = typename Config::Epilogue;
    const Epilogue epilogue = Epilogue::make(a.epilogue, epilogue_problem(a));
    p.output = {a.M, a.N, a.C, a.ldc, a.D, a.ldd,
                epilogue.reads_c() && vector_aligned(a.C, a.ldc), vector_aligned(a.D, a.ldd), epilogue};
    if constexpr (kProblemSet) {
      return launch_problem_set(a, p, stream);
    } else {
#if defined(TESSERA_CUDA)
      if (small_m(a)) {
        return a.M <= 8 ? launch_small_m<8>(a, p, workspace, stream, d)
                        : launch_small_m<kFmaSmallMMaxRows>(a, p, workspace, stream, d);
      }
#endif
      return launch_tiles(a, p, workspace, stream, d);
    }
  }

 private:
  static constexpr bool kProblemSet = takes_problem_set<typename Config::Scheduler>;

#if defined(TESSERA_CUDA)
  // One GEMM of at most kFmaSmallMMaxRows rows on an NVIDIA target goes to the small-M kernel
  // (fma/small_m_kernel.hpp), which streams B instead of tiling it; two row counts of it
  // (8, and the bound), so that M = 1..8 does not pay for 16 rows of FMAs and registers.
  static bool small_m(const Args& a) { return is_nvidia<typename Config::Arch> && a.M <= kFmaSmallMMaxRows; }

  template <int kTileM>
  static std::size_t small_m_workspace(const Args& a, const DeviceInfo& d) {
    using SmallM = FmaSmallMKernel<Config, kTileM>;
    return Config::Scheduler::workspace_bound(SmallM::grid(a.M, a.N, a.K), d.multiprocessors * SmallM::kBlocksPerSm,
                                              a.split);
  }

  // A block per kTileM x 128 tile, or per K slice of one where a workspace is given and the
  // tiles fill less than the device's block slots (the slices then summed by the second kernel).
  template <int kTileM>
  static Status launch_small_m(const Args& a, FmaParams<Config>& p, void* workspace, Stream stream,
                               const DeviceInfo& d) {
    using SmallM = FmaSmallMKernel<Config, kTileM>;
    p.scheduler = Config::Scheduler::make(SmallM::grid(a.M, a.N, a.K), d.multiprocessors * SmallM::kBlocksPerSm,
                                          a.split);
    p.scheduler.use_workspace(
        fixup_space(workspace, workspace != nullptr ? small_m_workspace<kTileM>(a, d) : 0, a.split));
    LaunchShape shape;
    shape.grid_x = unsigned(p.scheduler.workers);
    shape.block_x = SmallM::kThreads;
    return launch_split<kTileM, SmallM::kTileN>(p, stream, [&](auto split) {
      return launch_kernel(fma_small_m_kernel<Config, kTileM, decltype(split)::value>, shape, stream, p);
    });
  }
#endif

  // Launches the main kernel (`main(std::bool_constant<split>)`) and, when the scheduler split
  // K, the second kernel that sums the slices' kTileM x kTileN partials into D.
  template <int kTileM, int kTileN, class Main>
  static Status launch_split(FmaParams<Config>& p, Stream stream, Main&& main) {
    if (!p.scheduler.fixup_active()) return main(std::false_type{});
    const Status launched = main(std::true_type{});
    if (!ok(launched)) return launched;
    using Scheduler = typename Config::Scheduler;
    using Output = decltype(p.output);
    const SecondKernelParams<Scheduler, Output> r{p.scheduler, p.output};
    LaunchShape reduce;
    reduce.grid_x = unsigned(p.scheduler.second_kernel_blocks());
    reduce.block_x = kSecondKernelThreads;
    return launch_kernel(second_kernel_reduce<Scheduler, Output, kTileM, kTileN>, reduce, stream, r);
  }

  // One GEMM: a block per tile, or per K slice of a tile where split-K pays and a workspace
  // is given (then the second kernel sums the slices: scheduler::reduce::SecondKernel).
  static Status launch_tiles(const Args& a, FmaParams<Config>& p, void* workspace, Stream stream,
                             const DeviceInfo& d) {
    using Scheduler = typename Config::Scheduler;
    p.scheduler = Scheduler::make(grid(a), d.multiprocessors, a.split);
    p.scheduler.use_workspace(fixup_space(workspace, workspace != nullptr ? workspace_size(a, d) : 0, a.split));

    LaunchShape shape;
    shape.grid_x = unsigned(p.scheduler.workers);
    shape.block_x = Config::kThreads;
    shape.dynamic_smem_bytes = Kernel::kDynamicSmemBytes;
    return launch_split<Config::kBlockM, Config::kBlockN>(p, stream, [&](auto split) {
      constexpr bool kSplit = decltype(split)::value;
      const Status attr = allow_dynamic_smem<fma_gemm_kernel<Config, kSplit>>(Kernel::kDynamicSmemBytes);
      if (!ok(attr)) return attr;
      return launch_kernel(fma_gemm_kernel<Config, kSplit>, shape, stream, p);
    });
  }

  // A batch or groups: one block per unit of the launch's bound (grouped: the device knows the
  // sizes; blocks past the last unit leave at once), each on its problem's view of the operands.
  static Status launch_problem_set(const Args& a, FmaParams<Config>& p, Stream stream) {
    p.strides = problem_strides<typename Config::Scheduler>(a.problems);
    // 4-element accesses stay aligned only if every problem's operand starts aligned: its
    // stride, and where problems start at a row of their own (kRowOffsets), a row-major layout
    // (a row is ld elements on, and ld keeps the vectors aligned; a column-major row is one).
    constexpr bool kRowOffsets = Config::Scheduler::kRowOffsets;
    p.vector_a = p.vector_a && p.strides.a % 4 == 0 && (!kRowOffsets || LayoutA::kIsRowMajor);
    p.vector_b = p.vector_b && p.strides.b % 4 == 0;
    p.output.vector_c = p.output.vector_c && p.strides.c % 4 == 0 && (!kRowOffsets || LayoutC::kIsRowMajor);
    p.output.vector_d = p.output.vector_d && p.strides.d % 4 == 0 && (!kRowOffsets || LayoutC::kIsRowMajor);
    const std::int64_t units = scheduler_units<typename Config::Scheduler>(grid(a), a.problems);
    if (units == 0) return Status::kSuccess;
    p.scheduler = make_scheduler<typename Config::Scheduler>(grid(a), a.problems, int(units));
    LaunchShape shape;
    shape.grid_x = unsigned(units);
    shape.block_x = Config::kThreads;
    shape.dynamic_smem_bytes = Kernel::kDynamicSmemBytes;
    const Status attr = allow_dynamic_smem<fma_gemm_kernel<Config, false>>(Kernel::kDynamicSmemBytes);
    if (!ok(attr)) return attr;
    return launch_kernel(fma_gemm_kernel<Config, false>, shape, stream, p);
  }

  static TileGrid grid(const Args& a) {
    return {a.M, a.N, a.K, Config::kBlockM, Config::kBlockN, Config::kBlockK};
  }

  // 4-element vector accesses along every line are aligned.
  template <class T>
  static bool vector_aligned(const T* p, std::int64_t ld) {
    return p != nullptr && lines_aligned(p, ld, 4 * sizeof(T));
  }
};

}  // namespace tessera::gemm
