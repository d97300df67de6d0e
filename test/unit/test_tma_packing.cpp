// Host checks of the TMA families' packed path plan (gemm/tma/packing.hpp): which operands
// are copied, that every copy is something TMA can describe, that the copies do not overlap
// and fit the workspace, and which path a call takes with and without a workspace.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "tessera/core/numeric.hpp"
#include "tessera/gemm/tma/packing.hpp"
#include "tessera/layout/matrix_layout.hpp"

using namespace tessera;
using gemm::TmaPath;

namespace {

// Pointers are never dereferenced: only their alignment matters. 256-byte aligned bases.
const auto* kA = reinterpret_cast<const bfloat16_t*>(std::uintptr_t(0x10000));
const auto* kB = reinterpret_cast<const bfloat16_t*>(std::uintptr_t(0x20000));
auto* kD = reinterpret_cast<bfloat16_t*>(std::uintptr_t(0x30000));
auto* kDf = reinterpret_cast<float*>(std::uintptr_t(0x30000));

template <class T>
T* one_element_off(T* p) {
  return p + 1;
}

// Every packed operand: a 128-byte multiple pitch at least its length, a 256-byte aligned offset (so a
// 16-byte aligned workspace gives TMA a 16-byte aligned base), inside the workspace, and,
// with its zeroed padding counted as part of its lines, describable by TMA.
// `lines`: A, B and D, or A and B alone for a plan that never places D.
void check_plan(const gemm::PackingPlan& plan, const std::vector<gemm::OperandLines>& lines) {
  const gemm::PackedOperand* ops[3] = {&plan.a, &plan.b, &plan.d};
  std::size_t end_of_previous = 0;
  for (int i = 0; i < int(lines.size()); ++i) {
    const gemm::PackedOperand& p = *ops[i];
    INFO("operand " << i);
    CHECK(p.packed == !lines[i].tma_describable());
    if (!p.packed) continue;
    CHECK(p.ld >= lines[i].length);
    CHECK((p.ld * lines[i].element_bytes) % gemm::kPackedPitchBytes == 0);  // TMA needs 16; L2 lines 128
    CHECK(p.ld * lines[i].element_bytes < lines[i].length * lines[i].element_bytes + gemm::kPackedPitchBytes);
    CHECK(p.offset % 256 == 0);
    CHECK(p.offset >= end_of_previous);
    CHECK(p.bytes == std::size_t(lines[i].lines * p.ld * lines[i].element_bytes));
    CHECK(p.offset + p.bytes <= plan.bytes);
    end_of_previous = p.offset + p.bytes;
    gemm::OperandLines copy = lines[i];
    copy.base = reinterpret_cast<const void*>(std::uintptr_t(0x100000) + p.offset);
    copy.ld = p.ld;
    copy.length = p.ld;  // the padding is zeros (copy_lines): TMA may read it as data
    CHECK(copy.tma_describable());
  }
}

// Which operands the plan copies.
void expect_packed(const gemm::PackingPlan& plan, bool a, bool b, bool d) {
  CHECK(plan.a.packed == a);
  CHECK(plan.b.packed == b);
  CHECK(plan.d.packed == d);
}

}  // namespace

TEST_CASE("packing plan: the odd shape 4097x4095x4103 copies A, B and D", "[tma][packing]") {
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> x{4097, 4095, 4103, kA, 4103, kB, 4095,
                                                              kD,   4095, kD,   4095, 1.0f, 0.0f};
  const auto plan = gemm::packing_plan<RowMajor, RowMajor, RowMajor>(x);
  const gemm::OperandsAsLines<RowMajor, RowMajor, RowMajor, decltype(x)> lines(x);
  CHECK(lines.a.lines == 4097);
  CHECK(lines.a.length == 4103);
  CHECK(lines.b.lines == 4103);
  CHECK(lines.b.length == 4095);
  expect_packed(plan, true, true, true);
  CHECK(plan.a.ld == 4160);
  CHECK(plan.b.ld == 4096);
  CHECK(plan.d.ld == 4096);
  check_plan(plan, {lines.a, lines.b, lines.d});
  CHECK(gemm::choose_path<RowMajor, RowMajor, RowMajor>(x, true) == TmaPath::kPacked);
  CHECK(gemm::choose_path<RowMajor, RowMajor, RowMajor>(x, false) == TmaPath::kRealigning);
}

TEST_CASE("packing plan: aligned operands take the TMA path and need no workspace", "[tma][packing]") {
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> x{4096, 4096, 4096, kA, 4096, kB, 4096,
                                                              kD,   4096, kD,   4096, 1.0f, 0.0f};
  const auto plan = gemm::packing_plan<RowMajor, ColumnMajor, RowMajor>(x);
  CHECK(plan.all_tma());
  CHECK(plan.bytes == 0);
  CHECK(gemm::choose_path<RowMajor, ColumnMajor, RowMajor>(x, true) == TmaPath::kTma);
  CHECK(gemm::choose_path<RowMajor, ColumnMajor, RowMajor>(x, false) == TmaPath::kTma);
}

TEST_CASE("packing plan: C never changes the path (the epilogue reads it with element loads)",
          "[tma][packing]") {
  const auto* c = one_element_off(kD);
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> x{64, 64, 64, kA, 64, kB, 64, c, 63, kD, 64, 1.0f, 1.0f};
  CHECK((gemm::packing_plan<RowMajor, RowMajor, RowMajor>(x).all_tma()));
  CHECK(gemm::choose_path<RowMajor, RowMajor, RowMajor>(x, false) == TmaPath::kTma);
}

TEST_CASE("packing plan: each operand alone, every layout", "[tma][packing]") {
  // Only B is one element off; column-major B is N lines of K.
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> b_off{128, 72, 40, kA, 40, one_element_off(kB), 40,
                                                                  kD,  72, kD, 72, 1.0f, 0.0f};
  const auto plan = gemm::packing_plan<RowMajor, ColumnMajor, RowMajor>(b_off);
  const gemm::OperandsAsLines<RowMajor, ColumnMajor, RowMajor, decltype(b_off)> lines(b_off);
  expect_packed(plan, false, true, false);
  CHECK(lines.b.lines == 72);
  CHECK(lines.b.length == 40);
  CHECK(plan.b.offset == 0);
  check_plan(plan, {lines.a, lines.b, lines.d});

  // Column-major A with an odd M: K lines of M; column-major fp32 D with ld = M = 129.
  const gemm::Arguments<bfloat16_t, bfloat16_t, float> odd_m{129, 64, 32, kA, 129, kB, 64, kDf, 129, kDf, 129,
                                                             1.0f, 0.0f};
  const auto p2 = gemm::packing_plan<ColumnMajor, RowMajor, ColumnMajor>(odd_m);
  const gemm::OperandsAsLines<ColumnMajor, RowMajor, ColumnMajor, decltype(odd_m)> l2(odd_m);
  expect_packed(p2, true, false, true);
  CHECK(l2.a.lines == 32);
  CHECK(p2.a.ld == 192);
  CHECK(l2.d.lines == 64);
  CHECK(l2.d.element_bytes == 4);
  CHECK(p2.d.ld == 160);  // fp32: 32 elements per 128 bytes
  check_plan(p2, {l2.a, l2.b, l2.d});
}

TEST_CASE("packing plan: only D misaligned takes the packed path with or without a workspace", "[tma][packing]") {
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> x{256, 129, 64, kA, 64, kB, 64, kD, 129, kD, 129,
                                                              1.0f, 0.0f};
  const auto plan = gemm::packing_plan<RowMajor, ColumnMajor, RowMajor>(x);
  CHECK(plan.inputs_tma());
  REQUIRE(plan.d.packed);  // with a workspace: copied out; without: direct stores
  CHECK(plan.d.offset == 0);
  CHECK(gemm::choose_path<RowMajor, ColumnMajor, RowMajor>(x, false) == TmaPath::kPacked);
  CHECK(gemm::choose_path<RowMajor, ColumnMajor, RowMajor>(x, true) == TmaPath::kPacked);
}

TEST_CASE("packing plan: K = 0 packs nothing that takes bytes", "[tma][packing]") {
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> x{70, 24, 0, one_element_off(kA), 3, kB, 24,
                                                              kD, 24, kD, 24, 1.0f, 1.0f};
  const auto plan = gemm::packing_plan<RowMajor, RowMajor, RowMajor>(x);
  CHECK(plan.a.packed);
  CHECK(plan.a.bytes == 0);
  CHECK(plan.bytes == 0);
  // workspace_size() is then 0 and a caller passes none: the realigning path, which reads no A.
  CHECK(gemm::choose_path<RowMajor, RowMajor, RowMajor>(x, false) == TmaPath::kRealigning);
}

TEST_CASE("input packing plan (the split kernel's): A and B as the full plan places them, D never", "[tma][packing]") {
  // The odd shape: A, B and D all off 16 bytes; D is written with element stores, so not copied.
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> odd{4097, 4095, 4103, kA, 4103, kB, 4095,
                                                                kD,   4095, kD,   4095, 1.0f, 0.0f};
  const auto full = gemm::packing_plan<RowMajor, RowMajor, RowMajor>(odd);
  const auto inputs = gemm::input_packing_plan<RowMajor, RowMajor, RowMajor>(odd);
  const gemm::OperandsAsLines<RowMajor, RowMajor, RowMajor, decltype(odd)> lines(odd);
  expect_packed(inputs, true, true, false);
  CHECK(inputs.a.offset == full.a.offset);
  CHECK(inputs.b.offset == full.b.offset);
  CHECK(inputs.b.ld == full.b.ld);
  CHECK(inputs.bytes == full.d.offset);  // everything the full plan places before D
  CHECK(!inputs.inputs_tma());
  check_plan(inputs, {lines.a, lines.b});
  // Only D off: nothing to copy, no workspace.
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> d_off{64, 4096, 4096, kA, 4096, kB, 4096,
                                                                  kD, 4096, one_element_off(kD), 4096, 1.0f, 0.0f};
  const auto only_d = gemm::input_packing_plan<RowMajor, ColumnMajor, RowMajor>(d_off);
  CHECK(only_d.inputs_tma());
  CHECK(only_d.bytes == 0);
  // Only B off (decode: a few rows times W[N][K] with an odd K): B alone, at the start.
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> b_off{4, 4096, 4104, kA, 4104, one_element_off(kB), 4104,
                                                                  kD, 4096, kD, 4096, 1.0f, 0.0f};
  const auto only_b = gemm::input_packing_plan<RowMajor, ColumnMajor, RowMajor>(b_off);
  expect_packed(only_b, false, true, false);
  CHECK(only_b.b.offset == 0);
  CHECK(only_b.bytes == std::size_t(4096) * 4160 * 2);
}
