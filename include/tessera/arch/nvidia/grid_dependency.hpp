// Programmatic dependent launch (sm_90+): two kernels of one stream may overlap when the second
// is launched with programmatic stream serialization (runtime/launch.hpp, LaunchShape::dependent).
//
// The second grid may then start before the first has finished, as soon as every CTA of the
// first has called let_dependents_launch or exited (PTX ISA, griddepcontrol.launch_dependents;
// CUDA Programming Guide, "Programmatic Dependent Launch and Synchronization"). Nothing the
// first grid wrote is guaranteed visible to it until wait_for_prerequisite_grids returns, which
// is when the first grid has completed and its memory operations are performed (griddepcontrol.wait).
// A kernel launched that way must therefore wait before its first global load or store; what it
// does before (shared-memory barriers, the cluster's sync, reading its parameters) is what
// overlaps the previous kernel's tail. Without the attribute both instructions return at once:
// the kernel runs as after an ordinary launch.
//
// Device code for sm_90+; inert elsewhere.
#pragma once

#include "tessera/core/macros.hpp"

namespace tessera::nvidia {

#if defined(TESSERA_CUDA)

// Returns once the grids this one depends on have completed and their writes are visible.
// The memory clobber keeps the compiler from moving any access of memory above it.
TESSERA_DEVICE TESSERA_FORCEINLINE void wait_for_prerequisite_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets a grid launched after this one with programmatic stream serialization start once every
// CTA of this grid has called this (or exited). A hint: it changes when the next grid may start,
// never what it may read (that is its own wait's business).
TESSERA_DEVICE TESSERA_FORCEINLINE void let_dependents_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

#endif  // TESSERA_CUDA

}  // namespace tessera::nvidia
