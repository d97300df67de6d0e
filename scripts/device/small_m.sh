#!/usr/bin/env bash
# Issue 17 (small M, C staged by TMA, the cluster split-K kernel, the selector) on a Hopper
# machine, with the binaries already built elsewhere:
#
#   scripts/device/small_m.sh DIR
#
# DIR holds test_wgmma_shapes and test_wgmma_gemm (cmake --build --preset gpu --target
# test_wgmma_shapes test_wgmma_gemm), and for the bench step tessera_bench (target
# tessera_bench; built with -DTESSERA_BENCH_TUNE_VARIANTS=1 it also times the candidates the
# selector chooses among) with libbenchmark.so.1* beside it. Steps (SMALL_M_STEPS, default
# "tests sass bench"): tests (the two GPU suites, the new one split by tag and run side by
# side), sanitize (compute-sanitizer memcheck, racecheck, synccheck over the new suite's
# [sanitize] cross-section), sass (scripts/sass_check.py: HGMMA, no local memory), bench
# (tessera_bench --suite=llm, filter SMALL_M_BENCH_FILTER, default the bf16 groups, extra
# arguments SMALL_M_BENCH_ARGS). Logs and the JSON go to $OUT (default DIR/out); the summary,
# last, has one line per step. Timeouts: SMALL_M_TEST_TIMEOUT (per test process, default 300 s),
# SMALL_M_BENCH_TIMEOUT (default 330 s), SMALL_M_SANITIZE_TIMEOUT (per tool, default 300 s). Exit
# status 0 only if every step passed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$(cd "${1:?usage: small_m.sh DIR}" && pwd)
out=${OUT:-$dir/out}
mkdir -p "$out"
steps=${SMALL_M_STEPS:-tests sass bench}
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary=()
failed=0
note() { summary+=("$1"); }

catch_verdict() {  # the last Catch2 line of a log: "All tests passed (...)" or "test cases: ..."
  grep -E "^(All tests passed|test cases:)" "$1" | tail -n 1
}

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader 2>/dev/null | tee "$out/device.txt"

for step in $steps; do
  t0=$SECONDS
  case $step in
    tests)
      pids=()
      for tag in narrow staged_c split small_m auto status; do
        timeout "${SMALL_M_TEST_TIMEOUT:-300}" "$dir/test_wgmma_shapes" "[$tag]" >"$out/shapes_$tag.log" 2>&1 &
        pids+=($!)
      done
      timeout "${SMALL_M_TEST_TIMEOUT:-300}" "$dir/test_wgmma_gemm" >"$out/wgmma_gemm.log" 2>&1 &
      pids+=($!)
      rc_all=0
      for p in "${pids[@]}"; do wait "$p" || rc_all=1; done
      for tag in narrow staged_c split small_m auto status; do
        note "tests [$tag]: $(catch_verdict "$out/shapes_$tag.log")"
      done
      note "tests test_wgmma_gemm (regression): $(catch_verdict "$out/wgmma_gemm.log")"
      ((rc_all)) && failed=1
      ;;
    sanitize)
      for tool in memcheck racecheck synccheck; do
        timeout "${SMALL_M_SANITIZE_TIMEOUT:-300}" compute-sanitizer --tool "$tool" --error-exitcode 3 "$dir/test_wgmma_shapes" "[sanitize]" \
          >"$out/sanitize_$tool.log" 2>&1
        rc=$?
        ((rc != 0)) && failed=1
        note "sanitize $tool: exit $rc, $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitize_$tool.log" | tail -n 1)"
      done
      ;;
    sass)
      if command -v cuobjdump >/dev/null; then
        for bin in test_wgmma_shapes test_wgmma_gemm; do
          python3 "$root/scripts/sass_check.py" "$dir/$bin" >"$out/sass_$bin.log" 2>&1
          rc=$?
          ((rc != 0)) && failed=1
          note "sass $bin: exit $rc, $(tail -n 1 "$out/sass_$bin.log")"
        done
      else
        note "sass: cuobjdump not found, skipped"
      fi
      ;;
    bench)
      filter=${SMALL_M_BENCH_FILTER:-^llm_bf16(_beta1)?/}
      # shellcheck disable=SC2086
      timeout "${SMALL_M_BENCH_TIMEOUT:-330}" "$dir/tessera_bench" --suite=llm --benchmark_filter="$filter" ${SMALL_M_BENCH_ARGS:-} \
        --benchmark_out="$out/bench.json" --benchmark_out_format=json >"$out/bench.log" 2>&1
      rc=$?
      ((rc != 0)) && failed=1
      python3 "$root/scripts/device/small_m_table.py" "$out/bench.json" >"$out/bench_table.txt" 2>&1 || true
      cat "$out/bench_table.txt"
      note "bench: exit $rc, $(grep -c '"run_type": "aggregate"' "$out/bench.json" 2>/dev/null) aggregates, $(grep -c 'error_occurred' "$out/bench.json" 2>/dev/null) errors"
      ;;
    *)
      note "unknown step $step"
      failed=1
      ;;
  esac
  note "  ($step: $((SECONDS - t0)) s)"
done

echo
echo "## small_m summary (logs in $out)"
for line in "${summary[@]}"; do echo "  $line"; done
exit $failed
