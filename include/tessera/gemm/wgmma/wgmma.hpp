// The Hopper tensor-core GEMM family: Gemm<WgmmaConfig<...>> (the host API is
// gemm/gemm.hpp's; this file supplies the family's launch, its checks and its path query).
//
//   using Config = tessera::gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor,
//                                             bfloat16_t, RowMajor>;
//   tessera::Status s = tessera::gemm::Gemm<Config>::run(args, nullptr, stream);
//   tessera::gemm::tma_path<Config>(args, workspace);   // which path the call takes
//
// Three paths, chosen per call:
//   kTma      TMA can describe A, B and D (16-byte aligned base; pitch and contiguous extent
//             multiples of 16 bytes): TMA loads, multicast in clusters, TMA stores;
//   kPacked   it cannot (an odd leading dimension, an operand one element off a 16-byte
//             boundary) and a workspace of workspace_size(args) bytes is given: those
//             operands are copied into it with 128-byte pitches and kTma's kernel runs on
//             the copies (tma/packing.hpp says why and what it costs); also without a
//             workspace when only D is misaligned (TMA loads, direct stores of D);
//   kRealigning  A or B misaligned and no workspace: the tensor-core main loop fed by realigning
//             ordinary loads, bounds-checked stores (several times slower than kPacked:
//             benchmark/notes/wgmma.md).
// No alignment is required beyond the element's. C's pointer and pitch never change the path:
// where TMA stores D, the epilogue reads C and TMA can describe C (of D's element size), C is
// loaded with TMA into the epilogue's staging boxes ahead of the epilogue (wgmma_stages_c);
// otherwise it is read with ordinary loads.
// Compile with nvcc for sm_90a (-gencode=arch=compute_90a,code=sm_90a).
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/wgmma/kernel.hpp"
#include "tessera/gemm/tma/launch.hpp"
#include "tessera/gemm/wgmma/config.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/launch.hpp"

namespace tessera::gemm {

// The launch is the one both TMA families share (tma/launch.hpp); what is the Hopper
// family's own is the shape of D's store boxes and its kernel.
template <class Config>
struct KernelLauncher<WgmmaFamily, Config> : tma_launch::Launcher<Config, KernelLauncher<WgmmaFamily, Config>> {
  using Base = tma_launch::Launcher<Config, KernelLauncher<WgmmaFamily, Config>>;
  // D in epilogue boxes of 64 lines x 128 bytes, either layout; an N tile narrower than that
  // in boxes of its own width (wgmma/epilogue.hpp).
  static constexpr std::uint32_t kN = std::uint32_t(Config::kBlockN);
  using DBoxes = tma_launch::DStoreBoxes<64, 0, (kN < 64 ? kN : 64), true, kN>;
  // fp8 wgmma has no transposed operand: fp8 A and B must be K-major, else every call is
  // refused with kErrorFp8OperandNotKMajor (docs/fp8-and-scales.md says what a transposing copy costs).
  static constexpr bool kRefused = Config::kFp8 && !(Config::kKMajorA && Config::kKMajorB);

  static Status check(const tma_launch::Args<Config>& a) {
    if constexpr (kRefused) return Status::kErrorFp8OperandNotKMajor;
    const Status s = Base::check(a);
    if constexpr (Config::kFp8 && takes_problem_set<typename Config::Scheduler>) {
      // The scales of every problem at their strides (the contiguous layout: A's by its rows).
      if (ok(s)) {
        return Config::Epilogue::can_implement_problems(a.epilogue, epilogue_problem(a), a.problems.count,
                                                        Config::Scheduler::kRowOffsets);
      }
    }
    return s;
  }

  // fp8: amax of D is gathered with atomic maxima, from 0.
  static Status launch(const tma_launch::Args<Config>& a, void* workspace, Stream stream, const DeviceInfo& d) {
    if constexpr (Config::kFp8) TESSERA_RETURN_IF_CUDA_ERROR(Config::Epilogue::clear_amax(a.epilogue, stream));
    return Base::launch(a, workspace, stream, d);
  }

  template <TmaPath kPath>
  static Status launch_path(TmaGemmParams<Config>& p, Stream stream, const DeviceInfo& d,
                            const FixupSpace& fixup = {}, const ProblemSet& problems = {}) {
    if constexpr (kRefused) {
      return Status::kErrorFp8OperandNotKMajor;
    } else {
      using Kernel = WgmmaGemmKernel<Config, kPath>;
      if constexpr (kPath == TmaPath::kTma) {
        const Status s = stage_c(p);
        if (!ok(s)) return s;
      }
      return tma_launch::persistent<wgmma_gemm_kernel<Config, kPath>, Config, typename Kernel::Cluster,
                                    Kernel::Plan::kTotalBytes>(p, stream, d, fixup, problems);
    }
  }

  // Whether the TMA path's epilogue finds C in its staging boxes (loaded there with TMA ahead
  // of it, wgmma/staged_c_loader.hpp): one GEMM (not a batch or groups, whose C the
  // loader's 2-D map cannot address) where the call reads C, C's element has D's size and TMA
  // can describe C. Else C is read with ordinary loads.
  static bool stages_c(const TmaGemmParams<Config>& p) {
    using Layout = typename Config::LayoutC;
    return Config::kStagedCPossible && !takes_problem_set<typename Config::Scheduler> && p.epilogue.reads_c() &&
           p.c != nullptr &&
           nvidia::tma_describable(p.c, p.ldc, Layout::contiguous_extent(p.M, p.N),
                                   std::int64_t(sizeof(typename Config::ElementC)));
  }

 private:
  static Status stage_c(TmaGemmParams<Config>& p) {
    p.c_staged = stages_c(p);
    if (!p.c_staged) return Status::kSuccess;
    using EC = typename Config::ElementC;
    return tma_launch::encode<EC>(&p.map_c, DBoxes::template plan<typename Config::LayoutC>(
                                                const_cast<EC*>(p.c), p.M, p.N, p.ldc));
  }
};

// Whether Gemm<Config>::run(args, workspace) loads C into the epilogue's staging boxes with TMA
// (wgmma/staged_c_loader.hpp) rather than reading it with ordinary loads: the kernel stores
// D with TMA (the TMA path, or the packed path with a workspace), the epilogue reads C, C's
// element has D's size and TMA can describe C as the caller gave it.
template <class Config>
bool wgmma_stages_c(const ConfigArguments<Config>& a, const void* workspace = nullptr) {
  const PackingPlan plan = tma_launch::plan_packing<Config>(a);
  const TmaPath chosen = choose_path(plan, workspace != nullptr);
  const bool tma_stores = chosen == TmaPath::kTma || (chosen == TmaPath::kPacked && !(plan.d.packed && workspace == nullptr));
  if (!tma_stores || !Config::kStagedCPossible || a.M == 0 || a.N == 0) return false;
  TmaGemmParams<Config> p{};
  tma_launch::fill<Config>(p, a);
  return KernelLauncher<WgmmaFamily, Config>::stages_c(p);
}

}  // namespace tessera::gemm
