// Gemm<Auto<...>>: the Hopper tensor-core GEMM that picks its configuration per call, for a
// user who does not want to choose a tile.
//
//   using G = tessera::gemm::Gemm<tessera::gemm::Auto<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor>>;
//   G::run(args, workspace, stream);                    // workspace: G::workspace_size(args) bytes
//   std::puts(tessera::gemm::explain<Auto<...>>(args, workspace, bytes).c_str());   // which kernel, and why
//
// Per call, one of a fixed table of shipped configurations runs (small M computed transposed,
// few tiles with K split over a cluster, 128 x 128 tiles, 64 x 128 Pingpong tiles, stream-K for
// deep K, large tiles with or without 2 x 1 clusters). Which one, the selector says from the
// call (M, N, K, whether TMA can describe A and B, the layouts, whether the epilogue reads C,
// whether the call passes a workspace: the stream-K entries split K only through one, the
// device's SM count):
//   Auto        the timed selector (select/nearest_shapes.hpp): the entry that ran fastest on
//               the calibrated shapes nearest to the call (select/timed_table.hpp, generated
//               from a sweep by scripts/fit_selector_table.py);
//   AutoByRule  the hand-written rule of select/auto_rule.hpp;
//   AutoModel   the cost model of select/cost_model.hpp;
// and Tuned<...> (select/tuned.hpp) times the best few on the first call of each shape. The
// chosen configuration's own can_implement is asked before the launch; where it refuses, the
// selector's next entry runs (the rule: the default, kLarge, which runs every valid argument).
// Where the epilogue reads C, every large entry loads it with TMA ahead of the epilogue if TMA
// can describe C (wgmma_stages_c). Options as WgmmaConfig's: option::OutputElement<T>,
// option::Epilogue<E>. Compile with nvcc for sm_90a.
//
// Adding an entry (e.g. a stream-K configuration): a value in AutoEntry and a line in the
// rule (select/auto_rule.hpp), its type in AutoEntries below, its name in auto_entry_name, then
// a sweep with --sweep-entries and the tables regenerated (scripts/fit_selector_table.py,
// scripts/fit_cost_model.py).
#pragma once
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include "tessera/arch/arch.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/select/auto_rule.hpp"
#include "tessera/gemm/select/cost_model.hpp"
#include "tessera/gemm/wgmma/cluster_split.hpp"
#include "tessera/gemm/options.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/select/nearest_shapes.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/select/transposed.hpp"
#include "tessera/gemm/wgmma/config.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"
#include "tessera/runtime/device.hpp"

namespace tessera::gemm {

struct AutoFamily {};

// The table: one configuration per AutoEntry, all with the user's types, layouts and options.
template <class EA, class LA, class EB, class LB, class EC, class LC, class... Options>
struct AutoEntries {
  template <int kTileM>
  using SmallM = WgmmaSmallM<EA, LA, EB, LB, EC, LC, kTileM, 0, Options...>;
  // Tiles below 64 need a row-major A; for a column-major one the rule never picks them.
  using SmallM16 = std::conditional_t<LA::kIsRowMajor, SmallM<16>, SmallM<64>>;
  using SmallM32 = std::conditional_t<LA::kIsRowMajor, SmallM<32>, SmallM<64>>;
  using SmallM64 = SmallM<64>;
  template <int kTileN>
  using Split = ClusterSplitK<WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, kTileN, 64>>,
                                          option::Schedule<schedule::Cooperative>, Options...>>;
  template <class Cluster>
  using Large = WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 256, 64>>,
                            option::Schedule<schedule::Cooperative>, option::Cluster<Cluster::kM, Cluster::kN>,
                            Options...>;
  using Tile128 = WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, 128, 64>>,
                              option::Schedule<schedule::Cooperative>, Options...>;
  using Tile64 = WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<64, 128, 64>>,
                             option::Schedule<schedule::Pingpong>, Options...>;
  template <int kTileN>
  using StreamKTile = WgmmaConfig<EA, LA, EB, LB, EC, LC, option::Tile<GemmShape<128, kTileN, 64>>,
                                  option::Schedule<schedule::Cooperative>, option::Scheduler<scheduler::StreamK<>>, Options...>;

  // f(Entry{}) for the configuration of entry e.
  template <class F>
  static auto with(AutoEntry e, F&& f) {
    switch (e) {
      case AutoEntry::kSmallM16: return f(SmallM16{});
      case AutoEntry::kSmallM32: return f(SmallM32{});
      case AutoEntry::kSmallM64: return f(SmallM64{});
      case AutoEntry::kSplit64: return f(Split<64>{});
      case AutoEntry::kSplit128: return f(Split<128>{});
      case AutoEntry::kTile128: return f(Tile128{});
      case AutoEntry::kStreamK: return f(StreamKTile<256>{});
      case AutoEntry::kStreamK128: return f(StreamKTile<128>{});
      case AutoEntry::kLarge2x1: return f(Large<ClusterShape<2, 1>>{});
      case AutoEntry::kTile64: return f(Tile64{});
      case AutoEntry::kLarge: break;
    }
    return f(Large<ClusterShape<1, 1>>{});
  }
};

// The selected GEMM, with the selector that picks the entry per call (select::Rule or
// select::CostModel, select/cost_model.hpp).
template <class SelectorT, class EA, class LA, class EB, class LB, class EC, class LC, class... Options>
struct AutoSelected {
  using Family = AutoFamily;
  using Selector = SelectorT;
  using Entries = AutoEntries<EA, LA, EB, LB, EC, LC, Options...>;
  using Default = typename Entries::template Large<ClusterShape<1, 1>>;
  using Arch = Sm90;
  using ElementA = EA;
  using ElementB = EB;
  using ElementC = EC;
  using ElementD = typename Default::ElementD;
  using ElementAccumulator = float;
  using LayoutA = LA;
  using LayoutB = LB;
  using LayoutC = LC;
  using Epilogue = typename Default::Epilogue;
  static_assert(std::is_same_v<typename Default::Scheduler, scheduler::DataParallel> &&
                    detail::count_option<option::kind::StagingBoxes, Options...> == 0,
                "Tessera Auto: the table chooses schedulers and staging itself; give only "
                "option::OutputElement<T> and option::Epilogue<E>");
};

// The timed selector of select/nearest_shapes.hpp picks (the default): the entry that ran
// fastest on the calibrated shapes nearest to the call.
template <class EA, class LA, class EB, class LB, class EC, class LC, class... Options>
struct Auto : AutoSelected<select::NearestShapes, EA, LA, EB, LB, EC, LC, Options...> {};

// The hand-written rule of select/auto_rule.hpp picks (the default before the timed table).
template <class EA, class LA, class EB, class LB, class EC, class LC, class... Options>
struct AutoByRule : AutoSelected<select::Rule, EA, LA, EB, LB, EC, LC, Options...> {};

// The cost model of select/cost_model.hpp picks.
template <class EA, class LA, class EB, class LB, class EC, class LC, class... Options>
struct AutoModel : AutoSelected<select::CostModel, EA, LA, EB, LB, EC, LC, Options...> {};

namespace detail {
template <class Config>
using AutoArgs = ConfigArguments<Config>;

// What the rule reads of a call on the device `d` (with or without a workspace).
template <class Config>
AutoProblem auto_problem(const AutoArgs<Config>& a, const DeviceInfo& d, bool workspace) {
  AutoProblem p;
  p.M = a.M;
  p.N = a.N;
  p.K = a.K;
  p.tma_a = tma_describes<typename Config::LayoutA>(a.A, a.M, a.K, a.lda);
  p.tma_b = tma_describes<typename Config::LayoutB>(a.B, a.K, a.N, a.ldb);
  p.k_major_a = Config::LayoutA::kIsRowMajor;
  p.k_major_b = !Config::LayoutB::kIsRowMajor;
  p.workspace = workspace;
  p.odd_pitch = (a.lda * std::int64_t(sizeof(typename Config::ElementA))) % 32 == 16 ||
                (a.ldb * std::int64_t(sizeof(typename Config::ElementB))) % 32 == 16;
  p.sms = d.multiprocessors;
  p.reads_c = Config::Epilogue::make(a.epilogue, epilogue_problem(a)).reads_c();
  p.bytes_a = int(sizeof(typename Config::ElementA));
  p.bytes_b = int(sizeof(typename Config::ElementB));
  p.bytes_c = int(sizeof(typename Config::ElementC));
  p.bytes_d = int(sizeof(typename Config::ElementD));
  return p;
}

// Whether a selector ranks every entry that runs a call (the cost model, the timed selector:
// ranked_entries and the reason it gives) rather than naming one (the rule).
template <class S, class = void>
struct RanksEntries : std::false_type {};
template <class S>
struct RanksEntries<S, std::void_t<decltype(S::kReason)>> : std::true_type {};
template <class S>
constexpr bool ranks_entries = RanksEntries<S>::value;
}  // namespace detail

#if defined(TESSERA_CUDA)

namespace detail {
// Whether configuration E runs the arguments without a workspace: the split and small-M entries
// not where they would copy A or B into one (wgmma/cluster_split.hpp); the others always.
template <class E>
bool entry_runs_without_workspace(const ConfigArguments<E>& a) {
  if constexpr (std::is_same_v<typename E::Family, TransposedFamily>) {
    return entry_runs_without_workspace<typename E::Inner>(transpose_arguments<E>(a));
  } else if constexpr (std::is_same_v<typename E::Family, ClusterSplitFamily>) {
    return cluster_split_runs_without_workspace<E>(a);
  } else {
    return true;
  }
}
// The split of a split or small-M entry E (CTAs per cluster; 1: none), through the transposition.
template <class E>
int entry_cluster_splits(const ConfigArguments<E>& a) {
  if constexpr (std::is_same_v<typename E::Family, TransposedFamily>) {
    return entry_cluster_splits<typename E::Inner>(transpose_arguments<E>(a));
  } else {
    return cluster_splits<E>(a);
  }
}
}  // namespace detail

// Whether entry e's own configuration takes the arguments (its can_implement), and runs them
// with or without a workspace as the call gives one.
template <class Config>
bool auto_entry_takes(AutoEntry e, const ConfigArguments<Config>& a, bool workspace) {
  return Config::Entries::with(e, [&](auto entry) {
    using E = decltype(entry);
    return ok(Gemm<E>::can_implement(a)) && (workspace || detail::entry_runs_without_workspace<E>(a));
  });
}

// The entry a call of Gemm<Config> runs on the device `d`, with or without a workspace: the
// selector's; where that configuration refuses the arguments, the rule's default (kLarge,
// reason kFallback) and the cost model's next best.
// workspace_size(args) asks with a workspace, so a call given that many bytes runs the entry
// they were sized for; a call without one never runs an entry that would split K through one.
template <class Config>
AutoChoice auto_choice(const ConfigArguments<Config>& a, const DeviceInfo& d, bool workspace) {
  const AutoProblem p = detail::auto_problem<Config>(a, d, workspace);
  using Selector = typename Config::Selector;
  if constexpr (detail::ranks_entries<Selector>) {
    AutoEntry ranked[select::kAutoEntryCount] = {};
    const int n = Selector::ranked_entries(p, ranked);
    for (int i = 0; i < n; ++i) {
      if (auto_entry_takes<Config>(ranked[i], a, workspace)) return {ranked[i], Selector::kReason};
    }
    return {AutoEntry::kLarge, AutoReason::kFallback};
  } else {
    AutoChoice c = Config::Selector::choose(p);
    if (!auto_entry_takes<Config>(c.entry, a, workspace)) c = {AutoEntry::kLarge, AutoReason::kFallback};
    return c;
  }
}

template <class Config>
struct KernelLauncher<AutoFamily, Config> {
  using Args = ConfigArguments<Config>;
  using Default = typename Config::Default;
  using DefaultLauncher = KernelLauncher<typename Default::Family, Default>;

  // The default entry takes every valid argument; the others are asked per call.
  static OperandRequirements requirements() { return DefaultLauncher::requirements(); }
  static Status check(const Args& a) { return DefaultLauncher::check(a); }

  static std::size_t workspace_size(const Args& a, const DeviceInfo& d) {
    return Config::Entries::with(auto_choice<Config>(a, d, true).entry, [&](auto entry) {
      using E = decltype(entry);
      return KernelLauncher<typename E::Family, E>::workspace_size(a, d);
    });
  }

  static Status launch(const Args& a, void* workspace, Stream stream, const DeviceInfo& d) {
    return Config::Entries::with(auto_choice<Config>(a, d, workspace != nullptr).entry, [&](auto entry) {
      using E = decltype(entry);
      return KernelLauncher<typename E::Family, E>::launch(a, workspace, stream, d);
    });
  }
};

// The workspace a call of run(a, workspace, workspace_bytes, stream) uses: none where it is
// smaller than workspace_size(a) (gemm.hpp).
template <class Config>
const void* auto_used_workspace(const ConfigArguments<Config>& a, const void* workspace, std::size_t workspace_bytes) {
  return workspace != nullptr && workspace_bytes < Gemm<Config>::workspace_size(a) ? nullptr : workspace;
}

// The entry Gemm<Config>::run(args, workspace) takes on the current device (kLarge when the
// device cannot be queried); given the workspace's bytes, that of run(args, workspace, bytes, s).
template <class Config>
AutoChoice auto_choice(const ConfigArguments<Config>& a, const void* workspace = nullptr) {
  DeviceInfo d;
  if (!ok(current_device(&d))) return {AutoEntry::kLarge, AutoReason::kFallback};
  return auto_choice<Config>(a, d, workspace != nullptr);
}
template <class Config>
AutoChoice auto_choice(const ConfigArguments<Config>& a, const void* workspace, std::size_t workspace_bytes) {
  return auto_choice<Config>(a, auto_used_workspace<Config>(a, workspace, workspace_bytes));
}

template <class Config>
std::string explain(const ConfigArguments<Config>& a, const void* workspace, std::size_t workspace_bytes);

// In words: which configuration Gemm<Config>::run(args, workspace) runs on the current device,
// and why (a workspace counted as workspace_size(args) bytes).
template <class Config>
std::string explain(const ConfigArguments<Config>& a, const void* workspace = nullptr) {
  return explain<Config>(a, workspace, workspace != nullptr ? Gemm<Config>::workspace_size(a) : 0);
}

// The same for run(args, workspace, workspace_bytes, stream): a workspace smaller than
// workspace_size(args) is not used, and the explanation says so.
template <class Config>
std::string explain(const ConfigArguments<Config>& a, const void* given_workspace, std::size_t workspace_bytes) {
  std::ostringstream o;
  o << "M=" << a.M << " N=" << a.N << " K=" << a.K;
  const Status valid = Gemm<Config>::can_implement(a);
  if (!ok(valid)) {
    o << ": not run, " << status_name(valid) << " (" << status_message(valid) << ")";
    return o.str();
  }
  DeviceInfo d;
  const Status found = current_device(&d);
  if (!ok(found)) {
    o << ": no device to choose for (" << status_name(found) << ")";
    return o.str();
  }
  const void* workspace = auto_used_workspace<Config>(a, given_workspace, workspace_bytes);
  const bool given = workspace != nullptr;
  const AutoProblem p = detail::auto_problem<Config>(a, d, given);
  const AutoChoice c = auto_choice<Config>(a, d, given);
  o << " on " << p.sms << " SMs" << (given ? ", with a workspace" : ", without a workspace");
  if (given_workspace != nullptr && !given) {
    o << " (the " << workspace_bytes << " bytes given are fewer than workspace_size(args), "
      << Gemm<Config>::workspace_size(a) << ": run does not use them)";
  }
  o << ": "
    << auto_entry_name(c.entry) << ", because ";
  const bool reads_c = p.reads_c;
  switch (c.reason) {
    case AutoReason::kSmallM:
      o << "M <= " << AutoRule::kSmallMMax << " is small beside N (the product is computed transposed, the "
        << "weights streamed by every SM)";
      break;
    case AutoReason::kFewTiles:
      o << "the 128 x 256 tiles (" << AutoRule::tiles(p, 256) << ") would leave more than half of the " << p.sms
        << " SMs idle; this tile is the largest whose tiles, times a split of K where K is deep enough, fill them";
      break;
    case AutoReason::kShortK:
      o << "the 128 x 256 tiles (" << AutoRule::tiles(p, 256) << ") would leave more than half of the " << p.sms
        << " SMs idle and K is too short for splitting it to pay: 128 x 128 tiles (" << AutoRule::tiles(p, 128)
        << ") instead";
      break;
    case AutoReason::kDeepK:
      o << "K is deep (" << ceil_div<std::int64_t>(p.K, 64) << " K tiles) on too few tiles to fill the " << p.sms
        << " SMs' waves: K is split through the workspace where the stream-K rule predicts it pays";
      break;
    case AutoReason::kOddPitch:
      o << "the rows of A or B are an odd multiple of 16 bytes apart (lda " << a.lda << ", ldb " << a.ldb
        << "), where 1 x 1 tiles lose much of their rate and 2 x 1 clusters (half of B's loads) lose least "
           "(benchmark/notes/small_m.md)";
      break;
    case AutoReason::kUnevenWaves:
      o << "128 x 128 tiles (" << AutoRule::tiles(p, 128) << ") fill the " << p.sms
        << " SMs' waves better than 128 x 256 tiles (" << AutoRule::tiles(p, 256) << ")";
      break;
    case AutoReason::kManyTiles:
      o << "there are at least two waves of 128 x 256 tiles (" << AutoRule::tiles(p, 256)
        << "), where clusters sharing B tiles ran faster (benchmark/notes/small_m.md)";
      break;
    case AutoReason::kDefault:
      o << "the 128 x 256 tiles (" << AutoRule::tiles(p, 256) << ") fill the SMs";
      break;
    case AutoReason::kTimed:
      o << select::explain_nearest(p, c.entry);
      break;
    case AutoReason::kCostModel:
      o << select::explain_costs(p, c.entry);
      break;
    case AutoReason::kFallback:
      o << "the rule's choice does not take these arguments (A or B not describable by TMA and no workspace to "
           "copy them into, or a limit): the default runs every valid argument";
      break;
  }
  if (!given) {
    const AutoChoice with = auto_choice<Config>(a, d, true);
    if (with.entry != c.entry) {
      o << " (given workspace_size(args) bytes of workspace: " << auto_entry_name(with.entry) << ")";
    }
  }
  Config::Entries::with(c.entry, [&](auto entry) {
    using E = decltype(entry);
    if constexpr (std::is_same_v<typename E::Family, TransposedFamily> ||
                  std::is_same_v<typename E::Family, ClusterSplitFamily>) {
      const int s = detail::entry_cluster_splits<E>(a);
      o << "; K split over clusters of " << s << " CTA" << (s == 1 ? "" : "s");
      if (!detail::entry_runs_without_workspace<E>(a)) {
        o << "; A or B copied into the workspace first (TMA cannot describe it as given)";
      }
    } else {
      static const char any_workspace = 0;  // tma_path asks only whether one is given
      const TmaPath taken = tma_path<E>(a, workspace), with = tma_path<E>(a, &any_workspace);
      o << "; the " << path_name(taken) << " path";
      if (!given && with != taken) o << " (" << path_name(with) << " with a workspace)";
      if (reads_c) {
        o << (wgmma_stages_c<E>(a, workspace) ? "; C loaded by TMA into the epilogue's staging boxes ahead of it"
                                              : "; C read with ordinary loads (TMA cannot stage it)");
      }
    }
    return 0;
  });
  return o.str();
}

#endif  // TESSERA_CUDA

}  // namespace tessera::gemm
