#!/usr/bin/env bash
# On a machine with a CUDA GPU (Hopper): build the GPU tests and the example for sm_90a,
# run the GPU suite, then compute-sanitizer memcheck and racecheck over its sanitizer
# cross-section, then the example (verification + cuBLAS comparison). Summary lines last.
# Catch2: Debian's package, or a copy of catch2/catch.hpp under .carry/ (the GPU machine
# has no Catch2 and no network).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/gpu/logs}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
cmake --preset gpu -DTESSERA_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build --preset gpu --target test_fma_gemm fma_gemm_cuda -j "$(nproc)" >"$out/build.log" 2>&1 ||
  { tail -50 "$out/build.log"; exit 1; }
exe=build/gpu/test/gpu/test_fma_gemm
status=0
"$exe" >"$out/gpu_suite.log" 2>&1 || status=1
compute-sanitizer --tool memcheck --error-exitcode 99 "$exe" "[sanitize]" >"$out/memcheck.log" 2>&1 || status=1
compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 99 "$exe" "[sanitize]" \
  >"$out/racecheck.log" 2>&1 || status=1
build/gpu/examples/fma_gemm_cuda >"$out/example.log" 2>&1 || status=1
build/gpu/examples/fma_gemm_cuda 4097 4095 4103 >>"$out/example.log" 2>&1 || status=1
echo "== GPU suite";  tail -4 "$out/gpu_suite.log"
echo "== memcheck";   grep -E "ERROR SUMMARY|All tests|test cases" "$out/memcheck.log" | tail -3
echo "== racecheck";  grep -E "RACECHECK SUMMARY|ERROR SUMMARY|All tests|test cases" "$out/racecheck.log" | tail -3
echo "== example";    cat "$out/example.log"
exit $status
