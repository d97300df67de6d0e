// ISA test for tessera/arch/amd/buffer.hpp on gfx942 and gfx950: every access width
// becomes one buffer instruction on the descriptor, the tail of the data needs no
// bounds branch (the descriptor's range check zero-fills it), and the direct-to-LDS
// load uses the widest form each target has.
#include "tessera/arch/amd/buffer.hpp"
#include "tessera/arch/amd/sched.hpp"

using namespace tessera::amd;

typedef float Float2 __attribute__((ext_vector_type(2)));
typedef float Float4 __attribute__((ext_vector_type(4)));

#if defined(__gfx950__)
constexpr int kLdsBytesPerLane = 16;
#else
constexpr int kLdsBytesPerLane = 4;
#endif

// n_bytes need not be a multiple of the access width: lanes past it read zeros and
// their stores are dropped, so there is no `if (offset < n_bytes)` anywhere.
extern "C" __global__ void __attribute__((amdgpu_flat_work_group_size(64, 256)))
buffer_probe(const float* src, float* dst, unsigned n_bytes) {
  __shared__ float staged[256 * kLdsBytesPerLane / 4];
  const unsigned t = __builtin_amdgcn_workitem_id_x();
  const BufferResource in = make_buffer_resource(src, n_bytes);
  const BufferResource out = make_buffer_resource(dst, n_bytes);

  const float x1 = buffer_load_as<float>(in, t * 4);
  const Float2 x2 = buffer_load_as<Float2>(in, t * 8, 1024);
  const Float4 x4 = buffer_load_as<Float4>(in, t * 16, 2048);
  const U32x3 x3 = buffer_load<12>(in, t * 12, 8192);  // packed fp6 pieces (mfma_tile_copy.hpp)
  // Each wave fills its own slice: the LDS base is per wave, the lane index implied.
  const unsigned wave = __builtin_amdgcn_readfirstlane(t / 64);
  buffer_load_to_lds<kLdsBytesPerLane>(in, staged + wave * 64 * kLdsBytesPerLane / 4,
                                       t * kLdsBytesPerLane, 4096);
  wait_vmcnt<0>();
  barrier();

  buffer_store_as<float>(out, x1 + staged[t], t * 4);
  buffer_store_as<Float2>(out, x2, t * 8, 1024);
  buffer_store_as<Float4>(out, x4, t * 16, 2048);
  buffer_store<4>(out, x3[0] ^ x3[1] ^ x3[2], t * 4, 8192);
}

// CHECK-LABEL: buffer_probe:
// CHECK-NOT:   {{s_cbranch|global_load|flat_load}}
// CHECK:       s_mov_b32 s{{[0-9]+}}, 0x20000
// CHECK-DAG:   buffer_load_dword v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0 offen{{$}}
// CHECK-DAG:   buffer_load_dwordx2 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen{{$}}
// CHECK-DAG:   buffer_load_dwordx4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen{{$}}
// CHECK-DAG:   buffer_load_dwordx3 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen{{$}}
// GFX942-DAG:  buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen lds
// GFX950-DAG:  buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK:       s_waitcnt vmcnt(0)
// CHECK-NEXT:  s_barrier
// CHECK-NOT:   {{s_cbranch|global_store|flat_store}}
// CHECK-DAG:   buffer_store_dword v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0 offen{{$}}
// CHECK-DAG:   buffer_store_dwordx2 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen{{$}}
// CHECK-DAG:   buffer_store_dwordx4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen{{$}}
// CHECK:       s_endpgm
// CHECK:       .private_segment_fixed_size: 0
