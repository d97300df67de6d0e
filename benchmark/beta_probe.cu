// A/B probe of the staged-C release policy (a probe for choosing, not a reported benchmark;
// built twice, against the headers as committed (A) and with the box released one box later
// (B), each binary run as is, e.g. scripts/device/check.sh --probe=beta_probe): beta 0 and beta 1 (in place)
// of the default WgmmaConfig and of StagingBoxes<4>, CUDA events, L2 flushed, medians of 20.
#include <cstdio>
#include "probe_support.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"
#include "tessera/runtime/gpu.hpp"
using namespace tessera;
using bf16 = bfloat16_t;
using Default = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor>;
using Boxes4 = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor,
                                 gemm::option::Tile<GemmShape<128, 256, 64>>, gemm::option::StagingBoxes<4>>;
template <class C>
float run_ms(const probe::Extents& s, probe::Operands& o, float beta, const probe::Timing& t) {
  typename gemm::Gemm<C>::Args a{s.M, s.N, s.K, o.a, s.K, o.b, s.K, o.d, s.N, o.d, s.N, 1.0f, beta};
  auto launch = [&] {
    Status st = gemm::Gemm<C>::run(a, nullptr, nullptr);
    if (!ok(st)) { std::printf("status %s\n", status_name(st)); std::exit(1); }
  };
  return probe::median_ms(launch, t);
}
int main(int argc, char** argv) {
  probe::Timing t;
  TESSERA_GPU_CHECK(gpu::malloc_bytes(&t.flush, t.flush_bytes));
  const char* shapes = argc > 1 ? argv[1] : "4096x4096x4096,8192x8192x1024,2048x2048x2048,8192x8192x8192,4096x14336x4096";
  for (const auto& s : probe::parse_shapes(shapes)) {
    probe::Operands o(s);
    const double gf = 2.0 * s.M * s.N * s.K * 1e-9;
    const float d0 = run_ms<Default>(s, o, 0.0f, t), d1 = run_ms<Default>(s, o, 1.0f, t);
    const float b0 = run_ms<Boxes4>(s, o, 0.0f, t), b1 = run_ms<Boxes4>(s, o, 1.0f, t);
    std::printf("%lldx%lldx%lld default beta0 %.1f beta1 %.1f (%.3f) | 4 boxes beta0 %.1f beta1 %.1f (%.3f) TFLOP/s\n",
                (long long)s.M, (long long)s.N, (long long)s.K, gf / d0, gf / d1, d0 / d1, gf / b0, gf / b1, b0 / b1);
  }
  return 0;
}
