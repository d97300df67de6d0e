// The calling thread's CUDA context, made ready before Tessera's first driver call.
//
// The runtime API binds a device's primary context to a thread lazily, at the first runtime
// call that needs a context. The driver API never does: a thread whose first CUDA call is
// Gemm::run has no context, and the driver's cuTensorMapEncodeTiled (tma.hpp) fails there.
// bind_thread_context() does beforehand what the runtime would do:
//   - a context is current on the thread (the primary context the runtime bound, or one the
//     caller made current through the driver API): it stays. Runtime calls use it too, and
//     cudaGetDevice names its device, so the library and the caller agree on the device;
//   - none is current: cudaSetDevice(cudaGetDevice()) binds the primary context of the
//     device this thread's runtime state names (device 0 where the thread never chose one),
//     initialising it if no thread has.
// On a thread that has a context this is cudaGetDevice plus cuCtxGetCurrent (both read
// thread-local state); no device query. Under HIP there is nothing to bind (Tessera makes
// no driver-API call there); the device is hipGetDevice's.
#pragma once
#include "tessera/core/status.hpp"

#if defined(TESSERA_HIP)
#include <hip/hip_runtime.h>

#include "tessera/runtime/hip_status.hpp"
#elif defined(TESSERA_CUDA)
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "tessera/runtime/cuda_driver.hpp"
#include "tessera/runtime/cuda_status.hpp"
#endif

namespace tessera {

#if defined(TESSERA_CUDA)
// The context current on the calling thread, nullptr when there is none. Binds nothing.
inline Status current_context(CUcontext* context) {
  using GetCurrent = CUresult (*)(CUcontext*);
  static DriverFunction<GetCurrent> get_current{"cuCtxGetCurrent", 4000};
  GetCurrent fn = nullptr;
  *context = nullptr;
  const Status found = get_current.get(&fn);
  if (!ok(found)) return found;
  return status_from_cu(fn(context));
}
#endif

namespace detail {

// The decision, over the three calls it needs, so that a host test can fake them
// (test/unit/test_thread_context.cpp):
//   Status get_device(int*)            the thread's runtime device (cudaGetDevice)
//   Status context_current(bool*)      whether a context is current (cuCtxGetCurrent)
//   Status set_device(int)             bind that device's primary context (cudaSetDevice)
// A driver that is not initialised yet (nothing in the process has used CUDA) has no
// current context either; cudaSetDevice initialises it.
template <class Calls>
Status bind_thread_context(Calls& calls, int* device) {
  int d = 0;
  Status s = calls.get_device(&d);
  if (!ok(s)) return s;
  bool current = false;
  s = calls.context_current(&current);
  if (!ok(s) && s != Status::kErrorDriverNotInitialized) return s;
  if (!ok(s) || !current) {
    s = calls.set_device(d);
    if (!ok(s)) return s;
  }
  *device = d;
  return Status::kSuccess;
}

#if defined(TESSERA_CUDA)
struct CudaContextCalls {
  static Status get_device(int* device) { return status_from_cuda(cudaGetDevice(device)); }
  static Status context_current(bool* current) {
    CUcontext context = nullptr;
    const Status s = current_context(&context);
    *current = ok(s) && context != nullptr;
    return s;
  }
  static Status set_device(int device) { return status_from_cuda(cudaSetDevice(device)); }
};
#endif

}  // namespace detail

// The calling thread's device (cudaGetDevice / hipGetDevice), with a context current on the
// thread (see above). Every Gemm entry point that reaches the device (run, workspace_size,
// Dispatch) takes this step first, through current_device() (device.hpp).
inline Status bind_thread_context(int* device) {
#if defined(TESSERA_HIP)
  return status_from_hip(hipGetDevice(device));
#elif defined(TESSERA_CUDA)
  detail::CudaContextCalls calls;
  return detail::bind_thread_context(calls, device);
#else
  *device = 0;  // a host build (the AMD wave emulator): one emulated device, no context
  return Status::kSuccess;
#endif
}

}  // namespace tessera
