#!/usr/bin/env bash
# On a Hopper machine, with the binaries built elsewhere: everything issue 20 (batched and
# grouped GEMMs, fused epilogues) must show on the GPU, in order of importance, each step under
# its own time limit and all of them under one budget (LIMIT_TOTAL, default 290 s: a step that
# would start past it is SKIPPED, and each step's limit is cut to what is left):
#   suite       test_many_gemms (wgmma and FMA: batched, grouped, graph replay, bad sizes,
#               epilogues), then the existing suites test_wgmma_gemm and test_fma_gemm (the
#               plain paths' shared code changed)
#   mutation    test_many_gemms_mutant_offset (a group's rows one tile off) must FAIL "[grouped]"
#   memcheck    compute-sanitizer memcheck over test_many_gemms "[sanitize]"
#   bench       tessera_bench --suite=many (grouped vs cublasGemmGroupedBatchedEx and one dense
#               GEMM, batched vs cublasGemmStridedBatchedEx, bias+GELU vs cuBLASLt GELU_BIAS)
#   not by default: racecheck, synccheck (over "[sanitize]"), sass (scripts/sass_check.py over
#               test_many_gemms and test_wgmma_gemm; needs only cuobjdump, no GPU)
#
#   scripts/device/grouped_epilogues.sh DIR [steps...]
# DIR holds test_many_gemms, test_many_gemms_mutant_offset, test_wgmma_gemm, test_fma_gemm,
# tessera_bench and libbenchmark.so.1debian (build: cmake --preset default (or gpu); cmake
# --build --preset default --target test_many_gemms test_wgmma_gemm test_fma_gemm tessera_bench;
# the mutant with scripts/gpu_mutation_check.sh --build-only DIR test_many_gemms_mutant_offset),
# and bench_plot.py where this script is not run from a checkout. Steps: many
# wgmma fma (or "suite"), mutation, memcheck, bench, racecheck, synccheck, sass; default "suite
# mutation memcheck bench". Logs and the benchmark JSON go to $OUT (default build/grouped-epilogues).
# Success: every summary line says PASS (the mutation line: CAUGHT); exit 0 only then.
# Environment: BENCH_ARGS (tessera_bench arguments, default --reps=1); LIMIT_TOTAL; LIMIT_MANY,
# LIMIT_WGMMA, LIMIT_FMA, LIMIT_BENCH, LIMIT_SANITIZER, LIMIT_MUTATION, LIMIT_SASS (seconds per step).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=$(cd "${1:?usage: grouped_epilogues.sh DIR [steps...]}" && pwd)
shift
steps=${*:-suite mutation memcheck bench}
out=${OUT:-$root/build/grouped-epilogues}
mkdir -p "$out"
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
summary=()
failed=0
t0=$SECONDS
budget=${LIMIT_TOTAL:-290}
left() { echo $((budget - (SECONDS - t0))); }
step() {  # <name> <seconds> <command...>: runs it under a limit, logs to $out/<name>.log
  local name=$1 limit=$2
  shift 2
  local t=$SECONDS
  if (($(left) < 15)); then
    summary+=("$name: SKIPPED (the ${budget}s budget is spent)")
    echo "step ${summary[-1]}"
    failed=1
    return
  fi
  (($(left) < limit)) && limit=$(left)
  timeout --signal=TERM --kill-after=10 "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  local verdict=PASS
  [[ $rc -ne 0 ]] && verdict="FAIL (exit $rc)" && failed=1
  summary+=("$name: $verdict in $((SECONDS - t))s: $(grep -hE 'test cases|ERROR SUMMARY|RACECHECK SUMMARY|sass_check' "$out/$name.log" | tail -1)")
  echo "step ${summary[-1]}"  # as it happens: a call cut short still shows the steps done
}

steps=${steps//suite/many wgmma fma}
steps=${steps//sanitizers/memcheck racecheck synccheck}
for s in $steps; do
  case $s in
    many) step many_suite "${LIMIT_MANY:-90}" "$bin/test_many_gemms" ;;
    wgmma) step wgmma_suite "${LIMIT_WGMMA:-90}" "$bin/test_wgmma_gemm" ;;
    fma) step fma_suite "${LIMIT_FMA:-60}" "$bin/test_fma_gemm" ;;
    bench)
      # The console log carries every result as it comes (the JSON is written at the end).
      step bench "${LIMIT_BENCH:-150}" "$bin/tessera_bench" --suite=many --benchmark_out="$out/many.json" \
        --benchmark_out_format=json ${BENCH_ARGS:---reps=1}
      plot=$root/scripts/bench_plot.py
      [[ -f $plot ]] || plot=$bin/bench_plot.py
      [[ -s $out/many.json && -f $plot ]] && python3 "$plot" --no-plot "$out/many.json" >"$out/many.md" 2>>"$out/bench.log"
      ;;
    memcheck) step memcheck "${LIMIT_SANITIZER:-90}" compute-sanitizer --tool memcheck --error-exitcode 99 \
                "$bin/test_many_gemms" "[sanitize]" ;;
    racecheck) step racecheck "${LIMIT_SANITIZER:-120}" compute-sanitizer --tool racecheck --racecheck-report all \
                 --error-exitcode 99 "$bin/test_many_gemms" "[sanitize]" ;;
    synccheck) step synccheck "${LIMIT_SANITIZER:-120}" compute-sanitizer --tool synccheck --error-exitcode 99 \
                 "$bin/test_many_gemms" "[sanitize]" ;;
    mutation)
      # The mutant must fail (a wrong result: Catch2 exits non-zero); a time-out is no verdict.
      t=$SECONDS
      limit=${LIMIT_MUTATION:-60}
      (($(left) < limit)) && limit=$(left)
      rc=0
      if [[ ! -x $bin/test_many_gemms_mutant_offset ]]; then
        verdict="MUTANT MISSING ($bin/test_many_gemms_mutant_offset)" rc=-1
      elif ((limit < 15)); then
        verdict="SKIPPED (the ${budget}s budget is spent)" rc=-1
      else
        timeout --kill-after=10 "$limit" "$bin/test_many_gemms_mutant_offset" "[grouped]" >"$out/mutation.log" 2>&1
        rc=$?
        case $rc in
          0) verdict="SURVIVED, the suite did not fail" ;;
          124 | 137) verdict="TIMED OUT after ${limit}s (no verdict)" ;;
          *) verdict="CAUGHT in $((SECONDS - t))s: $(grep -E 'test cases' "$out/mutation.log" | tail -1)" ;;
        esac
      fi
      [[ $verdict == CAUGHT* ]] || failed=1
      summary+=("mutation (a group's rows one tile off): $verdict")
      echo "step ${summary[-1]}"
      ;;
    sass)
      step sass "${LIMIT_SASS:-60}" python3 "$root/scripts/sass_check.py" "$bin/test_many_gemms"
      step sass_plain "${LIMIT_SASS:-60}" python3 "$root/scripts/sass_check.py" "$bin/test_wgmma_gemm"
      ;;
    *) echo "unknown step $s"; exit 2 ;;
  esac
done

echo "== benchmark (median TFLOP/s; full table in $out/many.md)"
if [[ -f $out/many.md ]]; then
  grep -E "^\||^#" "$out/many.md" | head -70
elif [[ -f $out/bench.log ]]; then
  grep -E "^(grouped|batched|epilogue)" "$out/bench.log" | awk '{print $1, $(NF-2), $(NF-1), $NF}' | head -60
fi
echo "== summary ($((SECONDS - t0))s)"
printf '%s\n' "${summary[@]}"
exit $failed
