#!/usr/bin/env bash
# On a Hopper machine, with the binaries built elsewhere: everything issue 20 (batched and
# grouped GEMMs, fused epilogues) must show on the GPU, in order of importance, each step under
# its own time limit so that one slow step leaves the rest their turn:
#   suite       test_many_gemms (wgmma and FMA: batched, grouped, graph replay, bad sizes,
#               epilogues), then the existing suites test_wgmma_gemm and test_fma_gemm (the
#               plain paths' shared code changed)
#   bench       tessera_bench --suite=many (grouped vs cublasGemmGroupedBatchedEx and one dense
#               GEMM, batched vs cublasGemmStridedBatchedEx, bias+GELU vs cuBLASLt GELU_BIAS)
#   sanitizers  compute-sanitizer memcheck, racecheck, synccheck over "[sanitize]"
#   mutation    test_many_gemms_mutant_offset (a group's rows one tile off) must FAIL "[grouped]"
#   sass        scripts/sass_check.py over test_many_gemms and test_wgmma_gemm (HGMMA present,
#               no local memory)
#
#   scripts/device/grouped_epilogues.sh DIR [steps...]
# DIR holds test_many_gemms, test_many_gemms_mutant_offset, test_wgmma_gemm, test_fma_gemm,
# tessera_bench and libbenchmark.so.1debian (build: cmake --preset gpu; cmake --build --preset
# gpu --target test_many_gemms test_wgmma_gemm test_fma_gemm tessera_bench; the mutant with
# scripts/gpu_mutation_check.sh --build-only DIR). Steps: many wgmma fma (or "suite"), bench,
# memcheck racecheck synccheck (or "sanitizers"), mutation, sass; default all. Logs and the
# benchmark JSON go to $OUT (default build/grouped-epilogues).
# Success: every summary line says PASS (the mutation line: CAUGHT); exit 0 only then.
# Environment: BENCH_ARGS (extra tessera_bench arguments, e.g. --reps=3); LIMIT_MANY,
# LIMIT_WGMMA, LIMIT_FMA, LIMIT_BENCH, LIMIT_SANITIZER, LIMIT_MUTATION, LIMIT_SASS (seconds per step).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=$(cd "${1:?usage: grouped_epilogues.sh DIR [steps...]}" && pwd)
shift
steps=${*:-suite bench sanitizers mutation sass}
out=${OUT:-$root/build/grouped-epilogues}
mkdir -p "$out"
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
summary=()
failed=0
t0=$SECONDS
step() {  # <name> <seconds> <command...>: runs it under a limit, logs to $out/<name>.log
  local name=$1 limit=$2
  shift 2
  local t=$SECONDS
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
    many) step many_suite "${LIMIT_MANY:-150}" "$bin/test_many_gemms" ;;
    wgmma) step wgmma_suite "${LIMIT_WGMMA:-150}" "$bin/test_wgmma_gemm" ;;
    fma) step fma_suite "${LIMIT_FMA:-90}" "$bin/test_fma_gemm" ;;
    bench)
      # The console log carries every result as it comes (the JSON is written at the end).
      step bench "${LIMIT_BENCH:-240}" "$bin/tessera_bench" --suite=many --benchmark_out="$out/many.json" \
        --benchmark_out_format=json ${BENCH_ARGS:-}
      [[ -s $out/many.json ]] && python3 "$root/scripts/bench_plot.py" --no-plot "$out/many.json" >"$out/many.md" 2>>"$out/bench.log"
      ;;
    memcheck) step memcheck "${LIMIT_SANITIZER:-120}" compute-sanitizer --tool memcheck --error-exitcode 99 \
                "$bin/test_many_gemms" "[sanitize]" ;;
    racecheck) step racecheck "${LIMIT_SANITIZER:-120}" compute-sanitizer --tool racecheck --racecheck-report all \
                 --error-exitcode 99 "$bin/test_many_gemms" "[sanitize]" ;;
    synccheck) step synccheck "${LIMIT_SANITIZER:-120}" compute-sanitizer --tool synccheck --error-exitcode 99 \
                 "$bin/test_many_gemms" "[sanitize]" ;;
    mutation)
      t=$SECONDS
      if timeout "${LIMIT_MUTATION:-60}" "$bin/test_many_gemms_mutant_offset" "[grouped]" >"$out/mutation.log" 2>&1; then
        summary+=("mutation (a group's rows one tile off): SURVIVED, the suite did not fail")
        echo "step ${summary[-1]}"
        failed=1
      else
        summary+=("mutation (a group's rows one tile off): CAUGHT in $((SECONDS - t))s: $(grep -E 'test cases' "$out/mutation.log" | tail -1)")
        echo "step ${summary[-1]}"
      fi
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
else
  grep -E "^(grouped|batched|epilogue)" "$out/bench.log" | awk '{print $1, $(NF-2), $(NF-1), $NF}' | head -60
fi
echo "== summary ($((SECONDS - t0))s)"
printf '%s\n' "${summary[@]}"
exit $failed
