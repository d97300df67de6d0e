#!/usr/bin/env bash
# The host API from many host threads (issue 15), on a machine with a Hopper GPU (sm_90):
#   1. test_threads, the whole suite (cold threads x FMA/wgmma paths, graph capture from
#      worker threads, a caller's own driver context, the cost of the per-call step);
#   2. its [capture] cases again in a fresh process, so that the per-kernel caches
#      (dynamic shared-memory opt-in, resident clusters) are filled under capture;
#   3. compute-sanitizer memcheck over the [sanitize] cross-section;
#   4. the mutant built without the context step (context.hpp's bind never binds): its
#      [cold] cases must FAIL (the tensor-map encode on a thread with no context), which
#      shows the suite can see the defect this fixes; and, for information, the mutant whose
#      opt-in cache ignores the context (launch.hpp) on the [driver] case.
# Summary lines last; full logs in $OUT (or build/gpu/logs/threads).
#
#   scripts/device/threads.sh <dir>                 runs <dir>/test_threads and the
#                                                   mutants <dir>/test_threads_no_context_step,
#                                                   <dir>/test_threads_opt_in_any_context
#   scripts/device/threads.sh --build-only <dir>    builds the mutants into <dir> (nvcc and
#                                                   Catch2 needed, no GPU); test_threads
#                                                   itself is the CMake target of that name
set -uo pipefail
cd "$(dirname "$0")/../.."

build_mutant() {  # <output binary> <header under include/> <sed expression>
  local work header=$2
  work=$(mktemp -d)
  cp -r include "$work/include"
  sed -i "$3" "$work/include/$header"
  if cmp -s "$work/include/$header" "include/$header"; then
    echo "mutation of $header did not apply"; rm -rf "$work"; return 2
  fi
  nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr \
    -DTESSERA_GPU_TEST_REQUIRES_CC=90 -Xcompiler -pthread \
    -I "$work/include" -I test/support -I test/gpu -I .carry -I /usr/include \
    test/gpu/test_threads.cu test/gpu/gpu_main.cpp -o "$1"
  local rc=$?
  rm -rf "$work"
  return $rc
}

if [[ ${1:-} == --build-only ]]; then
  [[ $# -eq 2 ]] || { echo "usage: $0 --build-only <dir>"; exit 2; }
  mkdir -p "$2"
  # The context step never binds (a cold thread keeps no context).
  build_mutant "$2/test_threads_no_context_step" tessera/runtime/context.hpp \
    's/  if (!ok(s) || !current) {/  if (false) {/' || exit 1
  # The opt-in cache ignores the context it was made in (one opt-in per device).
  build_mutant "$2/test_threads_opt_in_any_context" tessera/runtime/launch.hpp \
    's/    if (first.context == context \&\& first.bytes >= bytes)/    if (first.bytes >= bytes)/' || exit 1
  echo "built $2/test_threads_no_context_step $2/test_threads_opt_in_any_context"
  exit 0
fi
[[ $# -eq 1 ]] || { echo "usage: $0 <dir with test_threads and test_threads_no_context_step>"; exit 2; }
bin=$1
out=${OUT:-build/gpu/logs/threads}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/device.txt" 2>&1
status=0
run() {  # <log> <command...>
  local log=$1
  shift
  "$@" >"$out/$log" 2>&1 || status=1
}

run suite.log "$bin/test_threads"
grep -q "^SKIPPED" "$out/suite.log" && echo "test_threads skipped itself: $(grep -h "^SKIPPED" "$out/suite.log")"
run capture_fresh_process.log "$bin/test_threads" "[capture]"
run memcheck.log compute-sanitizer --tool memcheck --error-exitcode 99 "$bin/test_threads" "[sanitize]"
# A mutant counts as caught only when Catch2 ran and reported failed cases (not a skip,
# exit 77, nor a crash before any test ran).
failed_cases() { grep -E "^test cases:.*failed" "$1" | tail -1; }
mutant="MISSING: build it with --build-only"
if [[ -x $bin/test_threads_no_context_step ]]; then
  "$bin/test_threads_no_context_step" "[cold]" >"$out/mutant_no_context_step.log" 2>&1
  if [[ -n $(failed_cases "$out/mutant_no_context_step.log") ]]; then
    mutant="caught: $(failed_cases "$out/mutant_no_context_step.log"); $(grep -c kErrorNoContext "$out/mutant_no_context_step.log") lines name kErrorNoContext"
  else
    mutant="NOT CAUGHT: $(tail -1 "$out/mutant_no_context_step.log")"; status=1
  fi
else
  status=1
fi

# Informational: whether this driver keeps the dynamic shared-memory opt-in per context (then
# the [driver] case fails without the context in the cache's key) or per device (then the
# key's context only costs a few extra opt-ins in a driver-made context).
opt_in="missing: build it with --build-only"
if [[ -x $bin/test_threads_opt_in_any_context ]]; then
  "$bin/test_threads_opt_in_any_context" "[driver]" >"$out/mutant_opt_in_any_context.log" 2>&1
  if [[ -n $(failed_cases "$out/mutant_opt_in_any_context.log") ]]; then
    opt_in="failed ($(failed_cases "$out/mutant_opt_in_any_context.log")): the opt-in is per context, the key is needed"
  elif grep -q "All tests passed" "$out/mutant_opt_in_any_context.log"; then
    opt_in="passed: this driver applies the opt-in across the contexts of a device"
  else
    opt_in="did not run: $(tail -1 "$out/mutant_opt_in_any_context.log")"
  fi
fi

echo "== device: $(cat "$out/device.txt")"
for log in suite capture_fresh_process; do
  echo "== $log: $(grep -hE "All tests passed|^test cases" "$out/$log.log" | tail -1)"
done
runs=$(grep -hc "threads started with no context" "$out/suite.log")
all_cold=$(grep -hcE ": ([0-9]+) of \1 threads started with no context" "$out/suite.log")
echo "== runs from worker threads: $runs, in $all_cold of them every worker started with no context (direct runs must)"
echo "== cost:"; grep -h "cost per call" "$out/suite.log"
echo "== memcheck [sanitize]: $(grep -h "ERROR SUMMARY" "$out/memcheck.log" | tail -1); $(grep -hE "All tests passed|^test cases" "$out/memcheck.log" | tail -1)"
echo "== mutant without the context step: $mutant"
echo "== mutant whose opt-in cache ignores the context (informational): $opt_in"
[[ $status == 0 ]] && echo "threads: OK" || echo "threads: FAILED (logs in $out)"
exit $status
