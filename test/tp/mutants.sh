#!/usr/bin/env bash
# The tensor-parallel GPU test's mutants: each is the test built against a copy of the
# headers with one deliberate bug; the test must fail on it (exit 1: not 0, and not 77).
#   tp_mutant_shard_offset  all-gather + GEMM: shard 1's rows land one row late in the
#                           gathered A (a receive offset off by one row);
#   tp_mutant_skip_peer     GEMM + reduce-scatter: the sum leaves out rank 1's partial.
# Standalone (from the repository root, on a machine with two sm_90 GPUs, nvcc, NCCL):
#   test/tp/mutants.sh                    build each mutant, run it, expect it to fail
#   test/tp/mutants.sh --check            only check that every mutation applies (no GPU)
#   test/tp/mutants.sh --build-only DIR [NAME...]   build them (or those named) into DIR, run nothing
#   TESSERA_MUTANTS=DIR test/tp/mutants.sh   run mutants built beforehand
# A suite-wide mutation check can `source test/tp/mutants.sh` and call
# tp_mutants_main "$@" (it uses only the names below, all prefixed tp_).
tp_mutant_list=(
  "tp_mutant_shard_offset|tessera/tp/all_gather_gemm.hpp|s/ncclRecv(gathered(c) + shard_offset(a.M, P, step.recv_from) \* a.K,/ncclRecv(gathered(c) + (shard_offset(a.M, P, step.recv_from) + (step.recv_from == 1)) * a.K,/"
  "tp_mutant_skip_peer|tessera/tp/sum_partials.hpp|s/for (int q = 1; q < p.ranks; ++q) acc += p.part\[q\]\[e\];/for (int q = 1; q < p.ranks; ++q) acc += q == 1 ? 0.0f : p.part[q][e];/"
)

# tp_mutant_apply <header> <sed> <include copy>: 0 when the copy changed.
tp_mutant_apply() {
  local header=$1 expr=$2 dir=$3
  rm -rf "$dir/include" && cp -r include "$dir/include"
  sed -i "$expr" "$dir/include/$header"
  ! cmp -s "$dir/include/$header" "include/$header"
}

tp_mutant_build() {  # <name> <include root> <output>
  local nccl_inc=${NCCL_INCLUDE:-/usr/local/cuda/include} nccl_lib=${NCCL_LIB:-/usr/local/cuda/lib64}
  nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr \
    -I "$2/include" -I test/support -I test/tp -I "$nccl_inc" \
    test/tp/test_tp_gpu.cu test/tp/tp_all_gather_gemm_cases.cu test/tp/tp_gemm_reduce_scatter_cases.cu \
    -L "$nccl_lib" -lnccl -o "$3"
}

tp_mutants_main() {
  local work mode=run out="" prebuilt=${TESSERA_MUTANTS:-} caught=0 missed=0 only=()
  work=$(mktemp -d)
  if [[ ${1:-} == --check ]]; then mode=check; fi
  if [[ ${1:-} == --build-only ]]; then mode=build; out=$(mkdir -p "$2" && cd "$2" && pwd); only=("${@:3}"); fi
  for entry in "${tp_mutant_list[@]}"; do
    IFS='|' read -r name header expr <<<"$entry"
    if [[ ${#only[@]} -gt 0 && " ${only[*]} " != *" $name "* ]]; then continue; fi
    if [[ -z $prebuilt ]]; then
      if ! tp_mutant_apply "$header" "$expr" "$work"; then
        echo "$name: the mutation of $header did not apply"; return 2
      fi
      if [[ $mode == check ]]; then echo "$name: applies"; continue; fi
      tp_mutant_build "$name" "$work" "${out:-$work}/$name" || { echo "$name: did not build"; return 2; }
      if [[ $mode == build ]]; then echo "$name: built"; continue; fi
    fi
    local bin=${prebuilt:-$work}/$name rc=0
    test/tp/run_tp.sh "$bin" --processes >"$work/$name.log" 2>&1 || rc=$?
    if [[ $rc == 1 ]]; then
      echo "$name: caught"; caught=$((caught + 1))
    else
      echo "$name: NOT caught (exit $rc)"; tail -5 "$work/$name.log"; missed=$((missed + 1))
    fi
  done
  [[ $mode != run ]] || { echo "tensor-parallel mutants: $caught caught, $missed missed"; [[ $missed == 0 ]]; }
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  cd "$(dirname "$0")/../.."
  tp_mutants_main "$@"
fi
