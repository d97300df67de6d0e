// The workgroup's LDS, declared one way for the device pass and for the wave emulator.
//
//   TESSERA_AMD_LDS(smem, Plan::kTotalBytes);   // unsigned char* smem, 16-byte aligned
//
// Device pass: a static __shared__ array, so the code object's LDS size is exactly the
// bytes asked for (the ISA tests compare it with the shared-memory plan). Emulated
// (TESSERA_AMD_EMULATION): the emulator hands out exactly that many bytes per workgroup
// and reports any access past them. Use it once per kernel, in the kernel's body.
#pragma once
#include <cstddef>

#include "tessera/core/macros.hpp"

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_AMD_DEVICE_PASS)
namespace tessera {
namespace amd {
namespace emulation {
// The current workgroup's LDS: `bytes` bytes, 16-byte aligned, the same pointer for
// every lane of the workgroup.
unsigned char* workgroup_lds(std::size_t bytes);
}  // namespace emulation
}  // namespace amd
}  // namespace tessera
#define TESSERA_AMD_LDS(name, bytes) \
  unsigned char* const name = ::tessera::amd::emulation::workgroup_lds(std::size_t(bytes))
#else
#define TESSERA_AMD_LDS(name, bytes)                                         \
  __shared__ __attribute__((aligned(16))) unsigned char name##_storage[bytes]; \
  unsigned char* const name = name##_storage
#endif
