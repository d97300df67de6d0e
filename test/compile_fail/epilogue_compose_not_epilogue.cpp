// Compose takes epilogues only: a plain type in the list is refused with the contract's name.
#include "tessera/gemm/epilogue/activations.hpp"

using namespace tessera;

#ifdef TESSERA_EXPECT_FAIL
using Epilogue = gemm::Compose<gemm::LinearCombination, float>;
#else
using Epilogue = gemm::Compose<gemm::LinearCombination, gemm::Relu>;
#endif
static_assert(sizeof(Epilogue) > 0, "");
