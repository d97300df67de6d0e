// tessera_bench: Tessera's GEMMs against the vendor BLAS and a naive kernel, on one GPU.
//
// Every benchmark times one GEMM per iteration with GPU events (manual time), with the
// L2 cache flushed before each iteration unless --hot is given, and reports the median
// of several repetitions. Before a shape is timed, each implementation's output is
// checked once: against the vendor BLAS on the whole matrix and against a float64 host
// reference on a few sampled rows. A failed check skips that benchmark with the reason.
// See benchmark/README.md for flags and examples.
//
// One source, two builds: nvcc (CUDA, cuBLAS) and clang -x hip (HIP, AMD). Runtime calls
// go through gpu_api.hpp. Under HIP the vendor BLAS is rocBLAS, compiled in only when
// the build defines TESSERA_HAVE_ROCBLAS; without it the vendor benchmarks are not
// registered and the naive kernel is the full-matrix reference instead.
#include <benchmark/benchmark.h>

#include "gpu_api.hpp"  // first of ours: it includes the runtime and sets TESSERA_HIP/CUDA

#if defined(TESSERA_HIP)
#if defined(TESSERA_HAVE_ROCBLAS)
// NOT COMPILED HERE: the build machine has no rocBLAS. Written from rocBLAS's documented
// API; only a syntax check against a stub header that declares the same signatures was
// done. rocBLAS 5.2+ installs rocblas/rocblas.h; older releases only rocblas.h.
#if __has_include(<rocblas/rocblas.h>)
#include <rocblas/rocblas.h>
#else
#include <rocblas.h>
#endif
#define TESSERA_BENCH_HAS_BLAS 1
#else
#define TESSERA_BENCH_HAS_BLAS 0
#endif
#else
#include <cublas_v2.h>
#define TESSERA_BENCH_HAS_BLAS 1
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "reference_gemm.hpp"
#include "tessera/arch/arch.hpp"
#include "tessera/core/numeric.hpp"
#include "tessera/core/status.hpp"
#include "tessera/gemm/arguments.hpp"
#include "tessera/layout/matrix_layout.hpp"

// The Tessera kernels are written alongside this harness; without them the baselines
// still build and run, so the harness itself can be tried first.
#if __has_include("tessera/gemm/fma_gemm.hpp")
#include "tessera/gemm/fma_gemm.hpp"
#define TESSERA_BENCH_HAS_FMA 1
#else
#define TESSERA_BENCH_HAS_FMA 0
#endif

namespace {

using tessera::bfloat16_t;
using tessera::ColumnMajor;
using tessera::half_t;
using tessera::RowMajor;

// The vendor BLAS, by name: benchmark names use the lower-case one, messages the other.
#if defined(TESSERA_HIP)
constexpr const char* kBlasName = "rocBLAS";
constexpr const char* kBlasKindName = "rocblas";
#else
constexpr const char* kBlasName = "cuBLAS";
constexpr const char* kBlasKindName = "cublas";
#endif
// What every implementation's whole output is compared with: the vendor BLAS where there
// is one, else the naive kernel (the float64 rows then remain the independent check).
constexpr const char* kReferenceName = TESSERA_BENCH_HAS_BLAS ? kBlasName : "naive kernel";

// ---- errors: every runtime/BLAS call is checked; a failure becomes a message ------------

// Empty means success. Helpers return one; benchmarks turn it into SkipWithError.
using Error = std::string;

Error gpu_error(gpu::error_t e, const char* expr, int line) {
  return std::string(gpu::kRuntimeName) + " error " + gpu::error_name(e) + " (" + gpu::error_string(e) +
         ") from " + expr + " at tessera_bench.cu:" + std::to_string(line);
}
#if defined(TESSERA_CUDA)
Error blas_error(cublasStatus_t s, const char* expr, int line) {
  return std::string("cuBLAS error ") + cublasGetStatusName(s) + " (" + cublasGetStatusString(s) +
         ") from " + expr + " at tessera_bench.cu:" + std::to_string(line);
}
#define BENCH_BLAS_OK(status) ((status) == CUBLAS_STATUS_SUCCESS)
#elif TESSERA_BENCH_HAS_BLAS
Error blas_error(rocblas_status s, const char* expr, int line) {
  return std::string("rocBLAS error ") + rocblas_status_to_string(s) + " (" + std::to_string(int(s)) +
         ") from " + expr + " at tessera_bench.cu:" + std::to_string(line);
}
#define BENCH_BLAS_OK(status) ((status) == rocblas_status_success)
#endif

#define BENCH_GPU(...)                                                                 \
  do {                                                                                 \
    const gpu::error_t bench_e_ = (__VA_ARGS__);                                       \
    if (bench_e_ != gpu::kSuccess) return gpu_error(bench_e_, #__VA_ARGS__, __LINE__); \
  } while (0)
#define BENCH_BLAS(...)                                                              \
  do {                                                                               \
    const auto bench_s_ = (__VA_ARGS__);                                             \
    if (!BENCH_BLAS_OK(bench_s_)) return blas_error(bench_s_, #__VA_ARGS__, __LINE__); \
  } while (0)
#define BENCH_TRY(...)                           \
  do {                                            \
    Error bench_err_ = (__VA_ARGS__);                    \
    if (!bench_err_.empty()) return bench_err_;   \
  } while (0)
// In a benchmark function: abandon this benchmark (not the run) with the error text.
#define BENCH_OR_SKIP(state, ...)                    \
  do {                                                \
    Error bench_err_ = (__VA_ARGS__);                        \
    if (!bench_err_.empty()) {                        \
      (state).SkipWithError(bench_err_.c_str());      \
      return;                                         \
    }                                                 \
  } while (0)

// ---- options ----------------------------------------------------------------------------

struct Options {
  bool hot = false;          // no L2 flush between iterations
  int repetitions = 5;       // median over these
  double target_ms = 50.0;   // aim for this much timed work per repetition...
  int min_iters = 10;        // ...within these bounds on iterations
  int max_iters = 100;
  std::uint64_t seed = 0;    // 0: fresh per run
};
Options g_opt;

// ---- the device, one stream, the vendor BLAS handles, the L2 flush buffer ------------

struct Device {
  int id = 0;
  gpu::device_prop_t prop{};
  gpu::stream_t stream = nullptr;
#if defined(TESSERA_CUDA)
  cublasHandle_t pedantic = nullptr;  // SGEMM: IEEE FP32 FMA only, no TF32
  cublasHandle_t tensor = nullptr;    // GemmEx for 16-bit inputs: tensor cores allowed
#elif TESSERA_BENCH_HAS_BLAS
  // One handle serves both: rocBLAS's default math mode is full FP32 for sgemm (reduced
  // precision, xf32, is opt-in through rocblas_set_math_mode), and gemm_ex picks matrix
  // cores for 16-bit inputs by itself.
  rocblas_handle blas = nullptr;
#endif
  void* flush = nullptr;
  std::size_t flush_bytes = 0;
};
Device g_dev;

Error init_device() {
  BENCH_GPU(gpu::set_device(g_dev.id));
  BENCH_GPU(gpu::get_device_properties(&g_dev.prop, g_dev.id));
  BENCH_GPU(gpu::stream_create(&g_dev.stream));
#if defined(TESSERA_CUDA)
  BENCH_BLAS(cublasCreate(&g_dev.pedantic));
  BENCH_BLAS(cublasSetStream(g_dev.pedantic, g_dev.stream));
  BENCH_BLAS(cublasSetMathMode(g_dev.pedantic, CUBLAS_PEDANTIC_MATH));
  BENCH_BLAS(cublasCreate(&g_dev.tensor));
  BENCH_BLAS(cublasSetStream(g_dev.tensor, g_dev.stream));
  BENCH_BLAS(cublasSetMathMode(g_dev.tensor, CUBLAS_DEFAULT_MATH));
#elif TESSERA_BENCH_HAS_BLAS
  BENCH_BLAS(rocblas_create_handle(&g_dev.blas));
  BENCH_BLAS(rocblas_set_stream(g_dev.blas, g_dev.stream));
#endif
  // Twice the L2: writing it evicts every line the previous iteration left behind.
  g_dev.flush_bytes = std::size_t(std::max(g_dev.prop.l2CacheSize, 1 << 20)) * 2;
  BENCH_GPU(gpu::malloc_bytes(&g_dev.flush, g_dev.flush_bytes));
  return {};
}

void release_device() {
  (void)gpu::free_bytes(g_dev.flush);  // errors at teardown: nothing useful to do with them
#if defined(TESSERA_CUDA)
  cublasDestroy(g_dev.pedantic);
  cublasDestroy(g_dev.tensor);
#elif TESSERA_BENCH_HAS_BLAS
  (void)rocblas_destroy_handle(g_dev.blas);
#endif
  (void)gpu::stream_destroy(g_dev.stream);
}

Error flush_l2(int iteration) {
  BENCH_GPU(gpu::memset_async(g_dev.flush, iteration & 0xff, g_dev.flush_bytes, g_dev.stream));
  return {};
}

// Keeps the GPU busy for a while before the start event, so that by the time it gets
// there the timed launch is already queued: otherwise, after an idle GPU (hot runs),
// the host's launch latency would be timed as if it were kernel time.
__global__ void spin_kernel(std::uint64_t ns) {
  const std::uint64_t t0 = gpu::clock_ns();
  while (gpu::clock_ns() - t0 < ns) {
  }
}

Error spin_before_timing() {
  spin_kernel<<<1, 1, 0, g_dev.stream>>>(50000);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

// ---- device buffers and fills -------------------------------------------------------------

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr) (void)gpu::free_bytes(ptr);  // nothing useful to do with an error at teardown
  }
  Error allocate(std::size_t n) {
    count = n;
    BENCH_GPU(gpu::malloc_elements(&ptr, std::max<std::size_t>(n, 1)));
    return {};
  }
  Error to_host(std::vector<T>& out) const {
    out.resize(count);
    BENCH_GPU(gpu::copy_to_host_async(out.data(), ptr, count * sizeof(T), g_dev.stream));
    BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
    return {};
  }
};

__device__ __forceinline__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The fill kernels' block size. A constant rather than blockDim, and the grid size an
// argument rather than gridDim: HIP reads both through ockl, which the HIP build lacks.
constexpr unsigned kFillThreads = 256;

// Uniform in [-1, 1) from a counter-based hash: reproducible from the seed, different
// for every seed, and never zero after rounding to T (zeros hide indexing bugs).
template <class T>
__global__ void fill_random_kernel(T* p, std::size_t n, std::uint64_t seed, unsigned blocks) {
  for (std::size_t i = gpu::block_x() * std::size_t(kFillThreads) + gpu::thread_x(); i < n;
       i += std::size_t(blocks) * kFillThreads) {
    const std::uint64_t h = splitmix64(seed ^ splitmix64(i));
    const float u = float(h >> 40) * 0x1p-24f;  // [0, 1)
    T t = T(2.0f * u - 1.0f);
    if (tessera::to_float(t) == 0.0f) t = T(0.5f);
    p[i] = t;
  }
}

template <class T>
__global__ void fill_value_kernel(T* p, std::size_t n, T value, unsigned blocks) {
  for (std::size_t i = gpu::block_x() * std::size_t(kFillThreads) + gpu::thread_x(); i < n;
       i += std::size_t(blocks) * kFillThreads) {
    p[i] = value;
  }
}

unsigned fill_blocks(std::size_t n) {
  return unsigned(std::min<std::size_t>((n + kFillThreads - 1) / kFillThreads,
                                        std::size_t(g_dev.prop.multiProcessorCount) * 32));
}

template <class T>
Error fill_random(DeviceBuffer<T>& b, std::uint64_t seed) {
  const unsigned blocks = fill_blocks(b.count);
  fill_random_kernel<<<blocks, kFillThreads, 0, g_dev.stream>>>(b.ptr, b.count, seed, blocks);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

template <class T>
Error fill_poison(DeviceBuffer<T>& b) {
  const unsigned blocks = fill_blocks(b.count);
  fill_value_kernel<<<blocks, kFillThreads, 0, g_dev.stream>>>(
      b.ptr, b.count, tessera::test::poison_value<T>(), blocks);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

// ---- types and names ------------------------------------------------------------------

// `blas`: the vendor BLAS's name for the type (cudaDataType_t / rocblas_datatype).
template <class T> struct TypeInfo;
#if defined(TESSERA_CUDA)
template <> struct TypeInfo<float> {
  static constexpr const char* name = "fp32";
  static constexpr cudaDataType_t blas = CUDA_R_32F;
};
template <> struct TypeInfo<half_t> {
  static constexpr const char* name = "fp16";
  static constexpr cudaDataType_t blas = CUDA_R_16F;
};
template <> struct TypeInfo<bfloat16_t> {
  static constexpr const char* name = "bf16";
  static constexpr cudaDataType_t blas = CUDA_R_16BF;
};
#elif TESSERA_BENCH_HAS_BLAS
template <> struct TypeInfo<float> {
  static constexpr const char* name = "fp32";
  static constexpr rocblas_datatype blas = rocblas_datatype_f32_r;
};
template <> struct TypeInfo<half_t> {
  static constexpr const char* name = "fp16";
  static constexpr rocblas_datatype blas = rocblas_datatype_f16_r;
};
template <> struct TypeInfo<bfloat16_t> {
  static constexpr const char* name = "bf16";
  static constexpr rocblas_datatype blas = rocblas_datatype_bf16_r;
};
#else
template <> struct TypeInfo<float> {
  static constexpr const char* name = "fp32";
};
template <> struct TypeInfo<half_t> {
  static constexpr const char* name = "fp16";
};
template <> struct TypeInfo<bfloat16_t> {
  static constexpr const char* name = "bf16";
};
#endif

// "fp32", "fp16" (fp32 out), "bf16_bf16out"; layouts other than all-row-major add
// "_rcr"-style letters (A, B, C). The plot script groups by this first name component.
template <class EA, class EC, class LA, class LB, class LC>
std::string type_tag() {
  std::string tag = TypeInfo<EA>::name;
  if (!std::is_same_v<EC, float>) tag += std::string("_") + TypeInfo<EC>::name + "out";
  if (!(LA::kIsRowMajor && LB::kIsRowMajor && LC::kIsRowMajor)) {
    tag += std::string("_") + (LA::kIsRowMajor ? 'r' : 'c') + (LB::kIsRowMajor ? 'r' : 'c') +
           (LC::kIsRowMajor ? 'r' : 'c');
  }
  return tag;
}

struct Shape {
  std::int64_t M, N, K;
  bool naive;  // the naive kernel is slow: only where it finishes in reasonable time
  std::string str() const {
    return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  }
  double flops() const { return 2.0 * double(M) * double(N) * double(K); }
};

// ld = the matrix's own contiguous extent everywhere: 4097x4095x4103 is deliberately
// unaligned (odd leading dimensions, rows not on 16-byte boundaries).
const std::vector<Shape> kShapes = {
    {1024, 1024, 1024, true},  {2048, 2048, 2048, true},   {4096, 4096, 4096, true},
    {8192, 8192, 8192, false}, {4097, 4095, 4103, true},   {16, 8192, 8192, true},
    {8192, 8192, 512, true},   {512, 512, 16384, true},
};

enum class Kind { kTesseraFma, kBlas, kNaive };
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kTesseraFma: return "tessera_fma";
    case Kind::kBlas: return kBlasKindName;
    case Kind::kNaive: return "naive";
  }
  return "?";
}

// ---- one problem: inputs, the reference answer, float64 rows ------------------------------

struct ProblemBase {
  std::string key;
  virtual ~ProblemBase() = default;
};

template <class EA, class EB, class EC, class LA, class LB, class LC>
struct Problem : ProblemBase {
  using Args = tessera::gemm::Arguments<EA, EB, EC>;
  Shape shape{};
  std::int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  float alpha = 1.0f, beta = 0.0f;  // the anchor numbers are for D = A * B
  DeviceBuffer<EA> A;
  DeviceBuffer<EB> B;
  DeviceBuffer<EC> C, D, D_ref;
  std::vector<EC> ref_host;                      // the reference's D (kReferenceName)
  std::vector<std::int64_t> rows;                // rows checked against float64
  std::vector<double> rows_ref;                  // rows.size() x N, row-major
  std::map<Kind, Error> verdict;                 // correctness, once per implementation
  std::map<Kind, std::unique_ptr<DeviceBuffer<char>>> workspace;

  Args args() const {
    Args a;
    a.M = shape.M, a.N = shape.N, a.K = shape.K;
    a.A = A.ptr, a.lda = lda;
    a.B = B.ptr, a.ldb = ldb;
    a.C = C.ptr, a.ldc = ldc;
    a.D = D.ptr, a.ldd = ldd;
    a.alpha = alpha, a.beta = beta;
    return a;
  }
  double bytes() const {
    const double mn = double(shape.M) * double(shape.N);
    return double(shape.M) * double(shape.K) * sizeof(EA) +
           double(shape.K) * double(shape.N) * sizeof(EB) + (beta != 0.0f ? mn * sizeof(EC) : 0.0) +
           mn * sizeof(EC);
  }
};

// Holds one problem at a time: the implementations of one shape and type run back to
// back and share inputs; a new shape frees the previous one's memory first.
std::unique_ptr<ProblemBase> g_problem;

// ---- the implementations ------------------------------------------------------------------

// Textbook kernel: one output per thread, 16x16 threads per block, the k loop in fp32.
template <class LA, class LB, class LC, class EA, class EB, class EC>
__global__ void naive_gemm_kernel(tessera::gemm::Arguments<EA, EB, EC> a) {
  const std::int64_t j = std::int64_t(gpu::block_x()) * 16 + gpu::thread_x();
  const std::int64_t i = std::int64_t(gpu::block_y()) * 16 + gpu::thread_y();
  if (i >= a.M || j >= a.N) return;
  float sum = 0.0f;
  for (std::int64_t k = 0; k < a.K; ++k) {
    sum += tessera::to_float(a.A[LA::offset(i, k, a.lda)]) * tessera::to_float(a.B[LB::offset(k, j, a.ldb)]);
  }
  float d = a.alpha * sum;
  if (a.beta != 0.0f) d += a.beta * tessera::to_float(a.C[LC::offset(i, j, a.ldc)]);
  a.D[LC::offset(i, j, a.ldd)] = tessera::from_float<EC>(d);
}

template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_naive(const tessera::gemm::Arguments<EA, EB, EC>& a) {
  const dim3 block(16, 16);
  const dim3 grid(unsigned((a.N + 15) / 16), unsigned((a.M + 15) / 16));
  naive_gemm_kernel<LA, LB, LC><<<grid, block, 0, g_dev.stream>>>(a);
  BENCH_GPU(gpu::get_last_error());
  return {};
}

#if TESSERA_BENCH_HAS_BLAS
// cuBLAS and rocBLAS are column-major. A column-major D is op(A) * op(B) directly. A
// row-major D is the column-major D^T = B^T * A^T: swap the operands and M with N.
// Either way, an operand stored in the same layout as D is passed untransposed, the
// other transposed (a row-major X viewed column-major is X^T, with the same leading
// dimension). X is the BLAS call's first operand, Y its second.
struct ColumnMajorGemm {
  int m = 0, n = 0, k = 0;
  const void* x = nullptr;
  const void* y = nullptr;
  int ldx = 0, ldy = 0, ldd = 0;
  bool x_transposed = false, y_transposed = false;
};

template <class LA, class LB, class LC, class EA, class EB, class EC>
Error as_column_major(const tessera::gemm::Arguments<EA, EB, EC>& a, ColumnMajorGemm& g) {
  if (a.beta != 0.0f && static_cast<const void*>(a.C) != static_cast<const void*>(a.D)) {
    return std::string(kBlasName) + " baseline: beta != 0 needs C == D (" + kBlasName + " has no separate D)";
  }
  const bool big = a.M > INT32_MAX || a.N > INT32_MAX || a.K > INT32_MAX || a.lda > INT32_MAX ||
                   a.ldb > INT32_MAX || a.ldd > INT32_MAX;
  if (big) return std::string(kBlasName) + " baseline: sizes beyond 32 bits";
  constexpr bool row_c = LC::kIsRowMajor;
  g.m = int(row_c ? a.N : a.M);
  g.n = int(row_c ? a.M : a.N);
  g.k = int(a.K);
  g.x = row_c ? static_cast<const void*>(a.B) : static_cast<const void*>(a.A);
  g.y = row_c ? static_cast<const void*>(a.A) : static_cast<const void*>(a.B);
  g.ldx = int(row_c ? a.ldb : a.lda);
  g.ldy = int(row_c ? a.lda : a.ldb);
  g.ldd = int(a.ldd);
  g.x_transposed = row_c ? LB::kIsRowMajor != LC::kIsRowMajor : LA::kIsRowMajor != LC::kIsRowMajor;
  g.y_transposed = row_c ? LA::kIsRowMajor != LC::kIsRowMajor : LB::kIsRowMajor != LC::kIsRowMajor;
  return {};
}
#endif

// The vendor BLAS baseline: fp32 through SGEMM, 16-bit inputs through the mixed-type
// entry point with fp32 compute.
template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_blas(const tessera::gemm::Arguments<EA, EB, EC>& a) {
#if TESSERA_BENCH_HAS_BLAS
  ColumnMajorGemm g;
  BENCH_TRY(as_column_major<LA, LB, LC>(a, g));
  constexpr bool row_c = LC::kIsRowMajor;
  constexpr auto tx = row_c ? TypeInfo<EB>::blas : TypeInfo<EA>::blas;
  constexpr auto ty = row_c ? TypeInfo<EA>::blas : TypeInfo<EB>::blas;
  constexpr bool all_fp32 = std::is_same_v<EA, float> && std::is_same_v<EB, float> && std::is_same_v<EC, float>;
  const float alpha = a.alpha, beta = a.beta;  // host scalars: both libraries' default pointer mode
#if defined(TESSERA_CUDA)
  const cublasOperation_t opx = g.x_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t opy = g.y_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  if constexpr (all_fp32) {
    BENCH_BLAS(cublasSgemm(g_dev.pedantic, opx, opy, g.m, g.n, g.k, &alpha, static_cast<const float*>(g.x),
                           g.ldx, static_cast<const float*>(g.y), g.ldy, &beta, a.D, g.ldd));
  } else {
    BENCH_BLAS(cublasGemmEx(g_dev.tensor, opx, opy, g.m, g.n, g.k, &alpha, g.x, tx, g.ldx, g.y, ty, g.ldy,
                            &beta, a.D, TypeInfo<EC>::blas, g.ldd, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
#else
  // NOT COMPILED HERE (no rocBLAS on the build machine): written from rocBLAS's
  // documented API and syntax-checked against a stub header only.
  const rocblas_operation opx = g.x_transposed ? rocblas_operation_transpose : rocblas_operation_none;
  const rocblas_operation opy = g.y_transposed ? rocblas_operation_transpose : rocblas_operation_none;
  if constexpr (all_fp32) {
    BENCH_BLAS(rocblas_sgemm(g_dev.blas, opx, opy, g.m, g.n, g.k, &alpha, static_cast<const float*>(g.x),
                             g.ldx, static_cast<const float*>(g.y), g.ldy, &beta, a.D, g.ldd));
  } else {
    // gemm_ex writes D and reads C; with beta == 0 or C == D (checked above) they are
    // one matrix, which rocBLAS allows when C's and D's type and ld are the same.
    // Solution index 0 and flags 0: rocBLAS's own choice of kernel, no special modes.
    BENCH_BLAS(rocblas_gemm_ex(g_dev.blas, opx, opy, g.m, g.n, g.k, &alpha, g.x, tx, g.ldx, g.y, ty, g.ldy,
                               &beta, a.D, TypeInfo<EC>::blas, g.ldd, a.D, TypeInfo<EC>::blas, g.ldd,
                               rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0));
  }
#endif
  return {};
#else
  (void)a;
  return std::string(kBlasName) + " baseline not built (" + kBlasName + " was not available at build time)";
#endif
}

// The implementation every output is compared with over the whole matrix.
template <class LA, class LB, class LC, class EA, class EB, class EC>
Error run_reference(const tessera::gemm::Arguments<EA, EB, EC>& a) {
  if constexpr (TESSERA_BENCH_HAS_BLAS) {
    return run_blas<LA, LB, LC>(a);
  } else {
    return run_naive<LA, LB, LC>(a);
  }
}

#if TESSERA_BENCH_HAS_FMA
// One AMD configuration for both targets the HIP build carries: the AMD default tile is
// sized for gfx942's 64 KiB of LDS, the smaller of gfx942 and gfx950.
#if defined(TESSERA_HIP)
using BenchArch = tessera::Gfx942;
#else
using BenchArch = tessera::Sm90;
#endif
template <class EA, class EB, class EC, class LA, class LB, class LC>
using TesseraFma = tessera::gemm::Gemm<tessera::gemm::FmaConfig<BenchArch, EA, LA, EB, LB, EC, LC>>;

std::string status_text(tessera::Status s) {
  return std::string(tessera::status_name(s)) + ": " + tessera::status_message(s);
}
#endif

template <class EA, class EB, class EC, class LA, class LB, class LC>
Error launch(Problem<EA, EB, EC, LA, LB, LC>& p, Kind kind) {
  const auto a = p.args();
  switch (kind) {
    case Kind::kNaive:
      return run_naive<LA, LB, LC>(a);
    case Kind::kBlas:
      return run_blas<LA, LB, LC>(a);
    case Kind::kTesseraFma: {
#if TESSERA_BENCH_HAS_FMA
      using G = TesseraFma<EA, EB, EC, LA, LB, LC>;
      auto& ws = p.workspace[kind];
      if (!ws) {  // first call: check the arguments and size the workspace, untimed
        const tessera::Status can = G::can_implement(a);
        if (!tessera::ok(can)) return "Tessera can_implement: " + status_text(can);
        ws = std::make_unique<DeviceBuffer<char>>();
        BENCH_TRY(ws->allocate(G::workspace_size(a)));
      }
      const tessera::Status s = G::run(a, ws->count ? ws->ptr : nullptr, g_dev.stream);
      if (!tessera::ok(s)) return "Tessera run: " + status_text(s);
      BENCH_GPU(gpu::get_last_error());
      return {};
#else
      return "Tessera FMA GEMM not built (tessera/gemm/fma_gemm.hpp missing at build time)";
#endif
    }
  }
  return "unknown implementation";
}

// ---- setting up a problem and checking outputs ---------------------------------------------

std::uint64_t next_seed() {
  static std::uint64_t seed = g_opt.seed ? g_opt.seed : tessera::test::fresh_seed();
  return seed++;
}

template <class EA, class EB, class EC, class LA, class LB, class LC>
Error make_problem(const Shape& s, Problem<EA, EB, EC, LA, LB, LC>*& out) {
  using P = Problem<EA, EB, EC, LA, LB, LC>;
  const std::string key = type_tag<EA, EC, LA, LB, LC>() + "/" + s.str();
  if (g_problem && g_problem->key == key) {
    out = static_cast<P*>(g_problem.get());
    return {};
  }
  g_problem.reset();  // free the previous shape's buffers before allocating
  auto p = std::make_unique<P>();
  p->key = key;
  p->shape = s;
  p->lda = LA::min_ld(s.M, s.K);
  p->ldb = LB::min_ld(s.K, s.N);
  p->ldc = LC::min_ld(s.M, s.N);
  p->ldd = p->ldc;
  BENCH_TRY(p->A.allocate(std::size_t(tessera::matrix_span<LA>(s.M, s.K, p->lda))));
  BENCH_TRY(p->B.allocate(std::size_t(tessera::matrix_span<LB>(s.K, s.N, p->ldb))));
  BENCH_TRY(p->C.allocate(std::size_t(tessera::matrix_span<LC>(s.M, s.N, p->ldc))));
  BENCH_TRY(p->D.allocate(std::size_t(tessera::matrix_span<LC>(s.M, s.N, p->ldd))));
  BENCH_TRY(p->D_ref.allocate(p->D.count));
  BENCH_TRY(fill_random(p->A, next_seed()));
  BENCH_TRY(fill_random(p->B, next_seed()));
  BENCH_TRY(fill_random(p->C, next_seed()));

  // The reference's answer (the vendor BLAS, else the naive kernel), computed into its
  // own buffer, is what every implementation's full output is compared with.
  auto a = p->args();
  a.D = p->D_ref.ptr;
  BENCH_TRY(fill_poison(p->D_ref));
  BENCH_TRY(run_reference<LA, LB, LC>(a));
  BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
  BENCH_TRY(p->D_ref.to_host(p->ref_host));
  std::int64_t unwritten = 0;
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j)
      unwritten += tessera::test::is_poison(p->ref_host[std::size_t(LC::offset(i, j, p->ldd))]);
  if (unwritten > 0) {
    return std::string(kReferenceName) + " reference left " + std::to_string(unwritten) + " of " + s.str() +
           " elements unwritten: the harness's " + kReferenceName + " call is wrong";
  }

  // A few rows in float64 on the host: first, last, middle and one random row. They
  // keep the reference honest too (and the transposition trick above).
  std::vector<EA> a_host;
  std::vector<EB> b_host;
  BENCH_TRY(p->A.to_host(a_host));
  BENCH_TRY(p->B.to_host(b_host));
  std::mt19937_64 gen(next_seed());
  p->rows = {0, s.M / 2, s.M - 1, std::int64_t(gen() % std::uint64_t(s.M))};
  std::sort(p->rows.begin(), p->rows.end());
  p->rows.erase(std::unique(p->rows.begin(), p->rows.end()), p->rows.end());
  p->rows_ref.assign(p->rows.size() * std::size_t(s.N), 0.0);
  std::vector<std::future<void>> work;
  for (std::size_t r = 0; r < p->rows.size(); ++r) {
    work.push_back(std::async(std::launch::async, [&, r] {
      // Row i of A alone is a 1 x K matrix at A + offset(i, 0) with the same ld.
      const std::int64_t i = p->rows[r];
      const EC* no_c = nullptr;
      tessera::test::reference_gemm<LA, LB, RowMajor>(
          1, s.N, s.K, a_host.data() + LA::offset(i, 0, p->lda), p->lda, b_host.data(), p->ldb,
          no_c, 1, p->rows_ref.data() + r * std::size_t(s.N), s.N, double(p->alpha), 0.0);
    }));
  }
  for (auto& w : work) w.get();

  out = p.get();
  g_problem = std::move(p);
  return {};
}

// Runs `kind` once on a poisoned D and checks the output: every element written and
// finite, within 2x the tolerance of the reference (both err, in different directions)
// over the whole matrix, and within the tolerance of float64 on the sampled rows.
template <class EA, class EB, class EC, class LA, class LB, class LC>
Error check(Problem<EA, EB, EC, LA, LB, LC>& p, Kind kind) {
  auto it = p.verdict.find(kind);
  if (it != p.verdict.end()) return it->second;
  Error verdict = [&]() -> Error {
    BENCH_TRY(fill_poison(p.D));
    BENCH_TRY(launch(p, kind));
    BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
    std::vector<EC> out;
    BENCH_TRY(p.D.to_host(out));
    const Shape& s = p.shape;
    const double tol = tessera::test::tolerance<EA, EC>(s.K);
    const auto full = tessera::test::compare<LC>(s.M, s.N, out.data(), p.ldd, p.ref_host.data(), p.ldd);
    std::vector<EC> sampled(p.rows.size() * std::size_t(s.N));
    for (std::size_t r = 0; r < p.rows.size(); ++r)
      for (std::int64_t j = 0; j < s.N; ++j)
        sampled[r * std::size_t(s.N) + std::size_t(j)] = out[std::size_t(LC::offset(p.rows[r], j, p.ldd))];
    const auto rows = tessera::test::compare<RowMajor>(std::int64_t(p.rows.size()), s.N, sampled.data(), s.N,
                                                       p.rows_ref.data(), s.N);
    char tolbuf[64];
    std::snprintf(tolbuf, sizeof tolbuf, "%.2e", tol);
    if (!rows.passed(tol)) {
      return std::string("CHECK FAILED vs float64 on sampled rows (tol ") + tolbuf + "): " + rows.describe();
    }
    if (!full.passed(2.0 * tol)) {
      return std::string("CHECK FAILED vs ") + kReferenceName + " (tol 2x" + tolbuf + "): " + full.describe();
    }
    return {};
  }();
  p.verdict[kind] = verdict;
  return verdict;
}

// ---- the benchmark body ------------------------------------------------------------------

struct Events {
  gpu::event_t start = nullptr, stop = nullptr;
  Error create() {
    BENCH_GPU(gpu::event_create(&start));
    BENCH_GPU(gpu::event_create(&stop));
    return {};
  }
  ~Events() {
    if (start) (void)gpu::event_destroy(start);  // HIP marks its errors nodiscard
    if (stop) (void)gpu::event_destroy(stop);
  }
};

int iterations_for(const Shape& s, Kind kind, bool tensor_cores) {
  // A rough speed guess per implementation, only to size the iteration count so that
  // small shapes get many iterations and large ones about min_iters.
  // The same guesses serve the HIP build: they only set iteration counts.
  double tflops = 40.0;  // CUDA-core FP32 FMA, cuBLAS or Tessera
  if (kind == Kind::kNaive) tflops = 3.0;
  if (kind == Kind::kBlas && tensor_cores) tflops = 500.0;
  const double est_ms = s.flops() / (tflops * 1e12) * 1e3;
  const double n = g_opt.target_ms / std::max(est_ms, 1e-3);
  return int(std::clamp(n, double(g_opt.min_iters), double(g_opt.max_iters)));
}

template <class EA, class EB, class EC, class LA, class LB, class LC>
void bench_gemm(benchmark::State& state, Kind kind, Shape shape) {
  Problem<EA, EB, EC, LA, LB, LC>* p = nullptr;
  BENCH_OR_SKIP(state, make_problem(shape, p));
  BENCH_OR_SKIP(state, check(*p, kind));
  // Warm-up outside the timing: first-launch costs, vendor BLAS heuristics, clocks.
  BENCH_OR_SKIP(state, launch(*p, kind));
  BENCH_OR_SKIP(state, [] {
    BENCH_GPU(gpu::stream_synchronize(g_dev.stream));
    return Error{};
  }());

  Events ev;
  BENCH_OR_SKIP(state, ev.create());
  gpu::event_t start = ev.start, stop = ev.stop;

  int iteration = 0;
  auto one = [&](double& seconds) -> Error {
    if (!g_opt.hot) BENCH_TRY(flush_l2(iteration));  // before the start event: untimed
    BENCH_TRY(spin_before_timing());
    BENCH_GPU(gpu::event_record(start, g_dev.stream));
    BENCH_TRY(launch(*p, kind));
    BENCH_GPU(gpu::event_record(stop, g_dev.stream));
    BENCH_GPU(gpu::event_synchronize(stop));
    float ms = 0.0f;
    BENCH_GPU(gpu::event_elapsed_ms(&ms, start, stop));
    seconds = double(ms) * 1e-3;
    ++iteration;
    return {};
  };
  double total = 0.0;
  for (auto _ : state) {
    double seconds = 0.0;
    const Error err = one(seconds);
    if (!err.empty()) {
      state.SkipWithError(err.c_str());
      break;
    }
    state.SetIterationTime(seconds);
    total += seconds;
  }
  if (total > 0.0) {
    const double n = double(state.iterations());
    state.counters["TFLOP/s"] = benchmark::Counter(shape.flops() * n / total / 1e12);
    state.counters["GB/s"] = benchmark::Counter(p->bytes() * n / total / 1e9);
  }
  state.SetLabel(std::string(TypeInfo<EA>::name) + "->" + TypeInfo<EC>::name + " ld=" +
                 std::to_string(p->lda) + "," + std::to_string(p->ldb) + "," + std::to_string(p->ldd));
}

template <class EA, class EC, class LA = RowMajor, class LB = RowMajor, class LC = RowMajor>
void register_type() {
  const std::string tag = type_tag<EA, EC, LA, LB, LC>();
  constexpr bool tensor = !std::is_same_v<EA, float>;
  for (const Shape& s : kShapes) {
    std::vector<Kind> kinds;
    if (TESSERA_BENCH_HAS_FMA) kinds.push_back(Kind::kTesseraFma);
    if (TESSERA_BENCH_HAS_BLAS) kinds.push_back(Kind::kBlas);
    if (s.naive && std::is_same_v<EA, float>) kinds.push_back(Kind::kNaive);
    for (Kind k : kinds) {
      const std::string name = tag + "/" + kind_name(k) + "/" + s.str();
      benchmark::RegisterBenchmark(name.c_str(),
                                   [k, s](benchmark::State& st) { bench_gemm<EA, EA, EC, LA, LB, LC>(st, k, s); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(iterations_for(s, k, tensor && k == Kind::kBlas))
          ->Repetitions(g_opt.repetitions)
          ->ReportAggregatesOnly(true);
    }
  }
}

// ---- context: what the numbers were measured on ------------------------------------------

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (keep) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "unknown_device" : out;
}

std::string version(int v) {  // the runtime's encoding -> "13.0" (CUDA), "5.2.21153" (HIP)
  char b[32];
  gpu::format_version(v, b, sizeof b);
  return b;
}

Error add_context() {
  const gpu::device_prop_t& p = g_dev.prop;
  int sm_khz = 0, mem_khz = 0, bus_bits = 0, driver = 0, runtime = 0;
  BENCH_GPU(gpu::sm_clock_khz(&sm_khz, g_dev.id));
  BENCH_GPU(gpu::mem_clock_khz(&mem_khz, g_dev.id));
  BENCH_GPU(gpu::mem_bus_bits(&bus_bits, g_dev.id));
  BENCH_GPU(gpu::driver_version(&driver));
  BENCH_GPU(gpu::runtime_version(&runtime));
  auto fmt = [](double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", x);
    return std::string(b);
  };
  benchmark::AddCustomContext("device", p.name);
  benchmark::AddCustomContext("device_file_name", sanitize(p.name));
#if defined(TESSERA_CUDA)
  int cublas = 0;
  BENCH_BLAS(cublasGetVersion(g_dev.pedantic, &cublas));
  // FP32 FMA peak: 128 FP32 lanes per SM on sm_80 and later, 2 flops per FMA.
  const double fp32_peak = double(p.multiProcessorCount) * 128 * 2 * sm_khz * 1e3 / 1e12;
  benchmark::AddCustomContext("compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor));
  benchmark::AddCustomContext("sm_count", std::to_string(p.multiProcessorCount));
#else
  // FP32 vector peak as AMD quotes it for CDNA3/CDNA4: 256 flops per clock per CU, which
  // counts packed FP32 (v_pk_fma_f32, two FMAs per lane); plain v_fma_f32 reaches half.
  const double fp32_peak = double(p.multiProcessorCount) * 256 * sm_khz * 1e3 / 1e12;
  benchmark::AddCustomContext("gcn_arch", p.gcnArchName);
  benchmark::AddCustomContext("cu_count", std::to_string(p.multiProcessorCount));
#endif
  benchmark::AddCustomContext("sm_clock_max_mhz", std::to_string(sm_khz / 1000));
  benchmark::AddCustomContext("mem_clock_max_mhz", std::to_string(mem_khz / 1000));
  benchmark::AddCustomContext("mem_bus_bits", std::to_string(bus_bits));
  benchmark::AddCustomContext("l2_bytes", std::to_string(p.l2CacheSize));
  benchmark::AddCustomContext("global_mem_gib", fmt(double(p.totalGlobalMem) / (1ull << 30)));
  benchmark::AddCustomContext("fp32_fma_peak_tflops", fmt(fp32_peak));
#if defined(TESSERA_CUDA)
  benchmark::AddCustomContext("cuda_driver", version(driver));
  benchmark::AddCustomContext("cuda_runtime", version(runtime));
  benchmark::AddCustomContext("cublas", std::to_string(cublas / 10000) + "." +
                                            std::to_string((cublas / 100) % 100) + "." +
                                            std::to_string(cublas % 100));
#else
  benchmark::AddCustomContext("hip_driver", version(driver));
  benchmark::AddCustomContext("hip_runtime", version(runtime));
#if TESSERA_BENCH_HAS_BLAS
  char rocblas_version[128] = {};
  BENCH_BLAS(rocblas_get_version_string(rocblas_version, sizeof rocblas_version));
  benchmark::AddCustomContext("rocblas", rocblas_version);
#else
  benchmark::AddCustomContext("rocblas", "not available at build time");
#endif
  benchmark::AddCustomContext("tessera_config", "FmaConfig<Gfx942> (the gfx942 tile, also run on gfx950)");
#endif
  benchmark::AddCustomContext("l2_flush", g_opt.hot ? "off (--hot)"
                                                    : "on (memset of " + std::to_string(g_dev.flush_bytes >> 20) +
                                                          " MiB before each iteration)");
  benchmark::AddCustomContext("repetitions", std::to_string(g_opt.repetitions));
  benchmark::AddCustomContext("seed", std::to_string(next_seed()));
  benchmark::AddCustomContext("tessera_fma", TESSERA_BENCH_HAS_FMA ? "built" : "not built (header missing)");
#if defined(TESSERA_CUDA)
  benchmark::AddCustomContext("baselines", "cuBLAS SGEMM pedantic (no TF32); cuBLAS GemmEx "
                                           "COMPUTE_32F for 16-bit inputs; naive 16x16 FMA kernel");
#elif TESSERA_BENCH_HAS_BLAS
  benchmark::AddCustomContext("baselines", "rocBLAS sgemm (default math mode: full FP32, no xf32); rocBLAS "
                                           "gemm_ex f32 compute for 16-bit inputs; naive 16x16 FMA kernel");
#else
  benchmark::AddCustomContext("baselines", "naive 16x16 FMA kernel only (rocBLAS not available at build time; "
                                           "outputs are checked against the naive kernel and float64 rows)");
#endif
  return {};
}

void usage() {
  std::printf(
      "tessera_bench [tessera options] [Google Benchmark options]\n"
      "  --hot             no L2 flush between iterations (env TESSERA_BENCH_HOT=1)\n"
      "  --reps=N          repetitions per benchmark, median reported (default 5)\n"
      "  --target-ms=T     timed work per repetition used to pick iterations (default 50)\n"
      "  --min-iters=N     --max-iters=N   bounds on iterations (default 10, 100)\n"
      "  --seed=S          fixed input seed (default: fresh every run)\n"
      "  --device-name     print the device name as used in result file names, and exit\n"
      "  e.g. --benchmark_filter='^fp32/' --benchmark_out=r.json --benchmark_out_format=json\n\n");
}

}  // namespace

int main(int argc, char** argv) {
  // Our flags first; what is left goes to Google Benchmark.
  std::vector<char*> rest = {argv[0]};
  bool print_device_name = false, list_only = false;
  if (const char* h = std::getenv("TESSERA_BENCH_HOT")) g_opt.hot = std::strcmp(h, "0") != 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) { return a.substr(std::strlen(flag)); };
    if (a == "--hot") {
      g_opt.hot = true;
    } else if (a.rfind("--reps=", 0) == 0) {
      g_opt.repetitions = std::max(1, std::atoi(value("--reps=").c_str()));
    } else if (a.rfind("--target-ms=", 0) == 0) {
      g_opt.target_ms = std::atof(value("--target-ms=").c_str());
    } else if (a.rfind("--min-iters=", 0) == 0) {
      g_opt.min_iters = std::max(1, std::atoi(value("--min-iters=").c_str()));
    } else if (a.rfind("--max-iters=", 0) == 0) {
      g_opt.max_iters = std::max(1, std::atoi(value("--max-iters=").c_str()));
    } else if (a.rfind("--seed=", 0) == 0) {
      g_opt.seed = std::strtoull(value("--seed=").c_str(), nullptr, 0);
    } else if (a == "--device-name") {
      print_device_name = true;
    } else {
      if (a == "--help" || a == "-h") usage();
      if (a == "--benchmark_list_tests" || a == "--benchmark_list_tests=true") list_only = true;
      rest.push_back(argv[i]);
    }
  }
  g_opt.max_iters = std::max(g_opt.max_iters, g_opt.min_iters);
  int rest_argc = int(rest.size());
  rest.push_back(nullptr);
  benchmark::Initialize(&rest_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 1;

  // Registration needs no device, so that the list of benchmarks can be shown anywhere.
  register_type<float, float>();
#if defined(TESSERA_BENCH_16BIT_OUT_SAME)
  register_type<half_t, half_t>();
  register_type<bfloat16_t, bfloat16_t>();
#else
  register_type<half_t, float>();
  register_type<bfloat16_t, float>();
#endif
  if (!TESSERA_BENCH_HAS_BLAS) {  // HIP without rocBLAS: say why the baseline is absent
    std::fprintf(stderr, "tessera_bench: rocBLAS was not available at build time: no rocblas "
                         "benchmarks; outputs are checked against the naive kernel\n");
  }
  if (list_only) {
    benchmark::RunSpecifiedBenchmarks();
    return 0;
  }

  int count = 0;
  const gpu::error_t e = gpu::get_device_count(&count);
  if (e != gpu::kSuccess || count == 0) {
    std::fprintf(stderr, "tessera_bench: no %s device (%s); nothing to measure\n", gpu::kRuntimeName,
                 e != gpu::kSuccess ? gpu::error_string(e) : "device count is 0");
    return 2;
  }
  if (const Error err = init_device(); !err.empty()) {
    std::fprintf(stderr, "tessera_bench: setting up the device failed: %s\n", err.c_str());
    return 2;
  }
  if (print_device_name) {
    std::printf("%s\n", sanitize(g_dev.prop.name).c_str());
    return 0;
  }
  if (const Error err = add_context(); !err.empty()) {
    std::fprintf(stderr, "tessera_bench: %s\n", err.c_str());
    return 2;
  }
  if (!TESSERA_BENCH_HAS_FMA) {
    std::fprintf(stderr, "tessera_bench: tessera/gemm/fma_gemm.hpp was missing at build time: "
                         "running the baselines only\n");
  }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_problem.reset();  // device memory goes before the context does
  release_device();
  return 0;
}
