#!/usr/bin/env bash
# Issue 18's GPU checks, on a CUDA machine with binaries built elsewhere:
#   1. the FMA split-K tests (test_fma_gemm "[splitk]": shapes whose M and N are not
#      multiples of 4, the workspace guarded on both sides and checked) must pass;
#   2. the split-K slice-offset mutant (M and N swapped) must fail them.
# Usage: scripts/device/amd-verify.sh <test_fma_gemm> <mutants dir>
#   <test_fma_gemm>  the GPU suite's binary (cmake --build --preset default --target test_fma_gemm)
#   <mutants dir>    holds test_fma_gemm_mutant_split_k (scripts/gpu_mutation_check.sh --build-only DIR)
# Full logs go to $OUT when it is set; the summary is printed last. Exit 0 when both hold.
set -uo pipefail
suite=${1:?usage: $0 <test_fma_gemm> <mutants dir>}
mutant=${2:?usage: $0 <test_fma_gemm> <mutants dir>}/test_fma_gemm_mutant_split_k
logs=${OUT:-$(mktemp -d)}
mkdir -p "$logs"
status=0
summary=()

if "$suite" "[splitk]" >"$logs/splitk.log" 2>&1; then
  summary+=("PASS  split-K suite: $(grep -E 'assertions|test cases' "$logs/splitk.log" | tail -1)")
else
  summary+=("FAIL  split-K suite (see $logs/splitk.log): $(grep -E 'assertions|test cases' "$logs/splitk.log" | tail -1)")
  status=1
fi

if [[ ! -x $mutant ]]; then
  summary+=("FAIL  mutant missing: $mutant")
  status=1
elif timeout 300 "$mutant" "[splitk]" >"$logs/splitk_mutant.log" 2>&1; then
  summary+=("FAIL  split-K slice-offset mutant SURVIVED (see $logs/splitk_mutant.log)")
  status=1
else
  summary+=("PASS  split-K slice-offset mutant caught: $(grep -E 'assertions|test cases' "$logs/splitk_mutant.log" | tail -1)")
fi

printf '%s\n' "${summary[@]}"
exit $status
