// XOR swizzles for shared-memory (LDS) tiles, and a row-major tile that applies one.
//
// Why: a tile stored row-major with rows of 128 bytes or more puts the same column of
// every row in the same bank, so a warp that walks down a column (a transposed store,
// an ldmatrix / MFMA-operand read) serialises. XOR-ing some row bits into the column
// bits spreads that column over all banks without spending memory on padding, and,
// because it only permutes offsets inside small aligned blocks, row-wise accesses stay
// as cheap as before. test/unit/test_swizzle.cpp counts the conflicts it removes and
// benchmark/notes/swizzle.md records the counts.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"
#include "tessera/core/math.hpp"

namespace tessera {

// Swizzle<BBits, MBase, SShift> (CuTe's Swizzle<B, M, S> for S > 0):
//
//   apply(x) = x ^ ((x >> SShift) & (((1 << BBits) - 1) << MBase))
//
// i.e. the BBits bits of x starting at bit MBase + SShift (the "source" bits, usually
// the low bits of the row) are XOR-ed into the BBits bits starting at bit MBase (the
// "target" bits, usually which 2^MBase-unit chunk of the row). Conventions:
// - x is a linear, non-negative offset in whatever unit the caller chooses; every
//   Tessera user (SwizzledTile, BankSwizzle) passes ELEMENT offsets, not bytes;
// - bits below MBase are never changed: aligned runs of 2^MBase offsets stay
//   contiguous and aligned, which is what lets a lane keep one vector access;
// - SShift >= BBits keeps source and target bits disjoint, so the source bits come out
//   unchanged and applying the swizzle twice undoes it (apply is an involution, hence
//   a bijection: no two offsets collide);
// - only bits below MBase + BBits change, so an offset never leaves its aligned block
//   of kBlock = 2^(MBase + BBits) units; a tile of whole blocks is mapped onto itself.
template <int BBits, int MBase, int SShift>
struct Swizzle {
  static_assert(BBits >= 0 && MBase >= 0, "Swizzle: BBits and MBase must be >= 0");
  static_assert(SShift >= BBits,
                "Swizzle: SShift must be >= BBits; otherwise the bits read and the bits "
                "written overlap and apply() stops being its own inverse");
  static_assert(MBase + SShift + BBits <= 30,
                "Swizzle: the source bits must lie below bit 30 so int offsets work");

  static constexpr int kBits = BBits;
  static constexpr int kBase = MBase;
  static constexpr int kShift = SShift;
  // Bits that apply() may change, and the bits it reads to decide how.
  static constexpr std::uint32_t kTargetMask = ((1u << BBits) - 1u) << MBase;
  static constexpr std::uint32_t kSourceMask = kTargetMask << SShift;
  // Offsets never leave their aligned block of kBlock units.
  static constexpr int kBlock = 1 << (MBase + BBits);
  // The pattern repeats every kPeriod units (for a row-major tile: every few rows).
  static constexpr int kPeriod = 1 << (MBase + SShift + BBits);
  static constexpr bool kIsIdentity = (BBits == 0);

  template <class Int>
  TESSERA_HOST_DEVICE static constexpr Int apply(Int offset) {
    return offset ^ static_cast<Int>((offset >> SShift) & static_cast<Int>(kTargetMask));
  }
  template <class Int>
  TESSERA_HOST_DEVICE constexpr Int operator()(Int offset) const {
    return apply(offset);
  }
};

using NoSwizzle = Swizzle<0, 0, 0>;

// Two XOR swizzles applied one after the other. When neither's source bits are target
// bits of either, each leaves the other's sources alone, so the pair is again an
// involution (a bijection) that keeps runs of 2^kBase units contiguous. Used where one
// swizzle serves one access pattern and a second, on higher row bits, serves another
// (mfma/smem_plan.hpp: MFMA operand reads, and writes that transpose in registers).
template <class First, class Second>
struct SwizzlePair {
  static_assert(((First::kSourceMask | Second::kSourceMask) & (First::kTargetMask | Second::kTargetMask)) == 0,
                "SwizzlePair: a source bit of one swizzle is a target bit of the other; the pair would "
                "not be its own inverse");
  static constexpr int kBase = const_min(First::kIsIdentity ? 30 : First::kBase, Second::kIsIdentity ? 30 : Second::kBase);
  static constexpr std::uint32_t kTargetMask = First::kTargetMask | Second::kTargetMask;
  static constexpr std::uint32_t kSourceMask = First::kSourceMask | Second::kSourceMask;
  static constexpr int kBlock = const_max(First::kBlock, Second::kBlock);
  static constexpr int kPeriod = const_max(First::kPeriod, Second::kPeriod);
  static constexpr bool kIsIdentity = First::kIsIdentity && Second::kIsIdentity;

  template <class Int>
  TESSERA_HOST_DEVICE static constexpr Int apply(Int offset) {
    return Second::apply(First::apply(offset));
  }
  template <class Int>
  TESSERA_HOST_DEVICE constexpr Int operator()(Int offset) const {
    return apply(offset);
  }
};

namespace detail {

// Largest power of two that divides x (x > 0).
TESSERA_HOST_DEVICE constexpr int pow2_factor(int x) { return x & -x; }

template <int RowElements, int ElementBytes, int AccessBytes, int WindowBytes>
struct BankSwizzleFor {
  static_assert(is_pow2(ElementBytes) && is_pow2(AccessBytes) && is_pow2(WindowBytes),
                "BankSwizzle: element, access and window sizes must be powers of two");
  static_assert(is_pow2(RowElements),
                "BankSwizzle: rows must hold a power-of-two number of elements (pad the "
                "tile instead of swizzling it otherwise)");
  static_assert(AccessBytes >= ElementBytes,
                "BankSwizzle: a lane must access at least one whole element");
  static_assert(RowElements * ElementBytes >= AccessBytes,
                "BankSwizzle: a row must be at least one access wide");
  static_assert(WindowBytes >= AccessBytes, "BankSwizzle: the bank window must hold an access");

  static constexpr int kRowBytes = RowElements * ElementBytes;
  // The unit that must stay contiguous: one lane's access, in elements.
  static constexpr int kM = log2_floor(AccessBytes / ElementBytes);
  // How many such units one bank window holds from a single row: that many rows can
  // then be told apart. Rows shorter than the window share it, so fewer bits are
  // needed (the row's own position in the window already separates them).
  static constexpr int kB = log2_floor(const_min(kRowBytes, WindowBytes) / AccessBytes);
  // The source bits start at the first row bit that changes the window a row lands in
  // (rows narrower than the window: skip the bits that pick a slot inside it).
  static constexpr int kS = log2_floor(const_max(kRowBytes, WindowBytes) / ElementBytes) - kM;
  using type = Swizzle<kB, kM, kS>;
};

}  // namespace detail

// The swizzle for a row-major tile whose rows hold RowElements elements of
// ElementBytes, read or written AccessBytes per lane: it makes any WindowBytes /
// AccessBytes consecutive rows, accessed at one column, hit distinct banks, while an
// access of AccessBytes at an AccessBytes-aligned column stays one contiguous vector.
// WindowBytes is what one conflict-free pass of the banks covers: 32 banks x 4 bytes on
// NVIDIA and on the AMD gfx9 LDS. Examples (checked in test_swizzle.cpp):
//   BankSwizzle<64, 2, 16>  = Swizzle<3,3,3>  fp16, 128-byte rows, 16-byte accesses
//   BankSwizzle<32, 4, 4>   = Swizzle<5,0,5>  fp32 [32][32], scalar column reads
//   BankSwizzle<128, 4, 16> = Swizzle<3,2,5>  fp32 [8][128] FMA A tile, float4 reads
template <int RowElements, int ElementBytes, int AccessBytes, int WindowBytes = 128>
using BankSwizzle =
    typename detail::BankSwizzleFor<RowElements, ElementBytes, AccessBytes, WindowBytes>::type;

// A Rows x Cols row-major tile of ElementBytes-sized elements in shared memory, with
// element offsets passed through Swz. Cols is the row pitch: there is no padding (use
// a swizzle instead, or make Cols the padded width).
template <int Rows, int Cols, int ElementBytes, class Swz = NoSwizzle>
struct SwizzledTile {
  static_assert(Rows > 0 && Cols > 0 && ElementBytes > 0, "SwizzledTile: empty tile");
  static_assert((static_cast<std::int64_t>(Rows) * Cols * ElementBytes) < (std::int64_t(1) << 31),
                "SwizzledTile: the tile must span fewer than 2^31 bytes");
  static_assert((Rows * Cols) % Swz::kBlock == 0,
                "SwizzledTile: the tile must hold whole swizzle blocks of 2^(MBase+BBits) "
                "elements, or the swizzle would move offsets past its end");

  using SwizzleType = Swz;
  static constexpr int kRows = Rows;
  static constexpr int kCols = Cols;
  static constexpr int kElementBytes = ElementBytes;
  static constexpr int kElements = Rows * Cols;
  static constexpr int kBytes = Rows * Cols * ElementBytes;
  // The widest vector, in elements, that a lane may load or store at a column that is
  // a multiple of it and still find contiguous after swizzling: no wider than the run
  // the swizzle leaves alone, and a divisor of the row pitch so every row start is
  // aligned to it.
  static constexpr int kVectorElements =
      Swz::kIsIdentity ? detail::pow2_factor(Cols)
                       : const_min(detail::pow2_factor(Cols), 1 << Swz::kBase);

  TESSERA_HOST_DEVICE static constexpr int offset(int row, int col) {
    return Swz::apply(row * Cols + col);
  }
  TESSERA_HOST_DEVICE static constexpr int byte_offset(int row, int col) {
    return offset(row, col) * ElementBytes;
  }
};

}  // namespace tessera
