// One GPU GEMM check: random inputs, poisoned outputs (and a poisoned guard region past
// every buffer), the kernel, then the float64 reference, element by element.
#pragma once
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "reference_gemm.hpp"
#include "tessera/gemm/gemm.hpp"  // the family header is included by the test first

namespace tessera::test {

#define REQUIRE_CUDA(call)                                                              \
  do {                                                                                  \
    const cudaError_t err_ = (call);                                                    \
    INFO(#call << ": " << cudaGetErrorString(err_));                                    \
    REQUIRE(err_ == cudaSuccess);                                                       \
  } while (0)

// Device copy of a host vector, with kGuard poisoned elements after it.
template <class T>
struct DeviceBuffer {
  static constexpr std::size_t kGuard = 64;
  T* ptr = nullptr;
  std::size_t size = 0;
  explicit DeviceBuffer(const std::vector<T>& host) : size(host.size()) {
    std::vector<T> with_guard(host);
    with_guard.resize(size + kGuard, poison_value<T>());
    REQUIRE_CUDA(cudaMalloc(&ptr, with_guard.size() * sizeof(T)));
    REQUIRE_CUDA(cudaMemcpy(ptr, with_guard.data(), with_guard.size() * sizeof(T),
                            cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  // The buffer and its guard, back on the host.
  std::vector<T> download_with_guard() const {
    std::vector<T> h(size + kGuard);
    REQUIRE_CUDA(cudaMemcpy(h.data(), ptr, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

struct CaseShape {
  std::int64_t M, N, K;
  std::int64_t pad = 0;        // added to every leading dimension
  float alpha = 1.0f, beta = 0.0f;
  bool in_place = false;       // C and D are the same buffer
  bool offset_pointers = false;  // operands start one element into their allocation
  bool workspace = false;        // pass workspace_size() bytes: split-K where it applies
  bool must_split = false;       // and require that a split was chosen
  std::int64_t ld_multiple = 1;  // round every leading dimension up to a multiple of this
};

// Called with the device Arguments before the run, e.g. to check which path they take.
struct NoArgsCheck {
  template <class Args>
  void operator()(const Args&) const {}
};

template <class Config, class ArgsCheck = NoArgsCheck>
void check_gemm(const CaseShape& s, ArgsCheck&& args_check = {}) {
  using EA = typename Config::ElementA;
  using EB = typename Config::ElementB;
  using EC = typename Config::ElementC;
  using LA = typename Config::LayoutA;
  using LB = typename Config::LayoutB;
  using LC = typename Config::LayoutC;
  const std::uint64_t seed = fresh_seed();
  INFO("M=" << s.M << " N=" << s.N << " K=" << s.K << " pad=" << s.pad << " alpha=" << s.alpha
            << " beta=" << s.beta << " in_place=" << s.in_place << " offset=" << s.offset_pointers
            << " workspace=" << s.workspace
            << " seed=" << seed << " A=" << type_name<EA>::value << "/" << LA::kName
            << " B=" << type_name<EB>::value << "/" << LB::kName
            << " C=" << type_name<EC>::value << "/" << LC::kName);
  auto ld = [&](std::int64_t min_ld, std::int64_t pad) {
    return (min_ld + pad + s.ld_multiple - 1) / s.ld_multiple * s.ld_multiple;
  };
  const std::int64_t lda = ld(LA::min_ld(s.M, s.K), s.pad);
  const std::int64_t ldb = ld(LB::min_ld(s.K, s.N), s.pad);
  const std::int64_t ldc = ld(LC::min_ld(s.M, s.N), s.pad);
  const std::int64_t ldd = s.in_place ? ldc : ld(LC::min_ld(s.M, s.N), 2 * s.pad);
  const std::int64_t off = s.offset_pointers ? 1 : 0;
  auto alloc = [&](std::int64_t span) { return std::size_t(off + (span > 0 ? span : 1)); };

  std::vector<EA> a(alloc(matrix_span<LA>(s.M, s.K, lda)));
  std::vector<EB> b(alloc(matrix_span<LB>(s.K, s.N, ldb)));
  std::vector<EC> c(alloc(matrix_span<LC>(s.M, s.N, ldc)));
  std::vector<EC> d(alloc(matrix_span<LC>(s.M, s.N, ldd)));
  fill_random(a, seed);
  fill_random(b, seed + 1);
  fill_random(c, seed + 2);
  poison(d);
  if (s.in_place) d = c;

  DeviceBuffer<EA> da(a);
  DeviceBuffer<EB> db(b);
  DeviceBuffer<EC> dc(c);
  DeviceBuffer<EC> dd(d);
  EC* d_out = s.in_place ? dc.ptr : dd.ptr;
  gemm::Arguments<EA, EB, EC> args{s.M, s.N, s.K, da.ptr + off, lda, db.ptr + off, ldb,
                                   dc.ptr + off, ldc, d_out + off, s.in_place ? ldc : ldd,
                                   s.alpha, s.beta};
  args_check(args);
  const std::size_t workspace_bytes = s.workspace ? gemm::Gemm<Config>::workspace_size(args) : 0;
  INFO("workspace bytes " << workspace_bytes);
  if (s.must_split) REQUIRE(workspace_bytes > 0);
  void* workspace = nullptr;
  if (workspace_bytes > 0) {
    REQUIRE_CUDA(cudaMalloc(&workspace, workspace_bytes));
    REQUIRE_CUDA(cudaMemset(workspace, 0xff, workspace_bytes));  // NaN: every slice must be written
  }
  const Status st = gemm::Gemm<Config>::run(args, workspace);
  INFO("status " << status_name(st));
  REQUIRE(st == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  if (workspace != nullptr) REQUIRE_CUDA(cudaFree(workspace));

  const std::vector<EC> out = (s.in_place ? dc : dd).download_with_guard();
  // The reference runs on the host copies with the same offsets and leading dimensions.
  gemm::Arguments<EA, EB, EC> host{s.M, s.N, s.K, a.data() + off, lda, b.data() + off, ldb,
                                   c.data() + off, ldc, nullptr, args.ldd, s.alpha, s.beta};
  const std::vector<double> ref = reference_gemm_f64<LA, LB, LC>(host);
  const std::vector<EC> out_matrix(out.begin() + off, out.begin() + std::ptrdiff_t(off + matrix_span<LC>(s.M, s.N, args.ldd)));
  if (s.M > 0 && s.N > 0) {
    const CompareResult r = compare<LC>(s.M, s.N, out_matrix.data(), args.ldd, ref.data(), args.ldd);
    INFO(r.describe());
    CHECK(r.unwritten == 0);
    CHECK(r.nan == 0);
    CHECK(r.rel_fro <= tolerance<EA, EC>(s.K));
  }
  // Nothing outside the M x N matrix changed: the padding (when D was poisoned) and the
  // guard after the allocation.
  if (!s.in_place) {
    std::vector<EC> whole(out.begin() + off, out.end() - DeviceBuffer<EC>::kGuard);
    CHECK(count_padding_writes<LC>(s.M, s.N, whole, args.ldd) == 0);
    if (off) CHECK(is_poison(out[0]));
  }
  for (std::size_t g = out.size() - DeviceBuffer<EC>::kGuard; g < out.size(); ++g) {
    REQUIRE(is_poison(out[g]));
  }
}

}  // namespace tessera::test
