// Host tests of the sweep suite's shapes (benchmark/sweep_shapes.hpp): the same list for the
// same seed, a different one for another, and the mix the suite promises.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>

#include "../../benchmark/sweep_shapes.hpp"

using tessera::bench::SweepShape;
using tessera::bench::sweep_shapes;

TEST_CASE("sweep shapes: seeded, and the mix of M, widths, shards, odd sizes, beta and layouts", "[bench][sweep]") {
  const auto a = sweep_shapes(1, 300), b = sweep_shapes(1, 300), c = sweep_shapes(2, 300);
  REQUIRE(a.size() == 300);
  int same_as_other_seed = 0, beta1 = 0, b_row = 0, odd = 0, small_m = 0, large_m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].label() == b[i].label());
    same_as_other_seed += a[i].label() == c[i].label();
    const SweepShape& s = a[i];
    INFO(s.label());
    REQUIRE(s.M >= 1);
    REQUIRE(s.M <= 16384);
    for (const std::int64_t x : {s.N, s.K}) {
      REQUIRE(x >= 768 / 8);
      REQUIRE(x <= 28672 + 15);
      bool from_width = false;
      for (const std::int64_t w : tessera::bench::kSweepWidths) {
        for (const std::int64_t shard : {1, 2, 4, 8}) {
          from_width = from_width || x == w / shard || (x % 2 == 1 && x - w / shard >= 1 && x - w / shard <= 15);
        }
      }
      REQUIRE(from_width);
      odd += x % 2;
    }
    beta1 += s.beta1;
    b_row += s.b_row_major;
    small_m += s.M <= 16;
    large_m += s.M >= 4096;
  }
  CHECK(same_as_other_seed < 10);
  // Binomial bounds far outside the noise for 300 draws (p = 1/4, 1/5, ~1/10 per extent).
  CHECK(beta1 > 45);
  CHECK(beta1 < 110);
  CHECK(b_row > 30);
  CHECK(b_row < 95);
  CHECK(odd > 25);
  CHECK(odd < 100);
  // Log-uniform M: about 29% at most 16, about 14% at least 4096.
  CHECK(small_m > 50);
  CHECK(large_m > 15);
}
