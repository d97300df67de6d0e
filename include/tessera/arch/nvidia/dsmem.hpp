// Distributed shared memory (sm_90+): a CTA of a cluster writing into another CTA's shared
// memory. The address is a shared::cluster address (cluster_shared_address, mapa: the
// object at the same offset in CTA `rank`'s shared memory); an st.async there completes bytes
// on that CTA's mbarrier, and a thread of that CTA that waits on it at cluster scope sees them.
// Device code for sm_90+; inert elsewhere.
#pragma once
#include <cstdint>

#include "tessera/arch/nvidia/mbarrier.hpp"
#include "tessera/core/macros.hpp"

namespace tessera::nvidia {

#if defined(TESSERA_CUDA)

struct Float4 {
  float x, y, z, w;
};

// 16 bytes from this CTA's shared memory at shared-window address `address`.
TESSERA_DEVICE TESSERA_FORCEINLINE Float4 load_shared_v4(std::uint32_t address) {
  Float4 v{0.0f, 0.0f, 0.0f, 0.0f};
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(address)
               : "memory");
#else
  (void)address;
#endif
  return v;
}

// 16 bytes into another CTA's shared memory (st.async): `cluster_address` and `cluster_barrier`
// are shared::cluster addresses in that CTA (cluster_shared_address); when the bytes have
// landed they complete 16 bytes of the barrier's transaction count, so a thread of that CTA
// that waits on the barrier (at cluster scope) sees them. Nothing waits here: the value is
// taken from registers.
TESSERA_DEVICE TESSERA_FORCEINLINE void store_async_cluster_v4(std::uint32_t cluster_address, const Float4& v,
                                                               std::uint32_t cluster_barrier) {
#if defined(TESSERA_SM90_DEVICE_PASS)
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(
                   cluster_address),
               "r"(__float_as_uint(v.x)), "r"(__float_as_uint(v.y)), "r"(__float_as_uint(v.z)),
               "r"(__float_as_uint(v.w)), "r"(cluster_barrier)
               : "memory");
#else
  (void)cluster_address;
  (void)v;
  (void)cluster_barrier;
#endif
}

#endif  // TESSERA_CUDA

}  // namespace tessera::nvidia
