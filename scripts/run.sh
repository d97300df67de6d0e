#!/usr/bin/env bash
# The main job: build the examples for every target the toolchains allow, then
#  - with a CUDA GPU: run the example GEMM with verification and time it beside cuBLAS;
#  - without one: say briefly what was built and run the MFMA example's GEMM on the AMD wave
#    emulator (a small shape with a K tail, every output checked against float64).
# Arguments (M N K) go to the example; --plans also prints each compiled kernel
# configuration's shared-memory plan per target and the resources the compilers report.
set -euo pipefail
cd "$(dirname "$0")/.."
plans=0
if [[ ${1:-} == --plans ]]; then plans=1; shift; fi
scripts/install-deps.sh
scripts/configure.sh
# Everything the toolchains found can build (configure said in one line what it skips).
cmake --build --preset default --target examples_all
build=build/default/examples

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "== GPU found: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  status=0
  "$build/fma_gemm_cuda" "$@" || status=1
  if [ $# -eq 0 ]; then "$build/fma_gemm_cuda" 4097 4095 4103 || status=1; fi
  if [ -x "$build/wgmma_gemm_cuda" ]; then
    echo
    "$build/wgmma_gemm_cuda" "$@"; rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1  # 77: the GPU is not an sm_90
    if [ $# -eq 0 ] && [ $rc -ne 77 ]; then "$build/wgmma_gemm_cuda" 4097 4095 4103 || status=1; fi
  fi
  exit $status
fi

built=""
for p in fma_gemm_cuda wgmma_gemm_cuda fma_gemm_hip mfma_gemm_hip mfma_gemm_emulated; do
  [[ -x $build/$p ]] && built+="$p "
done
echo "== No GPU on this machine. Built: ${built:-nothing runnable}(CUDA: ${TESSERA_CUDA_ARCHS:-sm_90a, sm_100a};"
echo "   HIP: gfx942, gfx950; compiled and checked, not run). scripts/run.sh --plans prints their plans."
status=0
if [[ -x $build/mfma_gemm_emulated ]]; then
  echo "== The MFMA example's GEMM on the AMD wave emulator (EMULATED, not an AMD GPU):"
  "$build/mfma_gemm_emulated" "$@" || status=1
else
  echo "== No emulated run: mfma_gemm_emulated was not built (it needs clang++; configure said why)"
fi
if ((plans)); then
  echo
  echo "== Shared-memory plans of the compiled kernel configurations"
  "$build/print_plans"
  echo "== Resources the compilers report, per kernel and target"
  python3 scripts/resource_report.py --full-names "$build/kernel_names.txt" "$build"/*.ptxas.txt "$build"/*.s
fi
exit $status
