// alpha and beta applied twice (LinearCombination twice in one Compose) is refused.
#include "tessera/gemm/epilogue/activations.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Epilogue = gemm::Compose<gemm::LinearCombination, gemm::GeluTanh, gemm::LinearCombination>;
#else
using Epilogue = gemm::Compose<gemm::LinearCombination, gemm::GeluTanh, gemm::Clamp>;
#endif
static_assert(sizeof(Epilogue) > 0, "");
