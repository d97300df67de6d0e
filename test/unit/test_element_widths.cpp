// Every byte count of the TMA families' launch comes from the element types: the tensor maps
// (extents, pitch, box), the stage tiles and their bytes, the realigning path's raw line slots and
// the packed path's pitches, computed here for 1-, 2- and 4-byte elements against numbers
// worked out by hand from the rules (a K tile is one 128-byte swizzled line; a box is one
// 128-byte line by the tile's rows; copies are padded to 128-byte pitches).
#include <catch2/catch.hpp>

#include <cstdint>

#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/gemm/tma/realigning_producer.hpp"
#include "tessera/gemm/tma/operand_tiles.hpp"
#include "tessera/gemm/tma/launch.hpp"
#include "tessera/gemm/tma/packing.hpp"
#include "tessera/gemm/wgmma/config.hpp"
#include "tessera/layout/matrix_layout.hpp"

using namespace tessera;
using namespace tessera::gemm;

namespace {

// One element size's expectations: the K tile (elements of one 128-byte line).
template <class T>
constexpr int kLine = 128 / int(sizeof(T));

template <class T>
void check_operand_maps() {
  INFO("element bytes " << sizeof(T));
  const T* base = reinterpret_cast<const T*>(std::uintptr_t(4096));
  constexpr int kK = kLine<T>;
  // K-major A (row-major M x K, lda elements apart): inner = K, outer = M, a box of one line
  // (the K tile) by the slice's rows.
  const auto a = tma_launch::operand_map_plan<true, kK, 64, T>(base, 1000, 3000, 3008);
  CHECK(a.element_bytes == int(sizeof(T)));
  CHECK(a.inner == 3000u);
  CHECK(a.outer == 1000u);
  CHECK(a.pitch_bytes == 3008u * sizeof(T));
  CHECK(a.box_inner == std::uint32_t(kK));
  CHECK(a.box_outer == 64u);
  CHECK(a.box_inner * sizeof(T) == 128u);  // exactly the 128-byte swizzle span
  CHECK(a.swizzle_128b);
  // MN-major B (row-major K x N): inner = N, outer = K, a box of one 128-byte line of N by
  // the K tile.
  const auto b = tma_launch::operand_map_plan<false, kK, 256, T>(base, 5000, 3000, 5008);
  CHECK(b.inner == 5000u);
  CHECK(b.outer == 3000u);
  CHECK(b.pitch_bytes == 5008u * sizeof(T));
  CHECK(b.box_inner == std::uint32_t(kLine<T>));
  CHECK(b.box_outer == std::uint32_t(kK));
  // D: the Hopper boxes (64 lines of 128 bytes either way), the Blackwell ones (32 rows).
  T* d = reinterpret_cast<T*>(std::uintptr_t(8192));
  using Hopper = tma_launch::DStoreBoxes<64, 0, 64, true>;
  using Blackwell = tma_launch::DStoreBoxes<32, 32, 0, false>;
  const auto dr = Hopper::plan<RowMajor>(d, 700, 900, 904);
  CHECK(dr.inner == 900u);
  CHECK(dr.outer == 700u);
  CHECK(dr.pitch_bytes == 904u * sizeof(T));
  CHECK(dr.box_inner == std::uint32_t(kLine<T>));
  CHECK(dr.box_outer == 64u);
  const auto dc = Hopper::plan<ColumnMajor>(d, 700, 900, 704);
  CHECK(dc.inner == 700u);
  CHECK(dc.outer == 900u);
  CHECK(dc.box_inner == std::uint32_t(kLine<T>));
  CHECK(dc.box_outer == 64u);
  CHECK(dc.swizzle_128b);
  const auto bc = Blackwell::plan<ColumnMajor>(d, 700, 900, 704);
  CHECK(bc.box_inner == 32u);
  CHECK(bc.box_outer == std::uint32_t(kLine<T>));
  CHECK_FALSE(bc.swizzle_128b);
  const auto br = Blackwell::plan<RowMajor>(d, 700, 900, 904);
  CHECK(br.box_inner == std::uint32_t(kLine<T>));
  CHECK(br.box_outer == 32u);
}

template <class T>
void check_stages_and_slots() {
  INFO("element bytes " << sizeof(T));
  constexpr int kK = kLine<T>;
  // A 128 x 256 tile, K-major A and MN-major B, a 2x1 cluster (B shared by two CTAs).
  using Ops = OperandTiles<T, T, true, false, 128, 256, kK, ClusterShape<2, 1>>;
  STATIC_REQUIRE(Ops::kElementBytesA == int(sizeof(T)));
  STATIC_REQUIRE(Ops::TileA::kBytes == 128 * 128);  // 128 rows x one 128-byte line
  STATIC_REQUIRE(Ops::TileB::kBytes == 256 * kK * int(sizeof(T)));
  STATIC_REQUIRE(Ops::TileB::kBytes == 256 * 128);  // K lines of 256 elements: 2 (16-bit) chunks
  STATIC_REQUIRE(Ops::TileB::kChunkBytes == kK * 128);
  STATIC_REQUIRE(Ops::kStageBytes == 128 * 128 + 256 * 128);
  STATIC_REQUIRE(Ops::kSliceRowsB == 128);
  // The realigning path's raw slots: each line's hull, one 16-byte word longer than the line.
  using Slots = RawLineSlots<OperandTiles<T, T, true, false, 128, 256, kK>, Sm90>;
  STATIC_REQUIRE(Slots::kRawLinesA == 128);
  STATIC_REQUIRE(Slots::kRawPitchA == 128 + 16);  // K tile = 128 bytes
  STATIC_REQUIRE(Slots::kRawLinesB == kK);
  STATIC_REQUIRE(Slots::kRawPitchB == 256 * int(sizeof(T)) + 16);
  STATIC_REQUIRE(Slots::kRawSlotBytes == 128 * 144 + kK * (256 * int(sizeof(T)) + 16));
}

template <class T>
void check_packing() {
  INFO("element bytes " << sizeof(T));
  // An odd leading dimension: the copy's pitch is the line rounded up to 128 bytes.
  const OperandLines odd{reinterpret_cast<const void*>(std::uintptr_t(4096)), 100, 1001, 1001, std::int64_t(sizeof(T))};
  CHECK(odd.tma_describable() == ((1001 * sizeof(T)) % 16 == 0));
  std::size_t cursor = 0;
  const PackedOperand p = gemm::detail::place(odd, cursor);
  if (!odd.tma_describable()) {
    CHECK(p.packed);
    CHECK(p.ld * std::int64_t(sizeof(T)) % 128 == 0);
    CHECK(p.ld >= 1001);
    CHECK(p.ld - 1001 < 128 / std::int64_t(sizeof(T)));
    CHECK(p.bytes == std::size_t(100) * std::size_t(p.ld) * sizeof(T));
  }
}

}  // namespace

TEST_CASE("tensor-map plans follow the element size (1, 2, 4 bytes)", "[tma][widths]") {
  check_operand_maps<std::uint8_t>();
  check_operand_maps<bfloat16_t>();
  check_operand_maps<float>();
}

TEST_CASE("stage tiles and raw line slots follow the element size (1, 2, 4 bytes)", "[tma][widths]") {
  check_stages_and_slots<std::uint8_t>();
  check_stages_and_slots<half_t>();
  check_stages_and_slots<float>();
}

TEST_CASE("packed copies pad lines to 128 bytes whatever the element size", "[tma][widths]") {
  check_packing<std::uint8_t>();
  check_packing<half_t>();
  check_packing<float>();
}

TEST_CASE("a configuration's tensor maps read its own element sizes", "[tma][widths]") {
  // The wgmma default with fp32 D: A and B maps in 2-byte elements, D's in 4-byte ones.
  using Config = WgmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor>;
  alignas(16) static bfloat16_t a[16], b[16];
  alignas(16) static float d[16];
  tma_launch::Args<Config> args{300, 500, 1000, a, 1000, b, 1000, nullptr, 500, d, 504, 1.0f, 0.0f};
  const auto ma = tma_launch::map_a_plan<Config>(args);
  CHECK(ma.element_bytes == 2);
  CHECK(ma.pitch_bytes == 2000u);
  CHECK(ma.box_inner == 64u);
  CHECK(ma.box_outer == std::uint32_t(Config::kSliceRowsA));
  const auto mb = tma_launch::map_b_plan<Config>(args);
  CHECK(mb.inner == 1000u);  // K-major B (column-major K x N): K contiguous
  CHECK(mb.outer == 500u);
  const auto md = tma_launch::DStoreBoxes<64, 0, 64, true>::plan<RowMajor>(args.D, args.M, args.N, args.ldd);
  CHECK(md.element_bytes == 4);
  CHECK(md.pitch_bytes == 504u * 4u);
  CHECK(md.box_inner == 32u);  // 128 bytes of floats
}
