// Probe of the small-M entry's K split (a probe for choosing, not a reported benchmark): for
// each shape, WgmmaSmallM<16> with the split its rule chooses (kSplits = 0) and with fixed
// clusters of 2, 4, 8 and 16 CTAs, beside the best of cuBLASLt's top 8; bf16, A row-major,
// B = W[N][K], CUDA events, L2 flushed, medians of 20. Each variant's D is compared with
// cuBLASLt's (relative Frobenius difference), so a split that computes wrong is seen.
//   small_m_split_probe [MxNxK,...]
// Build: nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude
//        benchmark/small_m_split_probe.cu -lcublasLt -lcublas
#include <cstdio>

#include "probe_support.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/wgmma/cluster_split.hpp"
#include "tessera/runtime/gpu.hpp"

using namespace tessera;
using bf16 = bfloat16_t;
template <int kSplits>
using SmallM16 = gemm::WgmmaSmallM<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, 16, kSplits>;

template <class C>
void run_variant(const char* name, const probe::Extents& s, probe::Operands& o, const probe::Timing& t,
                 double lt_ms) {
  typename gemm::Gemm<C>::Args a{s.M, s.N, s.K, o.a, s.K, o.b, s.K, nullptr, s.N, o.d, s.N, 1.0f, 0.0f};
  const Status can = gemm::Gemm<C>::can_implement(a);
  if (!ok(can)) {
    std::printf("  %-8s refused: %s\n", name, status_name(can));
    return;
  }
  auto launch = [&] {
    const Status st = gemm::Gemm<C>::run(a, nullptr, nullptr);
    if (!ok(st)) {
      std::printf("status %s\n", status_name(st));
      std::exit(1);
    }
  };
  const float ms = probe::median_ms(launch, t);
  const int split = gemm::cluster_splits<typename C::Inner>(gemm::transpose_arguments<C>(a));
  std::printf("  %-8s split %2d  %7.2f us  (cuBLASLt / this %.3f)  diff %.2e\n", name, split, ms * 1e3,
              lt_ms / ms, probe::rel_diff(o.d, o.ref, o.nd));
}

int main(int argc, char** argv) {
  probe::Timing t;
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&t.flush, t.flush_bytes));
  cublasLtHandle_t lt;
  PROBE_CUBLAS_CHECK(cublasLtCreate(&lt));
  const char* shapes = argc > 1 ? argv[1]
                                : "11x384x2048,16x768x1792,2x1536x1536,3x1024x1792,7x2048x1536,1x5120x2048,"
                                  "4x512x2048,2x8192x1024,1x2560x6144,13x384x3072,6x1536x2560,5x3584x1280,"
                                  "1x18432x10240,16x4096x4096";
  for (const auto& s : probe::parse_shapes(shapes)) {
    probe::Operands o(s);
    int found = 0;
    const float lt_ms = probe::blas_lt_best_ms(lt, s, false, o.a, o.b, o.ref, t, &found);
    std::printf("%lldx%lldx%lld: cuBLASLt %.2f us\n", (long long)s.M, (long long)s.N, (long long)s.K, lt_ms * 1e3);
    run_variant<SmallM16<0>>("rule", s, o, t, lt_ms);
    run_variant<SmallM16<2>>("split2", s, o, t, lt_ms);
    run_variant<SmallM16<4>>("split4", s, o, t, lt_ms);
    run_variant<SmallM16<8>>("split8", s, o, t, lt_ms);
    run_variant<SmallM16<16>>("split16", s, o, t, lt_ms);
  }
  cublasLtDestroy(lt);
  return 0;
}
