// Options every configuration takes after its own parameters, in any order, each at most once:
//
//   option::OutputElement<T>   D's element type (default: C's)
//   option::Epilogue<E>        what is applied to each accumulator before the store
//                              (gemm/epilogue/epilogue.hpp; default LinearCombination)
//   option::Scheduler<S>       how output tiles (and K ranges) become units of work
//                              (gemm/scheduler/tile_scheduler.hpp; default: the family's own)
//   option::StagingBoxes<N>    wgmma family: epilogue staging boxes per consumer warpgroup
//                              (default 2; more lets C be loaded further ahead, at the cost
//                              of pipeline stages: gemm/wgmma/config.hpp)
//   option::Scales<M>          fp8 operands only: how A and B are scaled (gemm/scale_mode.hpp;
//                              default scale::PerTensor<>): the wgmma family's float scales
//   option::OperandScales<M>   low-precision operands: how A and B are scaled
//                              (gemm/operand_scales.hpp; read by the families that take them:
//                              MFMA's per-tensor and MX block scales)
//
//   using Config = WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, float, RowMajor,
//                              GemmShape<128, 256, 64>, schedule::AutoSm90, ClusterShape<1, 1>, 0,
//                              option::OutputElement<bf16>, option::Epilogue<MyEpilogue>>;
//
// A configuration reads them with ConfigOptions<Default scheduler, Options...>.
#pragma once
#include <type_traits>

#include "tessera/gemm/epilogue/epilogue.hpp"
#include "tessera/gemm/scale_mode.hpp"

namespace tessera::gemm {

namespace option {
template <class T>
struct OutputElement {
  using type = T;
};
template <class E>
struct Epilogue {
  using type = E;
};
template <class S>
struct Scheduler {
  using type = S;
};
template <int N>
struct StagingBoxes {
  static constexpr int value = N;
};
template <class M>
struct Scales {
  static_assert(scale::is_scale_mode<M>,
                "Tessera option::Scales: give scale::PerTensor<>, scale::PerRowColumn<> or scale::Blockwise");
  using type = M;
};
template <class M>
struct OperandScales {
  using type = M;
};
}  // namespace option

namespace detail {
template <template <class> class Tag, class T>
struct IsOption : std::false_type {};
template <template <class> class Tag, class U>
struct IsOption<Tag, Tag<U>> : std::true_type {};

// The type of the first option of kind Tag, else Default.
template <template <class> class Tag, class Default, class... Options>
struct FindOption {
  using type = Default;
};
template <template <class> class Tag, class Default, class First, class... Rest>
struct FindOption<Tag, Default, First, Rest...> {
  using type = typename std::conditional_t<IsOption<Tag, First>::value, First,
                                           FindOption<Tag, Default, Rest...>>::type;
};
template <template <class> class Tag, class Default>
struct FindOption<Tag, Default> {
  using type = Default;
};

template <class T>
struct StagingBoxesOf : std::integral_constant<int, 0> {};
template <int N>
struct StagingBoxesOf<option::StagingBoxes<N>> : std::integral_constant<int, N> {};

template <class T>
constexpr bool is_known_option = IsOption<option::OutputElement, T>::value ||
                                 IsOption<option::Epilogue, T>::value || IsOption<option::Scheduler, T>::value ||
                                 IsOption<option::Scales, T>::value || StagingBoxesOf<T>::value != 0 ||
                                 IsOption<option::OperandScales, T>::value;
template <template <class> class Tag, class... Options>
constexpr int count_option = (0 + ... + int(IsOption<Tag, Options>::value));
}  // namespace detail

template <class ElementC, class DefaultScheduler, class... Options>
struct ConfigOptions {
  static_assert((detail::is_known_option<Options> && ...),
                "Tessera configuration: an option after the configuration's own parameters is not one of "
                "option::OutputElement<T>, option::Epilogue<E>, option::Scheduler<S>, option::Scales<M>, "
                "option::StagingBoxes<N> (N >= 1), option::OperandScales<M>");
  static_assert(detail::count_option<option::OutputElement, Options...> <= 1 &&
                    detail::count_option<option::Epilogue, Options...> <= 1 &&
                    detail::count_option<option::Scheduler, Options...> <= 1 &&
                    detail::count_option<option::Scales, Options...> <= 1 &&
                    (0 + ... + int(detail::StagingBoxesOf<Options>::value != 0)) <= 1 &&
                    detail::count_option<option::OperandScales, Options...> <= 1,
                "Tessera configuration: each option (OutputElement, Epilogue, Scheduler, Scales, StagingBoxes, "
                "OperandScales) may be given once");
  using ElementD = typename detail::FindOption<option::OutputElement, ElementC, Options...>::type;
  using Epilogue = typename detail::FindOption<option::Epilogue, LinearCombination, Options...>::type;
  using Scheduler = typename detail::FindOption<option::Scheduler, DefaultScheduler, Options...>::type;
  using Scales = typename detail::FindOption<option::Scales, scale::PerTensor<>, Options...>::type;
  static constexpr bool kEpilogueGiven = detail::count_option<option::Epilogue, Options...> > 0;
  static constexpr bool kScalesGiven = detail::count_option<option::Scales, Options...> > 0;
  // 0 when not given (the family's default).
  static constexpr int kStagingBoxes = (0 + ... + detail::StagingBoxesOf<Options>::value);
  static constexpr bool kOperandScalesGiven = detail::count_option<option::OperandScales, Options...> > 0;
};

}  // namespace tessera::gemm
