// The Blackwell tensor-core GEMM family: Gemm<UmmaConfig<...>> (the host API is gemm/gemm.hpp's;
// this file supplies the family's launch, its checks and its path query). Compiled and
// checked for sm_100a; it has not run on a Blackwell GPU.
//
//   using Config = tessera::gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor,
//                                            bfloat16_t, RowMajor>;
//   tessera::Status s = tessera::gemm::Gemm<Config>::run(args, nullptr, stream);
//   tessera::gemm::tma_path<Config>(args, workspace);   // which path the call takes
//
// The three paths of the Hopper family (wgmma/wgmma.hpp), chosen per call by the same rule:
//   kTma      TMA loads (multicast in clusters, split across a CTA pair), tcgen05.mma, TMA
//             stores;
//   kPacked   operands TMA cannot describe copied into the workspace (tma/packing.hpp),
//             then kTma's kernel;
//   kRealigning  the same without a workspace: the Hopper family's realigning producer feeds
//             the same MMA warp (one CTA per tile, no cluster), and bounds-checked stores.
// Runs only on a device of compute capability 10.0 (Sm100: runs_on). Compile with nvcc for
// sm_100a (-gencode=arch=compute_100a,code=sm_100a).
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/gemm/can_implement.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/umma/kernel.hpp"
#include "tessera/gemm/tma/launch.hpp"
#include "tessera/gemm/umma/argument_rules.hpp"
#include "tessera/gemm/umma/config.hpp"
#include "tessera/runtime/device.hpp"

namespace tessera::gemm {

// The launch is the one both TMA families share (tma/launch.hpp); what is this family's own
// is the shape of D's store boxes and its kernel.
template <class Config>
struct KernelLauncher<UmmaFamily, Config> : tma_launch::Launcher<Config, KernelLauncher<UmmaFamily, Config>> {
  using Base = tma_launch::Launcher<Config, KernelLauncher<UmmaFamily, Config>>;
  // D's boxes (umma/epilogue.hpp): each epilogue warp stores its 32 rows x 128 bytes,
  // row-major in the 128-byte swizzle, column-major as unswizzled lines of 32 rows.
  using DBoxes = tma_launch::DStoreBoxes<32, 32, 0, false>;

  // The family's own checks (umma/argument_rules.hpp: what TMA asks of operands that only TMA
  // loads), then the shared ones in the kernel's K units.
  static Status check(const ConfigArguments<Config>& a) {
    const Status s = umma_operand_status<Config>(a);
    return ok(s) ? Base::check(umma_in_k_units<Config>(a)) : s;
  }

  // fp4 read packed (the .kind::mxf4 kinds): the kernel counts K in bytes of two values
  // (umma/argument_rules.hpp, umma_in_k_units); every other configuration as given.
  static Status launch(const ConfigArguments<Config>& a, void* workspace, Stream stream, const DeviceInfo& d) {
    return Base::launch(umma_in_k_units<Config>(a), workspace, stream, d);
  }

  // The realigning path runs Config::RealigningConfig: one CTA per 128 x N tile, no cluster.
  template <TmaPath kPath>
  static Status launch_path(TmaGemmParams<Config>& p, Stream stream, const DeviceInfo& d,
                            const FixupSpace& fixup = {}, const ProblemSet& problems = {}) {
    using Kernel = UmmaGemmKernel<Config, kPath>;
    return tma_launch::persistent<umma_gemm_kernel<Config, kPath>, typename Kernel::C, typename Kernel::Cluster,
                                  Kernel::Plan::kTotalBytes>(p, stream, d, fixup, problems);
  }
};

}  // namespace tessera::gemm
