#!/usr/bin/env bash
# On a Hopper machine (sm_90), with binaries built elsewhere: everything the fp8 wgmma work
# must show on the device, in one go. A summary line per step as it finishes (and all of
# them again last); into $OUT (or build/gpu/logs/fp8): summary.txt, logs.tgz (every log,
# refreshed after each step, so a run cut short still brings its logs back) and the
# benchmark's fp8_bench.json.
#
#   scripts/device/fp8.sh DIR [STEP...]
#
# Steps, in this order (default: all): suite precision bench mutant sanitize sass regression
#   suite       DIR/test_wgmma_fp8, the fp8 GPU suite   (cmake --build --preset gpu --target test_wgmma_fp8)
#   precision   DIR/fp8_precision: what the tensor core keeps of fp8 sums (benchmark/fp8_precision.cu)
#   bench       DIR/tessera_bench --suite=fp8 beside cuBLASLt (libbenchmark.so.1debian beside it)
#   mutant      DIR/test_wgmma_fp8_mutant must fail: B's block scale taken from the next K block
#               (scripts/gpu_mutation_check.sh --build-only DIR test_wgmma_fp8_mutant)
#   sanitize    compute-sanitizer memcheck, racecheck, synccheck over the suite's [sanitize] cases
#   sass        scripts/sass_check.py (QGMMA present, no local memory), where cuobjdump is
#   regression  DIR/test_wgmma_gemm, the 16-bit suite (its kernel and epilogue changed too)
# A step whose binary is absent says so and is skipped.
set -uo pipefail
dir=$(cd "${1:?usage: fp8.sh DIR [STEP...]}" && pwd)
shift
steps=" ${*:-suite precision bench mutant sanitize sass regression} "
sass_check=$(cd "$(dirname "$0")" && pwd)/../sass_check.py
[[ -f $sass_check ]] || sass_check=$dir/sass_check.py  # a copy beside the binaries
out=${OUT:-build/gpu/logs/fp8}
mkdir -p "$out"
logs=$(mktemp -d)
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >"$logs/device.txt" 2>&1
: >"$out/summary.txt"
status=0
note() {
  echo "== $*" | tee -a "$out/summary.txt"
  tar czf "$out/logs.tgz" -C "$logs" .
}
want() { [[ $steps == *" $1 "* ]]; }
have() { [[ -x $dir/$1 ]] || { note "$1: SKIPPED (not in $dir)"; return 1; }; }
suite() {  # <binary> <time limit> [filter]
  have "$1" || return 0
  local log="$logs/$1.log"
  timeout "$2" "$dir/$1" ${3:+"$3"} >"$log" 2>&1
  local rc=$?
  [[ $rc == 0 ]] || status=1
  note "$1 ${3:-}: exit $rc, $(grep -E "All tests passed|test cases" "$log" | tail -1)"
}
note "device: $(head -1 "$logs/device.txt")"

if want suite; then
  suite test_wgmma_fp8 150
  grep -h "fp8 bound report" "$logs/test_wgmma_fp8.log" 2>/dev/null | tee -a "$out/summary.txt"
  grep -hE "^/.*(FAILED|failed)|with expansion|max \|error\|" "$logs/test_wgmma_fp8.log" 2>/dev/null | head -12 |
    tee -a "$out/summary.txt"
fi
if want precision && have fp8_precision; then
  timeout 60 "$dir/fp8_precision" >"$logs/precision.txt" 2>&1 || status=1
  cat "$logs/precision.txt" >>"$out/summary.txt"
  note "precision probe: $(wc -l <"$logs/precision.txt") lines"
fi
if want bench && have tessera_bench; then
  timeout 220 "$dir/tessera_bench" --suite=fp8 --benchmark_out="$out/fp8_bench.json" \
    --benchmark_out_format=json >"$logs/bench.log" 2>&1 || status=1
  python3 - "$out/fp8_bench.json" >"$logs/bench_table.txt" 2>&1 <<'EOF' || status=1
import json, sys, collections
runs = json.load(open(sys.argv[1]))["benchmarks"]
table, errors = collections.defaultdict(dict), []
for r in runs:
    name = r.get("run_name", r["name"])
    if r.get("error_occurred"):
        errors.append("%s: %s" % (name, r.get("error_message", "")[:200]))
        continue
    if r.get("aggregate_name", "") != "median":
        continue
    group, impl, shape = name.split("/")[:3]
    table[(group, shape)][impl] = r.get("TFLOP/s", 0.0)
impls = sorted({i for row in table.values() for i in row}, key=lambda i: (i != "cublaslt", i))
print("%-7s %-17s " % ("mode", "shape") + " ".join("%17s" % i.replace("tessera_", "t_") for i in impls))
for (group, shape), row in sorted(table.items()):
    lt = row.get("cublaslt")
    cells = []
    for i in impls:
        v = row.get(i)
        cells.append("%17s" % ("-" if v is None else "%6.0f" % v + ("" if not lt or i == "cublaslt" else " (%.2fx)" % (v / lt))))
    print("%-7s %-17s " % (group.replace("fp8_", ""), shape) + " ".join(cells))
for e in sorted(set(errors)):
    print("ERROR", e)
EOF
  cat "$logs/bench_table.txt" >>"$out/summary.txt"
  note "tessera_bench --suite=fp8: $(grep -c . "$logs/bench_table.txt") lines (TFLOP/s medians, x cuBLASLt)"
fi
if want mutant && have test_wgmma_fp8_mutant; then
  if timeout 100 "$dir/test_wgmma_fp8_mutant" "[modes]" >"$logs/mutant.log" 2>&1; then
    status=1
    note "fp8 mutant (B's block scale from the next K block): SURVIVED"
  else
    note "fp8 mutant (B's block scale from the next K block): caught, $(grep -E "test cases" "$logs/mutant.log" | tail -1)"
  fi
fi
if want sanitize && have test_wgmma_fp8; then
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck synccheck; do
      log=$logs/$tool.test_wgmma_fp8.log
      timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 \
        $([[ $tool == racecheck ]] && echo --racecheck-report all) "$dir/test_wgmma_fp8" "[sanitize]" >"$log" 2>&1 ||
        status=1
      note "$tool: $(grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|test cases" "$log" | tr '\n' ' ')"
    done
  else
    note "sanitizers: SKIPPED (no compute-sanitizer)"
  fi
fi
if want sass && have test_wgmma_fp8; then
  if command -v cuobjdump >/dev/null; then
    python3 "$sass_check" "$dir/test_wgmma_fp8" >"$logs/sass.log" 2>&1 || status=1
    note "$(tail -1 "$logs/sass.log")"
  else
    note "SASS check: SKIPPED (no cuobjdump)"
  fi
fi
if want regression; then
  suite test_wgmma_gemm 150
fi
note "fp8: $([[ $status == 0 ]] && echo PASS || echo FAIL)"
echo
echo "==== summary"
cat "$out/summary.txt"
exit $status
