// The compute capability a GPU test executable needs (gpu_main.cpp skips on any other),
// from -DTESSERA_GPU_TEST_REQUIRES_CC; 0 without it (any). One object per requirement, so
// that gpu_main.cpp (Catch2's implementation) is compiled once.
#if !defined(TESSERA_GPU_TEST_REQUIRES_CC)
#define TESSERA_GPU_TEST_REQUIRES_CC 0
#endif
extern const int tessera_gpu_test_required_cc = TESSERA_GPU_TEST_REQUIRES_CC;
