// core_kernels.cpp compiled WITHOUT -fsanitize=thread (a plain source of its test), for
// the check that the emulator notices a kernel whose LDS accesses it cannot see.
#include "core_kernels.cpp"
