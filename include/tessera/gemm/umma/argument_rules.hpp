// The tcgen05 family's rules for a call's arguments beyond those every family shares
// (can_implement.hpp): what TMA asks of operands that only TMA loads (UmmaConfig::kTmaOnly:
// fp6 and fp4 operands, which TMA unpacks, and every block-scaled configuration, whose scale
// factors only the TMA path loads; no realigning path takes what TMA cannot describe). The block
// scale tensors' own rules (null, too small) are ScaledOperands::can_implement's
// (operand_scales.hpp); they need no alignment (umma/scale_loader.hpp).
// Checked by KernelLauncher<UmmaFamily>::check (umma/umma.hpp) inside can_implement, before
// anything is launched or written. Host-only, host-testable (test/unit/test_umma_lowp_host.cpp).
//
//   K                 a multiple of 128 values where an operand is unpacked (cuda.h of CUDA
//                     13.0, cuTensorMapEncodeTiled: "globalDim[0] must be a multiple of 128"
//                     for CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B; PTX ISA
//                     9.7.9.25.5.1: tensor size [0] a multiple of 64 / 96 bytes), else
//                     kErrorSubByteOperandK
//   A, B (unpacked)   the base 32-byte aligned and the pitch (ld x 4 or 6 bits) a multiple of
//                     32 bytes (same source), else kErrorMisalignedA / kErrorMisalignedB
//   A, B (others)     TMA's 16-byte rules (arch/nvidia/tma.hpp, tma_describable)
//   fp4 read packed   (the .kind::mxf4 kinds: two values a byte, K counted in bytes inside the
//                     kernel) K, lda and ldb even, else kErrorPackedOperandOddK; then TMA's
//                     16-byte rules on the bytes
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/gemm.hpp"
#include "tessera/gemm/operand_scales.hpp"
#include "tessera/mma/umma_lowp_atom.hpp"

namespace tessera::gemm {

// An operand of `K` values a line, `ld` values apart, as its tensor map needs it.
template <class T>
bool umma_tma_loadable(const T* p, std::int64_t ld, std::int64_t K) {
  if constexpr (mma::umma::is_umma_sub_byte<T>) {
    const std::int64_t pitch_bits = ld * std::int64_t(value_bits<T>);
    return reinterpret_cast<std::uintptr_t>(p) % 32 == 0 && pitch_bits % (8 * 32) == 0 &&
           pitch_bits / 8 < (std::int64_t(1) << 40);
  } else {
    return nvidia::tma_describable(p, ld, K, std::int64_t(sizeof(T)));
  }
}

// The arguments in the kernel's K units (fp4 read packed: bytes of two values), the scale
// tensors' leading dimensions resolved from K in values first (operand_scales.hpp).
template <class Config>
ConfigArguments<Config> umma_in_k_units(ConfigArguments<Config> a) {
  if constexpr (Config::kValuesPerKUnit > 1) {
    using Mode = typename Config::OperandScales;
    a.epilogue.scales.a.ld = block_scale_ld<Mode>(a.epilogue.scales.a, a.K);
    a.epilogue.scales.b.ld = block_scale_ld<Mode>(a.epilogue.scales.b, a.K);
    a.K /= Config::kValuesPerKUnit;
    a.lda /= Config::kValuesPerKUnit;
    a.ldb /= Config::kValuesPerKUnit;
  }
  return a;
}

template <class Config>
Status umma_operand_status(const ConfigArguments<Config>& a) {
  if constexpr (Config::kTmaOnly) {
    if (a.M == 0 || a.N == 0 || a.K == 0) return Status::kSuccess;  // A and B are not read
    if constexpr (Config::kValuesPerKUnit > 1) {
      constexpr std::int64_t v = Config::kValuesPerKUnit;
      if (a.K % v != 0 || a.lda % v != 0 || a.ldb % v != 0) return Status::kErrorPackedOperandOddK;
      if (!nvidia::tma_describable(a.A, a.lda / v, a.K / v, 1)) return Status::kErrorMisalignedA;
      if (!nvidia::tma_describable(a.B, a.ldb / v, a.K / v, 1)) return Status::kErrorMisalignedB;
      return Status::kSuccess;
    }
    if ((Config::kSubByteA || Config::kSubByteB) && a.K % 128 != 0) return Status::kErrorSubByteOperandK;
    if (!umma_tma_loadable(a.A, a.lda, a.K)) return Status::kErrorMisalignedA;
    if (!umma_tma_loadable(a.B, a.ldb, a.K)) return Status::kErrorMisalignedB;
  } else {
    (void)a;
  }
  return Status::kSuccess;
}

}  // namespace tessera::gemm
