// One low-precision MFMA on one wave (mfma_lowp_kernels.hpp). Instrumented translation
// unit; the mutation check EMU_TEST_MUTANT_LOWP_LANE_SWAP builds it with two chunks of A's
// lane map exchanged (mfma_lowp_lane_map.hpp).
#include "mfma_lowp_kernels.hpp"

#include "mfma_lowp_shapes.hpp"
#include "mfma_lowp_lane_map.hpp"
#include "tessera/arch/amd/mfma_lowp.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/runtime/launch.hpp"

namespace emu_test {

namespace amd = tessera::amd;
using tessera::LaunchShape;
using tessera::Status;

namespace {

// Packs values of K-ordered codes into a lane's operand words: 8-bit codes a byte each,
// fp6 codes 6 bits each (a code crossing a word boundary puts its low bits in the lower
// word, as CK's f6_pk_t::pack does), fp4 codes a nibble each, the lower index in the lower
// bits.
template <class Vector, int kWords, int kBits, class Element>
Vector gather(const std::uint8_t* codes, int ld, int lane, int values, Element element) {
  Vector v;
  for (int w = 0; w < kWords; ++w) v[w] = 0u;
  for (int e = 0; e < values; ++e) {
    const MatrixIndex at = element(lane, e);
    const std::uint32_t code = std::uint32_t(codes[at.row * ld + at.col]) & ((1u << kBits) - 1u);
    const int bit = e * kBits;
    v[bit / 32] |= code << (bit % 32);
    if (bit % 32 + kBits > 32) v[bit / 32 + 1] |= code >> (32 - bit % 32);
  }
  return v;
}

template <class Shape>
TESSERA_GLOBAL void mfma_lowp_once_kernel(const LowpOnceArgs p) {
  constexpr int M = Shape::kM, K = Shape::kK;
  const int lane = tessera::thread_index();
  constexpr int kValues = mfma_lowp_values_per_lane<Shape>();
  const auto a = gather<amd::MfmaLowpOperandA<Shape>, Shape::kOperandWordsA, amd::mfma_format_bits(Shape::kFormatA)>(
      p.a, K, lane, kValues, mfma_lowp_a_element<Shape>);
  const auto b = gather<amd::MfmaLowpOperandB<Shape>, Shape::kOperandWordsB, amd::mfma_format_bits(Shape::kFormatB)>(
      p.b, M, lane, kValues, mfma_lowp_b_element<Shape>);
  amd::MfmaAccumulator<Shape> c;
  for (int r = 0; r < Shape::kAccumulators; ++r) {
    const MatrixIndex ic = mfma_c_element<M>(lane, r);
    c[r] = p.c[ic.row * M + ic.col];
  }
  const amd::MfmaAccumulator<Shape> d =
      Shape::kScaled ? amd::mfma_lowp<Shape, kLowpOpselA, kLowpOpselB>(a, b, c, p.scale_a[lane], p.scale_b[lane])
                     : amd::mfma_lowp<Shape>(a, b, c);
  for (int r = 0; r < Shape::kAccumulators; ++r) {
    const MatrixIndex ic = mfma_c_element<M>(lane, r);
    p.d[ic.row * M + ic.col] = d[r];
  }
}

}  // namespace

template <class Shape>
Status run_mfma_lowp_once(const LowpOnceArgs& args) {
  return tessera::launch_kernel(mfma_lowp_once_kernel<Shape>, LaunchShape{1, 1, 1, 64}, nullptr, args);
}

#define EMU_TEST_LOWP_SHAPE(S) template Status run_mfma_lowp_once<S>(const LowpOnceArgs&);
EMU_TEST_LOWP_SHAPES(EMU_TEST_LOWP_SHAPE)

}  // namespace emu_test
