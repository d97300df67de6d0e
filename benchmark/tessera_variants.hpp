// The Tessera GEMMs tessera_bench times, one line each. To time a new configuration or a
// selector beside the ones here, add one line to tessera_gemm_variants, e.g.
//
//   impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 128, 64>>>>>(
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
#if __has_include("tessera/gemm/fma/fma.hpp")
#include "tessera/gemm/select/dispatch.hpp"
#include "tessera/gemm/fma/fma.hpp"
#define TESSERA_BENCH_HAS_FMA 1
#else
#define TESSERA_BENCH_HAS_FMA 0
#endif
// The Hopper tensor-core family, for 16-bit inputs (CUDA builds for sm_90a only: its
// kernels exist only there).
#if defined(TESSERA_CUDA) && __has_include("tessera/gemm/wgmma/wgmma.hpp")
#include "tessera/gemm/select/auto.hpp"
#include "tessera/gemm/scheduler/batched.hpp"
#include "tessera/gemm/wgmma/cluster_split.hpp"
#include "tessera/gemm/select/dispatch.hpp"
#include "tessera/gemm/epilogue/fused.hpp"
#include "tessera/gemm/scheduler/grouped.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"
#define TESSERA_BENCH_HAS_WGMMA 1
#else
#define TESSERA_BENCH_HAS_WGMMA 0
#endif
// The AMD MFMA GEMM (HIP builds, 16-bit inputs): the default 256x256x64 tile, four-cluster
// ping-pong, the device picking gfx942 or gfx950.
#if defined(TESSERA_HIP) && __has_include("tessera/gemm/mfma/mfma.hpp")
#include "tessera/gemm/mfma/mfma.hpp"
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
// LLM suite): one line per variant. tessera_auto is the selector (select/auto.hpp); the
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
  namespace option = tessera::gemm::option;
  // The default WgmmaConfig: 128 x 256 x 64 tiles, the schedule the rule picks
  // (Cooperative), no cluster (benchmark/notes/wgmma.md says why).
  impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC>>>("tessera_wgmma"));
  // The same tile with scheduler::StreamK<>: data-parallel, split-K or stream-K per call, by the
  // rule of gemm/scheduler/stream_k.hpp (benchmark/notes/stream_k.md).
  impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC,
                                                   option::Tile<tessera::GemmShape<128, 256, 64>>,
                                                   tessera::gemm::option::Scheduler<tessera::gemm::scheduler::StreamK<>>>>>(
      "tessera_wgmma_streamk"));
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
        option::Tile<GemmShape<128, 64, 64>>, option::Schedule<Cooperative>>>>>("tessera_split_128x64"));
    impls.push_back(tessera_impl<P, Only<FewTileShapes, ClusterSplitK<WgmmaConfig<EA, LA, EB, LB, EC, LC,
        option::Tile<GemmShape<128, 128, 64>>, option::Schedule<Cooperative>>>>>("tessera_split_128x128"));
    impls.push_back(tessera_impl<P, Only<FewTileShapes, ClusterSplitK<WgmmaConfig<EA, LA, EB, LB, EC, LC,
        option::Tile<GemmShape<128, 256, 64>>, option::Schedule<Cooperative>>>>>("tessera_split_128x256"));
    impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 256, 64>>,
                                                     option::Schedule<Cooperative>,
        option::Cluster<2, 1>>>>("tessera_wgmma_2x1"));
    // Candidates for the shapes whose 128 x 256 tiles fill the SMs unevenly (a partial last wave).
    using tessera::gemm::option::Scheduler;
    using StreamK = tessera::gemm::scheduler::StreamK<>;
    impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 128, 64>>,
                                                     option::Schedule<Cooperative>>>>(
        "tessera_wgmma_128x128"));
    impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 128, 64>>,
        option::Schedule<tessera::schedule::Pingpong>>>>("tessera_wgmma_128x128_pingpong"));
    impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 128, 64>>,
                                                     option::Schedule<Cooperative>, Scheduler<StreamK>>>>("tessera_wgmma_128x128_streamk"));
    impls.push_back(tessera_impl<P, Gemm<WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 256, 64>>,
                                                     option::Schedule<Cooperative>,
        option::Cluster<2, 1>, Scheduler<StreamK>>>>("tessera_wgmma_streamk_2x1"));
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

// ---- the "many GEMMs" suite (suite_grouped.hpp, suite_batched.hpp, suite_epilogue.hpp) ----
// Each suite's list takes its Tessera lines from here; P is the suite's problem.

// A Tessera GEMM on Arguments the problem's make_args builds: checked on the first call
// (untimed, in the check), then run on the harness's stream.
template <class G, class P, class MakeArgs>
Error launch_tessera_args(P& p, ImplSlot& slot, MakeArgs make_args) {
  const typename G::Args a = make_args(p);
  if (!slot.state) {
    const tessera::Status can = G::can_implement(a);
    if (!tessera::ok(can)) return "Tessera can_implement: " + status_text(can);
    slot.state = std::make_shared<int>(0);
  }
  const tessera::Status s = G::run(a, nullptr, g_dev.stream);
  if (!tessera::ok(s)) return "Tessera run: " + status_text(s);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

#if TESSERA_BENCH_HAS_WGMMA
template <class Scheduler, class Tile = tessera::GemmShape<128, 256, 64>, class Schedule = tessera::schedule::AutoSm90,
          class... Options>
using WgmmaBf16 = tessera::gemm::Gemm<tessera::gemm::WgmmaConfig<
    tessera::bfloat16_t, tessera::RowMajor, tessera::bfloat16_t, tessera::ColumnMajor, tessera::bfloat16_t,
    tessera::RowMajor, tessera::gemm::option::Tile<Tile>, tessera::gemm::option::Schedule<Schedule>,
    tessera::gemm::option::Scheduler<Scheduler>, Options...>>;

// Grouped, contiguous layout: A sorted by expert, the experts' end offsets in device memory.
template <class G, class P>
Error launch_tessera_grouped(P& p, ImplSlot& slot) {
  return launch_tessera_args<G>(p, slot, [](P& q) {
    const auto& s = q.spec;
    typename G::Args a{s.total(), s.N, s.K, q.A.ptr, s.K, q.B.ptr, s.K, nullptr, s.N, q.D.ptr, s.N};
    a.problems.count = std::int64_t(s.sizes.size());
    a.problems.stride_b = s.N * s.K;
    a.problems.group_ends = q.group_ends.ptr;
    return a;
  });
}
template <class G, class P>
Error launch_tessera_batched(P& p, ImplSlot& slot) {
  return launch_tessera_args<G>(p, slot, [](P& q) {
    const auto& s = q.spec;
    typename G::Args a{s.M, s.N, s.K, q.A.ptr, s.K, q.B.ptr, s.K, nullptr, s.N, q.D.ptr, s.N};
    a.problems.count = s.batch;
    a.problems.stride_a = q.stride_a();
    a.problems.stride_b = q.stride_b();
    a.problems.stride_d = q.stride_d();
    return a;
  });
}
// D = GELU(alpha A B + bias[n]), tanh form (cuBLASLt's GELU_BIAS).
template <class G, class P>
Error launch_tessera_gelu_bias(P& p, ImplSlot& slot) {
  return launch_tessera_args<G>(p, slot, [](P& q) {
    const auto& s = q.spec;
    typename G::Args a{s.M, s.N, s.K, q.A.ptr, s.K, q.B.ptr, s.K, nullptr, s.N, q.D.ptr, s.N, q.alpha};
    a.epilogue = {{}, {q.bias.ptr}, {}};
    return a;
  });
}
template <class G, class P>
Error launch_tessera_plain(P& p, ImplSlot& slot) {
  return launch_tessera_args<G>(p, slot, [](P& q) { return q.args(); });
}
#endif

template <class P>
void tessera_grouped_variants(std::vector<Impl<P>>& impls) {
#if TESSERA_BENCH_HAS_WGMMA
  using Contiguous = tessera::gemm::scheduler::Grouped<tessera::gemm::group_layout::Contiguous>;
  impls.push_back(Impl<P>{"tessera_grouped", 600.0, &launch_tessera_grouped<WgmmaBf16<Contiguous>, P>});
  impls.push_back(Impl<P>{"tessera_grouped_64x256", 600.0,
                          &launch_tessera_grouped<WgmmaBf16<Contiguous, tessera::GemmShape<64, 256, 64>>, P>});
  impls.push_back(Impl<P>{"tessera_grouped_128x128", 600.0,
                          &launch_tessera_grouped<WgmmaBf16<Contiguous, tessera::GemmShape<128, 128, 64>>, P>});
#endif
  (void)impls;
}

template <class P>
void tessera_batched_variants(std::vector<Impl<P>>& impls) {
#if TESSERA_BENCH_HAS_WGMMA
  using Batched = tessera::gemm::scheduler::StridedBatched;
  impls.push_back(Impl<P>{"tessera_batched", 600.0, &launch_tessera_batched<WgmmaBf16<Batched>, P>});
  impls.push_back(Impl<P>{"tessera_batched_128x128_pingpong", 600.0,
                          &launch_tessera_batched<
                              WgmmaBf16<Batched, tessera::GemmShape<128, 128, 64>, tessera::schedule::Pingpong>, P>});
#endif
  (void)impls;
}

// plain_* compute alpha A B (the suite's rule), the rest the fused epilogue.
template <class P>
void tessera_epilogue_variants(std::vector<Impl<P>>& impls) {
#if TESSERA_BENCH_HAS_WGMMA
  using namespace tessera::gemm;
  using GeluBias = Compose<LinearCombination, ColumnBias<tessera::bfloat16_t>, GeluTanh>;
  impls.push_back(Impl<P>{"tessera_gelu_bias", 600.0,
                          &launch_tessera_gelu_bias<WgmmaBf16<scheduler::DataParallel, tessera::GemmShape<128, 256, 64>,
                                                              tessera::schedule::AutoSm90, option::Epilogue<GeluBias>>,
                                                    P>});
  // Pingpong: one warpgroup's epilogue (the GELU) runs under the other's main loop.
  impls.push_back(Impl<P>{"tessera_gelu_bias_128x128_pingpong", 600.0,
                          &launch_tessera_gelu_bias<WgmmaBf16<scheduler::DataParallel, tessera::GemmShape<128, 128, 64>,
                                                              tessera::schedule::Pingpong, option::Epilogue<GeluBias>>,
                                                    P>});
  impls.push_back(Impl<P>{"tessera_gelu_bias_64x256_pingpong", 600.0,
                          &launch_tessera_gelu_bias<WgmmaBf16<scheduler::DataParallel, tessera::GemmShape<64, 256, 64>,
                                                              tessera::schedule::Pingpong, option::Epilogue<GeluBias>>,
                                                    P>});
  impls.push_back(Impl<P>{"plain_tessera", 600.0, &launch_tessera_plain<WgmmaBf16<scheduler::DataParallel>, P>});
#endif
  (void)impls;
}

}  // namespace
