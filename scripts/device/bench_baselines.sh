#!/usr/bin/env bash
# On a Hopper machine, with tessera_bench already built: run every suite once with short
# settings (1 repetition, 2-3 timed iterations), to show that each benchmark runs and
# passes its check before timing, and print the tables (numbers from so few iterations
# are indicative only; scripts/device_bench.sh measures).
#
#   scripts/device/bench_baselines.sh BUILD/benchmark/tessera_bench [tessera_bench args...]
#
# Extra arguments go to every run (e.g. --benchmark_filter=...). Environment: OUT (the
# JSON, logs and tables of each suite are written there; default build/bench-baselines),
# BENCH_BASELINES_SUITES (default "llm fp8 many classic"), BENCH_BASELINES_TIMEOUT_S (per
# suite, default 420). Success: every suite exits 0 and no benchmark was skipped (a failed
# check or a CUDA/cuBLAS error skips one with its message); the summary, last, says so
# per suite. Exit status 0 only then.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:?usage: bench_baselines.sh path/to/tessera_bench [args...]}
shift
[[ -x $bin ]] || { echo "bench_baselines: $bin is not an executable"; exit 2; }
out=${OUT:-$root/build/bench-baselines}
mkdir -p "$out"
suites=${BENCH_BASELINES_SUITES:-llm fp8 many classic}
limit=${BENCH_BASELINES_TIMEOUT_S:-420}
quick=(--reps=1 --min-iters=2 --max-iters=3 --target-ms=1)

# One line per suite: benchmarks in the JSON, those skipped, and each skip's message.
count_py='
import json, sys
data = json.load(open(sys.argv[1]))
names, skipped = set(), {}
for b in data.get("benchmarks", []):
    name = b.get("run_name", b.get("name", ""))
    names.add(name)
    if b.get("error_occurred"):
        skipped[name] = b.get("error_message", "error")
print(len(names), len(skipped))
for name, msg in sorted(skipped.items()):
    print(f"  SKIPPED {name}: {msg}", file=sys.stderr)
'

summary=()
failed=0
t_all=$SECONDS
for suite in $suites; do
  t0=$SECONDS
  json="$out/$suite.json"
  rm -f "$json"
  echo "bench_baselines: suite $suite ..."
  timeout --signal=TERM --kill-after=15 "$limit" "$bin" --suite="$suite" "${quick[@]}" \
    --benchmark_out="$json" --benchmark_out_format=json "$@" >"$out/$suite.log" 2>&1
  rc=$?
  secs=$((SECONDS - t0))
  if [[ ! -s $json ]]; then
    summary+=("$suite: FAILED, exit $rc after ${secs}s, no JSON (log: $out/$suite.log)")
    tail -n 20 "$out/$suite.log"
    failed=1
    continue
  fi
  read -r total skipped < <(python3 -c "$count_py" "$json" 2>"$out/$suite.skipped")
  python3 "$root/scripts/bench_plot.py" --no-plot "$json" >"$out/$suite.md" 2>>"$out/$suite.log" ||
    echo "(bench_plot.py failed on $json)" >"$out/$suite.md"
  verdict=ok
  if ((rc != 0 || skipped != 0 || total == 0)); then
    verdict=FAILED
    failed=1
  fi
  summary+=("$suite: $verdict, exit $rc, ${secs}s, $total benchmarks, $((total - skipped)) checked and timed, $skipped skipped")
done

echo
for suite in $suites; do
  [[ -s $out/$suite.md ]] && { cat "$out/$suite.md"; echo; }
done
echo "## bench_baselines summary ($(basename "$bin"), $((SECONDS - t_all))s in all; logs and JSON in $out)"
for line in "${summary[@]}"; do echo "  $line"; done
for suite in $suites; do
  [[ -s $out/$suite.skipped ]] && cat "$out/$suite.skipped"
done
if ((failed)); then
  echo "bench_baselines: FAILED (see above)"
  exit 1
fi
echo "bench_baselines: every suite ran and every benchmark passed its check"
