// One kernel launch, spelled once for CUDA, HIP and the AMD wave emulator.
//
//   LaunchShape shape{grid_x, block_x, dynamic_smem_bytes};
//   Status s = launch_kernel(my_kernel<Config>, shape, stream, params);
//
// CUDA: a plain <<<>>> launch, or cudaLaunchKernelEx when the shape asks for a thread-
// block cluster or a dependent launch (programmatic stream serialization: the kernel may start
// before the stream's previous kernel ends, and must wait for it itself before touching global
// memory: arch/nvidia/grid_dependency.hpp). HIP: <<<>>>. Emulated AMD (TESSERA_AMD_EMULATION, a
// host build): the emulator runs every work-item of the grid on the host, through the hook
// declared below and defined by the emulator layer. The Status is the runtime's answer to the
// launch itself (configuration errors), not the kernel's outcome.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tessera/core/macros.hpp"
#include "tessera/core/status.hpp"
#include "tessera/runtime/stream.hpp"

#if defined(TESSERA_CUDA)
#include "tessera/runtime/context.hpp"
#include "tessera/runtime/device_cache.hpp"
#endif

namespace tessera {

struct LaunchShape {
  unsigned grid_x = 1, grid_y = 1, grid_z = 1;
  unsigned block_x = 1;
  std::size_t dynamic_smem_bytes = 0;
  unsigned cluster_x = 1, cluster_y = 1;  // thread-block cluster (NVIDIA sm_90+ only)
  bool dependent = false;                  // programmatic dependent launch (NVIDIA sm_90+ only)
};

#if defined(TESSERA_AMD_EMULATION) && !defined(TESSERA_HIP) && !defined(TESSERA_CUDA)
namespace amd {
namespace emulation {
// Runs entry(context) once per work-item of the grid with AMD semantics (64-lane
// waves, workgroup barriers, LDS), on the host. Implemented by the emulator layer.
Status launch(const LaunchShape& shape, void (*entry)(void*), void* context);
}  // namespace emulation
}  // namespace amd

template <class... KernelParams, class... Args>
Status launch_kernel(void (*kernel)(KernelParams...), const LaunchShape& shape, Stream /*stream*/,
                     Args&&... args) {
  if (shape.cluster_x * shape.cluster_y != 1 || shape.dependent) return Status::kErrorUnsupported;
  struct Call {
    void (*kernel)(KernelParams...);
    std::tuple<std::decay_t<Args>...> args;
  } call{kernel, std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...)};
  auto entry = [](void* context) {
    Call& c = *static_cast<Call*>(context);
    std::apply([&](const auto&... a) { c.kernel(a...); }, c.args);
  };
  return amd::emulation::launch(shape, entry, &call);
}

template <auto kKernel>
Status allow_dynamic_smem(std::size_t) {
  return Status::kSuccess;  // the emulator hands out the LDS a kernel declares
}

#elif defined(TESSERA_CUDA) || defined(TESSERA_HIP)

// Past 48 KiB a CUDA kernel must opt in to its dynamic shared memory. The opt-in belongs
// to the kernel in one context, so it is made once per kernel and device, in the first
// context that launches it there (normally the device's primary context, the runtime's),
// and remembered with that context (device_cache.hpp): a thread on device 1 opts in on
// device 1, and a thread that arrives while another opts in waits for it before launching.
// A thread whose current context on that device is another one (made with the driver API),
// or a request for more bytes than the first, opts in on every call. AMD kernels declare
// their LDS statically.
template <auto kKernel>
Status allow_dynamic_smem(std::size_t bytes) {
#if defined(TESSERA_CUDA)
  if (bytes > 48 * 1024) {
    auto opt_in = [bytes] {
      return status_from_cuda(
          cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    };
    int device = 0;
    TESSERA_RETURN_IF_CUDA_ERROR(cudaGetDevice(&device));
    CUcontext context = nullptr;
    const Status found = current_context(&context);
    if (!ok(found)) return found;
    struct OptIn {
      CUcontext context;
      std::size_t bytes;
    };
    static PerDeviceCache<OptIn> first_opt_in;
    OptIn first{};
    const Status s = first_opt_in.get(device, &first, [&](int, OptIn* made) {
      const Status set = opt_in();
      if (ok(set)) *made = {context, bytes};
      return set;
    });
    if (!ok(s)) return s;
    if (first.context == context && first.bytes >= bytes) return Status::kSuccess;
    return opt_in();
  }
#endif
  (void)bytes;
  return Status::kSuccess;
}

template <class... KernelParams, class... Args>
Status launch_kernel(void (*kernel)(KernelParams...), const LaunchShape& shape, Stream stream,
                     Args&&... args) {
  const dim3 grid(shape.grid_x, shape.grid_y, shape.grid_z);
  const dim3 block(shape.block_x);
#if defined(TESSERA_CUDA)
  if (shape.cluster_x * shape.cluster_y > 1 || shape.dependent) {
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shape.dynamic_smem_bytes;
    config.stream = stream;
    cudaLaunchAttribute attribute[2];
    unsigned count = 0;
    if (shape.cluster_x * shape.cluster_y > 1) {
      attribute[count].id = cudaLaunchAttributeClusterDimension;
      attribute[count].val.clusterDim.x = shape.cluster_x;
      attribute[count].val.clusterDim.y = shape.cluster_y;
      attribute[count].val.clusterDim.z = 1;
      ++count;
    }
    if (shape.dependent) {
      attribute[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attribute[count].val.programmaticStreamSerializationAllowed = 1;
      ++count;
    }
    config.attrs = attribute;
    config.numAttrs = count;
    return status_from_cuda(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
  }
#else
  if (shape.cluster_x * shape.cluster_y != 1 || shape.dependent) return Status::kErrorUnsupported;
#endif
  kernel<<<grid, block, shape.dynamic_smem_bytes, stream>>>(std::forward<Args>(args)...);
  return last_launch_status();
}

#endif

}  // namespace tessera
