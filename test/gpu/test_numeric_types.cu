// The narrow float types on the GPU: the conversion instructions themselves (written here
// as inline PTX, independently of the library), the library's device path and its
// software path run on the device, all compared bit for bit with the host functions over
// every midpoint, every value and their float neighbours, 2^20 floats spread over every
// exponent, random bit patterns and the specials.
//   sm_89+ (runs on Hopper): cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32, cvt.rn.f16x2.{e4m3x2,e5m2x2}.
//   sm_100a (built where 100a is a target, runs only on compute capability 10.0):
//     cvt.rn.satfinite.{e2m1x2,e2m3x2,e3m2x2}.f32, cvt.{rz,rp}.satfinite.ue8m0x2.f32 and
//     their reverse conversions to f16x2 / bf16x2.
// Each check prints one "numeric_types:" line (grep the suite's log for them: scripts/device/check.sh --suites=numeric_types).
#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "narrow_float_reference.hpp"
#include "tessera/core/float4.hpp"
#include "tessera/core/float6.hpp"
#include "tessera/core/float8.hpp"
#include "tessera/core/scale_factor.hpp"

using namespace tessera;

namespace {

void require_cuda(cudaError_t err, const char* what) {
  INFO(what << ": " << cudaGetErrorString(err));
  REQUIRE(err == cudaSuccess);
}

// A device array filled from (or poisoned before) a kernel, read back after it.
template <class T>
struct DeviceArray {
  T* ptr = nullptr;
  std::size_t size;
  explicit DeviceArray(std::size_t n) : size(n) {
    require_cuda(cudaMalloc(&ptr, n * sizeof(T)), "cudaMalloc");
    require_cuda(cudaMemset(ptr, 0xab, n * sizeof(T)), "poison");
  }
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) {
    require_cuda(cudaMemcpy(ptr, host.data(), size * sizeof(T), cudaMemcpyHostToDevice), "copy in");
  }
  std::vector<T> read() const {
    require_cuda(cudaDeviceSynchronize(), "kernel");
    std::vector<T> host(size);
    require_cuda(cudaMemcpy(host.data(), ptr, size * sizeof(T), cudaMemcpyDeviceToHost),
                 "copy out");
    return host;
  }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The inputs: the reference's probing set for the format, every float whose low 12
// mantissa bits are zero (2^20 of them, all exponents, both signs), and random patterns;
// an even count so that they pair up.
std::vector<float> gpu_inputs(const reference::Format& f) {
  std::vector<float> inputs = reference::probing_inputs(f, 200000, 0x9e3779b9u);
  for (std::uint32_t high = 0; high < (1u << 20); ++high) {
    const std::uint32_t bits = high << 12;
    float x;
    std::memcpy(&x, &bits, sizeof x);
    inputs.push_back(x);
  }
  if (inputs.size() % 2) inputs.push_back(0.f);
  return inputs;
}

// Counts differences between the device's bytes and the host's, reporting the first few.
struct Comparison {
  std::string what;
  std::size_t count = 0;
  std::size_t mismatches = 0;
  std::string first;
  void add(std::uint32_t input_bits, unsigned want, unsigned got) {
    ++count;
    if (want == got) return;
    if (++mismatches <= 8) {
      char line[128];
      std::snprintf(line, sizeof line, "  input 0x%08x: host 0x%02x, device 0x%02x\n", input_bits,
                    want, got);
      first += line;
    }
  }
  void report() const {
    std::printf("numeric_types: %-58s %9zu inputs, %zu mismatches\n", what.c_str(), count,
                mismatches);
    if (mismatches) std::printf("%s", first.c_str());
    INFO(what << ": " << mismatches << " of " << count << " differ\n" << first);
    CHECK(count > 0);
    CHECK(mismatches == 0);
  }
};

int compute_capability() {
  int device = 0, major = 0, minor = 0;
  require_cuda(cudaGetDevice(&device), "cudaGetDevice");
  require_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "major");
  require_cuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "minor");
  return major * 10 + minor;
}

constexpr int kThreads = 256;
int blocks_for(std::size_t n) { return int((n + kThreads - 1) / kThreads); }

// ---- fp8 (sm_89+) --------------------------------------------------------------------

enum class Fp8 { kE4M3, kE5M2 };

// `d, a, b`: a goes to the high byte, b to the low byte.
template <Fp8 F>
__device__ unsigned short cvt_satfinite_x2(float a, float b) {
  unsigned short d = 0;
#if __CUDA_ARCH__ >= 890
  if constexpr (F == Fp8::kE4M3) {
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
  } else {
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
  }
#endif
  return d;
}
template <Fp8 F>
__device__ unsigned int cvt_to_f16x2(unsigned short pair) {
  unsigned int d = 0;
#if __CUDA_ARCH__ >= 890
  if constexpr (F == Fp8::kE4M3) {
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(d) : "h"(pair));
  } else {
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(d) : "h"(pair));
  }
#endif
  return d;
}

// Per pair of inputs (x[2i], x[2i+1]): one instruction converts both (x[2i+1] as a, so its
// byte lands high); the library's device path and its software path convert each.
template <Fp8 F, class T>
__global__ void fp8_from_float(const float* in, std::size_t pairs, std::uint8_t* by_instruction,
                               std::uint8_t* by_library, std::uint8_t* by_software) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  const unsigned short d = cvt_satfinite_x2<F>(in[2 * i + 1], in[2 * i]);
  by_instruction[2 * i] = std::uint8_t(d & 0xffu);
  by_instruction[2 * i + 1] = std::uint8_t(d >> 8);
  for (std::size_t j = 2 * i; j < 2 * i + 2; ++j) {
    by_library[j] = T(in[j]).bits;
    by_software[j] = T::from_float_bits(__float_as_uint(in[j]), Saturation::kSatFinite).bits;
  }
}

// Every code back to f16 by the instruction (codes 2k and 2k+1 in one pair) and to float
// by the library's device path.
template <Fp8 F, class T>
__global__ void fp8_to_float(std::uint16_t* halves, std::uint32_t* floats) {
  const unsigned k = threadIdx.x;  // 128 threads: codes 2k (low byte) and 2k + 1
  const unsigned int h2 = cvt_to_f16x2<F>((unsigned short)((2 * k) | ((2 * k + 1) << 8)));
  halves[2 * k] = std::uint16_t(h2 & 0xffffu);
  halves[2 * k + 1] = std::uint16_t(h2 >> 16);
  for (unsigned c = 2 * k; c < 2 * k + 2; ++c) {
    floats[c] = __float_as_uint(float(T::from_bits(std::uint8_t(c))));
  }
}

template <Fp8 F, class T>
void check_fp8(const reference::Format& format, const char* ptx) {
  const std::vector<float> inputs = gpu_inputs(format);
  DeviceArray<float> in(inputs);
  DeviceArray<std::uint8_t> by_instruction(inputs.size()), by_library(inputs.size()),
      by_software(inputs.size());
  const std::size_t pairs = inputs.size() / 2;
  fp8_from_float<F, T><<<blocks_for(pairs), kThreads>>>(in.ptr, pairs, by_instruction.ptr,
                                                        by_library.ptr, by_software.ptr);
  require_cuda(cudaGetLastError(), "launch");
  const auto instruction = by_instruction.read(), library = by_library.read(),
             software = by_software.read();
  Comparison vs_instruction{std::string(ptx) + " vs host"};
  Comparison vs_library{std::string(format.name) + " library device path vs host"};
  Comparison vs_software{std::string(format.name) + " software path on device vs host"};
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    const unsigned want = T::from_float(inputs[j], Saturation::kSatFinite).bits;
    vs_instruction.add(bits_of(inputs[j]), want, instruction[j]);
    vs_library.add(bits_of(inputs[j]), want, library[j]);
    vs_software.add(bits_of(inputs[j]), want, software[j]);
  }
  vs_instruction.report();
  vs_library.report();
  vs_software.report();

  // Back: f16 from the instruction must be the host's value (exact in f16; NaN as NaN),
  // and the library's device float must be the host's float.
  DeviceArray<std::uint16_t> halves(256);
  DeviceArray<std::uint32_t> floats(256);
  fp8_to_float<F, T><<<1, 128>>>(halves.ptr, floats.ptr);
  require_cuda(cudaGetLastError(), "launch");
  const auto got_halves = halves.read();
  const auto got_floats = floats.read();
  Comparison back_instruction{std::string("cvt.rn.f16x2.") + format.name +
                              "x2 vs host (256 codes)"};
  Comparison back_library{std::string(format.name) + " library device float vs host (256 codes)"};
  unsigned nan_half = 0;
  for (unsigned c = 0; c < 256; ++c) {
    const T x = T::from_bits(std::uint8_t(c));
    const bool nan = x.is_nan();
    const bool half_nan = (got_halves[c] & 0x7c00u) == 0x7c00u && (got_halves[c] & 0x3ffu) != 0u;
    const std::uint16_t want_half = half_t(float(x)).bits;
    back_instruction.add(c, nan ? 1u : want_half, nan ? unsigned(half_nan) : got_halves[c]);
    const bool float_nan = (got_floats[c] & 0x7fffffffu) > 0x7f800000u;
    back_library.add(c, nan ? 1u : x.to_float_bits(), nan ? unsigned(float_nan) : got_floats[c]);
    if (nan) nan_half = got_halves[c];
  }
  std::printf("numeric_types: %s NaN codes decode to f16 0x%04x on this device\n", format.name,
              nan_half);
  back_instruction.report();
  back_library.report();
}

// ---- sm_100a: fp6, fp4, ue8m0 ----------------------------------------------------------

#if defined(TESSERA_TEST_SM100A)
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define SM100_ONLY(body) body
#else
#define SM100_ONLY(body) __trap();
#endif

enum class Mx { kE2M3, kE3M2, kE2M1, kUe8m0Down, kUe8m0Up };

// One packed conversion of (a, b) as PTX lays it out; fp4 returns its byte.
template <Mx K>
__device__ unsigned cvt_mx_x2(float a, float b) {
  unsigned short d = 0;
  SM100_ONLY(
      if constexpr (K == Mx::kE2M3) {
        asm("cvt.rn.satfinite.e2m3x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
      } else if constexpr (K == Mx::kE3M2) {
        asm("cvt.rn.satfinite.e3m2x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
      } else if constexpr (K == Mx::kE2M1) {
        asm("{ .reg .b8 t; cvt.rn.satfinite.e2m1x2.f32 t, %1, %2; cvt.u16.u8 %0, t; }"
            : "=h"(d)
            : "f"(a), "f"(b));
      } else if constexpr (K == Mx::kUe8m0Down) {
        asm("cvt.rz.satfinite.ue8m0x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
      } else {
        asm("cvt.rp.satfinite.ue8m0x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
      })
  return d;
}
// Back: two codes (fp6/ue8m0: one per byte; fp4: one per nibble) to f16x2 / bf16x2.
template <Mx K>
__device__ unsigned cvt_mx_back_x2(unsigned short pair) {
  unsigned d = 0;
  SM100_ONLY(
      if constexpr (K == Mx::kE2M3) {
        asm("cvt.rn.f16x2.e2m3x2 %0, %1;" : "=r"(d) : "h"(pair));
      } else if constexpr (K == Mx::kE3M2) {
        asm("cvt.rn.f16x2.e3m2x2 %0, %1;" : "=r"(d) : "h"(pair));
      } else if constexpr (K == Mx::kE2M1) {
        asm("{ .reg .b8 t; cvt.u8.u16 t, %1; cvt.rn.f16x2.e2m1x2 %0, t; }" : "=r"(d) : "h"(pair));
      } else {
        asm("cvt.rn.bf16x2.ue8m0x2 %0, %1;" : "=r"(d) : "h"(pair));
      })
  return d;
}

template <Mx K>
__global__ void mx_from_float(const float* in, std::size_t pairs, std::uint16_t* out) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < pairs) out[i] = std::uint16_t(cvt_mx_x2<K>(in[2 * i + 1], in[2 * i]));
}
template <Mx K>
__global__ void mx_to_16bit(const std::uint16_t* pairs, std::size_t n, std::uint32_t* out) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = cvt_mx_back_x2<K>(pairs[i]);
}

// Host: the pair the instruction should write for (x0 = b, x1 = a).
template <Mx K>
unsigned host_pair(float x0, float x1) {
  if constexpr (K == Mx::kE2M3) {
    return float6_e2m3_t(x0).bits | (float6_e2m3_t(x1).bits << 8);
  } else if constexpr (K == Mx::kE3M2) {
    return float6_e3m2_t(x0).bits | (float6_e3m2_t(x1).bits << 8);
  } else if constexpr (K == Mx::kE2M1) {
    return float4_e2m1x2_t::pack(float4_e2m1_t(x0), float4_e2m1_t(x1)).bits;
  } else {
    const auto r = K == Mx::kUe8m0Down ? ScaleRounding::kDown : ScaleRounding::kUp;
    return float8_ue8m0_t::from_float(x0, r).bits | (float8_ue8m0_t::from_float(x1, r).bits << 8);
  }
}

template <Mx K>
void check_mx(const std::vector<float>& inputs, const char* ptx) {
  DeviceArray<float> in(inputs);
  const std::size_t pairs = inputs.size() / 2;
  DeviceArray<std::uint16_t> out(pairs);
  mx_from_float<K><<<blocks_for(pairs), kThreads>>>(in.ptr, pairs, out.ptr);
  require_cuda(cudaGetLastError(), "launch");
  const auto got = out.read();
  Comparison low{std::string(ptx) + " vs host (b, low)"},
      high{std::string(ptx) + " vs host (a, high)"};
  const unsigned shift = K == Mx::kE2M1 ? 4 : 8, mask = K == Mx::kE2M1 ? 0xfu : 0xffu;
  for (std::size_t i = 0; i < pairs; ++i) {
    const unsigned want = host_pair<K>(inputs[2 * i], inputs[2 * i + 1]);
    low.add(bits_of(inputs[2 * i]), want & mask, got[i] & mask);
    high.add(bits_of(inputs[2 * i + 1]), (want >> shift) & mask, (got[i] >> shift) & mask);
  }
  low.report();
  high.report();
}

// Every code back through the instruction; f16 (bf16 for ue8m0) must hold the host's value.
template <Mx K, class T>
void check_mx_back(unsigned codes, const char* ptx) {
  std::vector<std::uint16_t> pairs;
  for (unsigned c = 0; c < codes; ++c) {
    pairs.push_back(std::uint16_t(K == Mx::kE2M1 ? (c | (c << 4)) : (c | (c << 8))));
  }
  DeviceArray<std::uint16_t> in(pairs);
  DeviceArray<std::uint32_t> out(pairs.size());
  mx_to_16bit<K><<<1, 256>>>(in.ptr, pairs.size(), out.ptr);
  require_cuda(cudaGetLastError(), "launch");
  const auto got = out.read();
  Comparison back{std::string(ptx)};
  for (unsigned c = 0; c < codes; ++c) {
    const T x = T::from_bits(std::uint8_t(c));
    const float value = float(x);
    if constexpr (K == Mx::kUe8m0Down) {
      const bool nan = x.is_nan();
      const unsigned got_bf16 = got[c] & 0xffffu;
      const bool bf16_nan = (got_bf16 & 0x7f80u) == 0x7f80u && (got_bf16 & 0x7fu) != 0u;
      back.add(c, nan ? 1u : bfloat16_t(value).bits, nan ? unsigned(bf16_nan) : got_bf16);
    } else {
      back.add(c, half_t(value).bits, got[c] & 0xffffu);
      back.add(c, half_t(value).bits, got[c] >> 16);
    }
  }
  back.report();
}

std::vector<float> scale_inputs() {
  std::vector<float> inputs = reference::power_of_two_inputs();
  for (std::uint32_t high = 0; high < (1u << 20); ++high) {
    const std::uint32_t bits = (high << 12) | (high & 0xfffu);
    float x;
    std::memcpy(&x, &bits, sizeof x);
    inputs.push_back(x);
  }
  if (inputs.size() % 2) inputs.push_back(0.f);
  return inputs;
}
#endif  // TESSERA_TEST_SM100A

}  // namespace

TEST_CASE("fp8 conversion instructions match the host functions bit for bit", "[gpu][numeric]") {
  if (compute_capability() < 89) {
    WARN("the fp8 conversion instructions need compute capability 8.9+");
    return;
  }
  check_fp8<Fp8::kE4M3, float8_e4m3_t>(reference::kE4M3, "cvt.rn.satfinite.e4m3x2.f32");
  check_fp8<Fp8::kE5M2, float8_e5m2_t>(reference::kE5M2, "cvt.rn.satfinite.e5m2x2.f32");
}

TEST_CASE("sm_100a fp6 / fp4 / ue8m0 conversion instructions match the host", "[gpu][numeric]") {
#if defined(TESSERA_TEST_SM100A)
  if (compute_capability() != 100) {  // sm_100a code runs on compute capability 10.0 only
    std::printf("numeric_types: sm_100a conversions not run (compute capability %d, not 10.0)\n",
                compute_capability());
    return;
  }
  check_mx<Mx::kE2M3>(gpu_inputs(reference::kE2M3), "cvt.rn.satfinite.e2m3x2.f32");
  check_mx<Mx::kE3M2>(gpu_inputs(reference::kE3M2), "cvt.rn.satfinite.e3m2x2.f32");
  check_mx<Mx::kE2M1>(gpu_inputs(reference::kE2M1), "cvt.rn.satfinite.e2m1x2.f32");
  check_mx<Mx::kUe8m0Down>(scale_inputs(), "cvt.rz.satfinite.ue8m0x2.f32");
  check_mx<Mx::kUe8m0Up>(scale_inputs(), "cvt.rp.satfinite.ue8m0x2.f32");
  check_mx_back<Mx::kE2M3, float6_e2m3_t>(64, "cvt.rn.f16x2.e2m3x2 (64 codes)");
  check_mx_back<Mx::kE3M2, float6_e3m2_t>(64, "cvt.rn.f16x2.e3m2x2 (64 codes)");
  check_mx_back<Mx::kE2M1, float4_e2m1_t>(16, "cvt.rn.f16x2.e2m1x2 (16 codes)");
  check_mx_back<Mx::kUe8m0Down, float8_ue8m0_t>(256, "cvt.rn.bf16x2.ue8m0x2 (256 codes)");
#else
  std::printf(
      "numeric_types: sm_100a conversions not built (100a is not a target of this build)\n");
#endif
}
