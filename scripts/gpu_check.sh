#!/usr/bin/env bash
# On a machine with a Hopper GPU (sm_90): the GPU suites of the FMA and wgmma families (16-bit and fp8),
# compute-sanitizer memcheck, racecheck and synccheck over their sanitizer cross-sections,
# the SASS checks of the wgmma kernels (HGMMA present, no local memory), then the examples
# (verification + cuBLAS comparison). Summary lines last; logs in $OUT (or build/gpu/logs).
#
# Catch2: Debian's package, or a copy of catch2/catch.hpp under .carry/ (the GPU machine
# has no Catch2 and no network). TESSERA_PREBUILT=<dir> runs binaries built elsewhere
# (test_fma_gemm, test_wgmma_gemm, test_wgmma_fp8, fma_gemm_cuda, wgmma_gemm_cuda) instead of building.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/gpu/logs}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
if [[ -n ${TESSERA_PREBUILT:-} ]]; then
  tests=$TESSERA_PREBUILT examples=$TESSERA_PREBUILT
else
  cfg=(--preset gpu -DTESSERA_BUILD_BENCHMARKS=OFF)
  [[ -f .carry/catch2/catch.hpp ]] && cfg+=("-DTESSERA_CATCH2_INCLUDE_DIR=$PWD/.carry")
  cmake "${cfg[@]}" >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
  cmake --build --preset gpu --target test_fma_gemm test_wgmma_gemm test_wgmma_fp8 fma_gemm_cuda wgmma_gemm_cuda -j "$(nproc)" \
    >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
  tests=build/gpu/test/gpu examples=build/gpu/examples
fi
status=0
run() {  # <log> <command...>: runs it, records failure
  local log=$1
  shift
  "$@" >"$out/$log" 2>&1 || status=1
}
sanitize() {  # <tool> <binary>
  run "$1.$(basename "$2").log" compute-sanitizer --tool "$1" --error-exitcode 99 \
    $([[ $1 == racecheck ]] && echo --racecheck-report all) "$2" "[sanitize]"
}
run fma_suite.log "$tests/test_fma_gemm"
run wgmma_suite.log "$tests/test_wgmma_gemm"
run wgmma_fp8_suite.log "$tests/test_wgmma_fp8"
for tool in memcheck racecheck synccheck; do
  sanitize $tool "$tests/test_fma_gemm"
  sanitize $tool "$tests/test_wgmma_gemm"
  sanitize $tool "$tests/test_wgmma_fp8"
done
if command -v cuobjdump >/dev/null; then
  run sass.log python3 scripts/sass_check.py "$tests/test_wgmma_gemm"
  python3 scripts/sass_check.py "$tests/test_wgmma_fp8" >>"$out/sass.log" 2>&1 || status=1
fi
run example.log "$examples/fma_gemm_cuda"
"$examples/fma_gemm_cuda" 4097 4095 4103 >>"$out/example.log" 2>&1 || status=1
"$examples/wgmma_gemm_cuda" >>"$out/example.log" 2>&1 || status=1
"$examples/wgmma_gemm_cuda" 4097 4095 4103 >>"$out/example.log" 2>&1 || status=1

summary() { echo "== $1"; shift; grep -hE "$@" || true; }
summary "GPU suites (FMA, wgmma, wgmma fp8)" "All tests passed|test cases" "$out/fma_suite.log" "$out/wgmma_suite.log" \
  "$out/wgmma_fp8_suite.log"
summary "memcheck" "ERROR SUMMARY" "$out"/memcheck.*.log
summary "racecheck" "RACECHECK SUMMARY" "$out"/racecheck.*.log
summary "synccheck" "ERROR SUMMARY" "$out"/synccheck.*.log
[[ -f $out/sass.log ]] && summary "SASS (wgmma kernels)" "sass_check" "$out/sass.log"
echo "== examples"; grep -E "device:|configuration|verification|TFLOP|Tessera /" "$out/example.log"
exit $status
