// option::DependentLaunch is the wgmma family's (its kernels wait for the previous grid before
// their first global access): the FMA family, whose kernels do not, refuses it by name rather
// than launch a kernel early that would read what the previous one has not written.
#include "tessera/gemm/fma/config.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Extra = gemm::option::DependentLaunch;
#else
using Extra = gemm::option::OutputElement<float>;
#endif
using Config = gemm::FmaConfig<Sm90, float, RowMajor, float, RowMajor, float, RowMajor, Extra>;
static_assert(sizeof(Config) > 0, "");  // completes the class: its static_asserts run
