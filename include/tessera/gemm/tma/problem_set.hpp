// The host side of a batch or groups of GEMMs (problem_set.hpp) in the two TMA families: what
// they require of the operands, and their 3-D tensor maps. Every problem's A, B and D tiles
// move with TMA (a layer of the map per problem); there is no packed or realigning path for a
// problem set, so operands TMA cannot describe are refused with the Status that names them
// (the one-GEMM configurations take any alignment). C is read with ordinary loads, as always.
//
//   A (B, D) as a 3-D map {its 2-D map's extents, layers}: layer p at p * stride. An operand
//   every problem shares (stride 0, and A, C, D of the contiguous grouped layout, addressed by
//   rows) is one layer, read at layer 0 by every problem.
// A layer must not overlap the next (its stride is 0 or spans one matrix of the map), which
// the driver's encoding of the strides assumes.
//
// Host only (no CUDA needed): the plans are tested on the host (test/unit/test_problem_set.cpp).
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/problem_set.hpp"
#include "tessera/gemm/problem_set_checks.hpp"
#include "tessera/gemm/tma/packing.hpp"

namespace tessera::gemm {

// One operand's third dimension: layers and their pitch (0 layers: a 2-D map).
struct MapLayers {
  std::uint64_t layers = 0;
  std::uint64_t pitch_bytes = 0;
};

template <class T>
MapLayers map_layers(std::int64_t count, std::int64_t stride) {
  return {stride != 0 ? std::uint64_t(count) : 1u, std::uint64_t(stride) * sizeof(T)};
}

namespace detail {
// An operand of the set: TMA describes its matrix, its stride is a multiple of 16 bytes, and
// its layers do not overlap.
inline Status check_layered(const OperandLines& o, std::int64_t stride, Status misaligned) {
  if (o.lines > 0 && o.length > 0 && !o.tma_describable()) return misaligned;
  if ((stride * o.element_bytes) % 16 != 0) return Status::kErrorProblemStrideMisaligned;
  if (stride != 0 && stride < o.lines * o.ld) return Status::kErrorProblemStride;
  return Status::kSuccess;
}
}  // namespace detail

// The TMA families' refusals for a problem set (after the scheduler's own checks).
template <class LayoutA, class LayoutB, class LayoutC, class Scheduler, class Args>
Status check_tma_problem_set(const Args& a) {
  const OperandsAsLines<LayoutA, LayoutB, LayoutC, Args> o(a);
  const ProblemStrides s = problem_strides<Scheduler>(a.problems);
  Status st = detail::check_layered(o.a, s.a, Status::kErrorMisalignedA);
  if (ok(st)) st = detail::check_layered(o.b, s.b, Status::kErrorMisalignedB);
  if (ok(st)) st = detail::check_layered(o.d, s.d, Status::kErrorMisalignedD);
  return st;
}

}  // namespace tessera::gemm
