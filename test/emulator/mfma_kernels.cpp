// MFMA kernels for the emulator's tests (mfma_kernels.hpp). Instrumented translation
// unit. The mutation checks compile it again with one of:
//   EMU_TEST_MUTANT_LANE_SWAP    two lanes exchanged in A's operand map (mfma_lane_map.hpp)
//   EMU_TEST_MUTANT_WEAK_WAIT    the main loop's vmcnt wait allows one load too many in flight
//   EMU_TEST_MUTANT_NUM_RECORDS  A's descriptor says 3 rows more than the allocation holds
#include "mfma_kernels.hpp"

#include "mfma_lane_map.hpp"
#include "tessera/arch/amd/buffer.hpp"
#include "tessera/arch/amd/lds.hpp"
#include "tessera/arch/amd/mfma.hpp"
#include "tessera/arch/amd/sched.hpp"
#include "tessera/arch/thread.hpp"
#include "tessera/runtime/launch.hpp"

namespace emu_test {

namespace amd = tessera::amd;
using tessera::LaunchShape;
using tessera::Status;

namespace {

template <class Shape>
struct OnceParams {
  const std::uint16_t *a, *b;
  const float* c;
  float* d;
};

template <class Shape>
TESSERA_GLOBAL void mfma_once_kernel(const OnceParams<Shape> p) {
  constexpr int M = Shape::kM, K = Shape::kK;
  const int lane = tessera::thread_index();
  amd::MfmaOperand<Shape> a, b;
  amd::MfmaAccumulator<Shape> c;
  for (int e = 0; e < Shape::kOperandElements; ++e) {
    const MatrixIndex ia = mfma_a_element<M, K>(lane, e), ib = mfma_b_element<M, K>(lane, e);
    a[e] = p.a[ia.row * K + ia.col];
    b[e] = p.b[ib.row * M + ib.col];
  }
  for (int r = 0; r < Shape::kAccumulators; ++r) {
    const MatrixIndex ic = mfma_c_element<M>(lane, r);
    c[r] = p.c[ic.row * M + ic.col];
  }
  const amd::MfmaAccumulator<Shape> d = amd::mfma<Shape>(a, b, c);
  for (int r = 0; r < Shape::kAccumulators; ++r) {
    const MatrixIndex ic = mfma_c_element<M>(lane, r);
    p.d[ic.row * M + ic.col] = d[r];
  }
}

template <class Shape>
struct TileGemm {
  static constexpr int M = Shape::kM, N = Shape::kN, kK = Shape::kK;
  static constexpr int kPerLane = Shape::kOperandElements;
  // One operand tile per K step is 64 lanes x kPerLane 16-bit words: one 16-byte load a
  // lane when that is 8 words, else 4-byte loads (the size gfx942 allows).
  static constexpr int kDmaBytes = kPerLane * 2 == 16 ? 16 : 4;
  static constexpr int kDmaOps = kPerLane * 2 / kDmaBytes;
  static constexpr int kTileBytes = M * kK * 2;  // == N * kK * 2
  static constexpr int kStageBytes = 2 * kTileBytes;  // A tile, then B tile
#if defined(EMU_TEST_MUTANT_WEAK_WAIT)
  static constexpr int kWaitSlack = 1;
#else
  static constexpr int kWaitSlack = 0;
#endif
#if defined(EMU_TEST_MUTANT_NUM_RECORDS)
  static constexpr int kExtraRows = 3;
#else
  static constexpr int kExtraRows = 0;
#endif

  // This wave's operand (wave 0: A rows, wave 1: B^T rows) for K step `step` into `tile`.
  static void issue(const TileGemmArgs& p, const amd::BufferResource& src, unsigned char* tile, int step,
                    int lane) {
    for (int op = 0; op < kDmaOps; ++op) {
      const int word = (op * 64 + lane) * kDmaBytes / 2;  // first 16-bit word of this lane's bytes
      const int row = word / kK, col = word % kK;
      const auto offset = std::uint32_t((row * p.k + step * kK + col) * 2);
      amd::buffer_load_to_lds<kDmaBytes>(src, tile + op * 64 * kDmaBytes, offset);
    }
  }

  static void run(const TileGemmArgs& p) {
    TESSERA_AMD_LDS(lds, 2 * kStageBytes);
    const int tid = tessera::thread_index();
    const int wave = tid / 64, lane = tid % 64;
    const amd::BufferResource src =
        wave == 0 ? amd::make_buffer_resource(p.a, std::uint32_t((p.a_rows + kExtraRows) * p.k * 2))
                  : amd::make_buffer_resource(p.bt, std::uint32_t(N * p.k * 2));
    const int steps = p.k / kK;
    amd::MfmaAccumulator<Shape> acc;
    for (int r = 0; r < Shape::kAccumulators; ++r) acc[r] = 0.0f;

    issue(p, src, lds + wave * kTileBytes, 0, lane);
    for (int step = 0; step < steps; ++step) {
      unsigned char* stage = lds + (step & 1) * kStageBytes;
      if (step + 1 < steps) {
        issue(p, src, lds + ((step + 1) & 1) * kStageBytes + wave * kTileBytes, step + 1, lane);
        amd::wait_vmcnt<kDmaOps + kWaitSlack>();  // this step's loads done, the next in flight
      } else {
        amd::wait_vmcnt<kWaitSlack>();
      }
      amd::barrier();  // the other wave's tile has landed
      const auto* a_tile = reinterpret_cast<const std::uint16_t*>(stage);
      const auto* b_tile = reinterpret_cast<const std::uint16_t*>(stage + kTileBytes);
      amd::MfmaOperand<Shape> a, b;
      for (int e = 0; e < kPerLane; ++e) {
        const MatrixIndex ia = mfma_a_element<M, kK>(lane, e), ib = mfma_b_element<M, kK>(lane, e);
        a[e] = a_tile[ia.row * kK + ia.col];
        b[e] = b_tile[ib.col * kK + ib.row];  // the tile holds B^T
      }
      acc = amd::mfma<Shape>(a, b, acc);
      // Every read of this stage has completed (lgkmcnt) before the barrier after which the
      // other wave's loads refill it: those loads are not ordered with LDS reads.
      amd::wait_lgkmcnt<0>();
      amd::barrier();
    }
    for (int r = 0; r < Shape::kAccumulators; ++r) {
      const MatrixIndex ic = mfma_c_element<M>(lane, r);
      p.d[wave * M * N + ic.row * N + ic.col] = acc[r];
    }
  }
};

template <class Shape>
TESSERA_GLOBAL void tile_gemm_kernel(const TileGemmArgs p) {
  TileGemm<Shape>::run(p);
}

}  // namespace

template <class Shape>
Status run_mfma_once(const std::uint16_t* a, const std::uint16_t* b, const float* c, float* d) {
  return tessera::launch_kernel(mfma_once_kernel<Shape>, LaunchShape{1, 1, 1, 64}, nullptr,
                                OnceParams<Shape>{a, b, c, d});
}

template <class Shape>
Status run_tile_gemm(const TileGemmArgs& args) {
  return tessera::launch_kernel(tile_gemm_kernel<Shape>, LaunchShape{1, 1, 1, 128}, nullptr, args);
}

#define EMU_TEST_MFMA_SHAPE(S)                                                                        \
  template Status run_mfma_once<amd::S>(const std::uint16_t*, const std::uint16_t*, const float*, float*); \
  template Status run_tile_gemm<amd::S>(const TileGemmArgs&);
EMU_TEST_MFMA_SHAPE(Mfma32x32x8F16)
EMU_TEST_MFMA_SHAPE(Mfma32x32x8Bf16)
EMU_TEST_MFMA_SHAPE(Mfma16x16x16F16)
EMU_TEST_MFMA_SHAPE(Mfma16x16x16Bf16)
EMU_TEST_MFMA_SHAPE(Mfma32x32x16F16)
EMU_TEST_MFMA_SHAPE(Mfma32x32x16Bf16)
EMU_TEST_MFMA_SHAPE(Mfma16x16x32F16)
EMU_TEST_MFMA_SHAPE(Mfma16x16x32Bf16)

}  // namespace emu_test
