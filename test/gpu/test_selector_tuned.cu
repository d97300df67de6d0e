// GPU tests of the selector's opt-in modes: Gemm<AutoModel<...>> (the cost model's choice,
// select/cost_model.hpp) and Gemm<Tuned<...>> (the first call of a shape times candidates,
// select/tuned.hpp): right results on odd shapes (in place included: the tuning calls must not
// touch C == D), the choice cached, nothing timed under graph capture, the file on this device;
// and explain(args, workspace, bytes) for a workspace too small to be used. Against the float64
// reference with poisoned outputs (gemm_case.hpp). Label `gpu`; needs an sm_90 device.
#include "tessera/gemm/select/auto.hpp"
#include "tessera/gemm/select/tuned.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gemm_case.hpp"

using namespace tessera;
using tessera::test::CaseShape;
using tessera::test::check_gemm;

namespace {

using AutoTn = gemm::Auto<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
using AutoModelTn = gemm::AutoModel<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor>;
using AutoModelCn = gemm::AutoModel<half_t, ColumnMajor, half_t, RowMajor, float, ColumnMajor>;
using TunedTn = gemm::Tuned<AutoTn>;
using TunedModelCn = gemm::Tuned<AutoModelCn>;

CaseShape tma(CaseShape s) {  // every leading dimension a multiple of 8 (TMA's 16 bytes)
  s.ld_multiple = 8;
  return s;
}
CaseShape in_place(CaseShape s) {
  s.in_place = true;
  return s;
}

const std::vector<CaseShape> kOddShapes = {CaseShape{1000, 33, 129, 5, 1.0f, 1.0f}, CaseShape{7, 1000, 101, 1, 1.0f, 0.5f},
                                           tma({24, 4096, 512}), tma({640, 1024, 520, 0, 1.0f, 1.0f}),
                                           tma({256, 512, 4096, 0, 1.0f, 0.5f})};

// Random bf16 A (row-major M x K), B (W[N][K]) and a D (row-major M x N) on the device.
struct Operands {
  std::int64_t M, N, K;
  test::DeviceBuffer<bfloat16_t> a, b, d;
  static std::vector<bfloat16_t> random(std::int64_t n, std::uint64_t seed) {
    std::vector<bfloat16_t> v(static_cast<std::size_t>(n));
    test::fill_random(v, seed);
    return v;
  }
  Operands(std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed)
      : M(m), N(n), K(k), a(random(m * k, seed)), b(random(k * n, seed + 1)), d(random(m * n, seed + 2)) {}
  gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> arguments() const {
    return {M, N, K, a.ptr, K, b.ptr, K, d.ptr, N, d.ptr, N, 1.0f, 0.0f};
  }
};

}  // namespace

TEMPLATE_TEST_CASE("cost-model selector: its choice takes the arguments and computes the right result",
                   "[gpu][selector][cost]", AutoModelTn, AutoModelCn) {
  using A = TestType;
  auto record = [&](const auto& args, const void* workspace) {
    const gemm::AutoChoice c = gemm::auto_choice<A>(args, workspace);
    INFO(gemm::explain<A>(args, workspace));
    CHECK(A::Entries::with(c.entry, [&](auto e) { return gemm::Gemm<decltype(e)>::can_implement(args); }) ==
          Status::kSuccess);
  };
  for (const CaseShape& s : kOddShapes) {
    check_gemm<A>(s, record);
    check_gemm<A>(in_place(s));
    CaseShape w = s;
    w.workspace = true;
    check_gemm<A>(w, record);
  }
}

// The first call of a shape times the candidates on a scratch D and caches the winner; the
// output (in place included) is the product's, and a second call runs the cached entry.
TEMPLATE_TEST_CASE("tuned: correct on odd shapes, in place included, one choice cached per shape",
                   "[gpu][selector][tuned]", TunedTn, TunedModelCn) {
  using T = TestType;
  gemm::tuned_cache<T>().clear();
  std::size_t keys = 0;
  for (const CaseShape& s : kOddShapes) {
    for (const CaseShape& c : {s, in_place(s)}) {
      check_gemm<T>(c);
      const std::size_t after_first = gemm::tuned_cache<T>().size();
      CHECK(after_first <= keys + 1);
      check_gemm<T>(c);  // the cached choice
      CHECK(gemm::tuned_cache<T>().size() == after_first);
      keys = after_first;
    }
  }
  CHECK(keys >= kOddShapes.size());  // beta 0 and beta != 0 of a shape are keys of their own
}

TEST_CASE("tuned: nothing is timed or cached inside graph capture", "[gpu][selector][tuned]") {
  gemm::tuned_cache<TunedTn>().clear();
  Operands ops(200, 1024, 512, 91);
  const auto args = ops.arguments();
  cudaStream_t s = nullptr;
  REQUIRE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  REQUIRE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  const Status st = gemm::Gemm<TunedTn>::run(args, nullptr, s);
  REQUIRE_CUDA(cudaStreamEndCapture(s, &graph));
  CHECK(st == Status::kSuccess);
  CHECK(gemm::tuned_cache<TunedTn>().size() == 0);
  cudaGraphExec_t exec = nullptr;
  REQUIRE_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  REQUIRE_CUDA(cudaGraphLaunch(exec, s));
  REQUIRE_CUDA(cudaStreamSynchronize(s));
  // Outside capture the same call tunes.
  REQUIRE(gemm::Gemm<TunedTn>::run(args, nullptr, s) == Status::kSuccess);
  REQUIRE_CUDA(cudaStreamSynchronize(s));
  CHECK(gemm::tuned_cache<TunedTn>().size() == 1);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
}

TEST_CASE("tuned: choices saved and loaded on this device; a foreign or missing file loads nothing",
          "[gpu][selector][tuned]") {
  gemm::tuned_cache<TunedTn>().clear();
  Operands ops(64, 2048, 1024, 92);
  REQUIRE(gemm::Gemm<TunedTn>::run(ops.arguments(), nullptr, nullptr) == Status::kSuccess);
  REQUIRE_CUDA(cudaDeviceSynchronize());
  gemm::AutoEntry timed{};
  REQUIRE(gemm::tuned_choice<TunedTn>(ops.arguments(), nullptr, &timed));
  const std::string path = "tessera_test_tuned_" + std::to_string(std::uintptr_t(&timed)) + ".txt";
  REQUIRE(gemm::tuned_save<TunedTn>(path) == Status::kSuccess);
  gemm::tuned_cache<TunedTn>().clear();
  REQUIRE(gemm::tuned_load<TunedTn>(path) == Status::kSuccess);
  gemm::AutoEntry loaded{};
  REQUIRE(gemm::tuned_choice<TunedTn>(ops.arguments(), nullptr, &loaded));
  CHECK(loaded == timed);
  {
    std::ofstream f(path, std::ios::trunc);
    f << "tessera-tuned 1 sms=3 device=Some Other GPU\n64 2048 1024 1 0 1 0 0 kLarge\n";
  }
  gemm::tuned_cache<TunedTn>().clear();
  CHECK(gemm::tuned_load<TunedTn>(path) == Status::kErrorTunedCacheForeignDevice);
  CHECK(gemm::tuned_cache<TunedTn>().size() == 0);
  std::remove(path.c_str());
  CHECK(gemm::tuned_load<TunedTn>(path) == Status::kErrorTunedCacheUnreadable);
}

TEST_CASE("explain: a workspace smaller than workspace_size(args) is said not to be used", "[gpu][selector]") {
  const auto* fake = reinterpret_cast<bfloat16_t*>(std::uintptr_t(1) << 20);
  const gemm::Arguments<bfloat16_t, bfloat16_t, bfloat16_t> deep{
      1024, 1024, 32768, fake, 32768, fake, 32768, fake, 1024, const_cast<bfloat16_t*>(fake), 1024, 1.0f, 0.0f};
  const std::size_t need = gemm::Gemm<AutoTn>::workspace_size(deep);
  REQUIRE(need > 0);
  static const char any_workspace = 0;
  const std::string small = gemm::explain<AutoTn>(deep, &any_workspace, need - 1);
  INFO(small);
  CHECK(small.find("without a workspace") != std::string::npos);
  CHECK(small.find("run does not use them") != std::string::npos);
  CHECK(gemm::auto_choice<AutoTn>(deep, &any_workspace, need - 1).entry == gemm::auto_choice<AutoTn>(deep).entry);
  const std::string enough = gemm::explain<AutoTn>(deep, &any_workspace, need);
  CHECK(enough.find("with a workspace") != std::string::npos);
  const std::string model = gemm::explain<AutoModelTn>(deep);
  INFO(model);
  CHECK(model.find("cost model") != std::string::npos);
}
