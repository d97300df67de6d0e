// The Tessera GEMMs tessera_bench times, one line each. To time a new configuration or a
// selector beside the ones here, add one line to tessera_gemm_variants, e.g.
//
//   impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, GemmShape<128, 128, 64>>>>(
//       "tessera_wgmma_128x128"));
//   impls.push_back(tessera_impl<P, Gemm<Auto<EA, LA, EB, LB, EC, LC>>>("tessera_auto"));
//
// (the name is the benchmark name's implementation component and must start with
// "tessera"; the type needs the library's host API: can_implement, workspace_size, run).
// Each line is timed on every shape of the suites that list Tessera GEMMs (classic 16-bit,
// LLM shapes), with workspace_size(args) bytes of workspace, and checked like the rest.
#pragma once

#include "gemm_impls.hpp"

#include <type_traits>
#include <vector>

// The kernels are written alongside this harness; without them the baselines still build
// and run.
#if __has_include("tessera/gemm/fma_gemm.hpp")
#include "tessera/gemm/dispatch.hpp"
#include "tessera/gemm/fma_gemm.hpp"
#define TESSERA_BENCH_HAS_FMA 1
#else
#define TESSERA_BENCH_HAS_FMA 0
#endif
// The Hopper tensor-core family, for 16-bit inputs (CUDA builds for sm_90a only: its
// kernels exist only there).
#if defined(TESSERA_CUDA) && __has_include("tessera/gemm/wgmma_gemm.hpp")
#include "tessera/gemm/auto_gemm.hpp"
#include "tessera/gemm/cluster_split_gemm.hpp"
#include "tessera/gemm/dispatch.hpp"
#include "tessera/gemm/small_m.hpp"
#include "tessera/gemm/wgmma_gemm.hpp"
#define TESSERA_BENCH_HAS_WGMMA 1
#else
#define TESSERA_BENCH_HAS_WGMMA 0
#endif
// The AMD MFMA GEMM (HIP builds, 16-bit inputs): the default 256x256x64 tile, four-cluster
// ping-pong, the device picking gfx942 or gfx950.
#if defined(TESSERA_HIP) && __has_include("tessera/gemm/mfma_gemm.hpp")
#include "tessera/gemm/mfma_gemm.hpp"
#define TESSERA_BENCH_HAS_MFMA 1
#else
#define TESSERA_BENCH_HAS_MFMA 0
#endif

namespace {

#if TESSERA_BENCH_HAS_FMA
// One configuration per target the build carries; the device picks at run time.
#if defined(TESSERA_HIP)
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraFma = tessera::gemm::Dispatch<tessera::gemm::FmaConfig<tessera::Gfx942, EA, LA, EB, LB, EC, LC>,
                                           tessera::gemm::FmaConfig<tessera::Gfx950, EA, LA, EB, LB, EC, LC>>;
#else
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraFma = tessera::gemm::Dispatch<tessera::gemm::FmaConfig<tessera::Sm90, EA, LA, EB, LB, EC, LC>,
                                           tessera::gemm::FmaConfig<tessera::Sm100, EA, LA, EB, LB, EC, LC>>;
#endif
#endif

#if TESSERA_BENCH_HAS_MFMA
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraMfma = tessera::gemm::Dispatch<tessera::gemm::MfmaConfig<tessera::Gfx942, EA, LA, EB, LB, EC, LC>,
                                            tessera::gemm::MfmaConfig<tessera::Gfx950, EA, LA, EB, LB, EC, LC>>;
#endif

#if TESSERA_BENCH_HAS_WGMMA
// Variants that only run some shapes: elsewhere can_implement says kErrorUnsupported and the
// benchmark is skipped with that message.
struct SmallMShapes {  // decode: M <= 128 beside a wide N
  template <class Args>
  static bool accepts(const Args& a, const tessera::DeviceInfo&) {
    return a.M <= 128 && a.N >= 4 * a.M;
  }
};
struct FewTileShapes {  // fewer 128 x 256 tiles than half the SMs
  template <class Args>
  static bool accepts(const Args& a, const tessera::DeviceInfo& d) {
    return 2 * ((a.M + 127) / 128) * ((a.N + 255) / 256) < d.multiprocessors;
  }
};
template <class Rule, class Config>
using Only = tessera::gemm::Dispatch<tessera::gemm::When<Rule, Config>>;
#endif

// Tessera's tensor-core GEMMs for 16-bit inputs (the classic suite's 16-bit types and the
// LLM suite): one line per variant. tessera_auto is the selector (auto_gemm.hpp); the
// others are the configurations it chooses among, where they apply. With
// -DTESSERA_BENCH_TUNE_VARIANTS (bf16 in and out, A row-major, B column-major only) also the
// candidates the selector's table was measured against (benchmark/notes/small_m.md).
template <class P>
void tessera_gemm_variants(std::vector<Impl<P>>& impls) {
  using EA = typename P::EA;
  using EB = typename P::EB;
  using EC = typename P::EC;
  using LA = typename P::LA;
  using LB = typename P::LB;
  using LC = typename P::LC;
  static_assert(!std::is_same_v<EA, float>, "the tensor-core variants take 16-bit inputs");
#if TESSERA_BENCH_HAS_WGMMA
  using tessera::GemmShape;
  using tessera::gemm::Gemm;
  using tessera::gemm::WgmmaConfig;
  // The default WgmmaConfig: 128 x 256 x 64 tiles, the schedule the rule picks
  // (Cooperative), no cluster (benchmark/notes/wgmma.md says why).
  impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC>>>("tessera_wgmma"));
  impls.push_back(tessera_impl<P, Gemm<tessera::gemm::Auto<EA, LA, EB, LB, EC, LC>>>("tessera_auto"));
#if defined(TESSERA_BENCH_TUNE_VARIANTS)
  using tessera::gemm::ClusterShape;
  using tessera::gemm::ClusterSplitK;
  using tessera::gemm::WgmmaSmallM;
  using tessera::schedule::Cooperative;
  if constexpr (std::is_same_v<EA, tessera::bfloat16_t> && std::is_same_v<EC, tessera::bfloat16_t> &&
                LA::kIsRowMajor && !LB::kIsRowMajor) {
    impls.push_back(tessera_impl<P, Only<SmallMShapes, WgmmaSmallM<EA, LA, EB, LB, EC, LC, 16>>>("tessera_small_m16"));
    impls.push_back(tessera_impl<P, Only<SmallMShapes, WgmmaSmallM<EA, LA, EB, LB, EC, LC, 32>>>("tessera_small_m32"));
    impls.push_back(tessera_impl<P, Only<SmallMShapes, WgmmaSmallM<EA, LA, EB, LB, EC, LC, 64>>>("tessera_small_m64"));
    impls.push_back(tessera_impl<P, Only<FewTileShapes, ClusterSplitK<WgmmaConfig<EA, LA, EB, LB, EC, LC,
        GemmShape<128, 64, 64>, Cooperative>>>>("tessera_split_128x64"));
    impls.push_back(tessera_impl<P, Only<FewTileShapes, ClusterSplitK<WgmmaConfig<EA, LA, EB, LB, EC, LC,
        GemmShape<128, 128, 64>, Cooperative>>>>("tessera_split_128x128"));
    impls.push_back(tessera_impl<P, Only<FewTileShapes, ClusterSplitK<WgmmaConfig<EA, LA, EB, LB, EC, LC,
        GemmShape<128, 256, 64>, Cooperative>>>>("tessera_split_128x256"));
    impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, GemmShape<128, 256, 64>, Cooperative,
        ClusterShape<2, 1>>>>("tessera_wgmma_2x1"));
  }
#endif
#endif
#if TESSERA_BENCH_HAS_MFMA
  impls.push_back(tessera_impl<P, TesseraMfma<EA, EB, EC, LA, LB, LC>>("tessera_mfma"));
#endif
  (void)impls;
}

// The FMA family: fp32 in the classic suite (its 16-bit numbers are in earlier results).
template <class P>
void tessera_fma_variants(std::vector<Impl<P>>& impls) {
#if TESSERA_BENCH_HAS_FMA
  using TesseraFmaGemm =
      TesseraFma<typename P::EA, typename P::EB, typename P::EC, typename P::LA, typename P::LB, typename P::LC>;
  impls.push_back(tessera_impl<P, TesseraFmaGemm>("tessera_fma", kCudaCoreTflops));
#endif
  (void)impls;
}

}  // namespace
