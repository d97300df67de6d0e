// GPU tests of option::DependentLaunch (programmatic dependent launch: runtime/launch.hpp,
// arch/nvidia/grid_dependency.hpp). A kernel launched that way may start while the stream's
// previous kernel still runs, so it must neither read what that kernel has not written yet nor
// write what it still reads. Each race below is set up to show if the wait were missing: the
// previous kernel lets its dependents launch at once and then runs long on one SM, so the
// dependent GEMM's CTAs start on the idle SMs well before it ends.
//   - a stand-in for the user's previous kernel writes A late; the dependent GEMM reads A
//     (wgmma, cluster split-K, small M, Auto);
//   - a long GEMM writes D1; the dependent GEMM reads D1 as its A;
//   - a long GEMM reads A1; the dependent GEMM writes its D over A1;
//   - the writer and the GEMM captured into a CUDA graph, replayed with a new A.
//   - fp8 (block-scaled, per tensor, the K-split decode): the previous kernel writes A's codes
//     and A's scales late.
// And every configuration with the option gives the right result on its own (odd shapes,
// C == D, the packed path). Against the float64 reference with poisoned outputs (gemm_case.hpp,
// fp8_case.hpp).
// Label `gpu`; needs an sm_90 device.
#include "tessera/arch/nvidia/grid_dependency.hpp"
#include "tessera/gemm/select/auto.hpp"
#include "tessera/gemm/select/small_m.hpp"
#include "tessera/gemm/wgmma/cluster_split.hpp"
#include "tessera/gemm/wgmma/wgmma.hpp"

#include <cstdint>
#include <type_traits>
#include <vector>

#include "fp8_case.hpp"
#include "gemm_case.hpp"

using namespace tessera;
using tessera::test::CaseShape;
using tessera::test::check_gemm;

namespace {

namespace option = gemm::option;
using bf16 = bfloat16_t;

using Dl = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, option::DependentLaunch>;
using Dl128 = gemm::WgmmaConfig<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor,
                                option::Tile<GemmShape<128, 128, 64>>, option::Schedule<schedule::Cooperative>,
                                option::DependentLaunch>;
using DlSplit = gemm::ClusterSplitK<Dl128>;
using DlSmallM = gemm::WgmmaSmallM<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, 16, 0, option::DependentLaunch>;
using DlAuto = gemm::Auto<bf16, RowMajor, bf16, ColumnMajor, bf16, RowMajor, option::DependentLaunch>;

using e4m3 = float8_e4m3_t;
template <class Scales, class Tile, class Schedule>
using DlFp8 = gemm::WgmmaConfig<e4m3, RowMajor, e4m3, ColumnMajor, bf16, RowMajor, option::Tile<Tile>,
                                option::Schedule<Schedule>, option::OutputElement<bf16>, option::Scales<Scales>,
                                option::DependentLaunch>;
using DlFp8Block = DlFp8<gemm::scale::Blockwise, GemmShape<128, 128, 128>, schedule::Cooperative>;
using DlFp8Tensor = DlFp8<gemm::scale::PerTensor, GemmShape<64, 128, 128>, schedule::Pingpong>;
using DlFp8SmallM = gemm::WgmmaFp8SmallM<e4m3, e4m3, bf16, gemm::scale::Blockwise, 16, 0, option::DependentLaunch>;

CaseShape tma(CaseShape s) {
  s.ld_multiple = 8;
  return s;
}

// A copy the stand-in kernel makes late: `bytes` bytes from `from` to `to` (none by default).
struct LateCopy {
  const void* from = nullptr;
  void* to = nullptr;
  std::int64_t bytes = 0;
};

// The stand-in for a user's kernel before the GEMM: lets its dependents launch, waits
// `nanoseconds` (the global timer), then makes its copies (A, and fp8 A's scales). One CTA.
__global__ void late_copy_kernel(LateCopy first, LateCopy second, std::uint64_t nanoseconds) {
  nvidia::let_dependents_launch();
  std::uint64_t start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
  for (const LateCopy& c : {first, second}) {
    const auto* from = static_cast<const unsigned char*>(c.from);
    auto* to = static_cast<unsigned char*>(c.to);
    for (std::int64_t i = threadIdx.x; i < c.bytes; i += blockDim.x) to[i] = from[i];
  }
}

struct OwnStream {
  cudaStream_t s = nullptr;
  OwnStream() { REQUIRE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~OwnStream() { cudaStreamDestroy(s); }
};

// Config reads an A that the previous kernel in the stream writes after a long wait: A's buffer
// holds poison until then.
template <class Config>
void check_reads_after_late_writer(const CaseShape& s) {
  using test::DeviceBuffer;
  using test::HostCase;
  const std::uint64_t seed = test::fresh_seed();
  INFO(test::describe_case<Config>(s, seed));
  const HostCase<Config> host(s, seed);
  std::vector<bf16> poisoned_a(host.a.size());
  test::poison(poisoned_a);
  DeviceBuffer<bf16> final_a(host.a), da(poisoned_a), db(host.b), dc(host.c), dd(host.d);
  const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr);
  const std::size_t workspace_bytes = gemm::Gemm<Config>::workspace_size(args);
  void* workspace = nullptr;
  if (workspace_bytes > 0) REQUIRE_CUDA(cudaMalloc(&workspace, workspace_bytes));
  OwnStream stream;
  late_copy_kernel<<<1, 256, 0, stream.s>>>({final_a.ptr, da.ptr, std::int64_t(host.a.size() * sizeof(bf16))}, {},
                                            300000);
  REQUIRE_CUDA(cudaGetLastError());
  REQUIRE(gemm::Gemm<Config>::run(args, workspace, stream.s) == Status::kSuccess);
  REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  if (workspace != nullptr) REQUIRE_CUDA(cudaFree(workspace));
  const test::CaseOutcome r = host.check_output(dd.download_with_guard(), DeviceBuffer<bf16>::kGuard);
  CHECK_CASE_OUTCOME(s, r);
}

// check_fp8's hook before the call: on the case's stream, A's codes and A's scales are saved,
// poisoned (0xff bytes: NaN codes and scales) and restored by the late stand-in kernel, which the
// dependent fp8 GEMM follows. The saved copies are freed once the case has synchronised.
class PoisonUntilLateWriter {
 public:
  explicit PoisonUntilLateWriter(cudaStream_t stream) : stream_(stream) {}
  PoisonUntilLateWriter(const PoisonUntilLateWriter&) = delete;
  ~PoisonUntilLateWriter() {
    for (void* p : saved_) cudaFree(p);
  }
  template <class Args>
  void operator()(const Args& args, void* /*workspace*/) {
    const std::size_t a_bytes = std::size_t(args.M * args.lda) * sizeof(*args.A);
    const std::size_t sa_bytes = std::size_t(args.epilogue.a.size) * sizeof(float);
    auto* a = reinterpret_cast<unsigned char*>(const_cast<e4m3*>(args.A));
    auto* sa = reinterpret_cast<unsigned char*>(const_cast<float*>(args.epilogue.a.data));
    unsigned char* a_saved = save(a, a_bytes);
    unsigned char* sa_saved = save(sa, sa_bytes);
    REQUIRE_CUDA(cudaMemsetAsync(a, 0xff, a_bytes, stream_));
    REQUIRE_CUDA(cudaMemsetAsync(sa, 0xff, sa_bytes, stream_));
    late_copy_kernel<<<1, 256, 0, stream_>>>({a_saved, a, std::int64_t(a_bytes)},
                                             {sa_saved, sa, std::int64_t(sa_bytes)}, 300000);
    REQUIRE_CUDA(cudaGetLastError());
  }

 private:
  unsigned char* save(const unsigned char* from, std::size_t bytes) {
    void* p = nullptr;
    REQUIRE_CUDA(cudaMalloc(&p, bytes));
    saved_.push_back(p);
    REQUIRE_CUDA(cudaMemcpyAsync(p, from, bytes, cudaMemcpyDeviceToDevice, stream_));
    return static_cast<unsigned char*>(p);
  }
  cudaStream_t stream_;
  std::vector<void*> saved_;
};

}  // namespace

TEMPLATE_TEST_CASE("dependent launch: every configuration with the option, on its own", "[gpu][dependent]", Dl,
                   Dl128, DlSplit, DlAuto) {
  // The split kernel copies an operand TMA cannot describe (K not a multiple of 8) into the
  // workspace, and without one refuses the call (kErrorWorkspaceNull): it is always given one.
  constexpr bool kWorkspace = std::is_same_v<TestType, DlSplit>;
  for (CaseShape s : {tma({1000, 520, 777, 0, 1.0f, 0.5f}), tma({129, 1000, 4096}), CaseShape{300, 257, 131, 3}}) {
    s.workspace = kWorkspace;
    check_gemm<TestType>(s);
    CaseShape in_place = s;
    in_place.in_place = true;
    check_gemm<TestType>(in_place);
    CaseShape packed = s;
    packed.workspace = true;
    check_gemm<TestType>(packed);
  }
}

TEST_CASE("dependent launch: small M with the option, on its own", "[gpu][dependent]") {
  for (CaseShape s : {tma({1, 4096, 4096}), tma({16, 1000, 64, 0, 1.0f, 0.5f}), tma({13, 520, 2048, 0, -1.0f, 1.0f})}) {
    check_gemm<DlSmallM>(s);
  }
}

TEMPLATE_TEST_CASE("dependent launch: the GEMM reads what the previous kernel wrote, not what was there",
                   "[gpu][dependent]", Dl, DlSplit, DlAuto) {
  check_reads_after_late_writer<TestType>(tma({512, 1024, 512, 0, 1.0f, 0.5f}));
  check_reads_after_late_writer<TestType>(tma({256, 256, 8192}));
}

TEST_CASE("dependent launch: small M reads what the previous kernel wrote", "[gpu][dependent]") {
  check_reads_after_late_writer<DlSmallM>(tma({8, 2048, 4096}));
}

// GEMM 1 (one 128 x 128 tile, K deep: one CTA for a long time) then GEMM 2 launched as its
// dependent on the same stream, either reading D1 as its A (read after write) or writing its D
// over GEMM 1's A (write after read).
TEST_CASE("dependent launch: one GEMM after another, reading the first's D or writing over its A",
          "[gpu][dependent]") {
  using test::DeviceBuffer;
  using test::HostCase;
  const CaseShape first = tma({128, 128, 32768});
  const std::uint64_t seed = test::fresh_seed();
  INFO("seed " << seed);
  const HostCase<Dl128> host1(first, seed);
  OwnStream stream;
  // GEMM 1, then GEMM 2 as its dependent, on one stream.
  auto run_both = [&](const HostCase<Dl128>::Args& args1, const HostCase<Dl>::Args& args2) {
    REQUIRE(gemm::Gemm<Dl128>::run(args1, nullptr, stream.s) == Status::kSuccess);
    REQUIRE(gemm::Gemm<Dl>::run(args2, nullptr, stream.s) == Status::kSuccess);
    REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  };
  auto check_first = [&](const std::vector<bf16>& d1) {
    const test::CaseOutcome r1 = host1.check_output(d1, DeviceBuffer<bf16>::kGuard);
    CHECK_CASE_OUTCOME(first, r1);
  };

  SECTION("read after write: GEMM 2's A is GEMM 1's D") {
    DeviceBuffer<bf16> a1(host1.a), b1(host1.b), c1(host1.c), d1(host1.d);
    HostCase<Dl> host2(tma({128, 8192, 128, 0, 1.0f, 0.5f}), seed + 10);
    REQUIRE(host2.lda == host1.ldd);  // D1 (row-major 128 x 128) read as A2 (row-major 128 x 128)
    DeviceBuffer<bf16> b2(host2.b), c2(host2.c), d2(host2.d);
    run_both(host1.arguments(a1.ptr, b1.ptr, c1.ptr, d1.ptr), host2.arguments(d1.ptr, b2.ptr, c2.ptr, d2.ptr));
    const std::vector<bf16> got1 = d1.download_with_guard();
    check_first(got1);
    // GEMM 2 against the reference of the D1 that GEMM 1 wrote.
    host2.a.assign(got1.begin(), got1.begin() + std::ptrdiff_t(host2.a.size()));
    const test::CaseOutcome r2 = host2.check_output(d2.download_with_guard(), DeviceBuffer<bf16>::kGuard);
    CHECK_CASE_OUTCOME(host2.shape, r2);
  }

  SECTION("write after read: GEMM 2's D is GEMM 1's A") {
    DeviceBuffer<bf16> a1(host1.a), b1(host1.b), c1(host1.c), d1(host1.d);
    // D2, row-major 128 x 32768, covers A1 (row-major 128 x 32768) exactly.
    const HostCase<Dl> host2(tma({128, 32768, 64}), seed + 20);
    REQUIRE(host2.ldd == host1.lda);
    REQUIRE(host2.d.size() == host1.a.size());
    DeviceBuffer<bf16> a2(host2.a), b2(host2.b), c2(host2.c);
    run_both(host1.arguments(a1.ptr, b1.ptr, c1.ptr, d1.ptr), host2.arguments(a2.ptr, b2.ptr, c2.ptr, a1.ptr));
    check_first(d1.download_with_guard());
    const test::CaseOutcome r2 = host2.check_output(a1.download_with_guard(), DeviceBuffer<bf16>::kGuard);
    CHECK_CASE_OUTCOME(host2.shape, r2);
  }
}

// Captured, the dependent launch is a programmatic edge of the graph: replayed twice, with a new
// A between the replays, the GEMM reads each replay's A.
TEST_CASE("dependent launch: captured into a CUDA graph and replayed", "[gpu][dependent]") {
  using test::DeviceBuffer;
  using test::HostCase;
  const CaseShape s = tma({512, 1024, 512, 0, 1.0f, 0.5f});
  const std::uint64_t seed = test::fresh_seed();
  INFO("seed " << seed);
  HostCase<Dl> host(s, seed);
  std::vector<bf16> poisoned_a(host.a.size());
  test::poison(poisoned_a);
  DeviceBuffer<bf16> final_a(host.a), da(poisoned_a), db(host.b), dc(host.c), dd(host.d);
  const auto args = host.arguments(da.ptr, db.ptr, dc.ptr, dd.ptr);
  OwnStream stream;
  REQUIRE(gemm::Gemm<Dl>::run(args, nullptr, stream.s) == Status::kSuccess);  // first call outside the capture
  REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  REQUIRE_CUDA(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeThreadLocal));
  late_copy_kernel<<<1, 256, 0, stream.s>>>({final_a.ptr, da.ptr, std::int64_t(host.a.size() * sizeof(bf16))}, {},
                                            300000);
  const Status captured = gemm::Gemm<Dl>::run(args, nullptr, stream.s);
  REQUIRE_CUDA(cudaStreamEndCapture(stream.s, &graph));
  REQUIRE(captured == Status::kSuccess);
  REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    INFO("replay " << replay);
    if (replay == 1) {
      test::fill_random(host.a, seed + 100);
      REQUIRE_CUDA(cudaMemcpy(final_a.ptr, host.a.data(), host.a.size() * sizeof(bf16), cudaMemcpyHostToDevice));
    }
    REQUIRE_CUDA(cudaMemcpy(da.ptr, poisoned_a.data(), poisoned_a.size() * sizeof(bf16), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemcpy(dd.ptr, host.d.data(), host.d.size() * sizeof(bf16), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaGraphLaunch(exec, stream.s));
    REQUIRE_CUDA(cudaStreamSynchronize(stream.s));
    const test::CaseOutcome r = host.check_output(dd.download_with_guard(), DeviceBuffer<bf16>::kGuard);
    CHECK_CASE_OUTCOME(s, r);
  }
  REQUIRE_CUDA(cudaGraphExecDestroy(exec));
  REQUIRE_CUDA(cudaGraphDestroy(graph));
}

TEMPLATE_TEST_CASE("dependent launch: fp8 configurations with the option, on their own", "[gpu][dependent][fp8]",
                   DlFp8Block, DlFp8Tensor) {
  using test::Fp8Case;
  // K tails inside a scale block, beta with C == D, and an A that TMA cannot describe (the
  // packed path) beside the aligned ones.
  test::check_fp8<TestType>(Fp8Case{1000, 520, 784, 0, 1.0f, 0.5f});
  test::check_fp8<TestType>(Fp8Case{129, 1000, 4096, 16, 1.0f, 1.0f, true});
  Fp8Case packed{300, 256, 200, 3};
  packed.workspace = true;
  test::check_fp8<TestType>(packed);
}

TEST_CASE("dependent launch: fp8 decode (transposed K split) with the option, on its own", "[gpu][dependent][fp8]") {
  using test::Fp8Case;
  for (const Fp8Case& s : {Fp8Case{1, 4096, 4096}, Fp8Case{16, 1000, 784, 0, 1.0f, 0.5f}, Fp8Case{13, 512, 2048}}) {
    test::check_fp8<DlFp8SmallM>(s);
  }
}

TEMPLATE_TEST_CASE("dependent launch: fp8 reads the codes and scales the previous kernel wrote",
                   "[gpu][dependent][fp8]", DlFp8Block, DlFp8Tensor, DlFp8SmallM) {
  using test::Fp8Case;
  const bool decode = std::is_same_v<TestType, DlFp8SmallM>;
  for (Fp8Case s : {decode ? Fp8Case{8, 2048, 4096} : Fp8Case{512, 1024, 512, 0, 1.0f, 0.5f},
                    decode ? Fp8Case{64, 512, 8192} : Fp8Case{256, 256, 8192}}) {
    OwnStream stream;
    s.stream = stream.s;
    // No amax: asking for it puts a memset (its reset) between the writer and the GEMM, which
    // then waits for the writer as any launch does, and the race is not exercised.
    s.amax = false;
    test::check_fp8<TestType>(s, PoisonUntilLateWriter(stream.s));
  }
}

TEST_CASE("dependent launch sanitizer cross-section", "[gpu][dependent][sanitize]") {
  check_gemm<Dl>(tma({300, 520, 200, 0, 1.0f, 0.5f}));
  check_gemm<DlSplit>(tma({256, 256, 4096}));
  check_gemm<DlSmallM>(tma({8, 1000, 512}));
  test::check_fp8<DlFp8Block>(test::Fp8Case{300, 256, 384, 0, 1.0f, 0.5f});
}
