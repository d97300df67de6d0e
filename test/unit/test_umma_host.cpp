// Host checks of the Blackwell tcgen05 family (no GPU; no Blackwell GPU has run it): the two
// descriptors field by field against the PTX ISA's tables, for every shipped configuration
// (examples/umma_configs.hpp); that the shared-memory descriptors describe exactly the stage
// tiles the TMA fills; the tensor-memory plans; the configurations' shared-memory plans; the
// epilogue's staging stores; and the order of the pipeline's barrier hand-offs (a model of
// the kernel's waits and arrivals with the configurations' arrival counts, run to the end in
// many interleavings).
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <set>
#include <type_traits>
#include <vector>

#include "tessera/gemm/tma/stage_ring.hpp"
#include "tessera/gemm/umma/smem_plan.hpp"
#include "tessera/memory/tmem_plan.hpp"
#include "tessera/mma/umma_atom.hpp"
#include "tessera/mma/umma_lowp_atom.hpp"
#include "descriptor_field.hpp"
#include "umma_configs.hpp"

using namespace tessera;
namespace umma = tessera::mma::umma;

namespace {

using tessera::test::Field;
using tessera::test::field;

// PTX ISA 9.7.16.4.2, Table 42 (instruction descriptor, .kind::f16 and .kind::f8f6f4: the
// same fields), written out here independently of the encoder.
constexpr Field kSparseSelector{0, 2}, kSparse{2, 1}, kSaturate{3, 1}, kDType{4, 2}, kReserved6{6, 1},
    kAType{7, 3}, kBType{10, 3}, kNegateA{13, 1}, kNegateB{14, 1}, kTransposeA{15, 1}, kTransposeB{16, 1},
    kNShr3{17, 6}, kReserved23{23, 1}, kMShr4{24, 5}, kReserved29{29, 1}, kMaxShift{30, 2};

// Table 42's A / B type codes: .kind::f16 F16 = 0, BF16 = 1; .kind::f8f6f4 E4M3 = 0, E5M2 = 1,
// E2M3 = 3, E3M2 = 4, E2M1 = 5.
template <class T>
std::uint64_t table42_type() {
  if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, float8_e4m3_t>) {
    return 0;
  } else if constexpr (std::is_same_v<T, float6_e2m3x4_t>) {
    return 3;
  } else if constexpr (std::is_same_v<T, float6_e3m2x4_t>) {
    return 4;
  } else if constexpr (std::is_same_v<T, float4_e2m1x2_t>) {
    return 5;
  } else {
    static_assert(std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float8_e5m2_t>, "no Table 42 code");
    return 1;
  }
}

template <class Config>
void check_instruction_descriptor() {
  const std::uint64_t v = Config::kIdesc;
  INFO("idesc 0x" << std::hex << v);
  CHECK(field(v, kSparseSelector) == 0);
  CHECK(field(v, kSparse) == 0);  // dense
  CHECK(field(v, kSaturate) == 0);
  CHECK(field(v, kDType) == 1);  // F32 accumulators
  CHECK(field(v, kReserved6) == 0);
  CHECK(field(v, kAType) == table42_type<typename Config::ElementA>());
  CHECK(field(v, kBType) == table42_type<typename Config::ElementB>());
  CHECK(field(v, kNegateA) == 0);
  CHECK(field(v, kNegateB) == 0);
  // Transposed = MN-major: a column-major A (M contiguous), a row-major B (N contiguous).
  CHECK(field(v, kTransposeA) == (Config::LayoutA::kIsRowMajor ? 0u : 1u));
  CHECK(field(v, kTransposeB) == (Config::LayoutB::kIsRowMajor ? 1u : 0u));
  CHECK(field(v, kNShr3) == std::uint64_t(Config::kMmaN >> 3));
  CHECK(field(v, kReserved23) == 0);
  CHECK(field(v, kMShr4) == std::uint64_t(Config::kMmaM >> 4));
  CHECK(field(v, kReserved29) == 0);
  CHECK(field(v, kMaxShift) == 0);
  // The decoder reads back what the encoder wrote.
  const auto d = umma::decode_instr_descriptor(Config::kIdesc);
  CHECK(d.m == Config::kMmaM);
  CHECK(d.n == Config::kMmaN);
  CHECK(umma::encode(d) == Config::kIdesc);
}

}  // namespace

TEST_CASE("tcgen05 instruction descriptors: every field where Table 42 puts it", "[umma][descriptor]") {
  check_instruction_descriptor<examples::umma::Tn>();
  check_instruction_descriptor<examples::umma::NnF32>();
  check_instruction_descriptor<examples::umma::ColD>();
  check_instruction_descriptor<examples::umma::Multicast>();
  check_instruction_descriptor<examples::umma::Pair>();
  check_instruction_descriptor<examples::umma::Pair::RealigningConfig>();
  check_instruction_descriptor<examples::umma::Fp8>();
  check_instruction_descriptor<examples::umma::Fp8Pair>();
  check_instruction_descriptor<examples::umma::Fp8Pair::RealigningConfig>();
  check_instruction_descriptor<examples::umma::Fp4>();
  check_instruction_descriptor<examples::umma::Fp8Fp4>();
  check_instruction_descriptor<examples::umma::Fp6Pair>();
  STATIC_REQUIRE(examples::umma::Fp8::kLowp && examples::umma::Fp8Pair::kLowp && !examples::umma::Tn::kLowp);
  STATIC_REQUIRE(examples::umma::Fp4::kLowp && examples::umma::Fp8Fp4::kLowp && examples::umma::Fp6Pair::kLowp);
  // Two values worked out by hand from the table: bf16 x bf16 -> f32, both K-major,
  // M=128 N=256: D type bit 4, A and B type bits 7 and 10, N>>3 = 32 at bit 17, M>>4 = 8 at
  // bit 24; the pair's M=256 puts 16 at bit 24.
  CHECK(examples::umma::Tn::kIdesc == 0x08400490u);
  CHECK(examples::umma::Pair::kIdesc == 0x10400490u);
  // fp16, B N-major, N = 128: no type bits, transpose B (bit 16), N>>3 = 16.
  CHECK(examples::umma::NnF32::kIdesc == 0x08210010u);
  // .kind::f8f6f4, e4m3 x e4m3 -> f32, K-major, M=128 N=256: type codes 0, so only D type,
  // N and M; e4m3 x e5m2 on a pair (M=256): B type 1 at bit 10.
  CHECK(examples::umma::Fp8::kIdesc == 0x08400010u);
  CHECK(examples::umma::Fp8Pair::kIdesc == 0x10400410u);
  // fp4 x fp4 (E2M1 = 5 at bits 7 and 10: 0x280 | 0x1400), 128 x 256: 0x08401690; e4m3 x
  // e2m1: only B's 0x1400; e3m2 (4: 0x200) x e2m3 (3: 0xc00) on a pair, M = 256: 0x10400e10.
  // The same values come from CUTLASS's UMMA::make_instr_desc (cute/arch/mma_sm100_desc.hpp)
  // for float_e2m1_unpacksmem_t etc. (see benchmark/notes/lowp_amd_sm100.md).
  CHECK(examples::umma::Fp4::kIdesc == 0x08401690u);
  CHECK(examples::umma::Fp8Fp4::kIdesc == 0x08401410u);
  CHECK(examples::umma::Fp6Pair::kIdesc == 0x10400e10u);
  // Every format code of the .kind::f8f6f4 column, and Tessera's storage type of each.
  CHECK(std::uint32_t(umma::F8F6F4Format::kE4M3) == 0);
  CHECK(std::uint32_t(umma::F8F6F4Format::kE5M2) == 1);
  CHECK(std::uint32_t(umma::F8F6F4Format::kE2M3) == 3);
  CHECK(std::uint32_t(umma::F8F6F4Format::kE3M2) == 4);
  CHECK(std::uint32_t(umma::F8F6F4Format::kE2M1) == 5);
  STATIC_REQUIRE(umma::f8f6f4_format<float6_e2m3x4_t>() == umma::F8F6F4Format::kE2M3);
  STATIC_REQUIRE(umma::f8f6f4_format<float6_e3m2x4_t>() == umma::F8F6F4Format::kE3M2);
  STATIC_REQUIRE(umma::f8f6f4_format<float4_e2m1x2_t>() == umma::F8F6F4Format::kE2M1);
  // K of one MMA: 32 bytes of a K-major row in a stage (16 16-bit values; 32 values of
  // .kind::f8f6f4, each staged in a byte).
  STATIC_REQUIRE(umma::kF16K == 16);
  STATIC_REQUIRE(umma::kF8F6F4K == 32);
}

TEST_CASE("tcgen05 shared-memory descriptors: every field where Table 40 puts it", "[umma][descriptor]") {
  // PTX ISA 9.7.16.4.1, Table 40.
  constexpr Field kStart{0, 14}, kReserved14{14, 2}, kLbo{16, 14}, kReserved30{30, 2}, kSbo{32, 14},
      kFixed{46, 3}, kBaseOffset{49, 3}, kLboMode{52, 1}, kFixedZero{53, 8}, kSwizzle{61, 3};
  umma::SmemDescriptor d;
  d.start_address = 0x2a430;  // 16-byte aligned, below 256 KiB
  d.leading_byte_offset = 8192;
  d.stride_byte_offset = 1024;
  d.base_offset = 5;
  d.lbo_absolute = true;
  d.swizzle = umma::Swizzle::k128B;
  const std::uint64_t v = umma::encode(d);
  INFO("descriptor 0x" << std::hex << v);
  CHECK(field(v, kStart) == (0x2a430u >> 4));
  CHECK(field(v, kReserved14) == 0);
  CHECK(field(v, kLbo) == 8192u >> 4);
  CHECK(field(v, kReserved30) == 0);
  CHECK(field(v, kSbo) == 1024u >> 4);
  CHECK(field(v, kFixed) == 1);  // 0b001
  CHECK(field(v, kBaseOffset) == 5);
  CHECK(field(v, kLboMode) == 1);
  CHECK(field(v, kFixedZero) == 0);
  CHECK(field(v, kSwizzle) == 2);  // 128-byte swizzle
  // The swizzle codes of the table.
  CHECK(std::uint32_t(umma::Swizzle::kNone) == 0);
  CHECK(std::uint32_t(umma::Swizzle::k128BAtom32B) == 1);
  CHECK(std::uint32_t(umma::Swizzle::k64B) == 4);
  CHECK(std::uint32_t(umma::Swizzle::k32B) == 6);
  // Round trip; only (x & 0x3FFFF) >> 4 is kept of an address ("matrix-descriptor-encode").
  const auto back = umma::decode_smem_descriptor(v);
  CHECK(back.start_address == d.start_address);
  CHECK(back.leading_byte_offset == d.leading_byte_offset);
  CHECK(back.stride_byte_offset == d.stride_byte_offset);
  CHECK(back.fixed_001 == 1);
  CHECK(back.base_offset == 5);
  CHECK(back.lbo_absolute);
  CHECK(back.swizzle == umma::Swizzle::k128B);
  d.start_address = 0x40010;
  CHECK(umma::decode_smem_descriptor(umma::encode(d)).start_address == 0x10u);
}

namespace {
// The 128-byte swizzle on shared-memory addresses: in each 1024-byte block, 16-byte chunk c of
// 128-byte row r lands at chunk c ^ r (what the TMA writes and the MMA reads).
std::uint32_t swizzle128(std::uint32_t address) { return address ^ (((address >> 7) & 7u) << 4); }

// Where the canonical layout of a K step (CUTLASS make_umma_desc; PTX ISA 9.7.16.3) puts
// element (mn, k) of `bytes` bytes, k < 32 / bytes (one MMA's K), given the descriptor's fields.
std::uint32_t canonical_address(const umma::SmemDescriptor& d, bool k_major, int mn, int k, int bytes) {
  const int line = 128 / bytes;  // elements of a 128-byte line
  const std::uint32_t linear =
      k_major ? d.start_address + std::uint32_t(mn / 8) * d.stride_byte_offset + std::uint32_t(mn % 8) * 128 +
                    std::uint32_t(k * bytes)
              : d.start_address + std::uint32_t(mn / line) * d.leading_byte_offset +
                    std::uint32_t(k / 8) * d.stride_byte_offset + std::uint32_t(k % 8) * 128 +
                    std::uint32_t((mn % line) * bytes);
  return swizzle128(linear);
}

// Every element of every K step of a stage tile, found by the descriptor where the tile's
// layout (the TMA's bytes, layout/sm90_tile.hpp) put it.
template <class Tile, bool kKMajor, int kRows>
void check_descriptors_find_tile() {
  const std::uint32_t base = 0x8400;  // a stage: 1024-byte aligned
  constexpr int kStepK = 32 / Tile::kElementBytes;  // one MMA's K
  for (int kk = 0; kk < 4; ++kk) {
    const umma::SmemDescriptor d = umma::sw128_k_step<Tile, kKMajor, kStepK>(base, kk);
    // The encoded descriptor carries the same fields.
    const auto back = umma::decode_smem_descriptor(umma::encode(d));
    REQUIRE(back.start_address == d.start_address);
    REQUIRE(back.leading_byte_offset == d.leading_byte_offset);
    REQUIRE(back.stride_byte_offset == d.stride_byte_offset);
    REQUIRE(back.swizzle == umma::Swizzle::k128B);
    REQUIRE(back.base_offset == 0);
    for (int mn = 0; mn < kRows; ++mn) {
      for (int k = 0; k < kStepK; ++k) {
        INFO("k step " << kk << " element (" << mn << ", " << k << ")");
        REQUIRE(canonical_address(back, kKMajor, mn, k, Tile::kElementBytes) ==
                base + Tile::offset(mn, kStepK * kk + k));
      }
    }
  }
}

template <class Config>
void check_stage_descriptors() {
  INFO("A " << (Config::kKMajorA ? "K" : "M") << "-major, B " << (Config::kKMajorB ? "K" : "N") << "-major");
  check_descriptors_find_tile<typename Config::TileA, Config::kKMajorA, Config::kBlockM>();
  check_descriptors_find_tile<typename Config::TileB, Config::kKMajorB, Config::kStageRowsB>();
}
}  // namespace

TEST_CASE("tcgen05 shared-memory descriptors describe the stages the TMA fills", "[umma][descriptor]") {
  check_stage_descriptors<examples::umma::Tn>();         // K-major A and B
  check_stage_descriptors<examples::umma::NnF32>();      // N-major B
  check_stage_descriptors<examples::umma::ColD>();       // M-major A, N-major B
  check_stage_descriptors<examples::umma::Pair>();       // a pair's half of B (128 rows)
  check_stage_descriptors<examples::umma::Fp8>();        // fp8: 32-byte K steps of 32 values
  check_stage_descriptors<examples::umma::Fp8Pair>();
  check_stage_descriptors<examples::umma::Fp4>();        // fp4 / fp6: staged a byte a value
  check_stage_descriptors<examples::umma::Fp6Pair>();
  using PairNn = gemm::UmmaConfig<half_t, RowMajor, half_t, RowMajor, half_t, RowMajor,
                                  gemm::option::Tile<GemmShape<256, 256, 64>>,
                                  gemm::option::CtaGroup<gemm::CtaPair>>;
  check_stage_descriptors<PairNn>();                     // and N-major
  STATIC_REQUIRE(PairNn::kStageRowsB == 128);
}

TEST_CASE("the tensor-memory planner: accumulators and their columns", "[umma][tmem]") {
  using Tn = examples::umma::Tn;
  // Double-buffered: the MMA fills one buffer while the epilogue drains the other, so both
  // are live at once: 2 x 256 columns, all of tensor memory, at columns 0 and 256.
  CHECK(gemm::UmmaSmemPlan<Tn>::TmemPlan::kTotalColumns == 512);
  CHECK(gemm::UmmaSmemPlan<Tn>::TmemPlan::kLowerBoundColumns == 512);
  CHECK(gemm::UmmaSmemPlan<Tn>::TmemPlan::kAllocColumns == 512);
  CHECK(gemm::UmmaSmemPlan<Tn>::accumulator_column(0) == 0);
  CHECK(gemm::UmmaSmemPlan<Tn>::accumulator_column(1) == 256);
  CHECK(gemm::UmmaSmemPlan<Tn>::TmemPlan::buffers_interfere(0, 1));
  using NnF32 = examples::umma::NnF32;
  CHECK(gemm::UmmaSmemPlan<NnF32>::TmemPlan::kTotalColumns == 256);
  CHECK(gemm::UmmaSmemPlan<NnF32>::TmemPlan::kAllocColumns == 256);
  // One buffer of 192 columns: the allocation rounds up to a power of two.
  using One192 = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                  gemm::option::Tile<GemmShape<128, 192, 64>>, gemm::option::AccumulatorBuffers<1>>;
  CHECK(gemm::UmmaSmemPlan<One192>::TmemPlan::kTotalColumns == 192);
  CHECK(gemm::UmmaSmemPlan<One192>::TmemPlan::kAllocColumns == 256);
  // Three buffers of 128 fit (384 of 512 columns, allocation 512), three of 256 do not (the
  // compile-fail test umma_config_tmem_capacity shows the message).
  using Three128 = gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor,
                                    gemm::option::Tile<GemmShape<128, 128, 64>>, gemm::option::AccumulatorBuffers<3>>;
  CHECK(gemm::UmmaSmemPlan<Three128>::TmemPlan::kTotalColumns == 384);
  CHECK(gemm::UmmaSmemPlan<Three128>::TmemPlan::kAllocColumns == 512);
  CHECK(gemm::UmmaSmemPlan<Three128>::accumulator_column(2) == 256);
  CHECK(tmem::allocation_columns(1) == 32);
  CHECK(tmem::allocation_columns(32) == 32);
  CHECK(tmem::allocation_columns(33) == 64);
  CHECK(tmem::allocation_columns(257) == 512);
}

namespace {
struct Acc : tmem::Buffer<256> {
  static constexpr const char* kName = "accumulator";
};
struct Scores : tmem::Buffer<128> {
  static constexpr const char* kName = "scores";
};
struct Output : tmem::Buffer<256> {
  static constexpr const char* kName = "output";
};
}  // namespace

TEST_CASE("the tensor-memory planner reuses columns by liveness, as the shared-memory one does", "[umma][tmem]") {
  // Not persistent: a buffer of scores used only in a first loop, an output accumulator only
  // after it: they share columns (total = the larger), while a buffer read across both stays.
  using Sequential = tmem::Plan<tmem::Buffers<Acc, Scores, Output>,
                                tmem::Seq<tmem::Step<tmem::Overwrite<Acc>>,
                                          tmem::Loop<tmem::Step<tmem::Overwrite<Scores>>, tmem::Step<tmem::Read<Scores>>>,
                                          tmem::Step<tmem::Overwrite<Output>>, tmem::Step<tmem::Read<Output, Acc>>>>;
  CHECK(Sequential::kTotalColumns == 512);  // Acc + max(Scores, Output)
  CHECK(Sequential::kLowerBoundColumns == 512);
  CHECK_FALSE(Sequential::interfere<Scores, Output>());
  CHECK(Sequential::interfere<Acc, Output>());
  CHECK(tmem::fits<Sm100, Sequential>);
  // The same buffers in parallel branches (warp-specialised roles): all live together.
  using Parallel = tmem::Plan<tmem::Buffers<Acc, Scores, Output>,
                              tmem::Loop<tmem::Parallel<tmem::Step<tmem::Overwrite<Acc>, tmem::Read<Acc>>,
                                                        tmem::Step<tmem::Overwrite<Scores>, tmem::Read<Scores>>,
                                                        tmem::Step<tmem::Overwrite<Output>, tmem::Read<Output>>>>>;
  CHECK(Parallel::kTotalColumns == 640);
  CHECK_FALSE(tmem::fits<Sm100, Parallel>);
}

TEST_CASE("UmmaConfig plans fit and match their parts", "[umma][plan]") {
  using Tn = examples::umma::Tn;
  STATIC_REQUIRE(Tn::kThreads == 288);
  STATIC_REQUIRE(Tn::kStages == 4);  // 48 KiB a stage beside 32 KiB of staging
  // Persistent and warp-specialised: stages + staging + barriers, nothing shared.
  CHECK(gemm::UmmaSmemPlan<Tn>::Plan::kTotalBytes == gemm::UmmaSmemPlan<Tn>::Plan::kUnsharedBytes);
  CHECK(gemm::UmmaSmemPlan<Tn>::Plan::kTotalBytes <= Sm100::kSmemBytesPerBlock);
  CHECK(gemm::UmmaSmemPlan<Tn>::Plan::offset<gemm::UmmaSmemPlan<Tn>::StagesA>() % 1024 == 0);
  CHECK(gemm::UmmaSmemPlan<Tn>::Plan::offset<gemm::UmmaSmemPlan<Tn>::StagesB>() % 1024 == 0);
  CHECK(gemm::UmmaSmemPlan<Tn>::Plan::offset<gemm::UmmaSmemPlan<Tn>::Staging>() % 1024 == 0);
  CHECK(gemm::UmmaSmemPlan<Tn>::RealigningPlan::kTotalBytes <= Sm100::kSmemBytesPerBlock);
  // A pair: each CTA holds 128 rows of A and half of B; the realigning path runs the one-CTA
  // form of the same 128 x 256 tile.
  using Pair = examples::umma::Pair;
  STATIC_REQUIRE(Pair::kBlockM == 128);
  STATIC_REQUIRE(Pair::kBlockN == 256);
  STATIC_REQUIRE(Pair::TileB::kBytes == 128 * 64 * 2);
  STATIC_REQUIRE(Pair::kStages == 6);
  STATIC_REQUIRE(Pair::kStageReleases == 1);
  STATIC_REQUIRE(Pair::kAccumulatorReleases == 8);
  STATIC_REQUIRE(std::is_same_v<Pair::Cluster, gemm::ClusterShape<2, 1>>);
  using PairRealigning = Pair::RealigningConfig;
  STATIC_REQUIRE(PairRealigning::kCtaGroup == 1);
  STATIC_REQUIRE(PairRealigning::kMmaM == 128);
  STATIC_REQUIRE(PairRealigning::TileB::kBytes == 256 * 64 * 2);
  STATIC_REQUIRE(std::is_same_v<PairRealigning::Cluster, gemm::ClusterShape<1, 1>>);
  STATIC_REQUIRE(examples::umma::Multicast::kStageReleases == 2);
  STATIC_REQUIRE(examples::umma::Multicast::kAccumulatorReleases == 4);
  STATIC_REQUIRE(std::is_same_v<Tn::RealigningConfig, gemm::UmmaConfig<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor,
                                                                     bfloat16_t, RowMajor>>);
}

TEST_CASE("tcgen05.ld 32x32b gives each epilogue thread one row", "[umma][epilogue]") {
  // Warp w of the epilogue warpgroup reads lanes 32w..32w+31: thread l holds row 32w + l,
  // register j column c0 + j; the four warps cover the 128 rows once.
  std::set<int> rows;
  for (int w = 0; w < 4; ++w) {
    for (int l = 0; l < 32; ++l) {
      for (int j = 0; j < 32; ++j) {
        const auto e = umma::Load32x32b::element(w + 4, l, j, 64);  // warps 4..7 of the CTA
        REQUIRE(e.row == 32 * w + l);
        REQUIRE(e.col == 64 + j);
        rows.insert(e.row);
      }
    }
  }
  CHECK(rows.size() == 128u);
}

TEST_CASE("the epilogue's row-major staging stores are free of bank conflicts", "[umma][banks]") {
  // A warp stores its 32 rows as 16-byte chunks, chunk q of every row at once; 16-byte stores
  // go 8 lanes at a time (128 bytes): those 8 lanes hold 8 consecutive rows, and the swizzle
  // must send their chunk q to 8 different 16-byte bank groups.
  for (int size : {2, 4}) {
    for (int q = 0; q < 8; ++q) {
      for (int phase = 0; phase < 4; ++phase) {
        std::set<std::uint32_t> groups;
        for (int lane = 8 * phase; lane < 8 * phase + 8; ++lane) {
          const std::uint32_t at = size == 2 ? Sw128StagingTile<32, 2>::offset(lane, 8 * q)
                                             : Sw128StagingTile<32, 4>::offset(lane, 4 * q);
          REQUIRE(at % 16 == 0);
          groups.insert((at / 16) % 8);
        }
        INFO("element size " << size << " chunk " << q << " phase " << phase);
        CHECK(groups.size() == 8u);
      }
    }
  }
}
