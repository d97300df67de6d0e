// The problem-set check every family runs in can_implement (gemm.hpp): a configuration whose
// scheduler takes a problem set (scheduler/tile_scheduler.hpp) checks it with the scheduler's own rules;
// every other configuration computes one GEMM and requires Arguments::problems' defaults.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/core/status.hpp"
#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::gemm {

// A configuration's scheduler, or void for one that names none (one GEMM per call).
template <class Config, class = void>
struct SchedulerOf {
  using type = void;
};
template <class Config>
struct SchedulerOf<Config, std::void_t<typename Config::Scheduler>> {
  using type = typename Config::Scheduler;
};

template <class Scheduler, class LayoutC, class Args>
Status check_problem_set(const Args& a) {
  if constexpr (takes_problem_set<Scheduler>) {
    return Scheduler::can_implement(a.problems, a.M, matrix_span<LayoutC>(a.M, a.N, a.ldd));
  } else {
    const bool one = a.problems.count == 1 && a.problems.group_ends == nullptr && a.problems.group_rows == nullptr;
    return one ? Status::kSuccess : Status::kErrorProblemsUnsupported;
  }
}

// The kernel's copy of the strides (0 for one GEMM).
template <class Scheduler>
ProblemStrides problem_strides(const ProblemSet& s) {
  if constexpr (takes_problem_set<Scheduler>) {
    return Scheduler::strides(s);
  } else {
    (void)s;
    return {};
  }
}

}  // namespace tessera::gemm
