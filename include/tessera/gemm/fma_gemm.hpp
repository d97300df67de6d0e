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
    if (!block_offsets_fit_32bit(a)) return Status::kErrorOffsetOverflow;
    const auto sched = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);
    if (sched.num_tiles() > std::int64_t(0x7fffffff)) return Status::kErrorGridTooLarge;
    return Status::kSuccess;
  }

  static std::size_t workspace_size(const Args&) { return 0; }

  static Status run(const Args& a, void* /*workspace*/ = nullptr, Stream stream = nullptr) {
    const Status s = can_implement(a);
    if (!ok(s)) return s;
    if (a.M == 0 || a.N == 0) return Status::kSuccess;  // nothing to write

    FmaParams<Config> p{};
    p.M = a.M;
    p.N = a.N;
    p.K = a.K;
    p.A = a.A;
    p.lda = a.lda;
    p.B = a.B;
    p.ldb = a.ldb;
    p.C = a.C;
    p.ldc = a.ldc;
    p.D = a.D;
    p.ldd = a.ldd;
    p.alpha = a.alpha;
    p.beta = a.beta;
    p.span_a = matrix_span<LayoutA>(a.M, a.K, a.lda);
    p.span_b = matrix_span<LayoutB>(a.K, a.N, a.ldb);
    p.span_c = a.beta != 0.0f ? matrix_span<LayoutC>(a.M, a.N, a.ldc) : 0;
    p.span_d = matrix_span<LayoutC>(a.M, a.N, a.ldd);
    p.vector_a = vector_aligned(a.A, a.lda);
    p.vector_b = vector_aligned(a.B, a.ldb);
    p.vector_c = a.beta != 0.0f && vector_aligned(a.C, a.ldc);
    p.vector_d = vector_aligned(a.D, a.ldd);
    p.scheduler = GroupedRasterScheduler<8>::make(a.M, a.N, Config::kBlockM, Config::kBlockN);

    const Status attr = allow_dynamic_smem();
    if (!ok(attr)) return attr;
    const unsigned blocks = unsigned(p.scheduler.num_tiles());
    fma_gemm_kernel<Config><<<blocks, Config::kThreads, Kernel::kDynamicSmemBytes, stream>>>(p);
    return last_launch_status();
  }

 private:
  // Past 48 KiB a kernel must opt in to its dynamic shared memory, once per process.
  static Status allow_dynamic_smem() {
#if defined(TESSERA_CUDA)
    if constexpr (Kernel::kDynamicSmemBytes > 48 * 1024) {
      static const Status once = status_from_cuda(
          cudaFuncSetAttribute(fma_gemm_kernel<Config>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(Kernel::kDynamicSmemBytes)));
      return once;
    }
#endif
    return Status::kSuccess;
  }

  template <class T>
  static bool vector_aligned(const T* p, std::int64_t ld) {
    constexpr std::uint64_t kVectorBytes = 4 * sizeof(T);
    return p != nullptr && reinterpret_cast<std::uintptr_t>(p) % kVectorBytes == 0 && ld % 4 == 0;
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
