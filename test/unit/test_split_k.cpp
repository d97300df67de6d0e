#include <catch2/catch.hpp>

#include "tessera/gemm/scheduler/split_k.hpp"

using tessera::gemm::choose_split_k;
using tessera::gemm::SplitK;

TEST_CASE("split-K is used only when the tiles cannot fill the GPU", "[gemm][splitk]") {
  CHECK(choose_split_k(512, 256, 132).splits == 1);   // 4096^3 in 128x256 tiles
  CHECK(choose_split_k(132, 256, 132).splits == 1);
  CHECK(choose_split_k(8, 1024, 132).splits == 16);   // 512x512x16384: 132/8 = 16 slices
  CHECK(choose_split_k(32, 64, 132).splits == 4);     // 1024^3: 4 slices, 128 blocks
  CHECK(choose_split_k(128, 128, 132).splits == 1);   // 2048^3: 2 slices would need 2 waves
  CHECK(choose_split_k(66, 128, 132).splits == 2);    // exactly two slices fit
  CHECK(choose_split_k(1, 4, 132).splits == 1);       // too shallow to split
  CHECK(choose_split_k(1, 16, 132).splits == 2);      // two slices of 8 K tiles
  CHECK(choose_split_k(1, 100000, 132).splits == 32); // capped
  CHECK(choose_split_k(0, 100, 132).splits == 1);
  CHECK(choose_split_k(5, 0, 132).splits == 1);
}

TEST_CASE("split-K slices cover K exactly, none empty", "[gemm][splitk]") {
  for (long tiles = 1; tiles < 140; tiles += 7) {
    for (long k_tiles = 1; k_tiles < 3000; k_tiles = k_tiles * 3 / 2 + 1) {
      const SplitK s = choose_split_k(tiles, k_tiles, 132);
      REQUIRE(s.splits >= 1);
      REQUIRE(s.k_tiles_per_split >= 1);
      // Every slice starts inside K, the slices together cover all of it.
      REQUIRE(long(s.splits - 1) * s.k_tiles_per_split < k_tiles);
      REQUIRE(long(s.splits) * s.k_tiles_per_split >= k_tiles);
      if (s.splits > 1) {
        REQUIRE(s.k_tiles_per_split >= 8);  // slices at least min_k_tiles deep
        REQUIRE(tiles * s.splits <= 132);  // one wave
      }
    }
  }
}
