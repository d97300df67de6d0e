#!/usr/bin/env bash
# On the GPU machine: build tessera_bench, run it, keep the Google Benchmark JSON (and the
# plots) in benchmark/results/ and in $OUT, and print the markdown tables last.
#
#   scripts/device_bench.sh                                # the default suites (llm, fp8, many), cold L2
#   scripts/device_bench.sh --suite=llm                    # one suite (-> *_llm.json)
#   scripts/device_bench.sh --suite=classic                # the row-major fp32/16-bit suite
#   scripts/device_bench.sh --hot                          # L2 not flushed (-> *_hot.json)
#   scripts/device_bench.sh --benchmark_filter='^llm_bf16/'  # a subset (-> *_subset.json)
#   scripts/device_bench.sh --reps=3 --target-ms=30        # quicker, noisier
# Every argument goes to tessera_bench (see benchmark/README.md for the suites and their
# expected run times).
#
# Environment: OUT (results and logs are copied there), TESSERA_BENCH_BUILD_DIR (default
# build/gpu, the gpu preset's), TESSERA_BENCH_BUDGET_S (wall-time budget of the whole
# script, build included; default 540), TESSERA_GIT_REV (recorded in the JSON when the
# tree has no .git), TESSERA_BENCH_RESULTS_DIR (default benchmark/results).
set -euo pipefail
t0=$SECONDS
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
budget=${TESSERA_BENCH_BUDGET_S:-540}
build=${TESSERA_BENCH_BUILD_DIR:-build/gpu}
logs=${OUT:-$root/build/bench-logs}
results=${TESSERA_BENCH_RESULTS_DIR:-benchmark/results}
mkdir -p "$logs" "$results"
say() { echo "device_bench [$((SECONDS - t0))s]: $*"; }

# ---- configure: the gpu preset (sm_90a only, HIP off) ------------------------------------
# The preset also configures the tests, which need Catch2; the GPU machine has none, so
# the single header is carried in .carry/catch2/catch.hpp.
cfg=(--preset gpu -B "$build" -DTESSERA_BUILD_BENCHMARKS=ON)
if [[ -f .carry/catch2/catch.hpp ]]; then
  cfg+=("-DTESSERA_CATCH2_INCLUDE_DIR=$root/.carry")
fi
say "configuring $build"
if ! cmake "${cfg[@]}" >"$logs/configure.log" 2>&1; then
  # Without Catch2 (or with a test directory that does not configure) the benchmark can
  # still be built: in a directory of its own, so the preset's cache stays as it was.
  say "configure failed (tail below); retrying without tests in $build-bench"
  tail -n 15 "$logs/configure.log"
  build="$build-bench"
  cmake --preset gpu -B "$build" -DTESSERA_BUILD_BENCHMARKS=ON -DTESSERA_BUILD_TESTS=OFF \
    -DTESSERA_BUILD_EXAMPLES=OFF >>"$logs/configure.log" 2>&1 ||
    { say "configure failed again:"; tail -n 30 "$logs/configure.log"; exit 1; }
fi
grep -E "Tessera: (benchmark|CUDA)" "$logs/configure.log" || true

# ---- build -----------------------------------------------------------------------------
say "building tessera_bench"
if ! cmake --build "$build" --target tessera_bench -j "$(nproc)" >"$logs/build.log" 2>&1; then
  say "build failed:"
  grep -E "error|Error" "$logs/build.log" | head -n 30 || tail -n 30 "$logs/build.log"
  exit 1
fi
bin="$build/benchmark/tessera_bench"
[[ -x $bin ]] || { say "no $bin: see $logs/configure.log (benchmarks skipped?)"; exit 1; }

# ---- run -------------------------------------------------------------------------------
dev=$("$bin" --device-name) || { say "tessera_bench found no usable GPU"; exit 2; }
suffix=""
for a in "$@"; do
  case $a in
    --hot) suffix="${suffix}_hot" ;;
    --suite=*) suffix="${suffix}_$(echo "${a#--suite=}" | tr ',' '-')" ;;
    --benchmark_filter=*) suffix="${suffix}_subset" ;;
  esac
done
[[ ${TESSERA_BENCH_HOT:-0} != 0 && $suffix != *_hot* ]] && suffix="_hot$suffix"
json="$results/${dev}_$(date +%F)${suffix}.json"
rev=${TESSERA_GIT_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [[ $rev != unknown ]] && ! git diff --quiet HEAD 2>/dev/null; then rev="$rev-dirty"; fi

# The card's state, for the notes (read-only queries).
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit \
  --format=csv >"$logs/nvidia-smi.csv" 2>&1 || true

left=$((budget - (SECONDS - t0)))
((left >= 60)) || left=60
say "running on $dev (budget ${left}s) -> $json"
set +e
timeout --signal=TERM --kill-after=15 "$left" "$bin" --benchmark_out="$json" \
  --benchmark_out_format=json --benchmark_context=git="$rev" "$@" 2>&1 | tee "$logs/bench.log"
rc=${PIPESTATUS[0]}
set -e
if ((rc == 124)); then
  say "tessera_bench ran past ${left}s and was stopped: the JSON is incomplete; use --suite, --reps/--target-ms or a filter"
fi
if ((rc != 0)); then
  say "tessera_bench exited with $rc (log: $logs/bench.log)"
fi

# ---- results ---------------------------------------------------------------------------
[[ -s $json ]] || { say "no results written"; exit 1; }
[[ -n ${OUT:-} ]] && cp "$json" "$OUT/"
if command -v python3 >/dev/null; then
  # Plots are best effort; the table needs only the standard library.
  python3 scripts/bench_plot.py "$json" >"$logs/table.md" 2>"$logs/plot.log" ||
    python3 scripts/bench_plot.py --no-plot "$json" >"$logs/table.md" ||
    say "bench_plot.py failed (see $logs/plot.log)"
  cat "$logs/plot.log" 2>/dev/null || true
  if [[ -n ${OUT:-} ]]; then
    cp "${json%.json}"_*.png "$OUT/" 2>/dev/null || true
  fi
  say "done in $((SECONDS - t0))s; results: $json${OUT:+ (and in \$OUT)}"
  echo
  cat "$logs/table.md"
else
  say "no python3: table not printed; results: $json"
fi
exit "$rc"
