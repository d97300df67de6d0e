// Built by the install tests outside Tessera's tree: includes a few public headers,
// exercises them, and prints lines run_consumer.cmake checks. Exit code 0 only if every
// check held.
#include <cstdio>
#include <cstring>

#include "tessera/arch/arch.hpp"
#include "tessera/core/math.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/status.hpp"
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/layout/swizzle.hpp"

static_assert(__cplusplus >= 201703L, "tessera::tessera must bring C++17 to its users");

int main() {
  int failures = 0;
  const auto expect = [&failures](bool ok, const char* what) {
    if (!ok) {
      std::printf("check failed: %s\n", what);
      ++failures;
    }
  };

  const char* name = tessera::status_name(tessera::Status::kErrorLeadingDimA);
  std::printf("status_name(kErrorLeadingDimA) = %s\n", name);
  expect(std::strcmp(name, "kErrorLeadingDimA") == 0, "status_name");
  expect(!tessera::ok(tessera::Status::kErrorLeadingDimA), "ok()");

  expect(tessera::RowMajor::offset(2, 3, 10) == 23, "RowMajor::offset");
  expect(tessera::ColumnMajor::min_ld(7, 5) == 7, "ColumnMajor::min_ld");
  expect(tessera::ceil_div(10, 4) == 3, "ceil_div");
  expect(tessera::GemmShape<128, 64, 8>::kMN == 128 * 64, "GemmShape");
  expect(tessera::Sm90::kWarpSize == 32, "Sm90");

  using Tile = tessera::SwizzledTile<32, 32, 4, tessera::Swizzle<5, 0, 5>>;
  expect(Tile::offset(3, 1) == 3 * 32 + (1 ^ 3), "SwizzledTile");

  std::printf("tessera consumer: %s\n", failures == 0 ? "OK" : "FAILED");
  return failures == 0 ? 0 : 1;
}
