// The options of a configuration: everything after its element types and layouts (and the
// FMA and MFMA families' leading Arch), in any order, each at most once, each with the
// family's default when not given:
//
//   option::Tile<GemmShape<M, N, K>>   the output tile one CTA / workgroup computes, and its K step
//   option::Schedule<S>                how the warps or waves split the tile (wgmma, MFMA)
//   option::Cluster<M, N>              the thread-block cluster sharing operand tiles (wgmma, tcgen05)
//   option::Stages<N>                  pipeline stages (0 in the TMA families: as many as fit)
//   option::Instruction<I>             the MFMA instruction (MFMA)
//   option::ThreadTile<GemmShape<M, N, 1>>  the outputs one thread accumulates (FMA)
//   option::Accumulator<T>             the accumulator type (FMA)
//   option::MinBlocksPerSm<N>          occupancy the register allocation must allow (FMA)
//   option::CtaGroup<G>                OneCta or CtaPair (tcgen05)
//   option::AccumulatorBuffers<N>      tensor-memory accumulator buffers (tcgen05)
//   option::StagingBoxes<N>            epilogue staging boxes per consumer warpgroup (wgmma)
//   option::OutputElement<T>           D's element type (default: C's)
//   option::Epilogue<E>                what is applied to each accumulator before the store
//                                      (gemm/epilogue/epilogue.hpp; default LinearCombination)
//   option::Scheduler<S>               how output tiles (and K ranges) become units of work
//                                      (gemm/scheduler/tile_scheduler.hpp; default: the family's own)
//   option::Scales<M>                  how A and B are scaled (gemm/scale_mode.hpp): each family
//                                      takes the modes it implements (wgmma fp8: scale::PerTensor,
//                                      PerRowColumn, Blockwise, the default PerTensor; MFMA:
//                                      scale::None, PerTensor, Mx; tcgen05: scale::None, Mx, Nvfp4)
//   option::DependentLaunch            programmatic dependent launch (wgmma, its split-K and small-M
//                                      configurations): the kernel may start while the stream's
//                                      previous kernel finishes, and waits for it before touching
//                                      global memory (docs/host-api.md, "Dependent launch")
//
//   using Config = WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, float, RowMajor,
//                              option::Tile<GemmShape<128, 128, 64>>, option::OutputElement<bf16>,
//                              option::Epilogue<MyEpilogue>>;
//
// Each family reads the options it implements and refuses the others by name
// (config_base.hpp); ConfigOptions checks that every option is one and is given once.
#pragma once
#include <type_traits>

#include "tessera/core/shape.hpp"
#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/scale_mode.hpp"

namespace tessera::gemm {

namespace option {

// What an option sets: one tag per option, so that a configuration finds an option by what it
// sets whatever its template arguments.
namespace kind {
struct Tile {};
struct Schedule {};
struct Cluster {};
struct Stages {};
struct Instruction {};
struct ThreadTile {};
struct Accumulator {};
struct MinBlocksPerSm {};
struct CtaGroup {};
struct AccumulatorBuffers {};
struct StagingBoxes {};
struct OutputElement {};
struct Epilogue {};
struct Scheduler {};
struct Scales {};
struct DependentLaunch {};
}  // namespace kind

// Every option derives from Option<its kind>.
template <class Kind_>
struct Option {
  using Kind = Kind_;
};

template <class T>
constexpr bool is_gemm_shape = false;
template <int M, int N, int K>
constexpr bool is_gemm_shape<GemmShape<M, N, K>> = true;

template <class Shape>
struct Tile : Option<kind::Tile> {
  static_assert(is_gemm_shape<Shape>, "Tessera option::Tile: give the tile as GemmShape<M, N, K>");
  using type = Shape;
};
template <class S>
struct Schedule : Option<kind::Schedule> {
  using type = S;
};
template <int M, int N>
struct Cluster : Option<kind::Cluster> {
  static constexpr int kM = M, kN = N;
};
template <int N>
struct Stages : Option<kind::Stages> {
  static constexpr int value = N;
};
template <class I>
struct Instruction : Option<kind::Instruction> {
  using type = I;
};
template <class Shape>
struct ThreadTile : Option<kind::ThreadTile> {
  static_assert(is_gemm_shape<Shape>, "Tessera option::ThreadTile: give the thread tile as GemmShape<M, N, 1>");
  using type = Shape;
};
template <class T>
struct Accumulator : Option<kind::Accumulator> {
  using type = T;
};
template <int N>
struct MinBlocksPerSm : Option<kind::MinBlocksPerSm> {
  static constexpr int value = N;
};
template <class G>
struct CtaGroup : Option<kind::CtaGroup> {
  using type = G;
};
template <int N>
struct AccumulatorBuffers : Option<kind::AccumulatorBuffers> {
  static constexpr int value = N;
};
template <int N>
struct StagingBoxes : Option<kind::StagingBoxes> {
  static constexpr int value = N;
};
template <class T>
struct OutputElement : Option<kind::OutputElement> {
  using type = T;
};
template <class E>
struct Epilogue : Option<kind::Epilogue> {
  using type = E;
};
template <class S>
struct Scheduler : Option<kind::Scheduler> {
  using type = S;
};
template <class M>
struct Scales : Option<kind::Scales> {
  static_assert(scale::is_scale_mode<M>,
                "Tessera option::Scales: give a scale mode: scale::None, PerTensor, PerRowColumn, Blockwise, Mx, "
                "Nvfp4 or Fast<PerTensor or PerRowColumn> (gemm/scale_mode.hpp)");
  using type = M;
};
// A flag: given, the family's kernels are launched with programmatic stream serialization.
struct DependentLaunch : Option<kind::DependentLaunch> {};

}  // namespace option

namespace detail {
template <class T, class = void>
struct IsOption : std::false_type {};
template <class T>
struct IsOption<T, std::void_t<typename T::Kind>> : std::is_base_of<option::Option<typename T::Kind>, T> {};

template <class T, class Kind, class = void>
struct IsOptionOf : std::false_type {};
template <class T, class Kind>
struct IsOptionOf<T, Kind, std::enable_if_t<IsOption<T>::value>> : std::is_same<typename T::Kind, Kind> {};

// The first option of kind Kind, else Default (an option of that kind, the family's default).
template <class Kind, class Default, class... Options>
struct FindOption {
  using type = Default;
};
template <class Kind, class Default, class First, class... Rest>
struct FindOption<Kind, Default, First, Rest...> {
  using type = typename std::conditional_t<IsOptionOf<First, Kind>::value, std::enable_if<true, First>,
                                           FindOption<Kind, Default, Rest...>>::type;
};

template <class Kind, class... Options>
constexpr int count_option = (0 + ... + int(IsOptionOf<Options, Kind>::value));
// How often the kind of option O is among All (1 for what is no option: refused on its own).
template <class O, class... All>
constexpr int times_given() {
  if constexpr (IsOption<O>::value) {
    return count_option<typename O::Kind, All...>;
  } else {
    return 1;
  }
}
}  // namespace detail

template <class ElementC, class DefaultScheduler, class... Options>
struct ConfigOptions {
  static_assert((detail::IsOption<Options>::value && ...),
                "Tessera configuration: a parameter after the element types and layouts is not an option "
                "(option::Tile<...>, option::Stages<...>, ...: gemm/options.hpp)");
  static_assert(((detail::times_given<Options, Options...>() <= 1) && ...),
                "Tessera configuration: an option is given twice (each may be given once)");

  // The option of kind Kind given, else Default.
  template <class Kind, class Default>
  using Get = typename detail::FindOption<Kind, Default, Options...>::type;
  template <class Kind>
  static constexpr bool kGiven = detail::count_option<Kind, Options...> > 0;

  using ElementD = typename Get<option::kind::OutputElement, option::OutputElement<ElementC>>::type;
  using Epilogue = typename Get<option::kind::Epilogue, option::Epilogue<LinearCombination>>::type;
  using Scheduler = typename Get<option::kind::Scheduler, option::Scheduler<DefaultScheduler>>::type;
  static constexpr bool kEpilogueGiven = kGiven<option::kind::Epilogue>;
  static constexpr bool kScalesGiven = kGiven<option::kind::Scales>;
  static constexpr bool kDependentLaunch = kGiven<option::kind::DependentLaunch>;
};

}  // namespace tessera::gemm
