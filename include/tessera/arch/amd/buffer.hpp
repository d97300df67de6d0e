// Buffer resource descriptors and raw buffer loads/stores on CDNA3/CDNA4 (gfx942,
// gfx950): canonical pointers. A tile copy keeps one descriptor (uniform, in SGPRs) per
// operand and a 32-bit byte offset per lane, and the hardware's range check replaces the
// bounds branches of edge tiles.
//
// The range check, as LLVM documents llvm.amdgcn.raw.buffer.load/store:
//  - a lane whose VGPR offset is at or past num_records bytes reads 0 and its store
//    is dropped; this is the hardware's rule, not a compiler promise, and it needs
//    the gfx9 config dword below;
//  - accesses wider than 4 bytes are checked one 32-bit word at a time, so a 16-byte
//    load straddling the end returns its in-range words and zeros after them; a word
//    that num_records itself cuts (it starts inside and ends past) is chip-dependent
//    (MLIR's AMDGPU dialect documents it so): do not rely on either answer;
//  - keep addresses aligned to min(size, 4) bytes: dword and wider accesses at an
//    unaligned address depend on SH_MEM_CONFIG.alignment_mode (in DWORD mode the
//    hardware ignores the two low address bits);
//  - the SCALAR offset is NOT part of the check (it is added after it). Use it for
//    offsets known to stay inside the buffer; to step a tile whose edge must read
//    zeros, advance the descriptor (make_buffer_resource on the moved base with the
//    remaining size) or the lane offsets.
// Offsets are unsigned 32-bit: an operand must span < 4 GiB from the descriptor's
// base (the host API keeps 2^31 as the limit and takes a 64-bit path beyond).
//
// Only clang's HIP passes and an emulated host build (TESSERA_AMD_EMULATION: the wave
// emulator models the range check, the direct-to-LDS path and vmcnt) see this API; the
// header is still safe to include from nvcc or a plain host compiler, where it declares
// nothing but the constants.
#pragma once
#include <cstdint>

#include "tessera/core/macros.hpp"

// Builtins are touched only under TESSERA_AMD_DEVICE_PASS (core/macros.hpp).

namespace tessera {
namespace amd {

// Dword 3 of the descriptor on gfx9 (gfx942 and gfx950): DATA_FORMAT = 32 bits (bits
// [18:15] = 4) and every other field 0, i.e. no swizzle and no thread-id add; with
// stride 0, num_records counts bytes. Composable Kernel uses this value for every gfx9
// target; RDNA needs other values.
constexpr std::uint32_t kBufferConfigGfx9 = 0x00020000u;

}  // namespace amd
}  // namespace tessera

#if (defined(__HIP__) && defined(__clang__)) || defined(TESSERA_AMD_EMULATION)

// The emulated build: a host compile that runs AMD kernels on the wave emulator.
#if defined(TESSERA_AMD_EMULATION) && !defined(__HIP__)
#define TESSERA_AMD_BUFFER_EMULATED 1
#endif

namespace tessera {
namespace amd {

// Register payloads of the 8-, 12- and 16-byte accesses, as the clang builtins type them.
using U32x2 = std::uint32_t __attribute__((vector_size(8)));
using U32x3 = std::uint32_t __attribute__((ext_vector_type(3)));
using U32x4 = std::uint32_t __attribute__((vector_size(16)));

// Cache policy bits of the aux operand on gfx940+, as clang-22 prints them in the
// assembly (bit 0 -> sc0, bit 1 -> nt, bit 4 -> sc1). 0 is the default coherence,
// which is what GEMM operand streams want.
struct CachePolicy {
  static constexpr int kDefault = 0;
  static constexpr int kSc0 = 1;
  static constexpr int kNonTemporal = 2;
  static constexpr int kSc1 = 16;
};

namespace detail {
// The primary template is the error path: it names the problem rather than leaving
// "no matching function for call to buffer_load".
template <int Bytes>
struct BufferWord {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "raw buffer loads and stores move 4, 8 or 16 bytes per lane");
  using type = std::uint32_t;
};
template <>
struct BufferWord<1> {
  using type = unsigned char;
};
template <>
struct BufferWord<2> {
  using type = unsigned short;
};
template <>
struct BufferWord<4> {
  using type = std::uint32_t;
};
template <>
struct BufferWord<8> {
  using type = U32x2;
};
template <>
struct BufferWord<12> {
  using type = U32x3;
};
template <>
struct BufferWord<16> {
  using type = U32x4;
};
}  // namespace detail

// The raw payload of a Bytes-wide access (1, 2 and 12: loads only; 4, 8 or 16).
template <int Bytes>
using BufferWord = typename detail::BufferWord<Bytes>::type;

// A wave-uniform buffer descriptor. Build it from values every lane agrees on (kernel
// arguments, block indices), or the compiler must put it in VGPRs and loop over lanes
// with readfirstlane.
#if defined(TESSERA_AMD_BUFFER_EMULATED)
struct BufferResource {  // the fields of the descriptor the emulator needs
  const void* base;
  std::uint32_t num_records;
  std::uint32_t config;
};

namespace emulation {
// Implemented by the wave emulator (emulator/): raw buffer accesses of `bytes` per lane
// with the hardware's range check, and the direct-to-LDS load.
void buffer_load(const BufferResource& r, std::uint32_t lane_offset, std::uint32_t scalar_offset,
                 int bytes, void* out);
void buffer_store(const BufferResource& r, std::uint32_t lane_offset, std::uint32_t scalar_offset,
                  int bytes, const void* in);
void buffer_load_to_lds(const BufferResource& r, void* lds_base, std::uint32_t lane_offset,
                        std::uint32_t scalar_offset, int bytes);
}  // namespace emulation
#else
struct BufferResource {
  __amdgpu_buffer_rsrc_t rsrc;
};
#endif

// A descriptor for [base, base + num_bytes): stride 0 (raw addressing), the gfx9
// config dword. Byte offsets at or past num_bytes read 0.
TESSERA_DEVICE TESSERA_FORCEINLINE BufferResource make_buffer_resource(const void* base,
                                                                      std::uint32_t num_bytes) {
#if defined(TESSERA_AMD_DEVICE_PASS)
  return BufferResource{__builtin_amdgcn_make_buffer_rsrc(const_cast<void*>(base),
                                                          static_cast<short>(0),
                                                          static_cast<int>(num_bytes),
                                                          static_cast<int>(kBufferConfigGfx9))};
#elif defined(TESSERA_AMD_BUFFER_EMULATED)
  return BufferResource{base, num_bytes, kBufferConfigGfx9};
#else
  (void)base;
  (void)num_bytes;
  return BufferResource{};
#endif
}

// Loads Bytes (1, 2, 4, 8, 12 or 16) from base + lane_offset + scalar_offset. lane_offset
// is per lane and range-checked; scalar_offset must be wave-uniform and is not
// range-checked (see the top of this file). Keep addresses 4-byte aligned: the
// hardware fetches and range-checks wider accesses a dword at a time (12 bytes:
// buffer_load_dwordx3, the packed fp6 pieces of memory/mfma_tile_copy.hpp).
template <int Bytes, int Aux = CachePolicy::kDefault>
TESSERA_DEVICE TESSERA_FORCEINLINE BufferWord<Bytes> buffer_load(BufferResource r,
                                                                 std::uint32_t lane_offset,
                                                                 std::uint32_t scalar_offset = 0) {
  static_assert(Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8 || Bytes == 12 || Bytes == 16,
                "raw buffer loads move 1, 2, 4, 8, 12 or 16 bytes per lane");
#if defined(TESSERA_AMD_DEVICE_PASS)
  const int voff = static_cast<int>(lane_offset);
  const int soff = static_cast<int>(scalar_offset);
  if constexpr (Bytes == 1) {
    return __builtin_amdgcn_raw_buffer_load_b8(r.rsrc, voff, soff, Aux);
  } else if constexpr (Bytes == 2) {
    return __builtin_amdgcn_raw_buffer_load_b16(r.rsrc, voff, soff, Aux);
  } else if constexpr (Bytes == 4) {
    return __builtin_amdgcn_raw_buffer_load_b32(r.rsrc, voff, soff, Aux);
  } else if constexpr (Bytes == 8) {
    return __builtin_amdgcn_raw_buffer_load_b64(r.rsrc, voff, soff, Aux);
  } else if constexpr (Bytes == 12) {
    return __builtin_amdgcn_raw_buffer_load_b96(r.rsrc, voff, soff, Aux);
  } else {
    return __builtin_amdgcn_raw_buffer_load_b128(r.rsrc, voff, soff, Aux);
  }
#elif defined(TESSERA_AMD_BUFFER_EMULATED)
  BufferWord<Bytes> value;
  emulation::buffer_load(r, lane_offset, scalar_offset, Bytes, &value);
  return value;
#else
  (void)r;
  (void)lane_offset;
  (void)scalar_offset;
  return BufferWord<Bytes>{};
#endif
}

// Stores Bytes (4, 8 or 16) to base + lane_offset + scalar_offset; lanes whose
// lane_offset is out of range store nothing.
template <int Bytes, int Aux = CachePolicy::kDefault>
TESSERA_DEVICE TESSERA_FORCEINLINE void buffer_store(BufferResource r, BufferWord<Bytes> value,
                                                     std::uint32_t lane_offset,
                                                     std::uint32_t scalar_offset = 0) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "raw buffer stores move 4, 8 or 16 bytes per lane");
#if defined(TESSERA_AMD_DEVICE_PASS)
  const int voff = static_cast<int>(lane_offset);
  const int soff = static_cast<int>(scalar_offset);
  if constexpr (Bytes == 4) {
    __builtin_amdgcn_raw_buffer_store_b32(value, r.rsrc, voff, soff, Aux);
  } else if constexpr (Bytes == 8) {
    __builtin_amdgcn_raw_buffer_store_b64(value, r.rsrc, voff, soff, Aux);
  } else {
    __builtin_amdgcn_raw_buffer_store_b128(value, r.rsrc, voff, soff, Aux);
  }
#elif defined(TESSERA_AMD_BUFFER_EMULATED)
  emulation::buffer_store(r, lane_offset, scalar_offset, Bytes, &value);
#else
  (void)r;
  (void)value;
  (void)lane_offset;
  (void)scalar_offset;
#endif
}

// Typed forms: T is any trivially copyable type of 4, 8 or 16 bytes (float, a vector of
// halves, a struct of two floats); the bits move unchanged.
template <class T, int Aux = CachePolicy::kDefault>
TESSERA_DEVICE TESSERA_FORCEINLINE T buffer_load_as(BufferResource r, std::uint32_t lane_offset,
                                                    std::uint32_t scalar_offset = 0) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "buffer_load_as needs a type of 4, 8 or 16 bytes");
  static_assert(__is_trivially_copyable(T), "buffer_load_as moves bits: T must be trivially copyable");
  return __builtin_bit_cast(T, (buffer_load<int(sizeof(T)), Aux>(r, lane_offset, scalar_offset)));
}

template <class T, int Aux = CachePolicy::kDefault>
TESSERA_DEVICE TESSERA_FORCEINLINE void buffer_store_as(BufferResource r, const T& value,
                                                        std::uint32_t lane_offset,
                                                        std::uint32_t scalar_offset = 0) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "buffer_store_as needs a type of 4, 8 or 16 bytes");
  static_assert(__is_trivially_copyable(T), "buffer_store_as moves bits: T must be trivially copyable");
  buffer_store<int(sizeof(T)), Aux>(r, __builtin_bit_cast(BufferWord<int(sizeof(T))>, value),
                                    lane_offset, scalar_offset);
}

// ---- direct-to-LDS loads ----------------------------------------------------------
// buffer_load_* ... lds: the loaded bytes skip the VGPRs and land in LDS, the Bytes of
// lane i (of the wave) at lds_base + 4 i for 1, 2 and 4 bytes, at lds_base + 16 i for
// 12 and 16 (a 12-byte load leaves each 16-byte slot's last dword alone): LLVM's
// AMDGPUDMAOperations.md and the CDNA4 ISA guide. lds_base goes to M0, so it must be
// wave-uniform, and each wave passes its own slice. gfx942 moves 1, 2 or 4 bytes per
// lane; gfx950 adds 12 and 16. Completion is counted by vmcnt, like any buffer load:
// wait_vmcnt, then a barrier, before other waves read the LDS bytes. The load is not
// ordered with earlier LDS reads, not even this wave's (llvm-project PR 142018): wait
// lgkmcnt(0) after the last read of bytes it overwrites (and, for another wave's reads,
// before the barrier that orders them). Out-of-range lanes get the zeros the range check
// returns (hardware rule as documented; not run on a GPU here).
template <int Bytes, int Aux = CachePolicy::kDefault>
TESSERA_DEVICE TESSERA_FORCEINLINE void buffer_load_to_lds(BufferResource r, void* lds_base,
                                                           std::uint32_t lane_offset,
                                                           std::uint32_t scalar_offset = 0) {
  static_assert(Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 12 || Bytes == 16,
                "direct-to-LDS buffer loads move 1, 2, 4 (gfx950 also 12, 16) bytes per lane");
#if defined(TESSERA_AMD_DEVICE_PASS)
#if !defined(__gfx950__)
  static_assert(Bytes <= 4, "direct-to-LDS loads of 12 or 16 bytes per lane need gfx950");
#endif
  // The C-style cast is the address-space cast from a generic pointer to LDS.
  using LdsPtr = __attribute__((address_space(3))) void*;
  const LdsPtr lds = (LdsPtr)lds_base;
  const int voff = static_cast<int>(lane_offset);
  const int soff = static_cast<int>(scalar_offset);
  // clang-22 checks the size operand even while it is a template parameter, so each
  // size is spelled as a literal.
  if constexpr (Bytes == 1) {
    __builtin_amdgcn_raw_ptr_buffer_load_lds(r.rsrc, lds, 1, voff, soff, 0, Aux);
  } else if constexpr (Bytes == 2) {
    __builtin_amdgcn_raw_ptr_buffer_load_lds(r.rsrc, lds, 2, voff, soff, 0, Aux);
  } else if constexpr (Bytes == 4) {
    __builtin_amdgcn_raw_ptr_buffer_load_lds(r.rsrc, lds, 4, voff, soff, 0, Aux);
#if defined(__gfx950__)
  } else if constexpr (Bytes == 12) {
    __builtin_amdgcn_raw_ptr_buffer_load_lds(r.rsrc, lds, 12, voff, soff, 0, Aux);
  } else if constexpr (Bytes == 16) {
    __builtin_amdgcn_raw_ptr_buffer_load_lds(r.rsrc, lds, 16, voff, soff, 0, Aux);
#endif
  }
#elif defined(TESSERA_AMD_BUFFER_EMULATED)
  emulation::buffer_load_to_lds(r, lds_base, lane_offset, scalar_offset, Bytes);
#else
  (void)r;
  (void)lds_base;
  (void)lane_offset;
  (void)scalar_offset;
#endif
}

}  // namespace amd
}  // namespace tessera

#endif  // (__HIP__ && __clang__) || TESSERA_AMD_EMULATION
