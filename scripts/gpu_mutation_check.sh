#!/usr/bin/env bash
# Proves the GPU suite can fail: builds it against a copy of the headers with one
# deliberate bug (the K-edge check drops the last column of K) and expects failures.
# Exit 0 when the suite FAILS on the broken copy. Run on a CUDA machine after
# scripts/gpu_check.sh (it reuses the gpu preset's configuration).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
cp -r include "$work/include"
loader="$work/include/tessera/memory/operand_tile_loader.hpp"
sed -i 's/depth\[j\] + i < k_left/depth[j] + i < k_left - 1/' "$loader"
if cmp -s "$loader" include/tessera/memory/operand_tile_loader.hpp; then
  echo "mutation did not apply"; exit 2
fi
nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr \
  -I "$work/include" -I test/support -I test/gpu -I .carry -I /usr/include \
  test/gpu/test_fma_gemm.cu test/gpu/gpu_main.cpp -o "$work/test_fma_gemm_mutant"
if "$work/test_fma_gemm_mutant" "[fp32]" >"$work/log" 2>&1; then
  echo "MUTATION SURVIVED: the GPU suite passed with a broken K edge"; tail -3 "$work/log"; exit 1
fi
echo "mutation caught:"; grep -E "test cases|assertions" "$work/log" | tail -2
