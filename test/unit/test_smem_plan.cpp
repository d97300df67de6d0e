#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "tessera/memory/smem_plan.hpp"

using namespace tessera;
using namespace tessera::smem;

namespace {

// ---- buffers of a 128x128 tile kernel (3 stages, BK 32, f16 operands, f32 C) ----------
struct StA : Buffer<3 * 128 * 32 * 2> { static constexpr const char* kName = "A stages"; };
struct StB : Buffer<3 * 128 * 32 * 2> { static constexpr const char* kName = "B stages"; };
struct CTile : Buffer<128 * 128 * 4> { static constexpr const char* kName = "C tile"; };
constexpr std::size_t kStages = StA::kBytes + StB::kBytes;  // 49152
static_assert(CTile::kBytes > kStages, "C alone must be the larger side, so max() is visible");

// Every plan must satisfy these, whatever the outline: no two buffers that exist at the
// same time share a byte, offsets are aligned, and the total is between the bounds.
template <class P>
constexpr bool plan_is_sound() {
  for (std::size_t i = 0; i < P::kBufferCount; ++i) {
    const std::size_t begin = P::buffer_offset(i), end = begin + P::buffer_bytes(i);
    if (begin % P::buffer_align(i) != 0 || end > P::kTotalBytes) return false;
    for (std::size_t j = 0; j < P::kBufferCount; ++j) {
      const std::size_t other_begin = P::buffer_offset(j), other_end = other_begin + P::buffer_bytes(j);
      const bool overlap = begin < other_end && other_begin < end;
      if (i != j && P::buffers_interfere(i, j) && overlap) return false;
    }
  }
  return P::kLowerBoundBytes <= P::kTotalBytes && P::kTotalBytes <= P::kUnsharedBytes;
}

// The same checks at run time, one CHECK per fact, so a failure says which buffers.
template <class P>
void check_plan_is_sound() {
  INFO("plan with " << P::kBufferCount << " buffers, total " << P::kTotalBytes);
  CHECK(P::kLowerBoundBytes <= P::kTotalBytes);
  CHECK(P::kTotalBytes <= P::kUnsharedBytes);
  for (std::size_t i = 0; i < P::kBufferCount; ++i) {
    INFO("buffer " << P::buffer_name(i) << " at " << P::buffer_offset(i));
    CHECK(P::buffer_offset(i) % P::buffer_align(i) == 0);
    CHECK(P::buffer_offset(i) + P::buffer_bytes(i) <= P::kTotalBytes);
    for (std::size_t j = i + 1; j < P::kBufferCount; ++j) {
      if (!P::buffers_interfere(i, j)) continue;
      INFO("interferes with " << P::buffer_name(j) << " at " << P::buffer_offset(j));
      const bool i_first = P::buffer_offset(i) + P::buffer_bytes(i) <= P::buffer_offset(j);
      const bool j_first = P::buffer_offset(j) + P::buffer_bytes(j) <= P::buffer_offset(i);
      CHECK((i_first || j_first));
    }
  }
  CHECK(plan_is_sound<P>());
}

// ---- 1. non-persistent kernel -----------------------------------------------------------
using MainLoop = Loop<Step<Read<StA, StB>, Write<StA, StB>>>;
using NonPersistentBody = Seq<Step<Overwrite<StA, StB>>,  // prologue fills every stage
                              MainLoop,                   // consume one stage, refill it
                              Step<Overwrite<CTile>>,     // epilogue stages C...
                              Step<Read<CTile>>>;         // ...and stores it
using NonPersistent = Plan<Buffers<StA, StB, CTile>, NonPersistentBody>;
static_assert(NonPersistent::kTotalBytes == CTile::kBytes, "C aliases the stages");
static_assert(NonPersistent::kLowerBoundBytes == CTile::kBytes, "");
static_assert(NonPersistent::kUnsharedBytes == kStages + CTile::kBytes, "");
static_assert(!NonPersistent::interfere<StA, CTile>() && !NonPersistent::interfere<StB, CTile>(), "");
static_assert(NonPersistent::interfere<StA, StB>(), "");
static_assert(plan_is_sound<NonPersistent>(), "");

// ---- 2. persistent, warp-specialised ----------------------------------------------------
using Producer = Seq<Loop<Step<Write<StA, StB>>>>;
using Consumer = Seq<Loop<Step<Read<StA, StB>>>, Step<Overwrite<CTile>>, Step<Read<CTile>>>;
using Persistent = Plan<Buffers<StA, StB, CTile>, Loop<Parallel<Producer, Consumer>>>;
static_assert(Persistent::kTotalBytes == kStages + CTile::kBytes, "producer and consumer run at once");
static_assert(Persistent::kLowerBoundBytes == kStages + CTile::kBytes, "");
static_assert(Persistent::interfere<StA, CTile>() && Persistent::interfere<StB, CTile>(), "");
static_assert(plan_is_sound<Persistent>(), "");

// ---- 3. batched: an outer loop around the whole non-persistent body ---------------------
using Batched = Plan<Buffers<StA, StB, CTile>, Loop<NonPersistentBody>>;
static_assert(Batched::kTotalBytes == CTile::kBytes, "the outer loop does not extend the lifetimes");
static_assert(Batched::kLowerBoundBytes == CTile::kBytes, "");
static_assert(!Batched::interfere<StA, CTile>(), "");
static_assert(plan_is_sound<Batched>(), "");

// ---- 4. stream-K (the TVM write-up's numbers) -------------------------------------------
struct SkA : Buffer<16640 * 2> { static constexpr const char* kName = "A stages (f16)"; };
struct SkB : Buffer<32768 * 1> { static constexpr const char* kName = "B stages (int8)"; };
struct SkReduction : Buffer<65536 * 2> { static constexpr const char* kName = "reduction (f16)"; };
struct SkC : Buffer<1024 * 2> { static constexpr const char* kName = "C tile (f16)"; };
using StreamKUnit = Seq<Step<Overwrite<SkA, SkB>>,
                        Loop<Step<Read<SkA, SkB>, Write<SkA, SkB>>>,              // K loop
                        Loop<Step<Overwrite<SkReduction>>, Step<Read<SkReduction>>>,  // fix-up
                        Step<Overwrite<SkC>>, Step<Read<SkC>>>;
using StreamK = Plan<Buffers<SkA, SkB, SkReduction, SkC>, Loop<StreamKUnit>>;  // persistent over work units
static_assert(StreamK::kTotalBytes == 131072, "");
static_assert(StreamK::kLowerBoundBytes == 131072, "");
static_assert(StreamK::kUnsharedBytes == 199168, "");
static_assert(!StreamK::interfere<SkA, SkReduction>() && !StreamK::interfere<SkReduction, SkC>(), "");
static_assert(plan_is_sound<StreamK>(), "");

}  // namespace

TEST_CASE("non-persistent kernel: the C tile aliases the stages", "[smem]") {
  using P = NonPersistent;
  CHECK(P::kTotalBytes == std::max(kStages, CTile::kBytes));
  CHECK(P::kLowerBoundBytes == P::kTotalBytes);
  CHECK(P::kUnsharedBytes == kStages + CTile::kBytes);
  CHECK(P::kPointCount == 4);
  CHECK_FALSE(P::interfere<StA, CTile>());
  CHECK(P::interfere<StA, StB>());
  // Stages exist from the prologue through the main loop, C only in the epilogue.
  CHECK(P::live_at<StA>(0));
  CHECK(P::live_at<StA>(1));
  CHECK_FALSE(P::live_at<StA>(2));
  CHECK_FALSE(P::live_at<CTile>(1));
  CHECK(P::live_at<CTile>(2));
  CHECK(P::live_at<CTile>(3));
  check_plan_is_sound<P>();
}

TEST_CASE("persistent warp-specialised kernel: nothing aliases", "[smem]") {
  using P = Persistent;
  CHECK(P::kTotalBytes == kStages + CTile::kBytes);
  CHECK(P::kLowerBoundBytes == P::kTotalBytes);
  CHECK(P::kPointCount == 1);  // a Parallel scope is one program point
  CHECK(P::interfere<StA, CTile>());
  CHECK(P::interfere<StB, CTile>());
  CHECK(P::interfere<StA, StB>());
  check_plan_is_sound<P>();
}

TEST_CASE("batched GEMM: an outer loop keeps the stages and C apart in time", "[smem]") {
  using P = Batched;
  CHECK(P::kTotalBytes == std::max(kStages, CTile::kBytes));  // TVM's rule gives stages + C
  CHECK(P::kLowerBoundBytes == P::kTotalBytes);
  CHECK_FALSE(P::interfere<StA, CTile>());
  CHECK_FALSE(P::interfere<StB, CTile>());
  CHECK(P::offset<CTile>() < P::offset<StA>() + StA::kBytes);  // really shares bytes
  check_plan_is_sound<P>();
}

TEST_CASE("stream-K: total equals the lower bound (131072 of 199168 bytes)", "[smem]") {
  using P = StreamK;
  CHECK(P::kTotalBytes == 131072);
  CHECK(P::kLowerBoundBytes == 131072);
  CHECK(P::kUnsharedBytes == 199168);
  CHECK(P::interfere<SkA, SkB>());
  CHECK_FALSE(P::interfere<SkA, SkReduction>());
  CHECK_FALSE(P::interfere<SkB, SkReduction>());
  CHECK_FALSE(P::interfere<SkReduction, SkC>());
  CHECK_FALSE(P::interfere<SkA, SkC>());
  check_plan_is_sound<P>();
}

namespace {
struct X : Buffer<4096> { static constexpr const char* kName = "X"; };
struct Y : Buffer<4096> { static constexpr const char* kName = "Y"; };
struct Z : Buffer<1024> { static constexpr const char* kName = "Z"; };
}  // namespace

TEST_CASE("a partial Write keeps a lifetime going, an Overwrite ends it", "[smem]") {
  using Partial = Plan<Buffers<X, Y>, Seq<Step<Overwrite<X>>, Step<Overwrite<Y>>, Step<Read<Y>>, Step<Write<X>>,
                                          Step<Read<X>>>>;
  using Whole = Plan<Buffers<X, Y>, Seq<Step<Overwrite<X>>, Step<Overwrite<Y>>, Step<Read<Y>>, Step<Overwrite<X>>,
                                        Step<Read<X>>>>;
  STATIC_REQUIRE(Partial::interfere<X, Y>());
  STATIC_REQUIRE(Partial::kTotalBytes == X::kBytes + Y::kBytes);
  STATIC_REQUIRE_FALSE(Whole::interfere<X, Y>());
  STATIC_REQUIRE(Whole::kTotalBytes == X::kBytes);
  check_plan_is_sound<Partial>();
  check_plan_is_sound<Whole>();
}

TEST_CASE("a loop-carried read is live across that loop's back edge only", "[smem]") {
  // X is read at the top of the body and produced again before Y is used: that value is
  // read by the next iteration, so X exists across the back edge and during Y's use.
  using Carried = Plan<Buffers<X, Y>, Seq<Step<Overwrite<X>>, Loop<Step<Read<X>>, Step<Overwrite<X>>,
                                                                  Step<Overwrite<Y>>, Step<Read<Y>>>>>;
  // The same steps, X produced before it is read in each iteration: nothing crosses.
  using Local = Plan<Buffers<X, Y>, Loop<Step<Overwrite<X>>, Step<Read<X>>, Step<Overwrite<Y>>, Step<Read<Y>>>>;
  // A carried value of an inner loop does not leak into the rest of the outer loop.
  using Nested = Plan<Buffers<X, Y>, Loop<Step<Overwrite<X>>, Loop<Step<Read<X>>, Step<Write<X>>>,
                                          Step<Overwrite<Y>>, Step<Read<Y>>>>;
  STATIC_REQUIRE(Carried::interfere<X, Y>());
  STATIC_REQUIRE_FALSE(Local::interfere<X, Y>());
  STATIC_REQUIRE_FALSE(Nested::interfere<X, Y>());
  STATIC_REQUIRE(Nested::kTotalBytes == 4096);
  check_plan_is_sound<Carried>();
  check_plan_is_sound<Local>();
  check_plan_is_sound<Nested>();
}

TEST_CASE("a Parallel scope holds everything its branches touch, and what lives across it", "[smem]") {
  using P = Plan<Buffers<X, Y, Z>, Seq<Step<Overwrite<Z>>, Parallel<Seq<Step<Overwrite<X>>, Step<Read<X>>>,
                                                                 Seq<Step<Overwrite<Y>>, Step<Read<Y>>>>,
                                        Step<Read<Z>>>>;
  STATIC_REQUIRE(P::interfere<X, Y>());
  STATIC_REQUIRE(P::interfere<X, Z>());
  STATIC_REQUIRE(P::kTotalBytes == X::kBytes + Y::kBytes + Z::kBytes);
  check_plan_is_sound<P>();

  // A branch that produces X before reading it does not need X's older value, so X is
  // free before the scope; a branch that reads X first does.
  using ProducedInside = Plan<Buffers<X, Z>, Seq<Step<Overwrite<Z>>, Step<Read<Z>>,
                                                 Parallel<Seq<Step<Overwrite<X>>, Step<Read<X>>>, Step<Write<X>>>>>;
  using ReadFirst = Plan<Buffers<X, Z>, Seq<Step<Overwrite<Z>>, Step<Read<Z>>,
                                            Parallel<Seq<Step<Read<X>>, Step<Overwrite<X>>>, Step<Write<X>>>>>;
  STATIC_REQUIRE_FALSE(ProducedInside::interfere<X, Z>());
  STATIC_REQUIRE(ReadFirst::interfere<X, Z>());
  // The scope overwrites nothing (conservative: which write lands last is unknown), so
  // X's first value stays live through Z's use before the scope.
  using NoKill = Plan<Buffers<X, Y, Z>, Seq<Step<Overwrite<X>>, Step<Overwrite<Z>>, Step<Read<Z>>,
                                            Parallel<Step<Overwrite<X>>, Step<Write<Y>>>, Step<Read<X>>>>;
  STATIC_REQUIRE(NoKill::interfere<X, Z>());
  STATIC_REQUIRE(NoKill::live_at<X>(1));
  check_plan_is_sound<NoKill>();
  check_plan_is_sound<ProducedInside>();
  check_plan_is_sound<ReadFirst>();
}

namespace {
struct Odd100 : Buffer<100, 16> { static constexpr const char* kName = "odd 100 B"; };
struct Wide100 : Buffer<100, 128> { static constexpr const char* kName = "100 B, align 128"; };
struct Small4 : Buffer<4, 4> { static constexpr const char* kName = "4 B"; };
struct Empty : Buffer<0> { static constexpr const char* kName = "empty"; };
struct Unused : Buffer<256> { static constexpr const char* kName = "unused"; };
}  // namespace

TEST_CASE("alignment: offsets are aligned and padding costs what it must", "[smem]") {
  using P = Plan<Buffers<Odd100, Wide100>, Seq<Step<Overwrite<Odd100, Wide100>>, Step<Read<Odd100, Wide100>>>>;
  // Best: the align-128 buffer at 0, the other at 112 (100 rounded up to 16).
  // The bound counts raw bytes (200); 12 bytes of padding are unavoidable.
  STATIC_REQUIRE(P::kLowerBoundBytes == 200);
  STATIC_REQUIRE(P::kTotalBytes == 212);
  STATIC_REQUIRE(P::offset<Wide100>() == 0);
  STATIC_REQUIRE(P::offset<Odd100>() == 112);
  STATIC_REQUIRE(P::kUnsharedBytes == 228);  // list order: 0..100, then 128..228
  STATIC_REQUIRE(P::kBaseAlign == 128);
  // A 4-byte buffer fits right after 100 bytes with no padding.
  using Q = Plan<Buffers<Odd100, Small4>, Step<Overwrite<Odd100, Small4>>>;
  STATIC_REQUIRE(Q::kTotalBytes == 104);
  STATIC_REQUIRE(Q::kTotalBytes == Q::kLowerBoundBytes);
  check_plan_is_sound<P>();
  check_plan_is_sound<Q>();
}

TEST_CASE("zero-byte, unused and single buffers", "[smem]") {
  using WithEmpty = Plan<Buffers<X, Empty, Y>, Seq<Step<Overwrite<X, Empty, Y>>, Step<Read<X, Empty, Y>>>>;
  STATIC_REQUIRE(WithEmpty::offset<Empty>() == 0);
  STATIC_REQUIRE(WithEmpty::kTotalBytes == X::kBytes + Y::kBytes);
  STATIC_REQUIRE_FALSE(WithEmpty::interfere<X, Empty>());  // it has no bytes to collide with
  check_plan_is_sound<WithEmpty>();

  using Single = Plan<Buffers<X>, Step<Overwrite<X>>>;
  STATIC_REQUIRE(Single::offset<X>() == 0);
  STATIC_REQUIRE(Single::kTotalBytes == X::kBytes);
  STATIC_REQUIRE(Single::kLowerBoundBytes == X::kBytes);

  // A listed buffer the outline never touches still gets memory (it occupies no point).
  using WithUnused = Plan<Buffers<X, Unused>, Step<Overwrite<X>>>;
  STATIC_REQUIRE(WithUnused::kTotalBytes == X::kBytes);
  STATIC_REQUIRE(WithUnused::offset<Unused>() == 0);

  using Nothing = Plan<Buffers<>, Seq<>>;
  STATIC_REQUIRE(Nothing::kTotalBytes == 0);
  STATIC_REQUIRE(Nothing::kLowerBoundBytes == 0);
  STATIC_REQUIRE(Nothing::kPointCount == 0);
  using ZeroTrip = Plan<Buffers<X>, Seq<Loop<>, Loop<Loop<>>>>;
  STATIC_REQUIRE(ZeroTrip::kTotalBytes == X::kBytes);
  check_plan_is_sound<WithUnused>();
  check_plan_is_sound<ZeroTrip>();
}

TEST_CASE("pointer<Buf, T>() is base + offset", "[smem]") {
  using P = StreamK;
  alignas(P::kBaseAlign) static char smem[P::kTotalBytes];
  STATIC_REQUIRE(P::offset<SkB>() == 33280);  // after A, which it shares the K loop with
  CHECK(reinterpret_cast<char*>(P::pointer<SkB, short>(smem)) == smem + P::offset<SkB>());
  CHECK(reinterpret_cast<char*>(P::pointer<SkC, float>(smem)) == smem + P::offset<SkC>());
  CHECK(P::offset<SkB>() == P::kOffset<SkB>);
  CHECK((P::offset<SkA>() + SkA::kBytes <= P::offset<SkB>() ||
         P::offset<SkB>() + SkB::kBytes <= P::offset<SkA>()));
}

TEST_CASE("print() lists every buffer and the totals", "[smem]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  StreamK::print(file, "stream-K");
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text += char(c);
  std::fclose(file);
  INFO(text);
  CHECK(text.find("stream-K") != std::string::npos);
  for (const char* name : {"A stages (f16)", "B stages (int8)", "reduction (f16)", "C tile (f16)"})
    CHECK(text.find(name) != std::string::npos);
  CHECK(text.find("total 131072 B") != std::string::npos);
  CHECK(text.find("lower bound 131072 B") != std::string::npos);
  CHECK(text.find("unshared 199168 B") != std::string::npos);
}

namespace {
struct B0 : Buffer<8192> { static constexpr const char* kName = "b0"; };
struct B1 : Buffer<6144, 128> { static constexpr const char* kName = "b1"; };
struct B2 : Buffer<3000, 8> { static constexpr const char* kName = "b2"; };
struct B3 : Buffer<2048, 256> { static constexpr const char* kName = "b3"; };
struct B4 : Buffer<1000, 4> { static constexpr const char* kName = "b4"; };
struct B5 : Buffer<512, 64> { static constexpr const char* kName = "b5"; };
}  // namespace

// Outlines that mix every construct; the checks are the invariants, not exact totals.
TEST_CASE("property: interfering buffers never overlap and total >= lower bound", "[smem]") {
  using All = Buffers<B0, B1, B2, B3, B4, B5>;
  using P1 = Plan<All, Seq<Step<Overwrite<B0, B1>>, Loop<Step<Read<B0>, Write<B1>>, Step<Overwrite<B2>>, Step<Read<B2, B1>>>,
                           Step<Overwrite<B3>>, Parallel<Step<Read<B3>>, Loop<Step<Overwrite<B4>>, Step<Read<B4>>>>,
                           Step<Overwrite<B5>>, Step<Read<B5, B0>>>>;
  using P2 = Plan<All, Loop<Loop<Step<Overwrite<B5>>, Step<Read<B5>, Overwrite<B4>>, Step<Read<B4>>>,
                           Step<Read<B0>>, Step<Overwrite<B0>>, Parallel<Seq<Step<Write<B1>>>, Seq<Step<Read<B1, B2>>>>,
                           Loop<Step<Read<B3>>, Step<Overwrite<B3>>>>>;
  using P3 = Plan<All, Seq<Step<Overwrite<B0, B1, B2, B3, B4, B5>>, Step<Read<B0>>, Step<Read<B1>>, Step<Read<B2>>,
                           Step<Read<B3>>, Step<Read<B4>>, Step<Read<B5>>>>;
  using P4 = Plan<All, Seq<Step<Overwrite<B0>>, Step<Overwrite<B1>>, Step<Read<B0>>, Step<Overwrite<B2>>, Step<Read<B1>>,
                           Step<Overwrite<B3>>, Step<Read<B2>>, Step<Overwrite<B4>>, Step<Read<B3>>,
                           Step<Overwrite<B5>>, Step<Read<B4>>, Step<Read<B5>>>>;
  using P5 = Plan<All, Loop<Parallel<Loop<Step<Write<B0>>>, Seq<Loop<Step<Read<B0>>>, Step<Overwrite<B2>>>>,
                            Step<Read<B2>>, Step<Overwrite<B1, B3>>, Step<Read<B1>>, Step<Read<B3>>,
                            Loop<Step<Read<B4>>, Step<Write<B4>>, Step<Overwrite<B5>>, Step<Read<B5>>>>>;
  check_plan_is_sound<P1>();
  check_plan_is_sound<P2>();
  check_plan_is_sound<P3>();
  check_plan_is_sound<P4>();
  check_plan_is_sound<P5>();
  STATIC_REQUIRE(plan_is_sound<P1>());
  STATIC_REQUIRE(plan_is_sound<P2>());
  STATIC_REQUIRE(plan_is_sound<P3>());
  STATIC_REQUIRE(plan_is_sound<P4>());
  STATIC_REQUIRE(plan_is_sound<P5>());
  // Everything at once: nothing can share.
  STATIC_REQUIRE(P3::kTotalBytes >= P3::kLowerBoundBytes);
  STATIC_REQUIRE(P3::kLowerBoundBytes == 8192 + 6144 + 3000 + 2048 + 1000 + 512);
  // A chain where only neighbours overlap: two slots suffice whatever the sizes.
  STATIC_REQUIRE(P4::kTotalBytes == P4::kLowerBoundBytes);
}

// Outlines are types, so random ones cannot be made at run time; the placement below the
// liveness can. Random lifetimes (circular arcs over 10 points, as loops make them),
// sizes and alignments; the exact search must match the best of all 720 placement orders
// (the best greedy order is optimal, see smem_plan.hpp).
TEST_CASE("property: random placement problems are packed soundly and optimally", "[smem]") {
  constexpr std::size_t n = 6, points = 10;
  std::mt19937 rng(20240611);
  int above_lower_bound = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::size_t bytes[n] = {}, align[n] = {};
    detail::Mask occupied[points] = {};
    for (std::size_t b = 0; b < n; ++b) {
      bytes[b] = (rng() % 8) * 512 + (rng() % 3 == 0 ? rng() % 300 : 0);
      align[b] = std::size_t{1} << (rng() % 9);
      const std::size_t first = rng() % points, length = 1 + rng() % 5;
      for (std::size_t p = first; p < first + length; ++p) occupied[p % points] |= detail::bit(b);
    }
    const auto problem = detail::make_problem<n>(bytes, align, occupied, points);
    const auto layout = detail::pack(problem);
    INFO("trial " << trial);
    for (std::size_t b = 0; b < n; ++b) {
      CHECK(layout.offset[b] % align[b] == 0);
      for (std::size_t c = 0; c < n; ++c) {
        if (!(problem.conflicts[b] & detail::bit(c))) continue;
        CHECK((layout.offset[b] + bytes[b] <= layout.offset[c] || layout.offset[c] + bytes[c] <= layout.offset[b]));
      }
    }
    std::size_t order[n] = {0, 1, 2, 3, 4, 5};
    std::size_t best = ~std::size_t{0};
    do {
      best = std::min(best, detail::place_in_order(problem, order).total);
    } while (std::next_permutation(order, order + n));
    CHECK(layout.total == best);
    CHECK(layout.total >= problem.lower_bound);
    above_lower_bound += layout.total > problem.lower_bound;
  }
  CHECK(above_lower_bound > 0);  // the generator does reach cases where the bound is not attainable
}

TEST_CASE("capacity: fits<> and AssertFits<> against the arch tags", "[smem]") {
  STATIC_REQUIRE(fits<Gfx942, NonPersistent>);   // 64 KiB: exactly the C tile
  STATIC_REQUIRE_FALSE(fits<Gfx942, Persistent>);  // 112 KiB
  STATIC_REQUIRE(fits<Gfx950, Persistent>);
  STATIC_REQUIRE(fits<Gfx950, StreamK>);  // 128 KiB of 160 KiB
  STATIC_REQUIRE_FALSE(fits<Gfx942, StreamK>);
  STATIC_REQUIRE(AssertFits<Sm90, Persistent>::value);
}
