#!/usr/bin/env bash
# scripts/device/check.sh without a GPU: its arguments and its prebuilt mode, with stub binaries
# in a temporary directory (a suite that passes, one that fails, one mutant that is caught,
# tessera_bench, compute-sanitizer). Checks the summary's rows, the exit status, where the
# logs and the benchmark JSON go (<device>_<suite>.json, replaced by the next run) and that a
# bad argument is refused. Usage: device_check.sh REPOSITORY
# shellcheck disable=SC2016  # the stubs' bodies expand when they run, not here
set -uo pipefail
root=${1:?usage: device_check.sh REPOSITORY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pre" "$work/path" "$work/out" "$work/results"
stub() {  # <file> <body>
  printf '#!/usr/bin/env bash\n%s\n' "$2" >"$1"
  chmod +x "$1"
}
stub "$work/pre/test_good" 'if [[ ${1:-} == --list-test-names-only ]]; then echo "a sanitize case"; exit 0; fi
echo "All tests passed (2 assertions in 1 test case) $*"'
stub "$work/pre/test_bad" 'if [[ ${1:-} == --list-test-names-only ]]; then exit 0; fi
echo "test cases: 2 | 1 passed | 1 failed"; exit 1'
stub "$work/pre/test_fma_gemm_mutant" 'echo "test cases: 1 | 1 failed"; exit 1'
stub "$work/pre/tessera_bench" 'if [[ $1 == --device-name ]]; then echo STUB_GPU; exit 0; fi
for a; do case $a in --benchmark_out=*) out=${a#*=} ;; esac; done
echo "{\"context\": {\"args\": \"$*\"}, \"benchmarks\": []}" >"$out"'
stub "$work/path/compute-sanitizer" 'echo "sanitizer $*"; echo "========= ERROR SUMMARY: 0 errors"'

fails=0
expect() {  # <what> <command...>: the command must succeed
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; fails=$((fails + 1)); fi
}
run_check() {
  PATH="$work/path:$PATH" TESSERA_PREBUILT="$work/pre" TESSERA_BENCH_RESULTS_DIR="$work/results" \
    "$root/scripts/device/check.sh" "$@"
}

run_check --suites=gpu --sanitizers --mutants=test_fma_gemm_mutant --bench=llm,fp8 --bench-args="--reps=1" \
  --out="$work/out" >"$work/summary.txt" 2>&1
rc=$?
cat "$work/summary.txt"
row() { grep -E "^$1 +$2" "$work/summary.txt" >/dev/null; }
expect "a failing suite makes the exit status 1" test "$rc" = 1
expect "the passing suite's row says pass" row "suite good" pass
expect "the failing suite's row says FAIL" row "suite bad" FAIL
expect "each sanitizer ran over the suite with [sanitize] cases" \
  bash -c "grep -q '\\[sanitize\\]' '$work/out/memcheck.good.log' && test -f '$work/out/racecheck.good.log' && test -f '$work/out/synccheck.good.log'"
expect "a suite without [sanitize] cases is listed as such" row "sanitizers bad" "skip"
expect "the caught mutant passes the mutation check" row mutants pass
expect "one JSON per suite, named <device>_<suite>" test -f "$work/results/STUB_GPU_llm.json" -a -f "$work/results/STUB_GPU_fp8.json"
expect "the JSON is copied to --out" test -f "$work/out/STUB_GPU_llm.json"
expect "--bench-args reach tessera_bench" grep -q -- "--suite=fp8 .*--reps=1" "$work/results/STUB_GPU_fp8.json"
expect "the summary comes last" bash -c "tail -n 1 '$work/summary.txt' | grep -q '^bench fp8'"

run_check --suites=good --out="$work/out2" >"$work/summary2.txt" 2>&1
expect "a passing run exits 0" test $? = 0
run_check --bench=llm --bench-args=--hot --out="$work/out3" >/dev/null 2>&1
expect "--hot runs go to <device>_<suite>_hot.json" test -f "$work/results/STUB_GPU_llm_hot.json"
run_check --no-such-option >/dev/null 2>&1
expect "an unknown argument is refused with status 2" test $? = 2
TESSERA_PREBUILT="$work/nowhere" "$root/scripts/device/check.sh" --out="$work/out4" >/dev/null 2>&1
expect "a prebuilt directory that does not exist is refused" test $? = 2
echo "$fails failed"
((fails == 0))
