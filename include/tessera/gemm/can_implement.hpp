// The one argument check every kernel family runs before launching. Each failure is a
// distinct Status (see core/status.hpp); the first problem found is returned, in the
// order sizes -> leading dimensions -> pointers -> alignment -> 32-bit offset range.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/layout/matrix_layout.hpp"

namespace tessera::gemm {

// What a configuration needs of its operands beyond the layout rules.
struct OperandRequirements {
  // Byte alignment of each pointer and of each leading dimension's byte stride.
  // The element size is always required (a misaligned element pointer is never valid).
  std::size_t align_a = 1, align_b = 1, align_c = 1, align_d = 1;
  // True when the kernel only has 32-bit per-lane offsets: every operand must then
  // span < 2^31 bytes. Kernels with a 64-bit fallback leave it false.
  bool offsets_32bit_only = false;
};

// Bytes from an operand's first to one past its last element (0 when empty).
template <class Layout, class T>
constexpr std::int64_t operand_bytes(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return matrix_span<Layout>(rows, cols, ld) * std::int64_t(sizeof(T));
}

// True when every operand spans < 2^31 bytes, so 32-bit byte offsets from its base
// address every element (the fast path; docs/architecture.md, "Canonical pointers").
template <class LayoutA, class LayoutB, class LayoutC, class EA, class EB, class EC, class ED, class EArgs>
constexpr bool offsets_fit_32bit(const Arguments<EA, EB, EC, ED, EArgs>& a) {
  constexpr std::int64_t kLimit = std::int64_t(1) << 31;
  return operand_bytes<LayoutA, EA>(a.M, a.K, a.lda) < kLimit &&
         operand_bytes<LayoutB, EB>(a.K, a.N, a.ldb) < kLimit &&
         operand_bytes<LayoutC, EC>(a.M, a.N, a.ldc) < kLimit &&
         operand_bytes<LayoutC, ED>(a.M, a.N, a.ldd) < kLimit;
}

// Every row (column) of an operand starts `bytes`-aligned: the pointer is, and so is the
// leading dimension's byte stride (else every line after the first is misaligned).
// Never less than the element's own alignment (alignof: a packed type such as
// float6_e2m3x4_t is 3 bytes long and byte-aligned).
template <class T>
bool lines_aligned(const T* p, std::int64_t ld, std::size_t bytes) {
  const std::size_t need = bytes > alignof(T) ? bytes : alignof(T);
  const bool ld_ok = need <= alignof(T) || (std::uint64_t(ld) * sizeof(T)) % need == 0;
  return reinterpret_cast<std::uintptr_t>(p) % need == 0 && ld_ok;
}

namespace detail {
// A null operand is judged by the null checks, not here.
template <class T>
bool operand_aligned(const T* p, std::int64_t ld, std::size_t required) {
  return p == nullptr || lines_aligned(p, ld, required);
}
}  // namespace detail

template <class LayoutA, class LayoutB, class LayoutC, class EA, class EB, class EC, class ED, class EArgs>
Status can_implement(const Arguments<EA, EB, EC, ED, EArgs>& a, const OperandRequirements& req = {}) {
  if (a.M < 0 || a.N < 0 || a.K < 0) return Status::kErrorNegativeSize;

  // Leading dimensions are checked even for empty operands, as BLAS does: ld >= 1 and
  // at least the contiguous extent, so that a later non-empty call with the same ld
  // behaves the same.
  if (a.lda < LayoutA::min_ld(a.M, a.K)) return Status::kErrorLeadingDimA;
  if (a.ldb < LayoutB::min_ld(a.K, a.N)) return Status::kErrorLeadingDimB;
  const bool reads_c = a.beta != 0.0f && a.M > 0 && a.N > 0;
  if (reads_c && a.ldc < LayoutC::min_ld(a.M, a.N)) return Status::kErrorLeadingDimC;
  if (a.ldd < LayoutC::min_ld(a.M, a.N)) return Status::kErrorLeadingDimD;

  const bool has_output = a.M > 0 && a.N > 0;
  const bool reads_ab = has_output && a.K > 0;
  if (reads_ab && a.A == nullptr) return Status::kErrorNullA;
  if (reads_ab && a.B == nullptr) return Status::kErrorNullB;
  if (reads_c && a.C == nullptr) return Status::kErrorNullC;
  if (has_output && a.D == nullptr) return Status::kErrorNullD;

  if (!detail::operand_aligned(a.A, a.lda, req.align_a)) return Status::kErrorMisalignedA;
  if (!detail::operand_aligned(a.B, a.ldb, req.align_b)) return Status::kErrorMisalignedB;
  if (reads_c && !detail::operand_aligned(a.C, a.ldc, req.align_c)) {
    return Status::kErrorMisalignedC;
  }
  if (!detail::operand_aligned(a.D, a.ldd, req.align_d)) return Status::kErrorMisalignedD;

  if (req.offsets_32bit_only && !offsets_fit_32bit<LayoutA, LayoutB, LayoutC>(a)) {
    return Status::kErrorOffsetOverflow;
  }
  return Status::kSuccess;
}

}  // namespace tessera::gemm
