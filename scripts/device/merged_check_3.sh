#!/usr/bin/env bash
# The final tree's GPU suites (after the last merge), one call (benchmark/results/logs/
# merged_2026-11-25/run3). Stage .dev-c/bins.tar.xz with the stripped CMake targets test_fma_gemm
# test_wgmma_gemm test_wgmma_shapes test_wgmma_fp8 test_stream_k_gemm test_threads test_many_gemms
# test_numeric_types and this script as .dev-c/run.sh; run from the repository root.
set -u
D=.dev-c
tar xJf $D/bins.tar.xz -C $D
O=${OUT:-/tmp/out}; L=$O/logs; mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$L/device.txt" 2>&1
S=$L/summary.txt; : > "$S"
run() { local lim=$1 log=$2; shift 2; local t=$(date +%s); timeout "$lim" "$@" > "$L/$log" 2>&1; local rc=$?
  echo "$log rc=$rc $(( $(date +%s) - t ))s :: $(grep -hE '^(All tests passed|test cases:)|ERROR SUMMARY' "$L/$log" | tail -1)" >> "$S"; }
run 200 shapes.log $D/test_wgmma_shapes &
P=$!
run 60 wgmma.log $D/test_wgmma_gemm
run 60 fma.log $D/test_fma_gemm
run 40 fp8.log $D/test_wgmma_fp8
run 60 many.log $D/test_many_gemms
run 40 threads.log $D/test_threads
run 40 numeric.log $D/test_numeric_types
run 90 streamk.log $D/test_stream_k_gemm
wait $P
run 60 memcheck.shapes.log compute-sanitizer --tool memcheck --error-exitcode 99 $D/test_wgmma_shapes "[sanitize]"
tar czf "$O/logs.tgz" -C "$O" logs
cat "$S"
