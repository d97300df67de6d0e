// The family-neutral host API (gemm/gemm.hpp, gemm/select/dispatch.hpp) with a fake kernel
// family, on the host: which device a configuration accepts, the order of the checks,
// and that a family's own requirements and refusals reach the caller. (A host build has
// no device: run() must stop at kErrorNoDevice after the argument checks, never launch.)
#include <catch2/catch.hpp>

#include <cstring>
#include <type_traits>

#include "tessera/gemm/select/dispatch.hpp"
#include "tessera/gemm/gemm.hpp"

namespace tessera::gemm {

struct FakeFamily {};

template <class Arch_>
struct FakeConfig {
  using Family = FakeFamily;
  using Arch = Arch_;
  using ElementA = float;
  using ElementB = float;
  using ElementC = float;
  using ElementD = float;
  using Epilogue = LinearCombination;
  using LayoutA = RowMajor;
  using LayoutB = ColumnMajor;
  using LayoutC = RowMajor;
};

// Counts launches so that a test can see none happened.
inline int g_fake_launches = 0;

template <class Config>
struct KernelLauncher<FakeFamily, Config> {
  using Args = ConfigArguments<Config>;
  static OperandRequirements requirements() {
    OperandRequirements r;
    r.align_a = r.align_b = 16;  // as a tensor-core family would ask
    return r;
  }
  static Status check(const Args& a) {
    return a.K % 8 != 0 ? Status::kErrorUnsupported : Status::kSuccess;
  }
  static std::size_t workspace_size(const Args&, const DeviceInfo&) { return 4096; }
  static Status launch(const Args&, void*, Stream, const DeviceInfo&) {
    ++g_fake_launches;
    return Status::kSuccess;
  }
};

}  // namespace tessera::gemm

using namespace tessera;
using namespace tessera::gemm;

namespace {

DeviceInfo nvidia(int cc) {
  DeviceInfo d;
  d.compute_capability = cc;
  std::strcpy(d.arch_name, "sm_xx");
  return d;
}
DeviceInfo amd(const char* gfx) {
  DeviceInfo d;
  d.amd = true;
  std::strcpy(d.arch_name, gfx);
  return d;
}

}  // namespace

TEST_CASE("a configuration runs only on the architecture it was built for", "[gemm][arch]") {
  // sm_90a and sm_100a code uses features of exactly that chip.
  CHECK(runs_on<Sm90>(nvidia(90)));
  CHECK_FALSE(runs_on<Sm90>(nvidia(100)));  // a wgmma kernel on a Blackwell GPU
  CHECK_FALSE(runs_on<Sm90>(nvidia(89)));
  CHECK(runs_on<Sm100>(nvidia(100)));
  CHECK_FALSE(runs_on<Sm100>(nvidia(103)));
  CHECK_FALSE(runs_on<Sm100>(nvidia(90)));
  // Plain sm_80 code runs on later generations.
  CHECK(runs_on<Sm80>(nvidia(80)));
  CHECK(runs_on<Sm80>(nvidia(90)));
  CHECK_FALSE(runs_on<Sm80>(nvidia(75)));
  // AMD: the gfx target must match exactly; vendors never mix.
  CHECK(runs_on<Gfx942>(amd("gfx942")));
  CHECK_FALSE(runs_on<Gfx942>(amd("gfx950")));  // a gfx942 tile on an MI355
  CHECK_FALSE(runs_on<Gfx950>(amd("gfx942")));  // a gfx950 tile on an MI300
  CHECK_FALSE(runs_on<Gfx942>(nvidia(90)));
  CHECK_FALSE(runs_on<Sm90>(amd("gfx942")));
}

TEST_CASE("Dispatch picks the first configuration the device runs", "[gemm][dispatch]") {
  using NV = Dispatch<FakeConfig<Sm90>, FakeConfig<Sm100>>;
  CHECK(std::strcmp(NV::chosen_arch(nvidia(90)), "sm_90a") == 0);
  CHECK(std::strcmp(NV::chosen_arch(nvidia(100)), "sm_100a") == 0);
  CHECK(NV::chosen_arch(nvidia(120)) == nullptr);
  CHECK(NV::chosen_arch(amd("gfx942")) == nullptr);
  using AMD = Dispatch<FakeConfig<Gfx950>, FakeConfig<Gfx942>>;
  CHECK(std::strcmp(AMD::chosen_arch(amd("gfx942")), "gfx942") == 0);
  CHECK(std::strcmp(AMD::chosen_arch(amd("gfx950")), "gfx950") == 0);
  // Order decides between two that both match.
  using Either = Dispatch<FakeConfig<Sm80>, FakeConfig<Sm90>>;
  CHECK(std::strcmp(Either::chosen_arch(nvidia(90)), "sm_80") == 0);
}

TEST_CASE("Gemm<Config> checks arguments, then the family, then the device", "[gemm]") {
  using G = Gemm<FakeConfig<Sm90>>;
  alignas(16) static float a[64], b[64], d[64];
  const Arguments<float, float, float> good{4, 4, 8, a, 8, b, 8, nullptr, 4, d, 4, 1.0f, 0.0f};
  CHECK(G::can_implement(good) == Status::kSuccess);

  auto bad = good;
  bad.M = -1;
  CHECK(G::can_implement(bad) == Status::kErrorNegativeSize);
  bad = good;
  bad.A = a + 1;  // 4 bytes off the 16 the family asks for
  CHECK(G::can_implement(bad) == Status::kErrorMisalignedA);
  bad = good;
  bad.lda = 10;  // 40-byte rows: each line after the first is misaligned
  CHECK(G::can_implement(bad) == Status::kErrorMisalignedA);
  bad = good;
  bad.K = 6;  // the family's own refusal
  bad.lda = bad.ldb = 8;
  CHECK(G::can_implement(bad) == Status::kErrorUnsupported);

  // A host build has no device: argument errors still come first, and nothing launches.
  g_fake_launches = 0;
  bad = good;
  bad.D = nullptr;
  CHECK(G::run(bad) == Status::kErrorNullD);
  CHECK(G::run(good) == Status::kErrorNoDevice);
  CHECK(G::workspace_size(good) == 0);
  using D = Dispatch<FakeConfig<Sm90>, FakeConfig<Sm100>>;
  CHECK(D::run(good) == Status::kErrorNoDevice);
  CHECK(D::can_implement(good) == Status::kErrorNoDevice);
  CHECK(D::workspace_size(good) == 0);
  CHECK(g_fake_launches == 0);
}

namespace {
// A dispatch rule: small M only.
struct SmallM {
  template <class Args>
  static bool accepts(const Args& a, const DeviceInfo&) {
    return a.M <= 64;
  }
};

// An epilogue with arguments of its own, which it checks: D = acc * scale[0].
struct ScaleByPointer {
  struct Arguments {
    const float* scale = nullptr;
  };
  const float* scale;
  static Status can_implement(const Arguments& a, const EpilogueProblem&) {
    return a.scale == nullptr ? Status::kErrorNullEpilogueOperand : Status::kSuccess;
  }
  static ScaleByPointer make(const Arguments& a, const EpilogueProblem&) { return {a.scale}; }
  bool reads_c() const { return false; }
  float operator()(float acc, const EpilogueElement&) const { return acc * scale[0]; }
};
template <class Arch_>
struct FakeConfigWithEpilogue : FakeConfig<Arch_> {
  using Epilogue = ScaleByPointer;
};
}  // namespace

TEST_CASE("candidates accept or refuse arguments, and Dispatch takes the first that accepts", "[gemm][dispatch]") {
  alignas(16) static float a[64], b[64], d[64];
  const Arguments<float, float, float> good{4, 4, 8, a, 8, b, 8, nullptr, 4, d, 4, 1.0f, 0.0f};
  auto big = good;
  big.M = 128;
  auto bad = good;
  bad.K = 6;  // the family refuses it
  bad.lda = bad.ldb = 8;

  CHECK(Gemm<FakeConfig<Sm90>>::accepts(good, nvidia(90)));
  CHECK_FALSE(Gemm<FakeConfig<Sm90>>::accepts(good, nvidia(100)));  // wrong device
  CHECK_FALSE(Gemm<FakeConfig<Sm90>>::accepts(bad, nvidia(90)));    // arguments refused

  using D = Dispatch<When<SmallM, FakeConfig<Sm90>>, FakeConfig<Sm80>>;
  CHECK(D::accepted_by<When<SmallM, FakeConfig<Sm90>>>(good, nvidia(90)));
  CHECK_FALSE(D::accepted_by<When<SmallM, FakeConfig<Sm90>>>(big, nvidia(90)));  // the rule refuses
  CHECK(D::accepted_by<FakeConfig<Sm80>>(big, nvidia(90)));                       // the next one takes it
  CHECK_FALSE(D::accepted_by<FakeConfig<Sm80>>(bad, nvidia(90)));
  CHECK_FALSE(D::accepted_by<When<SmallM, FakeConfig<Sm90>>>(good, nvidia(100)));
}

TEST_CASE("an epilogue's own arguments are checked with the GEMM's", "[gemm][epilogue]") {
  using G = Gemm<FakeConfigWithEpilogue<Sm90>>;
  STATIC_REQUIRE(std::is_same_v<G::Args, Arguments<float, float, float, float, ScaleByPointer::Arguments>>);
  alignas(16) static float a[64], b[64], d[64];
  static const float two = 2.0f;
  G::Args args{4, 4, 8, a, 8, b, 8, nullptr, 4, d, 4, 1.0f, 0.0f, {&two}};
  CHECK(G::can_implement(args) == Status::kSuccess);
  args.epilogue.scale = nullptr;
  CHECK(G::can_implement(args) == Status::kErrorNullEpilogueOperand);
  args.M = -1;  // the GEMM's own checks come first
  CHECK(G::can_implement(args) == Status::kErrorNegativeSize);
}

TEST_CASE("LinearCombination and Compose apply in order and say whether C is read", "[gemm][epilogue]") {
  const EpilogueProblem problem{8, 8, 8, 2.0f, 0.5f};
  const LinearCombination lc = LinearCombination::make({}, problem);
  CHECK(lc.reads_c());
  CHECK(lc(3.0f, EpilogueElement{1, 2, 10.0f, true}) == 2.0f * 3.0f + 0.5f * 10.0f);
  CHECK(lc(3.0f, EpilogueElement{1, 2, 10.0f, false}) == 6.0f);  // outside M x N: no C
  CHECK_FALSE(LinearCombination::make({}, EpilogueProblem{8, 8, 8, 2.0f, 0.0f}).reads_c());

  using Both = Compose<LinearCombination, ScaleByPointer>;
  static const float three = 3.0f;
  Both::Arguments args{{{}}, {{&three}}};
  CHECK(Both::can_implement(args, problem) == Status::kSuccess);
  const Both both = Both::make(args, problem);
  CHECK(both.reads_c());
  CHECK(both(3.0f, EpilogueElement{0, 0, 10.0f, true}) == (6.0f + 5.0f) * 3.0f);  // linear first, then scale
  Both::Arguments missing{{{}}, {{nullptr}}};
  CHECK(Both::can_implement(missing, problem) == Status::kErrorNullEpilogueOperand);
}
