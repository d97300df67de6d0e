// Status: every way a Tessera call can fail, each with a name and a sentence.
#pragma once

#include "tessera/core/macros.hpp"

namespace tessera {

// X(name, message). One value per distinct problem, so that callers (and tests) can
// tell "lda too small" from "ldb too small" without parsing text.
#define TESSERA_STATUS_LIST(X)                                                              \
  X(kSuccess, "success")                                                                    \
  X(kErrorNegativeSize, "M, N and K must be >= 0")                                          \
  X(kErrorLeadingDimA, "lda is smaller than A's layout needs (rows of a column-major A, "   \
                       "columns of a row-major A)")                                         \
  X(kErrorLeadingDimB, "ldb is smaller than B's layout needs (rows of a column-major B, "   \
                       "columns of a row-major B)")                                         \
  X(kErrorLeadingDimC, "ldc is smaller than C's layout needs")                              \
  X(kErrorLeadingDimD, "ldd is smaller than D's layout needs")                              \
  X(kErrorNullA, "A is null but the product reads it (M, N and K all > 0)")                                                   \
  X(kErrorNullB, "B is null but the product reads it (M, N and K all > 0)")                                                   \
  X(kErrorNullC, "C is null but beta != 0 and M*N > 0")                                     \
  X(kErrorNullD, "D is null but M*N > 0")                                                   \
  X(kErrorMisalignedA, "A's pointer or lda breaks the alignment this configuration needs")  \
  X(kErrorMisalignedB, "B's pointer or ldb breaks the alignment this configuration needs")  \
  X(kErrorMisalignedC, "C's pointer or ldc breaks the alignment this configuration needs")  \
  X(kErrorMisalignedD, "D's pointer or ldd breaks the alignment this configuration needs")  \
  X(kErrorOffsetOverflow, "an operand spans 2^31 bytes or more, beyond 32-bit lane offsets") \
  X(kErrorGridTooLarge, "the problem needs more thread blocks than one launch allows")      \
  X(kErrorDimensionTooLarge, "M, N or K is 2^31 or more, beyond the kernel's 32-bit tile "   \
                             "coordinates")                                                 \
  X(kErrorNullEpilogueOperand, "a vector or scalar the epilogue reads (a bias, a scale) is null") \
  X(kErrorNullScaleA, "the scale mode reads scales of A (per tensor, per row or per 1x128 "  \
                     "block) but their pointer is null")                                    \
  X(kErrorNullScaleB, "the scale mode reads scales of B (per tensor, per column or per "    \
                     "128x128 block) but their pointer is null")                            \
  X(kErrorNullScaleD, "D is fp8 but its scale pointer is null (an fp8 D needs the scale "   \
                     "that maps values into its range; give 1.0 for none)")                 \
  X(kErrorScaleATooSmall, "A's scales are fewer than M and K need under the scale mode "    \
                          "(per row: M; per 1x128 block: ld >= M and "                      \
                          "ld * (ceil(K/128) - 1) + M values)")                             \
  X(kErrorScaleBTooSmall, "B's scales are fewer than N and K need under the scale mode "    \
                          "(per column: N; per 128x128 block: ld >= ceil(K/128) and "       \
                          "ld * (ceil(N/128) - 1) + ceil(K/128) values)")                   \
  X(kErrorFp8OperandNotKMajor, "fp8 wgmma reads both operands K-major: A must be "          \
                               "row-major and B column-major (transpose the other layout "  \
                               "into a K-major copy first)")                                \
  X(kErrorEpilogueArgument, "an argument of the fused epilogue is out of range (a clamp "  \
                            "whose lower bound exceeds its upper bound, a negative stride, "  \
                            "an auxiliary output's leading dimension too small)")           \
  X(kErrorProblemsUnsupported, "this configuration computes one GEMM per call: "             \
                               "Arguments::problems must keep its defaults (count 1); "      \
                               "batched and grouped GEMMs take option::Scheduler<"           \
                               "scheduler::StridedBatched> or <scheduler::Grouped<...>>")    \
  X(kErrorProblemCount, "problems.count (batch entries or groups) is negative or 2^31 or "   \
                        "more")                                                             \
  X(kErrorProblemStride, "a batch or group stride is negative, or D's stride is smaller "     \
                         "than one D matrix (entries' outputs would overlap)")              \
  X(kErrorProblemStrideMisaligned, "a batch or group stride is not a multiple of 16 bytes, " \
                                   "which the tensor-core families' TMA copies need")       \
  X(kErrorGroupRowsNull, "a grouped GEMM needs its group sizes in device memory: "           \
                         "problems.group_ends (contiguous layout) or problems.group_rows "   \
                         "(masked layout) is null")                                         \
  X(kErrorGroupRowsOutOfRange, "reported by the kernel through problems.status: a group's "  \
                               "end offset was below the previous group's (a negative "      \
                               "count) or past M, or a masked group's count was negative "   \
                               "or above M; the kernel clamped it (negative counts to 0, "   \
                               "rows past M cut off) and read and wrote nothing outside "    \
                               "A, B, C and D")                                             \
  X(kErrorWorkspaceNull, "the configuration needs a workspace but none was given")          \
  X(kErrorWorkspaceMisaligned, "the workspace must be 16-byte aligned")                      \
  X(kErrorUnsupported, "this configuration does not support the requested combination")    \
  X(kErrorNullBlockScalesA, "the configuration scales A per block of K (MX, NVFP4) but A's "  \
                            "block scales are null")                                        \
  X(kErrorNullBlockScalesB, "the configuration scales B per block of K (MX, NVFP4) but B's "  \
                            "block scales are null")                                        \
  X(kErrorBlockScalesATooSmall, "A's block scales do not cover M x K: their ld must be at "   \
                                "least ceil(K / block) and count at least "                 \
                                "(M - 1) * ld + ceil(K / block)")                           \
  X(kErrorBlockScalesBTooSmall, "B's block scales do not cover K x N: their ld must be at "   \
                                "least ceil(K / block) and count at least "                 \
                                "(N - 1) * ld + ceil(K / block)")                           \
  X(kErrorPackedOperandOddK, "fp4 operands hold two values a byte along K: K, and the "      \
                             "leading dimensions of A and B, must be even")                 \
  X(kErrorPackedFp6Ld, "fp6 operands hold four values in three bytes along K: the leading "  \
                       "dimension of an fp6 A or B must be a multiple of 4, so that every " \
                       "row starts on a byte")                                              \
  X(kErrorSubByteOperandK, "fp6 and fp4 operands of the tcgen05 family are loaded by TMA's " \
                           "unpacking types, which need K to be a multiple of 128 values")  \
  X(kErrorTunedCacheUnreadable, "the tuned-choice file could not be opened or read "          \
                                 "(Tuned<...>: nothing was loaded; the selector chooses)")    \
  X(kErrorTunedCacheUnwritable, "the tuned-choice file could not be created or written")     \
  X(kErrorTunedCacheCorrupt, "the tuned-choice file is not one Tessera wrote: its header "    \
                             "line or a record does not parse (nothing of it was loaded)")    \
  X(kErrorTunedCacheVersion, "the tuned-choice file has another format version than this "    \
                             "Tessera's (nothing of it was loaded)")                          \
  X(kErrorTunedCacheForeignDevice, "the tuned-choice file was tuned on another device: its "  \
                                   "device name or SM count differs from the current "        \
                                   "device's (nothing of it was loaded)")                     \
  X(kErrorNoDevice, "no GPU device is available")                                           \
  X(kErrorWrongArchitecture, "the kernel was not compiled for this device's architecture")  \
  X(kErrorOutOfMemory, "the device ran out of memory")                                      \
  X(kErrorOutOfResources, "the launch asked for more registers, threads or shared memory "  \
                          "than the device has")                                            \
  X(kErrorLaunchFailed, "the kernel launch failed")                                         \
  X(kErrorInvalidValue, "the runtime or driver rejected an argument (invalid value)")       \
  X(kErrorNoContext, "no CUDA context is current on the calling thread, or the "            \
                     "current one was destroyed (CUDA_ERROR_INVALID_CONTEXT, "              \
                     "CONTEXT_IS_DESTROYED)")                                               \
  X(kErrorDriverNotInitialized, "the GPU driver is not initialized in this process "        \
                                "(CUDA_ERROR_NOT_INITIALIZED: cuInit was not called)")      \
  X(kErrorDriverShutDown, "the GPU driver or runtime is shutting down (a call made "        \
                          "during process exit, e.g. from a static destructor)")            \
  X(kErrorDriverTooOld, "the CUDA driver is older than a call needs "                       \
                        "(cuTensorMapEncodeTiled, reached through the driver's entry "      \
                        "points, needs a CUDA 12 driver)")                                  \
  X(kErrorInvalidDevice, "the device ordinal the calling thread uses is not a valid "       \
                         "device (a cudaSetDevice / hipSetDevice ordinal out of range)")    \
  X(kErrorInvalidHandle, "a stream or other handle is invalid: destroyed, or created "      \
                         "on another device or in another context than the current one")    \
  X(kErrorStreamCapture, "a call that CUDA graph capture forbids was made while a "         \
                         "stream was being captured (see cudaStreamCaptureMode), or "       \
                         "the capture was invalidated")                                     \
  X(kErrorRuntime, "the GPU runtime reported an error not listed here")                   \
  X(kErrorNccl, "NCCL reported an error (a failed communicator call, a CUDA error inside "   \
                "NCCL, or a peer that failed); destroy the communicator")                    \
  X(kErrorCommunicatorNull, "the tensor-parallel communicator is not initialized (default-" \
                            "constructed, moved from, or its init failed)")                \
  X(kErrorCommunicatorSize, "the communicator's size is not the number of ranks the layer "  \
                            "was planned for (the arguments' `ranks`)")                     \
  X(kErrorShardRows, "a rank's `rows` are not its share of M (tp::shard_rows: the first "     \
                     "M % ranks ranks hold ceil(M / ranks) rows, the others floor(M / "     \
                     "ranks))")                                                             \
  X(kErrorTpWorkspaceTooSmall, "the workspace is smaller than the tensor-parallel "          \
                               "operation's workspace_size for these arguments")            \
  X(kErrorRanksDisagree, "the ranks of one tensor-parallel call disagree: a different "       \
                         "operation, M, K (all-gather + GEMM) or N (GEMM + reduce-scatter) " \
                         "on another rank; no rank launched anything")                      \
  X(kErrorPeerRefused, "another rank of this tensor-parallel call refused its arguments "   \
                       "(it returned the Status naming its problem); no rank launched "     \
                       "anything")

enum class Status : int {
#define TESSERA_STATUS_ENUM(name, message) name,
  TESSERA_STATUS_LIST(TESSERA_STATUS_ENUM)
#undef TESSERA_STATUS_ENUM
};

// "kErrorLeadingDimA" for Status::kErrorLeadingDimA.
TESSERA_HOST_DEVICE constexpr const char* status_name(Status s) {
  switch (s) {
#define TESSERA_STATUS_NAME(name, message) \
  case Status::name:                       \
    return #name;
    TESSERA_STATUS_LIST(TESSERA_STATUS_NAME)
#undef TESSERA_STATUS_NAME
  }
  return "unknown Status";
}

// A sentence saying what is wrong and, where it helps, what would be right.
TESSERA_HOST_DEVICE constexpr const char* status_message(Status s) {
  switch (s) {
#define TESSERA_STATUS_MESSAGE(name, message) \
  case Status::name:                          \
    return message;
    TESSERA_STATUS_LIST(TESSERA_STATUS_MESSAGE)
#undef TESSERA_STATUS_MESSAGE
  }
  return "unknown Status";
}

TESSERA_HOST_DEVICE constexpr bool ok(Status s) { return s == Status::kSuccess; }

}  // namespace tessera
