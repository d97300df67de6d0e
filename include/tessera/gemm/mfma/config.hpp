// MfmaConfig: every compile-time choice of the AMD MFMA GEMM (gfx942, gfx950), checked
// once with messages a person can act on.
//
//   using Config = tessera::gemm::MfmaConfig<tessera::Gfx942,
//       tessera::bfloat16_t, tessera::RowMajor,      // A
//       tessera::bfloat16_t, tessera::ColumnMajor,   // B
//       float, tessera::RowMajor>;                   // C and D
//
// Defaults (each an option: option::Tile, Stages, Schedule, Instruction): a 256x256x64 block
// tile, 2 stages (next tile in registers, one LDS buffer), the schedule chosen by
// schedule::select_schedule (four ping-pong clusters for this tile), the architecture's
// default MFMA instruction (mma/mfma_atom.hpp). Host-includable.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tessera/arch/amd/mfma_lowp.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/gemm/config_base.hpp"
#include "tessera/gemm/scheduler/stream_k.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/gemm/scheduler/tile_scheduler.hpp"
#include "tessera/layout/matrix_layout.hpp"
#include "tessera/mma/mfma_atom.hpp"
#include "tessera/schedule/amd_pingpong.hpp"

namespace tessera::gemm {

// The family tag: Gemm<MfmaConfig<...>> launches through KernelLauncher<MfmaFamily, Config>
// (tessera/gemm/mfma/mfma.hpp).
struct MfmaFamily {};

template <class T>
constexpr bool is_mfma_input = std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;
template <class T>
constexpr bool is_mfma_output = is_mfma_input<T> || std::is_same_v<T, float>;

// Packed fp6 storage (four values in three bytes, core/float6.hpp), told by the packed-type
// traits of core/numeric.hpp that the tcgen05 family reads too.
template <class T>
constexpr bool is_packed_fp6 = values_per_element<T> == 4 && value_bits<T> == 6;
// A low-precision storage type: one byte (fp8, fp4 pairs) or packed fp6 groups.
template <class T>
constexpr bool is_lowp_storage = sizeof(T) == 1 || is_packed_fp6<T>;

// The low-precision inputs and the MFMA operand format each is read as: gfx942's fnuz fp8
// formats (its fp8/bf8 MFMAs), gfx950's OCP fp8, fp6 and fp4 (the f8f6f4 MFMAs; fp6 stored
// four values in three bytes, float6_e2m3x4_t / float6_e3m2x4_t; fp4 two values a byte,
// float4_e2m1x2_t).
template <class Arch, class T>
constexpr bool is_mfma_lowp_input =
    std::is_same_v<Arch, Gfx942> ? (std::is_same_v<T, float8_e4m3fnuz_t> || std::is_same_v<T, float8_e5m2fnuz_t>)
                                 : (std::is_same_v<T, float8_e4m3_t> || std::is_same_v<T, float8_e5m2_t> ||
                                    is_packed_fp6<T> || std::is_same_v<T, float4_e2m1x2_t>);
template <class T>
constexpr amd::MfmaFormat mfma_format_of =
    std::is_same_v<T, float4_e2m1x2_t>                                                   ? amd::MfmaFormat::kFp4
    : std::is_same_v<T, float6_e2m3x4_t>                                                 ? amd::MfmaFormat::kFp6
    : std::is_same_v<T, float6_e3m2x4_t>                                                 ? amd::MfmaFormat::kBf6
    : (std::is_same_v<T, float8_e5m2_t> || std::is_same_v<T, float8_e5m2fnuz_t>) ? amd::MfmaFormat::kBf8
                                                                                         : amd::MfmaFormat::kFp8;

namespace detail {
template <class Arch, class EA, class EB, bool kLowp = is_lowp_storage<EA>>
struct DefaultMfmaInstructionSelect {
  using type = mma::DefaultMfmaInstruction<std::is_same_v<Arch, Gfx950>, std::is_same_v<EA, bfloat16_t>>;
};
// Low precision: the 32x32 instruction of the target (gfx942 32x32x16, gfx950 32x32x64).
template <class Arch, class EA, class EB>
struct DefaultMfmaInstructionSelect<Arch, EA, EB, true> {
  using type = amd::MfmaLowpShape<32, 32, std::is_same_v<Arch, Gfx950> ? 64 : 16, mfma_format_of<EA>,
                                  mfma_format_of<EB>>;
};
template <class Arch, class EA, class EB = EA>
using DefaultMfmaInstructionFor = typename DefaultMfmaInstructionSelect<Arch, EA, EB>::type;

// The instruction a configuration runs: the one named, in its MX-scaled form when the
// operand scales are block scales.
template <class Instruction, bool kBlockScaled>
struct WithBlockScales {
  using type = Instruction;
};
template <int M, int N, int K, amd::MfmaFormat A, amd::MfmaFormat B, bool kScaled>
struct WithBlockScales<amd::MfmaLowpShape<M, N, K, A, B, kScaled>, true> {
  using type = amd::MfmaLowpShape<M, N, K, A, B, true>;
};

// Whether the instruction reads A's and B's element types.
template <class I, class = void>
struct IsLowpInstruction : std::false_type {};
template <class I>
struct IsLowpInstruction<I, std::void_t<decltype(I::kFormatA)>> : std::true_type {};
template <class Instruction, class EA, class EB>
constexpr bool instruction_reads() {
  if constexpr (IsLowpInstruction<Instruction>::value) {
    return is_lowp_storage<EA> && is_lowp_storage<EB> && Instruction::kFormatA == mfma_format_of<EA> &&
           Instruction::kFormatB == mfma_format_of<EB>;
  } else {
    return sizeof(EA) == 2 && std::is_same_v<EA, EB> &&
           (std::is_same_v<EA, bfloat16_t>) == (Instruction::kType == amd::MfmaType::kBf16);
  }
}

template <class Schedule, class Request>
struct ResolveSchedule {
  using type = Schedule;
};
template <int W, class Request>
struct ResolveSchedule<schedule::Auto<W>, Request> {
  using type = schedule::ScheduleOf<schedule::select_schedule(Request::value), W>;
};

// The wave grid: the split of the block tile over the waves whose wave tile is closest to
// square (fewest LDS bytes read per MFMA), taller when it cannot be square.
constexpr int waves_m_for(int block_m, int block_n, int waves) {
  int best = 1;
  long best_cost = -1;
  for (int wm = 1; wm <= waves; wm *= 2) {
    if (waves % wm != 0 || block_m % wm != 0 || block_n % (waves / wm) != 0) continue;
    const long tile_m = block_m / wm, tile_n = block_n / (waves / wm);
    const long cost = tile_m + tile_n;  // LDS bytes read per K, per wave
    if (best_cost < 0 || cost < best_cost || (cost == best_cost && tile_m > tile_n)) {
      best = wm;
      best_cost = cost;
    }
  }
  return best;
}
}  // namespace detail

// Options (options.hpp): D's element type, the epilogue, the operand scales
// (low-precision inputs: scale::None, PerTensor, or Mx on gfx950); the scheduler is
// scheduler::DataParallel (one tile per workgroup), scheduler::StreamK<> (a persistent grid:
// data-parallel, split-K or stream-K per call, with a workspace) or a batch's or groups'
// (problem_set.hpp); low-precision inputs take scheduler::DataParallel only.
//
// Low-precision inputs (fp8 on gfx942 and gfx950, fp6 and fp4 on gfx950) are read
// K-contiguous (A row-major, B column-major); BlockTile K counts values of K (two a byte for
// fp4), and the tile's LDS rows hold the same 64 to 256 bytes as 16-bit tiles (fp6: one
// value a byte slot, as fp8; memory/mfma_tile_copy.hpp). A and B may differ in format: fp8,
// bf8, fp6 and bf6 in any mix (same LDS tiles); fp4 only with fp4.
//
// Options (options.hpp), each with its default: option::Tile<GemmShape<M, N, K>> (the block tile,
// GemmShape<256, 256, 64>), option::Schedule<S> (schedule::Auto<>: chosen by
// schedule::select_schedule), option::Stages<N> (2), option::Instruction<I> (the target's
// default for A and B: detail::DefaultMfmaInstructionFor), option::Scales<M>, and
// option::OutputElement, Epilogue, Scheduler.
template <class Arch_, class ElementA_, class LayoutA_, class ElementB_, class LayoutB_,
          class ElementC_, class LayoutC_, class... Options_>
struct MfmaConfig
    : ConfigBase<MfmaFamily, Arch_, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_, scheduler::DataParallel,
                 Options_...> {
  using Base = ConfigBase<MfmaFamily, Arch_, ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_,
                          scheduler::DataParallel, Options_...>;
  using Options = typename Base::Options;
  using BlockTile = typename Options::template Get<option::kind::Tile, option::Tile<GemmShape<256, 256, 64>>>::type;
  using OperandScales =
      typename Options::template Get<option::kind::Scales, option::Scales<scale::None>>::type;
  TESSERA_CONFIG_REFUSES("MfmaConfig", Cluster);
  TESSERA_CONFIG_REFUSES("MfmaConfig", ThreadTile);
  TESSERA_CONFIG_REFUSES("MfmaConfig", Accumulator);
  TESSERA_CONFIG_REFUSES("MfmaConfig", MinBlocksPerSm);
  TESSERA_CONFIG_REFUSES("MfmaConfig", CtaGroup);
  TESSERA_CONFIG_REFUSES("MfmaConfig", AccumulatorBuffers);
  TESSERA_CONFIG_REFUSES("MfmaConfig", StagingBoxes);
  TESSERA_CONFIG_REFUSES("MfmaConfig", DependentLaunch);
  static constexpr bool kLowp = is_lowp_storage<ElementA_>;
  static constexpr bool kBlockScaled = OperandScales::kBlock;
  using Instruction = typename detail::WithBlockScales<
      typename Options::template Get<option::kind::Instruction,
                                     option::Instruction<detail::DefaultMfmaInstructionFor<Arch_, ElementA_, ElementB_>>>::type,
      kBlockScaled>::type;
  using Atom = mma::MfmaAtom<Instruction>;
  // With operand scales the configuration's epilogue is ScaledOperands around the option's
  // (its Arguments carry the scales: gemm/operand_scales.hpp).
  using Epilogue = std::conditional_t<std::is_same_v<OperandScales, scale::None>, typename Base::Epilogue,
                                      ScaledOperands<OperandScales, typename Base::Epilogue>>;
  static constexpr int kStages = Options::template Get<option::kind::Stages, option::Stages<2>>::value;

  static constexpr int kBlockM = BlockTile::kM;
  static constexpr int kBlockN = BlockTile::kN;
  // The kernel counts K in storage units (elements; bytes for fp4, values for fp6): kBlockK;
  // the values of K a tile holds: kBlockKValues. LDS bytes a unit: kLdsUnitBytes.
  static constexpr int kValuesPerUnit = Instruction::kValuesPerUnit;
  static constexpr int kBlockKValues = BlockTile::kK;
  static constexpr int kBlockK = BlockTile::kK / kValuesPerUnit;
  static constexpr int kLdsUnitBytes = kLowp ? 1 : int(sizeof(ElementA_));
  // Packed fp6 operands (four values in three bytes in memory): their global bytes of n units.
  static constexpr bool kPackedSixA = is_packed_fp6<ElementA_>;
  static constexpr bool kPackedSixB = is_packed_fp6<ElementB_>;
  static constexpr std::int64_t bytes_a(std::int64_t units) {
    return kPackedSixA ? units * 3 / 4 : units * std::int64_t(sizeof(ElementA_));
  }
  static constexpr std::int64_t bytes_b(std::int64_t units) {
    return kPackedSixB ? units * 3 / 4 : units * std::int64_t(sizeof(ElementB_));
  }
  // MX scale bytes per row per K tile (32 values each).
  static constexpr int kScaleBlocks = kBlockScaled ? kBlockKValues / 32 : 0;
  static constexpr int kElementBits = 8 * kLdsUnitBytes;
  // An operand is K-contiguous when consecutive K values are adjacent in memory.
  static constexpr bool kKContiguousA = LayoutA_::kIsRowMajor;
  static constexpr bool kKContiguousB = !LayoutB_::kIsRowMajor;

  using ScheduleGiven = typename Options::template Get<option::kind::Schedule, option::Schedule<schedule::Auto<>>>::type;
  struct Request {
    static constexpr schedule::ScheduleRequest value{
        std::int64_t(kBlockM) * kBlockN * kBlockK * kElementBits, ScheduleGiven::kWaves, kStages,
        std::is_same_v<Arch_, Gfx950>, kKContiguousA && kKContiguousB};
  };
  using Schedule = typename detail::ResolveSchedule<ScheduleGiven, Request>::type;

  static constexpr int kWaves = Schedule::kWaves;
  static constexpr int kThreads = 64 * kWaves;
  static constexpr int kBlocksPerCu = Schedule::kBlocksPerCu;
  static constexpr int kWavesPerSimd = kWaves * kBlocksPerCu / 4;
  static constexpr int kWavesM = detail::waves_m_for(kBlockM, kBlockN, kWaves);
  static constexpr int kWavesN = kWaves / kWavesM;
  static constexpr int kWaveM = kBlockM / kWavesM;
  static constexpr int kWaveN = kBlockN / kWavesN;
  static constexpr int kRepM = kWaveM / Atom::kM;  // MFMA tiles per wave along M, N
  static constexpr int kRepN = kWaveN / Atom::kN;
  static constexpr int kSlices = Schedule::kSlices;
  static constexpr int kReadSteps = kBlockK / Atom::kKPerRead;  // 16-byte reads per row per tile
  static constexpr int kReadStepsPerSlice = kReadSteps / (kSlices > 0 ? kSlices : 1);
  static constexpr bool kDirectToLds = Schedule::kKind == schedule::PingPongKind::kAsync;

  // Registers per lane the schedule keeps live at its peak, estimated: accumulators, the
  // next tile in flight (not with direct-to-LDS loads), the operands of the slices read
  // ahead of their dot (the whole tile, except four clusters: two slices), and ~24 for
  // addresses and loop state. The compiler's real count is checked by the ISA tests.
  static constexpr int kAccumulatorRegs = kWaveM * kWaveN / 64;
  static constexpr int kPrefetchRegs = kDirectToLds ? 0 : (kBlockM + kBlockN) * kBlockK * kLdsUnitBytes / kThreads / 4;
  static constexpr int kSlicesLive = Schedule::kKind == schedule::PingPongKind::kFourClusters ? 2 : kSlices;
  static constexpr int kOperandRegs = (kRepM + kRepN) * kReadStepsPerSlice * kSlicesLive * 4;
  static constexpr int kScaleRegs = kBlockScaled ? (kRepM + kRepN) * kScaleBlocks / 4 + 2 * kScaleBlocks / 4 : 0;
  static constexpr int kEstimatedRegs = kAccumulatorRegs + kPrefetchRegs + kOperandRegs + kScaleRegs + 24;
  static constexpr int kRegisterBudget = 512 / (kWavesPerSimd > 0 ? kWavesPerSimd : 1);

  // ---- the rules -------------------------------------------------------------------------
  static_assert(is_amd<Arch_>, "Tessera MFMA GEMM: the architecture must be tessera::Gfx942 or tessera::Gfx950");
  static_assert((is_mfma_input<ElementA_> && std::is_same_v<ElementA_, ElementB_>) ||
                    (is_mfma_lowp_input<Arch_, ElementA_> && is_mfma_lowp_input<Arch_, ElementB_> &&
                     (std::is_same_v<ElementA_, float4_e2m1x2_t>) == (std::is_same_v<ElementB_, float4_e2m1x2_t>)),
                "Tessera MFMA GEMM: A and B must both be half_t or both be bfloat16_t (one MFMA "
                "instruction reads both), or low-precision for the target: gfx942 float8_e4m3fnuz_t / "
                "float8_e5m2fnuz_t, gfx950 float8_e4m3_t / float8_e5m2_t / float6_e2m3x4_t / float6_e3m2x4_t "
                "in any mix (one byte slot a value in LDS), or both float4_e2m1x2_t (fp4 shares its LDS "
                "tiles with no other width)");
  static_assert(is_mfma_output<ElementC_> && is_mfma_output<typename Base::ElementD>,
                "Tessera MFMA GEMM: C and D must each be float, half_t or bfloat16_t");
  static_assert(in_launch_scheduler<typename Base::Scheduler>,
                "Tessera MFMA GEMM: the MFMA family schedules one tile per workgroup "
                "(scheduler::DataParallel, or a batch or groups with scheduler::StridedBatched / "
                "scheduler::Grouped<Layout>) or a persistent walk of tiles and K ranges (scheduler::StreamK<>, "
                "gemm/scheduler/stream_k.hpp); it takes no other scheduler");
  static_assert(!kLowp || std::is_same_v<typename Base::Scheduler, scheduler::DataParallel>,
                "Tessera MFMA GEMM: fp8, fp6 and fp4 operands are walked with scheduler::DataParallel only "
                "(stream-K and problem sets are not built or emulated for them yet)");
  static_assert(detail::instruction_reads<Instruction, ElementA_, ElementB_>(),
                "Tessera MFMA GEMM: the MFMA instruction's operand types (f16 or bf16; fp8, bf8, fp6, bf6 or "
                "fp4) must match A and B");
  static_assert(!kLowp || (kKContiguousA && kKContiguousB),
                "Tessera MFMA GEMM: fp8, fp6 and fp4 operands must be K-contiguous (A row-major, B "
                "column-major): the copy into LDS does not transpose 8-bit or packed elements");
  static_assert(kLowp || std::is_same_v<OperandScales, scale::None>,
                "Tessera MFMA GEMM: operand scales are for fp8, fp6 and fp4 operands");
  static_assert(std::is_same_v<OperandScales, scale::None> || std::is_same_v<OperandScales, scale::PerTensor> ||
                    std::is_same_v<OperandScales, scale::Mx>,
                "Tessera MFMA GEMM: the MFMA family takes the scale modes scale::None, PerTensor and Mx (gfx950); "
                "PerRowColumn, Blockwise and Fast<...> are the wgmma family's, Nvfp4 the tcgen05 family's");
  static_assert(!kBlockScaled || (std::is_same_v<OperandScales, scale::Mx> && std::is_same_v<Arch_, Gfx950>),
                "Tessera MFMA GEMM: block scales are MX (scale::Mx: one e8m0 per 32 values of K), applied "
                "by gfx950's v_mfma_scale instructions; gfx942 has none, and NVFP4 is an sm_100a format");
  static_assert(!kBlockScaled || kScaleBlocks == 4 || kScaleBlocks == 8,
                "Tessera MFMA GEMM: with MX scales BlockTile K must be 128 or 256 values (4 or 8 scale blocks "
                "per K tile)");
  static_assert(std::is_same_v<Arch_, Gfx950> || !Instruction::kGfx950Only,
                "Tessera MFMA GEMM: 32x32x16 and 16x16x32 MFMAs exist only on gfx950; use 32x32x8 "
                "or 16x16x16 on gfx942");
  static_assert(kStages == 2 || kStages == 3,
                "Tessera MFMA GEMM: kStages is 2 (next tile in registers, one LDS buffer) or 3 "
                "(gfx950 direct-to-LDS loads into three LDS stages)");
  static_assert(Schedule::kStages == kStages,
                "Tessera MFMA GEMM: the schedule runs a different number of stages than kStages "
                "(the async schedule needs 3, every other schedule 2)");
  static_assert(kWavesM * kWavesN == kWaves && kBlockM % kWavesM == 0 && kBlockN % kWavesN == 0,
                "Tessera MFMA GEMM: the block tile cannot be split evenly over the schedule's waves");
  static_assert(kWaveM % Atom::kM == 0 && kWaveN % Atom::kN == 0,
                "Tessera MFMA GEMM: each wave's tile (block tile / wave grid) must be a multiple "
                "of the MFMA instruction's M x N");
  static_assert(kWaveM % 32 == 0 && kWaveN % 32 == 0,
                "Tessera MFMA GEMM: each wave's tile must be a multiple of 32x32 (the epilogue "
                "stages 32x32 pieces)");
  static_assert(kBlockK % (Atom::kKPerRead * Atom::kReadsPerInstruction) == 0,
                "Tessera MFMA GEMM: BlockTile K must be a multiple of the K one 16-byte operand "
                "read covers (16 for 32x32 MFMAs, 32 for 16x16 MFMAs; fp8: 32 and 64, and gfx950's "
                "f8f6f4 instructions take two reads: 64 and 128)");
  static_assert(kBlockK * Atom::kStorageBytes == 64 || kBlockK * Atom::kStorageBytes == 128 ||
                    kBlockK * Atom::kStorageBytes == 256,
                "Tessera MFMA GEMM: BlockTile K must be 32, 64 or 128 (rows of 64, 128 or 256 "
                "bytes, which the LDS swizzle makes bank-conflict free; fp8: 64, 128 or 256, fp4: 128, 256 "
                "or 512 values)");
  static_assert(kReadSteps % kSlices == 0,
                "Tessera MFMA GEMM: the schedule slices the dot along K into more pieces than the "
                "tile has 16-byte read steps (two clusters need BlockTile K >= 2 read steps, four "
                "clusters >= 4: e.g. K 64 with 32x32 MFMAs, K 128 with 16x16 MFMAs)");
  static_assert(kReadStepsPerSlice % Atom::kReadsPerInstruction == 0,
                "Tessera MFMA GEMM: the schedule slices the dot along K finer than one instruction: gfx950's "
                "f8f6f4 MFMAs with 8-bit operands take two 16-byte read steps each, so four clusters need "
                "BlockTile K >= 256 fp8 values with 32x32x64, 512 with 16x16x128 (or fewer clusters)");
  static_assert(!kLowp || !kDirectToLds,
                "Tessera MFMA GEMM: the async (direct-to-LDS) schedule takes 16-bit operands; fp8, fp6 and "
                "fp4 configurations use the register-staged schedules");
  static_assert(!kDirectToLds || std::is_same_v<Arch_, Gfx950>,
                "Tessera MFMA GEMM: the async schedule needs gfx950 (16-byte direct-to-LDS loads)");
  static_assert(!kDirectToLds || (kKContiguousA && kKContiguousB),
                "Tessera MFMA GEMM: the async schedule needs A row-major and B column-major: a "
                "direct-to-LDS load cannot transpose an operand into the K-contiguous LDS layout");
  static_assert(kEstimatedRegs <= kRegisterBudget,
                "Tessera MFMA GEMM: the schedule would need more registers than its occupancy allows "
                "(accumulators + next tile + operands read ahead > 512 / waves per SIMD); use a "
                "smaller tile or the four-cluster schedule, which keeps fewer operands live");
  static_assert(kThreads <= Arch_::kMaxThreadsPerBlock, "Tessera MFMA GEMM: too many waves per block");
};

}  // namespace tessera::gemm
