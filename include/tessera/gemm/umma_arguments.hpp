// The tcgen05 family's rules for a call's arguments beyond those every family shares
// (can_implement.hpp): what TMA asks of operands that only TMA loads (UmmaConfig::kTmaOnly:
// fp6 and fp4 operands, which TMA unpacks; no generic path takes what it cannot describe).
// Checked by KernelLauncher<UmmaFamily>::check (umma_gemm.hpp) inside can_implement, before
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
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/tma.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/gemm.hpp"
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

template <class Config>
Status umma_operand_status(const ConfigArguments<Config>& a) {
  if constexpr (Config::kTmaOnly) {
    if (a.M == 0 || a.N == 0 || a.K == 0) return Status::kSuccess;  // A and B are not read
    if ((Config::kSubByteA || Config::kSubByteB) && a.K % 128 != 0) return Status::kErrorSubByteOperandK;
    if (!umma_tma_loadable(a.A, a.lda, a.K)) return Status::kErrorMisalignedA;
    if (!umma_tma_loadable(a.B, a.ldb, a.K)) return Status::kErrorMisalignedB;
  } else {
    (void)a;
  }
  return Status::kSuccess;
}

}  // namespace tessera::gemm
