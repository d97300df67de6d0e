#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "tessera/gemm/can_implement.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {
// A valid problem over real (host) buffers, so that every check starts from "success"
// and each test breaks exactly one thing.
struct Problem {
  std::vector<float> a, b, c, d;
  Arguments<float, float, float> args;
  Problem(std::int64_t M, std::int64_t N, std::int64_t K)
      : a(std::size_t(M * K + 8)), b(std::size_t(K * N + 8)), c(std::size_t(M * N + 8)),
        d(std::size_t(M * N + 8)) {
    args = {M, N, K, a.data(), K, b.data(), N, c.data(), N, d.data(), N, 1.0f, 1.0f};
  }
};
template <class LA = RowMajor, class LB = RowMajor, class LC = RowMajor>
Status check(const Arguments<float, float, float>& a, OperandRequirements r = {}) {
  return can_implement<LA, LB, LC>(a, r);
}
}  // namespace

TEST_CASE("can_implement accepts valid problems, including empty ones", "[gemm][args]") {
  Problem p(33, 17, 9);
  CHECK(check(p.args) == Status::kSuccess);
  p.args.M = 0;  // D = beta*C over an empty matrix: a valid no-op
  CHECK(check(p.args) == Status::kSuccess);
  Problem q(5, 6, 0);  // K = 0: D = beta * C, A and B are never read
  q.args.A = nullptr;
  q.args.B = nullptr;
  CHECK(check(q.args) == Status::kErrorLeadingDimA);  // row-major A: lda >= max(1, K)
  q.args.lda = 1;
  CHECK(check(q.args) == Status::kSuccess);
  q.args.beta = 0.0f;  // beta = 0: C is not read either
  q.args.C = nullptr;
  q.args.ldc = 0;
  CHECK(check(q.args) == Status::kSuccess);
}

TEST_CASE("can_implement names each bad argument", "[gemm][args]") {
  Problem p(33, 17, 9);
  auto with = [&](auto mutate) {
    auto a = p.args;
    mutate(a);
    return check(a);
  };
  CHECK(with([](auto& a) { a.M = -1; }) == Status::kErrorNegativeSize);
  CHECK(with([](auto& a) { a.N = -1; }) == Status::kErrorNegativeSize);
  CHECK(with([](auto& a) { a.K = -5; }) == Status::kErrorNegativeSize);
  CHECK(with([](auto& a) { a.lda = 8; }) == Status::kErrorLeadingDimA);   // row-major A: lda >= K
  CHECK(with([](auto& a) { a.ldb = 16; }) == Status::kErrorLeadingDimB);  // ldb >= N
  CHECK(with([](auto& a) { a.ldc = 16; }) == Status::kErrorLeadingDimC);
  CHECK(with([](auto& a) { a.ldd = 0; }) == Status::kErrorLeadingDimD);
  CHECK(with([](auto& a) { a.A = nullptr; }) == Status::kErrorNullA);
  CHECK(with([](auto& a) { a.B = nullptr; }) == Status::kErrorNullB);
  CHECK(with([](auto& a) { a.C = nullptr; }) == Status::kErrorNullC);
  CHECK(with([](auto& a) { a.D = nullptr; }) == Status::kErrorNullD);
  // ldc is not checked when C is not read.
  CHECK(with([](auto& a) { a.beta = 0.0f; a.ldc = 1; a.C = nullptr; }) == Status::kSuccess);
}

TEST_CASE("leading dimensions follow each layout", "[gemm][args]") {
  Problem p(33, 17, 9);
  auto a = p.args;
  a.lda = 33;  // column-major A needs lda >= M = 33
  a.ldb = 9;   // column-major B needs ldb >= K = 9
  CHECK(check<ColumnMajor, ColumnMajor>(a) == Status::kSuccess);
  a.lda = 32;
  CHECK(check<ColumnMajor, ColumnMajor>(a) == Status::kErrorLeadingDimA);
  a.lda = 33;
  a.ldb = 8;
  CHECK(check<ColumnMajor, ColumnMajor>(a) == Status::kErrorLeadingDimB);
  auto c = p.args;
  c.ldc = c.ldd = 33;  // column-major C/D: ld >= M
  CHECK(check<RowMajor, RowMajor, ColumnMajor>(c) == Status::kSuccess);
  c.ldd = 17;
  CHECK(check<RowMajor, RowMajor, ColumnMajor>(c) == Status::kErrorLeadingDimD);
}

TEST_CASE("alignment a configuration needs is enforced per operand", "[gemm][args]") {
  Problem p(32, 32, 32);
  OperandRequirements need16;
  need16.align_a = need16.align_b = need16.align_c = need16.align_d = 16;
  auto a = p.args;
  // std::vector<float> data is at least 16-byte aligned with glibc's malloc.
  REQUIRE(reinterpret_cast<std::uintptr_t>(p.a.data()) % 16 == 0);
  CHECK(check(a, need16) == Status::kSuccess);
  a.A = p.a.data() + 1;  // 4-byte aligned only
  CHECK(check(a, need16) == Status::kErrorMisalignedA);
  CHECK(check(a) == Status::kSuccess);  // natural alignment is enough by default
  a = p.args;
  a.ldb = 33;  // rows after the first lose 16-byte alignment
  CHECK(check(a, need16) == Status::kErrorMisalignedB);
  a = p.args;
  a.D = reinterpret_cast<float*>(reinterpret_cast<char*>(p.d.data()) + 2);  // not even 4
  CHECK(check(a) == Status::kErrorMisalignedD);
  a = p.args;
  a.C = p.c.data() + 2;
  CHECK(check(a, need16) == Status::kErrorMisalignedC);
}

TEST_CASE("32-bit offset range is checked only for kernels without a 64-bit path", "[gemm][args]") {
  // Pointers are never dereferenced by can_implement: a huge logical problem over a
  // dummy buffer exercises the span arithmetic.
  float dummy[4] = {};
  Arguments<float, float, float> a{1, 1, 1, dummy, 1, dummy, 1, dummy, 1, dummy, 1, 1.f, 0.f};
  OperandRequirements only32;
  only32.offsets_32bit_only = true;
  CHECK(check(a, only32) == Status::kSuccess);
  a.M = 1 << 16;
  a.K = 1 << 13;  // A spans 2^29 floats = 2^31 bytes: one byte too many
  a.lda = a.K;
  CHECK(check(a, only32) == Status::kErrorOffsetOverflow);
  CHECK(check(a) == Status::kSuccess);
  a.K = (1 << 13) - 1;
  a.lda = a.K;
  CHECK(check(a, only32) == Status::kSuccess);
  CHECK(operand_bytes<RowMajor, float>(3, 5, 7) == (2 * 7 + 4 + 1) * 4);
  CHECK(operand_bytes<ColumnMajor, float>(3, 5, 7) == (4 * 7 + 2 + 1) * 4);
  CHECK(operand_bytes<RowMajor, float>(0, 5, 7) == 0);
}
