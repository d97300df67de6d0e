// ISA test for tessera/arch/amd/sched.hpp (and the buffer loads feeding it), compiled
// for gfx942 and gfx950. The kernel is a miniature ping-pong iteration: loads in
// flight, a wait for the oldest one only, LDS staging behind a barrier, a dot cluster
// at raised priority fenced by sched_barrier and interleaved by sched_group_barrier,
// then waits that retire the remaining loads one at a time. The CHECK lines below say
// what the assembly must show, in order; FileCheck reads them from this file.
//
// Each explicit wait is placed where the compiler needs no stricter one, so that the
// count written here is the count in the assembly (SIInsertWaitcnts merges an
// explicit s_waitcnt with any stricter wait it needs at the same point).
#include "tessera/arch/amd/buffer.hpp"
#include "tessera/arch/amd/sched.hpp"

using namespace tessera::amd;

typedef _Float16 Half4 __attribute__((ext_vector_type(4)));
typedef float Float4 __attribute__((ext_vector_type(4)));

constexpr int kLdsHalf4 = 256;  // 2048 bytes of LDS

extern "C" __global__ void __attribute__((amdgpu_flat_work_group_size(64, 256)))
sched_probe(const float* a, float* out, unsigned bytes) {
  __shared__ Half4 lds[kLdsHalf4];
  const unsigned t = __builtin_amdgcn_workitem_id_x();
  const BufferResource src = make_buffer_resource(a, bytes);

  // Three 16-byte loads per lane: the second and third differ only in the scalar
  // offset, the way a pipeline steps along K.
  const U32x4 x0 = buffer_load<16>(src, t * 16);
  // A count above 15 needs the high vmcnt bits [15:14]. With one load in flight this
  // wait is a no-op, but its encoding must reach the assembly intact. (Adjacent waits
  // would be merged into the strictest, hence its place between the loads.)
  wait_vmcnt<40>();
  const U32x4 x1 = buffer_load<16>(src, t * 16, 4096);
  const U32x4 x2 = buffer_load<16>(src, t * 16, 8192);

  wait_vmcnt<2>();  // x0 only: x1 and x2 stay in flight
  lds[t] = __builtin_bit_cast(Half4, (U32x2){x0[0] ^ x0[2], x0[1] ^ x0[3]});
  wait_lgkmcnt<0>();
  barrier();

  Float4 acc = {0.f, 0.f, 0.f, 0.f};
  sched_barrier<SchedMask::kNone>();
  set_priority<1>();
  for (int i = 0; i < 4; ++i) {
    const Half4 av = lds[(t + 64 * i) % kLdsHalf4];
    const Half4 bv = lds[(t + 64 * i + 1) % kLdsHalf4];
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(av, bv, acc, 0, 0, 0);
    sched_group_barrier<SchedMask::kDsRead, 2, 0>();
    sched_group_barrier<SchedMask::kMfma, 1, 0>();
  }
  set_priority<0>();
  sched_barrier<SchedMask::kNone>();

  // x1 has landed; the LDS reads are done already, so lgkmcnt(0) shows only that the
  // field lands in the right bits.
  wait_counts<1, Gfx9Waitcnt::kMaxExpcnt, 0>();
  acc *= __builtin_bit_cast(Float4, x1);
  sched_barrier<SchedMask::kNone>();
  wait_vmcnt<0>();  // x2 has landed
  acc = acc * acc + __builtin_bit_cast(Float4, x2);

  buffer_store_as<Float4>(make_buffer_resource(out, bytes), acc, t * 16);
}

// CHECK-LABEL: sched_probe:
// Loads go through the descriptor (config dword 0x20000), lane offset in a VGPR,
// the K step in the scalar offset.
// CHECK:       s_mov_b32 s{{[0-9]+}}, 0x20000
// CHECK:       buffer_load_dwordx4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], 0 offen
// CHECK:       s_waitcnt vmcnt(40){{$}}
// CHECK:       buffer_load_dwordx4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen
// CHECK:       buffer_load_dwordx4 v[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, s[{{[0-9]+:[0-9]+}}], s{{[0-9]+}} offen
// CHECK-NOT:   {{global_load|v_mfma}}
// CHECK:       s_waitcnt vmcnt(2){{$}}
// CHECK:       ds_write_b64
// CHECK-NEXT:  s_waitcnt lgkmcnt(0){{$}}
// CHECK-NEXT:  s_barrier
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NEXT:  s_setprio 1
// The whole dot cluster sits at priority 1, with the interleave requests inside it.
// CHECK-NOT:   s_setprio
// CHECK:       ; sched_group_barrier mask(0x00000100) size(2) SyncID(0)
// CHECK-NOT:   s_setprio
// CHECK-COUNT-4: v_mfma_f32_16x16x16_f16
// CHECK-NOT:   s_setprio
// CHECK:       ; sched_group_barrier mask(0x00000008) size(1) SyncID(0)
// CHECK-NEXT:  s_setprio 0
// CHECK-NEXT:  ; sched_barrier mask(0x00000000)
// CHECK-NOT:   v_mfma
// CHECK:       s_waitcnt vmcnt(1) lgkmcnt(0){{$}}
// CHECK:       ; sched_barrier mask(0x00000000)
// CHECK-NEXT:  s_waitcnt vmcnt(0){{$}}
// CHECK:       buffer_store_dwordx4
// CHECK:       s_endpgm
// No scratch, no spills, the LDS array and nothing else.
// CHECK:       .amdhsa_group_segment_fixed_size 2048
// CHECK-NEXT:  .amdhsa_private_segment_fixed_size 0
// CHECK:       .group_segment_fixed_size: 2048
// CHECK:       .private_segment_fixed_size: 0
// CHECK:       .sgpr_spill_count: 0
// CHECK:       .vgpr_spill_count: 0
// GFX942:      amdhsa.target: amdgcn-amd-amdhsa--gfx942
// GFX950:      amdhsa.target: amdgcn-amd-amdhsa--gfx950

// A second pass (prefix PRIO): exactly four MFMAs in the whole kernel, every one of
// them inside the priority-1 window.
// PRIO-NOT:  v_mfma
// PRIO:      s_setprio 1
// PRIO-NOT:  s_setprio
// PRIO:      v_mfma_f32_16x16x16_f16
// PRIO-NOT:  s_setprio
// PRIO:      v_mfma_f32_16x16x16_f16
// PRIO-NOT:  s_setprio
// PRIO:      v_mfma_f32_16x16x16_f16
// PRIO-NOT:  s_setprio
// PRIO:      v_mfma_f32_16x16x16_f16
// PRIO-NOT:  {{s_setprio|v_mfma}}
// PRIO:      s_setprio 0
// PRIO-NOT:  v_mfma
// PRIO:      .end_amdgpu_metadata
