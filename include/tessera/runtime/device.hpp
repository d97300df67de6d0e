// Facts about the current device that host code plans and checks launches with: which
// architecture it is (so a configuration built for another one is refused before it is
// launched), its multiprocessor count and its shared-memory limit. Read once per device
// and cached per process, keyed by device ordinal (device_cache.hpp): each thread gets the
// facts of the device it selected.
#pragma once
#include <cstddef>
#include <cstring>

#include "tessera/core/status.hpp"
#include "tessera/runtime/context.hpp"
#include "tessera/runtime/device_cache.hpp"
#include "tessera/runtime/stream.hpp"

namespace tessera {

struct DeviceInfo {
  int id = 0;
  bool amd = false;
  // NVIDIA: major * 10 + minor (90 for H100/H200, 100 for B200). AMD: 0.
  int compute_capability = 0;
  // AMD: the gfx target, without feature suffixes ("gfx942" from "gfx942:sramecc+:xnack-").
  // NVIDIA: "sm_90" style.
  char arch_name[32] = {};
  int multiprocessors = 0;
  std::size_t smem_per_block_optin = 0;  // bytes one block may use, opt-in included
};

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_HIP) && !defined(TESSERA_CUDA)
namespace amd {
namespace emulation {
// The emulated device (its gfx target and CU count), defined by the emulator layer.
Status current_device(DeviceInfo* info);
}  // namespace emulation
}  // namespace amd
#endif

namespace detail {
inline void copy_arch_name(DeviceInfo& info, const char* name) {
  std::size_t n = 0;
  // Stop at the first ':' so that "gfx942:sramecc+:xnack-" names the target alone.
  while (name[n] != '\0' && name[n] != ':' && n + 1 < sizeof info.arch_name) ++n;
  std::memcpy(info.arch_name, name, n);
  info.arch_name[n] = '\0';
}

inline Status query_device(int device, DeviceInfo* out) {
  DeviceInfo info;
  info.id = device;
#if defined(TESSERA_HIP)
  hipDeviceProp_t prop;
  TESSERA_RETURN_IF_HIP_ERROR(hipGetDeviceProperties(&prop, device));
  info.amd = true;
  copy_arch_name(info, prop.gcnArchName);
  info.multiprocessors = prop.multiProcessorCount;
  info.smem_per_block_optin = prop.sharedMemPerBlock;
#elif defined(TESSERA_CUDA)
  int major = 0, minor = 0, sms = 0, smem = 0;
  TESSERA_RETURN_IF_CUDA_ERROR(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  TESSERA_RETURN_IF_CUDA_ERROR(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  TESSERA_RETURN_IF_CUDA_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TESSERA_RETURN_IF_CUDA_ERROR(
      cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  info.compute_capability = major * 10 + minor;
  char name[16];
  name[0] = 's';
  name[1] = 'm';
  name[2] = '_';
  int n = 3;
  for (int v : {major, minor}) {
    if (v >= 10) name[n++] = char('0' + v / 10);
    name[n++] = char('0' + v % 10);
  }
  name[n] = '\0';
  copy_arch_name(info, name);
  info.multiprocessors = sms;
  info.smem_per_block_optin = std::size_t(smem);
#elif defined(TESSERA_AMD_EMULATION)
  const Status s = amd::emulation::current_device(&info);
  if (!ok(s)) return s;
#else
  (void)device;
  return Status::kErrorNoDevice;
#endif
  *out = info;
  return Status::kSuccess;
}
}  // namespace detail

// The calling thread's device and its facts. Also the step that makes the thread ready for
// the driver calls that follow (context.hpp: on a thread that never used CUDA, the device's
// primary context is bound first), so every Gemm entry point that reaches the device calls
// this before anything else that touches it.
inline Status current_device(DeviceInfo* out) {
  int device = 0;
  const Status bound = bind_thread_context(&device);
  if (!ok(bound)) return bound;
#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_HIP) && !defined(TESSERA_CUDA)
  // The emulator may change the device it emulates between launches: never cache.
  return detail::query_device(device, out);
#else
  static PerDeviceCache<DeviceInfo> facts;
  return facts.get(device, out, detail::query_device);
#endif
}

// Multiprocessors (SMs / CUs) of the current device.
inline Status multiprocessor_count(int* count) {
  DeviceInfo info;
  const Status s = current_device(&info);
  if (ok(s)) *count = info.multiprocessors;
  return s;
}

}  // namespace tessera
