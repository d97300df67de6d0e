// The Hopper tensor-core GEMM family: Gemm<WgmmaConfig<...>> (the host API is
// gemm/gemm.hpp's; this file supplies the family's launch, its checks and its path query).
//
//   using Config = tessera::gemm::WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor,
//                                             bfloat16_t, RowMajor>;
//   tessera::Status s = tessera::gemm::Gemm<Config>::run(args, nullptr, stream);
//   tessera::gemm::wgmma_path<Config>(args, workspace);   // which path the call takes
//
// Three paths, chosen per call:
//   kTma      TMA can describe A, B and D (16-byte aligned base; pitch and contiguous extent
//             multiples of 16 bytes): TMA loads, multicast in clusters, TMA stores;
//   kPacked   it cannot (an odd leading dimension, an operand one element off a 16-byte
//             boundary) and a workspace of workspace_size(args) bytes is given: those
//             operands are copied into it with 128-byte pitches and kTma's kernel runs on
//             the copies (tma_packing.hpp says why and what it costs); also without a
//             workspace when only D is misaligned (TMA loads, direct stores of D);
//   kGeneric  A or B misaligned and no workspace: the tensor-core main loop fed by realigning
//             ordinary loads, bounds-checked stores (about 8x slower than kPacked on the
//             odd shape 4097x4095x4103, benchmark/notes/wgmma.md).
// No alignment is required beyond the element's. C is read with ordinary loads on every
// path, so its pointer and pitch never change the path.
// Compile with nvcc for sm_90a (-gencode=arch=compute_90a,code=sm_90a).
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/kernel/wgmma_gemm_kernel.hpp"
#include "tessera/gemm/tma_launch.hpp"
#include "tessera/gemm/wgmma_config.hpp"
#include "tessera/runtime/device.hpp"
#include "tessera/runtime/launch.hpp"

namespace tessera::gemm {

// The Hopper family's name for the paths both TMA families share.
using WgmmaPath = TmaPath;

// The launch is the one both TMA families share (tma_launch.hpp); what is the Hopper
// family's own is the shape of D's store boxes and its kernel.
template <class Config>
struct KernelLauncher<WgmmaFamily, Config> : tma_launch::Launcher<Config, KernelLauncher<WgmmaFamily, Config>> {
  // D in epilogue boxes of 64 lines x 128 bytes, either layout (wgmma_epilogue.hpp).
  using DBoxes = tma_launch::DStoreBoxes<64, 0, 64, true>;

  template <TmaPath kPath>
  static Status launch_path(TmaGemmParams<Config>& p, Stream stream, const DeviceInfo& d,
                            const ProblemSet& problems = {}) {
    using Kernel = WgmmaGemmKernel<Config, kPath>;
    return tma_launch::persistent<wgmma_gemm_kernel<Config, kPath>, Config, typename Kernel::Cluster,
                                  Kernel::Plan::kTotalBytes>(p, stream, d, problems);
  }
};

// Which path Gemm<Config>::run(args, workspace) takes (tma_packing.hpp): kTma (TMA loads
// and stores), kPacked (operands TMA cannot describe copied into the workspace first: give
// it workspace_size(args) bytes), kGeneric (no workspace: realigning loads, direct stores).
template <class Config>
WgmmaPath wgmma_path(const ConfigArguments<Config>& a, const void* workspace = nullptr) {
  return KernelLauncher<WgmmaFamily, Config>::path(a, workspace != nullptr);
}

}  // namespace tessera::gemm
