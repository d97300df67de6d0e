// Probe of the fp8 decode paths (a probe for choosing, not a reported benchmark; tessera_bench's
// fp8moe_decode group has the reported numbers beside cuBLASLt and the weights' floor): for each
// shape, WgmmaFp8SmallM (D^T = B^T A^T, K split over a cluster, gemm/select/small_m.hpp) with the
// split its rule chooses and with a fixed split of 2, per tensor and with block scales, and the
// untransposed K split (ClusterSplitK over a 128 x 128 fp8 tile, the tokens padded to 128 rows)
// with clusters of 1 and 2. e4m3 operands (their bytes, not values, matter here), bf16 D, A
// row-major, B = W[N][K]; CUDA events, L2 flushed, medians of 20.
//   fp8_small_m_probe [MxNxK,...]
// Build: nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Ibenchmark
//        benchmark/fp8_small_m_probe.cu -lcublasLt -lcublas
#include <cstdio>
#include <vector>

#include "probe_support.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/wgmma/cluster_split.hpp"
#include "tessera/runtime/gpu.hpp"

using namespace tessera;
using bf16 = bfloat16_t;
using e4m3 = float8_e4m3_t;
namespace scale = gemm::scale;

template <class Scales, int kTileM, int kSplits>
using Transposed = gemm::WgmmaFp8SmallM<e4m3, e4m3, bf16, Scales, kTileM, kSplits>;
template <class Scales, int kSplits>
using Untransposed = gemm::ClusterSplitK<
    gemm::WgmmaConfig<e4m3, RowMajor, e4m3, ColumnMajor, bf16, RowMajor, gemm::option::Tile<GemmShape<128, 128, 128>>,
                      gemm::option::Schedule<schedule::Cooperative>, gemm::option::Scales<Scales>>,
    kSplits>;

struct Buffers {
  void *a = nullptr, *b = nullptr, *d = nullptr;
  float* scales = nullptr;  // every scale 1 (sizes are what matter)
  static constexpr std::size_t kBytes = std::size_t(64) << 20, kScales = std::size_t(1) << 20;
};

template <class C>
int split_of(const typename gemm::Gemm<C>::Args& args) {
  if constexpr (std::is_same_v<typename C::Family, gemm::TransposedFamily>) {
    return gemm::cluster_splits<typename C::Inner>(gemm::transpose_arguments<C>(args));
  } else {
    return gemm::cluster_splits<C>(args);
  }
}

template <class C>
void run_variant(const char* name, const probe::Extents& s, const Buffers& o, const probe::Timing& t) {
  typename gemm::Gemm<C>::Args args{s.M, s.N, s.K, static_cast<const e4m3*>(o.a), s.K, static_cast<const e4m3*>(o.b),
                                    s.K, nullptr, s.N, static_cast<bf16*>(o.d), s.N, 1.0f, 0.0f};
  args.epilogue.a = {o.scales, 0, std::int64_t(Buffers::kScales)};
  args.epilogue.b = {o.scales, 0, std::int64_t(Buffers::kScales)};
  const Status can = gemm::Gemm<C>::can_implement(args);
  if (!ok(can)) {
    std::printf("  %-26s refused: %s\n", name, status_name(can));
    return;
  }
  auto launch = [&] {
    const Status st = gemm::Gemm<C>::run(args, nullptr, nullptr);
    if (!ok(st)) {
      std::printf("status %s\n", status_name(st));
      std::exit(1);
    }
  };
  const float ms = probe::median_ms(launch, t);
  std::printf("  %-26s split %2d  %7.2f us\n", name, split_of<C>(args), ms * 1e3);
}

template <int kTileM>
void run_shape(const probe::Extents& s, const Buffers& o, const probe::Timing& t) {
  run_variant<Transposed<scale::PerTensor, kTileM, 0>>("transposed tensor rule", s, o, t);
  run_variant<Transposed<scale::PerTensor, kTileM, 2>>("transposed tensor x2", s, o, t);
  run_variant<Transposed<scale::Blockwise, kTileM, 0>>("transposed block rule", s, o, t);
  run_variant<Transposed<scale::Blockwise, kTileM, 2>>("transposed block x2", s, o, t);
}

int main(int argc, char** argv) {
  probe::Timing t;
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&t.flush, t.flush_bytes));
  Buffers o;
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&o.a, Buffers::kBytes));
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&o.b, Buffers::kBytes));
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&o.d, Buffers::kBytes));
  TESSERA_GPU_CHECK(gpu::malloc_elements(&o.scales, Buffers::kScales));
  const std::vector<float> ones(Buffers::kScales, 1.0f);
  TESSERA_GPU_CHECK(gpu::copy_to_device(o.scales, ones.data(), ones.size() * sizeof(float)));
  TESSERA_GPU_CHECK(gpu::memset_async(o.a, 0x31, Buffers::kBytes, nullptr));  // e4m3 0x31: a small normal value
  TESSERA_GPU_CHECK(gpu::memset_async(o.b, 0x31, Buffers::kBytes, nullptr));
  const char* shapes = argc > 1 ? argv[1] : "1x7168x2048,16x7168x2048,16x4096x4096,16x2048x7168,64x7168x2048,64x4096x4096";
  for (const auto& s : probe::parse_shapes(shapes)) {
    if (s.M * s.K > std::int64_t(Buffers::kBytes) || s.N * s.K > std::int64_t(Buffers::kBytes)) continue;
    std::printf("%lldx%lldx%lld\n", (long long)s.M, (long long)s.N, (long long)s.K);
    if (s.M <= 16) {
      run_shape<16>(s, o, t);
    } else if (s.M <= 32) {
      run_shape<32>(s, o, t);
    } else {
      run_shape<64>(s, o, t);
    }
    run_variant<Untransposed<scale::PerTensor, 1>>("untransposed tensor x1", s, o, t);
    run_variant<Untransposed<scale::PerTensor, 2>>("untransposed tensor x2", s, o, t);
  }
  return 0;
}
